"""``dobbm bid``, ``discard``, ``double`` and ``play``: advice from one seat's view, on sampled deals."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import click

from .._interrupt import exit_on_ctrl_c
from ..report.advice import advice_dict, advice_partial, advice_text
from .boundary import exit_interrupted
from .inputs import read_docs, view_of
from .options import CONTEXT, DEAL, FILE, JOBS, JSON, QUIET, SAMPLES, SEED
from .output import Progress, echo, echo_json

F = TypeVar("F", bound=Callable[..., Any])


def _analyze(command: str, file: str | None, deal_lines: tuple[str, ...], samples: int | None, seed: int,
             jobs: int | None, as_json: bool, quiet: bool, limit: int | None = 10,
             extra: dict[str, Any] | None = None) -> None:
    with exit_on_ctrl_c():
        from ..analyzer import analyze_bid, analyze_discard, analyze_double, analyze_play

    analyses: dict[str, Callable[..., Any]] = {"bid": analyze_bid, "discard": analyze_discard,
                                               "double": analyze_double, "play": analyze_play}
    run = analyses[command]
    views = []
    for doc in read_docs(() if file is None else (file,), deal_lines):
        views.append((doc.title, view_of(doc, command)))
    for n, (title, view) in enumerate(views):
        with Progress(f"{command}: solving samples", quiet) as bar:
            advice = run(view, samples=samples, seed=seed, jobs=jobs, progress=bar.reach, **(extra or {}))
        partial = advice_partial(advice)
        if partial:
            title += " [PARTIAL: interrupted]"
        if as_json:
            echo_json(advice_dict(advice))
        else:
            if n:
                echo("")
            echo(advice_text(advice, title, limit))
        if partial:
            exit_interrupted(f"{title}: interrupted: the estimates above rest on the samples solved so far")


def _advice_options(fn: F) -> F:
    for option in (QUIET, JSON, JOBS, SEED, SAMPLES, DEAL, click.argument("file", required=False, type=FILE)):
        fn = option(fn)
    return fn


@click.command(context_settings=CONTEXT)
@_advice_options
def bid(file: str | None, deal_lines: tuple[str, ...], samples: int | None, seed: int, jobs: int | None,
        as_json: bool, quiet: bool) -> None:
    """Pass, Dobbm or Solo? For `me` holding 8 cards before the bidding reaches them.

    The unseen cards are sampled consistent with the bids said so far (docs/methods.md: the bidding
    model), Dobbm (with a player's lay-away from the 12 cards) and Solo are solved on every
    sample, a pass by the game the others would then play against you, and the options ranked
    by expected units. The workers are threads.
    """
    _analyze("bid", file, deal_lines, samples, seed, jobs, as_json, quiet)


@click.command(context_settings=CONTEXT)
@_advice_options
@click.option("--all", "show_all", is_flag=True, help="Show every lay-away, not the top 10.")
def discard(file: str | None, deal_lines: tuple[str, ...], samples: int | None, seed: int, jobs: int | None,
            as_json: bool, quiet: bool, show_all: bool) -> None:
    """Which four cards to lay away? `me` declared Dobbm, holds the 8 dealt cards, `dobb` known.

    Every legal lay-away (Sau rule) is ranked by expected units on shared samples, the
    leaders getting more samples than the rest. The workers are threads.
    """
    _analyze("discard", file, deal_lines, samples, seed, jobs, as_json, quiet, None if show_all else 10)


@click.command(context_settings=CONTEXT)
@_advice_options
def double(file: str | None, deal_lines: tuple[str, ...], samples: int | None, seed: int, jobs: int | None,
           as_json: bool, quiet: bool) -> None:
    """Double (Schwacher) or play on? Retour or play on?

    As a defender after the declarer says "I lie", or as the declarer facing a Schwacher
    (`doublings: 1`): expected units both ways, with the declarer's hand sampled
    consistent with the contract chosen. The workers are threads.
    """
    _analyze("double", file, deal_lines, samples, seed, jobs, as_json, quiet)


@click.command(context_settings=CONTEXT)
@_advice_options
@click.option("--infer", is_flag=True,
              help="Read the play: weight each sample by how likely the cards played so far are under "
                   "the model of play (docs/methods.md); more solves.")
@click.option("--method", type=click.Choice(["pimc", "alphamu"]), default="pimc", show_default=True,
              help="pimc: every sample played with open cards; alphamu: the declarer's cards in tricks "
                   "1-3 by alpha-mu search, one strategy for all sampled worlds (-n: the worlds, "
                   "default 8; docs/methods.md).")
def play(file: str | None, deal_lines: tuple[str, ...], samples: int | None, seed: int, jobs: int | None,
         as_json: bool, quiet: bool, infer: bool, method: str) -> None:
    """Which card now? `me` is to play the next card; `tricks` holds the play so far.

    The unseen cards are sampled consistent with the bids, the lay-away rule, the cards
    played and the voids shown; every sample is solved with open cards, every legal card
    valued, and the cards ranked by expected units on the same samples. Open-card play of
    each sample flatters the side with guesses to make (strategy fusion). The workers
    are threads.
    """
    extra: dict[str, Any] = {"inference": infer}
    if method != "pimc":
        extra["method"] = method
    _analyze("play", file, deal_lines, samples, seed, jobs, as_json, quiet, None, extra)
