"""The ``dobbm`` command: a thin click layer over the library."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable, TypeVar

from ._interrupt import EXIT_INTERRUPTED, exit_on_ctrl_c, hold_ctrl_c

with exit_on_ctrl_c(until_released=True) as loading:   # Ctrl-C while this module loads: exit 130
    import click

    from . import __version__
    from ._cli_io import (
        BadInput,
        clean_error,
        deal_of,
        echo,
        guard,
        guard_doc,
        progress,
        read_deals,
        read_doc_deals,
        read_docs,
    )
    from ._pool import MAX_JOBS
    from .errors import DobbmError, DobbmRuntimeError
    from .handfile import HandFileError
    from .notation import format_deal_line, format_spec_line
    from .report import (
        advice_dict,
        advice_partial,
        advice_text,
        check_dict,
        check_text,
        check_view_dict,
        check_view_text,
        score_dict,
        score_text,
        solve_dict,
        solve_text,
    )
    from .scoring import score_hand
    from .solver import DEFAULT_TT_MB, MAX_TT_MB, Solver

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
#: ``--jobs`` of every command that has it: one meaning (``_pool.resolve_jobs``), one text.
JOBS_OPTION = click.option(
    "-j", "--jobs", type=click.IntRange(0, MAX_JOBS), default=None, metavar="N",
    help=f"Workers on this machine (threads for bid, discard, double and play; processes for "
         f"study), 1 to {MAX_JOBS}; 0 or not given: one per core; 1: work in this process.  "
         "The results do not depend on it.")

#: ``--deal`` of the commands that read one FILE.
DEAL_OPTION = click.option("--deal", "deal_line", metavar="TEXT",
                           help="A deal in the one-line notation instead of a FILE.")
#: ``--json`` of the commands that print one JSON line per deal.
JSON_LINES_OPTION = click.option("--json", "as_json", is_flag=True, help="One JSON object per deal, one per line.")


def tt_mb_option(per: str = "") -> Callable[[F], F]:
    """``--tt-mb``, the transposition table size (``per``: whose table, e.g. ``", per worker"``)."""
    return click.option("--tt-mb", type=click.IntRange(1, MAX_TT_MB), default=DEFAULT_TT_MB, show_default=True,
                        help=f"Transposition table size in MiB{per}.")



def _the_command_runs() -> bool:
    """Whether this process is the ``dobbm`` command (its script, or python -m dobbm_solver.cli)."""
    main_file = getattr(sys.modules.get("__main__"), "__file__", None) or ""
    return __name__ == "__main__" or Path(main_file).name.startswith("dobbm")


class _Group(click.Group):
    """Ctrl-C anywhere: one line and exit code 130 (what was printed stays whole).
    A library error raised outside a :func:`guard` is still one clean line."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # the process's entry point (the ``dobbm`` script, python -m): its exit status
        # after Ctrl-C is 130 (see _interrupt.hold_ctrl_c); CliRunner calls main()
        try:
            return self.main(*args, **kwargs)
        except SystemExit as e:
            if e.code == EXIT_INTERRUPTED:
                hold_ctrl_c()
            raise

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:   # Ctrl-C while the command line is read: as during the command
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            loading.release()   # Ctrl-C ended the process at once until here; now it is caught
            return super().invoke(ctx)
        except (DobbmError, DobbmRuntimeError) as e:
            raise clean_error(e) from None
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            ctx.exit(EXIT_INTERRUPTED)


@click.group(cls=_Group, context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="dobbm")
def main() -> None:
    """Double-dummy solver and hand analyzer for Dobbm, the Tarock game of the Stubai valley.

    Hand files are YAML, one deal per document (see README for the keys and the one-line
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
      dobbm study hands/benchmark.yaml -o out.jsonl   many deals, all cores, resumable
      dobbm arena advice rule --deals 20        self-play with hidden cards, paired

    Bad input: one line on stderr and exit code 2; other failures exit 1; Ctrl-C 130.
    """


@main.command(context_settings=CONTEXT)
@click.argument("files", nargs=-1, metavar="[FILE]...")
@click.option("--deal", "deal_line", metavar="TEXT", help="A deal in the one-line notation instead of FILEs.")
@click.option("--json", "as_json", is_flag=True,
              help="JSON lines: one JSON object per deal, one per line (not one JSON document; "
                   "read it line by line, e.g. jq or python -m json.tool --json-lines).")
@click.option("--all", "show_all", is_flag=True, help="Discard study: show every lay-away, not the top 10.")
@tt_mb_option()
@click.option("--no-diagram", is_flag=True,
              help="Text without the diagram (the hands by suit as held now, the cards already played "
                   "left out; the tricks played and the best line with running totals; the result split "
                   "into tricks and lay-away or Dobb). The diagram is shown by default, for every deal; "
                   "--json never has it.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def solve(files: tuple[str, ...], deal_line: str | None, as_json: bool, show_all: bool, tt_mb: int,
          no_diagram: bool, quiet: bool) -> None:
    """Solve each deal of the FILEs ('-': standard input) with open cards.

    Prints the declarer's points under best play, the outcome and payment, the value of
    every legal card for the player to move, and the best line trick by trick. A Dobbm
    with a `dobb` and no `discard` is a discard study: every legal lay-away is solved and
    ranked, and the best one analysed (named on the line "lay-away analysed", and as
    `discard` in JSON). Each JSON object has the deal's `id` (FILE#N, as `study` writes it).
    All FILEs are read and checked before the first solve.
    """
    deals = read_doc_deals(files, deal_line)
    try:
        solver = guard(lambda: Solver(tt_mb))
    except MemoryError as e:  # the table is allocated up front: too big for this machine
        raise click.ClickException(f"--tt-mb {tt_mb}: {e}; give a smaller table") from None
    first = True
    for doc, deal in progress(deals, quiet, "solving"):
        best = guard_doc(doc, lambda: solver.solve_best(deal, analyze=True))
        if as_json:
            echo(json.dumps(solve_dict(best, doc.ident)))
        else:
            if not first:
                click.echo()
            first = False
            echo(solve_text(best, doc.title, None if show_all else 10, not no_diagram))


@main.command(context_settings=CONTEXT)
@click.argument("file", required=False)
@DEAL_OPTION
@JSON_LINES_OPTION
@click.option("--line", "line_only", is_flag=True, help="Only the one-line notation of each deal.")
@click.option("--no-diagram", is_flag=True,
              help="Text without the diagram (the hands by suit, held now, and the tricks so far with "
                   "running totals, as YAML comments after each deal; not for views). The diagram is shown "
                   "by default, for every deal; --json never has it.")
def check(file: str | None, deal_line: str | None, as_json: bool, line_only: bool, no_diagram: bool) -> None:
    """Validate the deals of FILE and print them back normalised.

    Cards are sorted trumps first, high to low; each deal is printed as YAML and in the
    one-line notation, then in the dealt form (`dealt:`, the 8 cards each seat was dealt)
    as a comment. A document with `me` is an advice view: it is checked as a view
    for the command it fits (bid, discard or double; see README) and printed back the
    same way.
    """
    docs = read_docs(() if file is None else (file,), deal_line)
    for n, doc in enumerate(docs):
        if doc.spec.me is not None:
            from .analyzer import make_view
            from .analyzer.checks import view_command

            command = view_command(doc.spec)
            spec = guard_doc(doc, lambda: make_view(doc.spec, command)).spec()
            obj, line, text = (lambda: check_view_dict(spec, command), lambda: format_spec_line(spec),
                               lambda: check_view_text(spec, command, doc.title))
        else:
            deal = deal_of(doc)
            obj, line, text = (lambda: check_dict(deal), lambda: format_deal_line(deal),
                               lambda: check_text(deal, doc.title, not no_diagram))
        if as_json:
            echo(json.dumps(obj()))
        elif line_only:
            echo(line())
        else:
            if n:
                click.echo("---")
            echo(text())


@main.command(context_settings=CONTEXT)
@click.argument("file", required=False)
@DEAL_OPTION
@JSON_LINES_OPTION
@click.option("--match-cost", type=click.FloatRange(min=0), metavar="MONEY",
              help="Also show payments in money, a match (12 units) costing MONEY.")
@click.option("--no-diagram", is_flag=True,
              help="Text without the diagram (the hands by suit, at the opening lead, the tricks with "
                   "running totals, the result split into tricks and lay-away or Dobb). The diagram is shown "
                   "by default, for every deal; --json never has it.")
def score(file: str | None, deal_line: str | None, as_json: bool, match_cost: float | None,
          no_diagram: bool) -> None:
    """Score finished hands: all 8 tricks in `tricks`, hands empty.

    Prints each side's points, the outcome and every player's payment in units (and in
    money with --match-cost). Revokes are found and charged as the rule book says: the
    hand is void and the offending side pays half a match times the multipliers to each
    opponent.
    """
    deals = read_doc_deals(() if file is None else (file,), deal_line, allow_revokes=True)
    scores = [guard_doc(doc, lambda: score_hand(deal)) for doc, deal in deals]   # all, before printing
    for n, ((doc, deal), sc) in enumerate(zip(deals, scores)):
        if as_json:
            echo(json.dumps(score_dict(deal, sc, match_cost)))
        else:
            if n:
                click.echo()
            echo(score_text(deal, sc, doc.title, match_cost, not no_diagram))


@main.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("-o", "--output", required=True, metavar="FILE",
              help="Result file, one row per deal: .jsonl/.json JSON lines, .csv CSV. "
                   "Deals already in it are skipped, so rerunning resumes. A file holding "
                   "anything but a study's rows is refused and left as it is; a link is "
                   "written through.")
@click.option("--mode", type=click.Choice(["value", "analyze"]), default="value", show_default=True,
              help="value: the declarer's points under best play; analyze: also the best card "
                   "and a best line.")
@JOBS_OPTION
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on the Dask cluster at ADDRESS ([tcp://]HOST:PORT, e.g. tcp://host:8786) instead; "
                   "needs pip install 'dobbm-solver[dask]'.")
@click.option("--limit", type=click.IntRange(0), metavar="N",
              help="Solve at most N deals not yet in FILE, then stop.")
@click.option("--skip-invalid", is_flag=True,
              help="Leave out files and deals that do not load (a warning each) instead of stopping.")
@tt_mb_option(", per worker")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary line.")
def study(paths: tuple[str, ...], output: str, mode: str, jobs: int | None, scheduler: str | None,
          limit: int | None, skip_invalid: bool, tt_mb: int, quiet: bool) -> None:
    """Solve many deals: every deal of the hand files PATH... (directories are searched
    for *.yaml / *.yml) and one result row per deal appended to FILE.

    Each row has the deal's id (FILE#N) and a hash of its notation, the deal, declarer,
    contract, the declarer's trumps, the declarer's points, outcome and units, nodes and
    seconds. Rows are written whole as results come in (sort by id for deal order); a
    second run skips the deals already in FILE and solves again those edited since.
    Ctrl-C stops at once: what is written stays, exit code 130.
    """
    import contextlib

    with exit_on_ctrl_c():
        from .study import StudyInterrupted, collect_deals, output_format, run_study

    def warn(e: ValueError) -> None:
        click.echo(f"Warning: skipped: {e}", err=True)

    def collect() -> list[Any]:
        try:
            return collect_deals(paths, on_invalid=warn if skip_invalid else None)
        except HandFileError as e:   # a hand file's content, not a path that is not there
            if skip_invalid:
                raise
            raise BadInput(f"{e} (--skip-invalid leaves such deals out)") from None

    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def start(summary: Any) -> None:
            if not quiet and summary.todo >= 2 and sys.stderr.isatty():
                bars.append(stack.enter_context(
                    click.progressbar(length=summary.todo, label="solving", file=sys.stderr)))

        def advance(rows: list[Any]) -> None:
            if bars:
                bars[0].update(len(rows))

        try:
            guard(lambda: output_format(output))
            items = guard(collect)
            summary = guard(lambda: run_study(
                items, output, mode=mode, jobs=jobs, scheduler=scheduler, tt_mb=tt_mb,
                limit=limit, on_start=start, on_rows=advance))
        except StudyInterrupted as e:
            stack.close()
            click.echo(f"\n{e.summary.text()}", err=True)
            sys.exit(130)
        except KeyboardInterrupt:
            stack.close()
            click.echo("\ninterrupted: nothing written", err=True)
            sys.exit(130)
    if not quiet:
        click.echo(summary.text(), err=True)


def _analyze(command: str, file: str | None, deal_line: str | None, samples: int | None, seed: int | None,
             jobs: int | None, as_json: bool, quiet: bool, limit: int | None = 10) -> None:
    with exit_on_ctrl_c():
        from .analyzer import analyze_bid, analyze_discard, analyze_double, analyze_play, make_view

    run = {"bid": analyze_bid, "discard": analyze_discard, "double": analyze_double, "play": analyze_play}[command]
    views = [(doc.title, guard_doc(doc, lambda: make_view(doc.spec, command)))
             for doc in read_docs(() if file is None else (file,), deal_line)]
    for n, (title, view) in enumerate(views):
        bar = None
        if not quiet and sys.stderr.isatty():
            bar = click.progressbar(length=1, label=f"{command}: solving samples", file=sys.stderr)
        state = {"done": 0}

        def progress(done: int, total: int) -> None:
            if bar is not None:
                bar.length = max(total, 1)
                bar.update(done - state["done"])
            state["done"] = done

        try:
            if bar is not None:
                bar.__enter__()
            advice = guard(lambda: run(view, samples=samples, seed=seed, jobs=jobs, progress=progress))
        except KeyboardInterrupt:
            click.echo(f"{title}: interrupted after {state['done']} solves; no advice", err=True)
            sys.exit(130)
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
        partial = advice_partial(advice)
        if partial:
            title += " [PARTIAL: interrupted]"
        if as_json:
            echo(json.dumps(advice_dict(advice)))
        else:
            if n:
                click.echo()
            echo(advice_text(advice, title, limit))
        if partial:
            click.echo(f"{title}: interrupted: the estimates above rest on the samples solved so far",
                       err=True)
            sys.exit(130)


def _analyzer_options(fn: F) -> F:
    fn = click.option("-q", "--quiet", is_flag=True, help="No progress bar.")(fn)
    fn = click.option("--json", "as_json", is_flag=True, help="One JSON object per deal.")(fn)
    fn = JOBS_OPTION(fn)
    fn = click.option("--seed", type=click.IntRange(min=0), default=None,
                      help="Seed for reproducible sampling (default: random, and reported).")(fn)
    fn = click.option("--samples", "-n", type=click.IntRange(2, 100000), default=None,
                      help="Samples per option (default: adaptive, until the recommended "
                           "option's points have a standard error of at most 1.5).")(fn)
    fn = click.option("--deal", "deal_line", metavar="TEXT",
                      help="The view in the one-line notation instead of a FILE.")(fn)
    fn = click.argument("file", required=False)(fn)
    return fn


@main.command(context_settings=CONTEXT)
@_analyzer_options
def bid(file: str | None, deal_line: str | None, samples: int | None, seed: int | None, jobs: int | None,
        as_json: bool, quiet: bool) -> None:
    """Pass, Dobbm or Solo? For `me` holding 8 cards before the bidding reaches them.

    The unseen cards are sampled consistent with the bids said so far (README: bidding
    model), Dobbm (with a player's lay-away from the 12 cards) and Solo are solved on every
    sample, and the options ranked by expected units.
    """
    _analyze("bid", file, deal_line, samples, seed, jobs, as_json, quiet)


@main.command(context_settings=CONTEXT)
@_analyzer_options
@click.option("--all", "show_all", is_flag=True, help="Show every lay-away, not the top 10.")
def discard(file: str | None, deal_line: str | None, samples: int | None, seed: int | None, jobs: int | None,
            as_json: bool, quiet: bool, show_all: bool) -> None:
    """Which four cards to lay away? `me` declared Dobbm, holds the 8 dealt cards, `dobb` known.

    Every legal lay-away (Sau rule) is ranked by expected units on shared samples, the
    leaders getting more samples than the rest.
    """
    _analyze("discard", file, deal_line, samples, seed, jobs, as_json, quiet, None if show_all else 10)


@main.command(context_settings=CONTEXT)
@_analyzer_options
def double(file: str | None, deal_line: str | None, samples: int | None, seed: int | None, jobs: int | None,
           as_json: bool, quiet: bool) -> None:
    """Double (Schwacher) or play on? Retour or play on?

    As a defender after the declarer says "I lie", or as the declarer facing a Schwacher
    (`doublings: 1`): expected units both ways, with the declarer's hand sampled
    consistent with the contract chosen.
    """
    _analyze("double", file, deal_line, samples, seed, jobs, as_json, quiet)


@main.command(context_settings=CONTEXT)
@_analyzer_options
def play(file: str | None, deal_line: str | None, samples: int | None, seed: int | None, jobs: int | None,
         as_json: bool, quiet: bool) -> None:
    """Which card now? `me` is to play the next card; `tricks` holds the play so far.

    The unseen cards are sampled consistent with the bids, the lay-away rule, the cards
    played and the voids shown; every sample is solved with open cards, every legal card
    valued, and the cards ranked by expected units on the same samples. Open-card play of
    each sample flatters the side with guesses to make (strategy fusion).
    """
    _analyze("play", file, deal_line, samples, seed, jobs, as_json, quiet, None)


@main.command(context_settings=CONTEXT)
@click.argument("file", required=False)
@DEAL_OPTION
@JSON_LINES_OPTION
@tt_mb_option()
@click.option("--no-diagram", is_flag=True,
              help="Text without the diagram (the hands by suit, at the opening lead, before the tricks; the "
                   "trick table then has running totals and the result split). The diagram is shown by "
                   "default, for every deal; --json never has it.")
def review(file: str | None, deal_line: str | None, as_json: bool, tt_mb: int, no_diagram: bool) -> None:
    """Review a played hand card by card with open cards.

    FILE gives `hands` as held now and `tricks` as played (any number, the last maybe
    unfinished). For every card: the declarer's points under best play before and after it, what it
    cost its side, and the best cards instead. Then each player's losses in points and
    units, and the first card that changed the result. A hand with no trick played has
    nothing to review (it says so); a revoke in the tricks is an error.
    """
    from .report.review import review_dict, review_text
    from .review import review_hand

    deals = read_deals(file, deal_line)
    try:
        solver = guard(lambda: Solver(tt_mb))
    except MemoryError as e:  # the table is allocated up front: too big for this machine
        raise click.ClickException(f"--tt-mb {tt_mb}: {e}; give a smaller table") from None
    for n, (title, deal) in enumerate(deals):
        try:
            result = review_hand(solver, deal)
        except DobbmError as e:   # the deal loaded, but has no play to review
            raise BadInput(f"{title}: {e}") from None
        if as_json:
            echo(json.dumps(review_dict(result)))
        else:
            if n:
                click.echo()
            echo(review_text(result, title, not no_diagram))


@main.command(context_settings=CONTEXT)
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--deals", "-n", type=int, default=20, show_default=True, help="Deals to play, 1 or more.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the deals (0 or more): the same seed deals the same cards.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: deals, difference, per_decision ...")
@click.option("-o", "--output", metavar="FILE",
              help="Rows, one per deal, as JSON lines. Deals already in FILE are skipped, so rerunning "
                   "resumes; a file the arena did not write (or wrote with other settings) is refused.")
@click.option("-j", "--jobs", type=click.IntRange(0, 256), metavar="N",
              help="Local worker processes, at most 256; 0: all cores, 1: in this process.  "
                   "[default: all cores]")
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on the Dask cluster at ADDRESS ([tcp://]HOST:PORT) instead; "
                   "needs pip install 'dobbm-solver[dask]'.")
@click.option("--per-decision", is_flag=True,
              help="Also swap one decision's strategy at a time (A with B's bid, ...) to see what "
                   "each decision is worth; more tables per deal.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def arena(a: str, b: str, deals: int, seed: int, as_json: bool, output: str | None, jobs: int | None,
          scheduler: str | None, per_decision: bool, quiet: bool) -> None:
    """Play seeded deals end to end with hidden cards: player A against player B.

    A player is a strategy for every decision (rule, advice or open), or one per
    decision: 'advice,play=rule' or 'bid=advice,discard=rule,double=rule,play=rule'.
    Each deal is played duplicate-style: A in each seat in turn at a table of B's,
    paired with the table of four B's on the same cards. Printed: each player's units
    a hand (each seat's own settlement) and A - B with standard errors over the deals.
    All pass: the hand counts 0. Ctrl-C stops: the rows written stay, exit code 130.
    """
    import contextlib

    from .arena import ArenaConfig, check_arena, parse_player, run_arena, summarize
    from .report.arena import arena_dict, arena_text

    config = guard(lambda: ArenaConfig(parse_player(a), parse_player(b), seed, per_decision))
    guard(lambda: check_arena(deals, seed))
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []
        if not quiet and deals >= 2 and sys.stderr.isatty():
            bars.append(stack.enter_context(click.progressbar(length=deals, label="arena", file=sys.stderr)))
        run = guard(lambda: run_arena(config, deals, output, jobs,
                                       on_row=(lambda row: bars[0].update(1)) if bars else None,
                                       scheduler=scheduler))
    summary = summarize(run.rows, config)
    if as_json:
        click.echo(json.dumps(arena_dict(summary, run)))
    else:
        click.echo(arena_text(summary, run))
    if run.interrupted:
        click.echo(f"interrupted: {len(run.rows)} of {deals} deals done"
                   f"{'; the rows written stay in ' + output if output else ''}", err=True)
        sys.exit(130)


if not _the_command_runs():   # imported as a library: Ctrl-C as it was (else see _Group.invoke)
    loading.release()

if __name__ == "__main__":  # pragma: no cover
    main()
