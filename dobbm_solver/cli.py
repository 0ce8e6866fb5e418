"""The ``dobbm`` command: a thin click layer over the library."""

from __future__ import annotations

import json
import sys
from typing import Callable, Iterable, TypeVar

import click

from . import __version__
from .deal import Deal
from .handfile import load_hand_file, load_stream
from .notation import parse_deal_line
from .report import analysis_dict, analysis_text, discards_dict, discards_text, solve_deal
from .solver import DEFAULT_TT_MB, Solver

T = TypeVar("T")
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class BadInput(click.ClickException):
    """Bad input: one line on stderr, exit code 2."""

    exit_code = 2


def _guard(fn: Callable[[], T]) -> T:
    """Run library code; its errors (all ValueError) become one clean line."""
    try:
        return fn()
    except ValueError as e:
        raise BadInput(str(e)) from None


def _read_deals(source: str | None, deal_line: str | None) -> list[tuple[str, Deal]]:
    if deal_line is not None:
        if source is not None:
            raise BadInput("give a FILE or --deal, not both")
        return [("--deal", _guard(lambda: parse_deal_line(deal_line)))]
    if source is None:
        raise BadInput("give a hand FILE, '-' for standard input, or --deal \"...\"")
    deals = _guard(lambda: load_stream(sys.stdin, "<stdin>") if source == "-" else load_hand_file(source))
    name = "<stdin>" if source == "-" else source
    if len(deals) == 1:
        return [(name, deals[0])]
    return [(f"{name}[{i}]", d) for i, d in enumerate(deals, 1)]


def _progress(items: list[T], quiet: bool, label: str) -> Iterable[T]:
    """A progress bar on stderr for several items, silent when stderr is no terminal."""
    if quiet or len(items) < 2 or not sys.stderr.isatty():
        return items
    return click.progressbar(items, label=label, file=sys.stderr)  # type: ignore[return-value]


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="dobbm")
def main() -> None:
    """Double-dummy solver and hand analyzer for Dobbm, the Tarock game of the Stubai valley.

    Hand files are YAML (one deal per document); see README for the keys and the
    one-line deal notation.
    """


@main.command(context_settings=CONTEXT)
@click.argument("file", required=False)
@click.option("--deal", "deal_line", metavar="TEXT", help="A deal in the one-line notation instead of a FILE.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per deal, one per line.")
@click.option("--all", "show_all", is_flag=True, help="Discard study: show every lay-away, not the top 10.")
@click.option("--tt-mb", type=click.IntRange(1, 65536), default=DEFAULT_TT_MB, show_default=True,
              help="Transposition table size in MiB.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def solve(file: str | None, deal_line: str | None, as_json: bool, show_all: bool, tt_mb: int, quiet: bool) -> None:
    """Solve each deal of FILE ('-': standard input) with open cards.

    Prints the declarer's points under best play, the outcome and payment, the value of
    every legal card for the player to move, and the best line trick by trick. A Dobbm
    with a `dobb` and no `discard` is a discard study: every legal lay-away is solved and
    ranked, and the best one analysed.
    """
    deals = _read_deals(file, deal_line)
    try:
        solver = _guard(lambda: Solver(tt_mb))
    except MemoryError as e:  # the table is allocated up front: too big for this machine
        raise click.ClickException(f"--tt-mb {tt_mb}: {e}; give a smaller table") from None
    first = True
    for title, deal in _progress(deals, quiet, "solving"):
        played, an, studied = _guard(lambda: solve_deal(solver, deal))
        if as_json:
            obj = analysis_dict(played, an)
            if studied is not None:
                obj["discards"] = discards_dict(studied)
            click.echo(json.dumps(obj))
        else:
            if not first:
                click.echo()
            first = False
            click.echo(analysis_text(played, an, title))
            if studied is not None:
                click.echo(discards_text(studied, None if show_all else 10))


if __name__ == "__main__":  # pragma: no cover
    main()
