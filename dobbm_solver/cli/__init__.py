"""The ``dobbm`` command: a thin click layer over the library.

One module per command (or close family); :mod:`.options` declares the options
they share, :mod:`.boundary` turns errors and Ctrl-C into one line and an exit
code, :mod:`.output` writes what they print, :mod:`.inputs` reads hand files
and ``--deal`` lines, and ``dobbm_solver.report`` renders the results.
"""

from __future__ import annotations

from .._interrupt import exit_on_ctrl_c

with exit_on_ctrl_c(until_released=True) as loading:   # Ctrl-C while the command loads: exit 130
    import click

    from .. import __version__
    from . import advice, arena, bench, check, deal, explore, practice, review, score, serve, solve, study
    from .boundary import DobbmGroup, command_runs
    from .options import CONTEXT

__all__ = ["main"]


@click.group(cls=DobbmGroup, context_settings=CONTEXT, loading=loading)
@click.version_option(__version__, "--version", prog_name="dobbm")
def main() -> None:
    """Double-dummy solver and hand analyzer for Dobbm, the Tarock game of the Stubai valley.

    Hand files are YAML, one deal per document (see docs/formats.md for the keys and the one-line
    deal notation). Points are always the declarer's final points (0..120); units are what
    each defender pays the declarer (negative: what the declarer pays each).

    \b
    Examples:
      dobbm solve hands/example.yaml            exact best play with open cards
      dobbm solve --json hands/midplay.yaml     the same as JSON lines
      dobbm solve hands/discard_study.yaml      rank every lay-away with open cards
      dobbm bid hands/bid.yaml                  pass, Dobbm or Solo from your own cards
      dobbm discard hands/discard.yaml          which four cards to lay away
      dobbm double hands/double.yaml            Schwacher or play on
      dobbm play hands/play.yaml                which card now, from your own view
      dobbm check hands/example.yaml            validate and normalise a hand file
      dobbm score hands/finished.yaml           score a finished hand, revokes charged
      dobbm review hands/played.yaml            what each card played cost, with open cards
      dobbm explore hands/played.yaml           step through a deal card by card, try other cards
      dobbm practice --hands 4 --save s.yaml    play a seat against the computer, reviewed after each hand
      dobbm study hands/benchmark.yaml -o out.jsonl   many deals, all cores, resumable
      dobbm arena advice rule --deals 20        self-play with hidden cards, paired
      dobbm bench --check                       the search's signature and speed, for CI
      dobbm deal --count 10 --trumps forehand:5-8   practice deals to a rule
      dobbm serve                               explore deals in the browser (pip install '.[web]')

    Bad input: one line on stderr and exit code 2; other failures exit 1; Ctrl-C 130.
    """


for _command in (solve.solve, check.check, score.score, review.review, study.study, advice.bid,
                 advice.discard, advice.double, advice.play, arena.arena, explore.explore, bench.bench,
                 deal.deal, practice.practice, serve.serve):
    main.add_command(_command)

if not command_runs(__name__):   # imported as a library: Ctrl-C as it was (else see DobbmGroup.invoke)
    loading.release()
