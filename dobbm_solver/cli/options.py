"""The options several commands share, each declared once here with one help text.

A command takes an option by its decorator (``@JSON``, ``@JOBS`` ...); no
command declares these options itself, so each means one thing everywhere.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import click

from ..echo import brief
from ..jobs import MAX_JOBS
from ..solver import DEFAULT_TT_MB, MAX_TT_MB, Solver
from .boundary import BadInput, FileName

__all__ = ["CONTEXT", "DEFAULT_SEED", "DEAL", "FILE", "HTML", "JOBS", "JSON", "NO_DIAGRAM", "QUIET", "SAMPLES",
           "SCHEDULER", "SEED", "TT_MB", "FiniteFloat", "open_solver"]

#: The context of every command: -h as --help, and help text up to 100 columns wide.
CONTEXT: dict[str, Any] = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
#: The type of every argument or option that names a file.
FILE = FileName()
#: The seed when none is given: the same command gives the same result.
DEFAULT_SEED = 1


if TYPE_CHECKING:   # generic from click 8.2 on; the package asks for 8.1 or later
    _IntParam = click.ParamType[int]
else:
    _IntParam = click.ParamType


class WholeNumber(_IntParam):
    """A whole number, 0 or more; anything else is one line of bad input (no usage text)."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        try:
            number = int(str(value), 10)
        except ValueError:
            number = -1
        if number < 0:
            name = param.opts[-1] if param is not None and param.opts else "the value"
            raise BadInput(f"{name} must be a whole number, 0 or more, not {brief(value)}")
        return number


class FiniteFloat(click.FloatRange):
    """A :class:`click.FloatRange` that refuses ``nan`` and the infinities (bad input,
    exit 2): what is computed from it is written as JSON, which has no such numbers."""

    name = "finite float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{brief(value)} is not a finite number.", param, ctx)
        return number


JOBS = click.option(
    "-j", "--jobs", type=click.IntRange(0, MAX_JOBS), default=None, metavar="N",
    help=f"Workers on this machine, 1 to {MAX_JOBS}; 0 or not given: one per core; 1: work in this "
         "process.  The results do not depend on it.")
SEED = click.option(
    "--seed", type=WholeNumber(), default=DEFAULT_SEED, show_default=True, metavar="N",
    help="Seed of every random choice (the deals dealt, the samples drawn), 0 or more: the same seed "
         "gives the same result, however many workers.")
JSON = click.option(
    "--json", "as_json", is_flag=True,
    help="JSON instead of text, as JSON lines: one JSON object per line, one per deal (arena, bench: one "
         "for the run); read it line by line, e.g. with jq or python -m json.tool --json-lines.")
NO_DIAGRAM = click.option(
    "--no-diagram", is_flag=True,
    help="Text without the diagram (the hands by suit; the tricks with running totals; the result split "
         "into tricks and lay-away or Dobb), which is shown by default; --json never has it.")
QUIET = click.option(
    "-q", "--quiet", is_flag=True,
    help="No progress bar and no summary on stderr (errors are still shown).")
SCHEDULER = click.option(
    "--scheduler", metavar="ADDRESS",
    help="Run on the Dask cluster at ADDRESS ([tcp://]HOST:PORT, e.g. tcp://host:8786) instead of local "
         "workers; needs pip install 'dobbm-solver[dask]'.")
DEAL = click.option(
    "--deal", "deal_lines", metavar="TEXT", multiple=True,
    help="A deal (or an advice view) in the one-line notation instead of a FILE; given more than once, "
         "each is taken, in order.")
HTML = click.option(
    "--html", "html_file", metavar="FILE", type=FILE,
    help="Also write the result as one self-contained HTML page to FILE (the hands, the tricks with each "
         "card's value, a control to step through the play; opens offline, prints on A4). A FILE that "
         "exists is written over only if it is a page dobbm wrote; any other is refused.")
TT_MB = click.option(
    "--tt-mb", type=click.IntRange(1, MAX_TT_MB), default=DEFAULT_TT_MB, show_default=True,
    help="Transposition table size in MiB (each worker has a table of its own).")
SAMPLES = click.option(
    "--samples", "-n", type=click.IntRange(2, 100000), default=None, metavar="N",
    help="Samples per option (default: adaptive, until the recommended option's points have a "
         "standard error of at most 1.5).")


def open_solver(tt_mb: int) -> Solver:
    """A solver with a table of ``tt_mb`` MiB (``--tt-mb``): one that this machine cannot
    allocate is one line, exit 1."""
    try:
        return Solver(tt_mb)
    except MemoryError as e:   # the table is allocated up front: too big for this machine
        raise click.ClickException(f"--tt-mb {tt_mb}: {e}; give a smaller table") from None
