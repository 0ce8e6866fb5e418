"""``dobbm study``: many deals solved, one result row per deal appended to a file (resumable)."""

from __future__ import annotations

from typing import Any

import click

from .._interrupt import exit_on_ctrl_c
from ..handfile import HandFileError
from .boundary import BadInput, exit_interrupted
from .options import CONTEXT, FILE, JOBS, QUIET, SCHEDULER, TT_MB
from .output import Progress, say


@click.command(context_settings=CONTEXT)
@click.argument("paths", nargs=-1, required=True, metavar="PATH...", type=FILE)
@click.option("-o", "--output", required=True, metavar="FILE", type=FILE,
              help="Result file, one row per deal: .jsonl/.json JSON lines, .csv CSV. "
                   "Deals already in it are skipped, so rerunning resumes. A file holding "
                   "anything but a study's rows is refused and left as it is; a link is "
                   "written through.")
@click.option("--mode", type=click.Choice(["value", "analyze"]), default="value", show_default=True,
              help="value: the declarer's points under best play; analyze: also the best card "
                   "and a best line.")
@JOBS
@SCHEDULER
@click.option("--limit", type=click.IntRange(0), metavar="N",
              help="Solve at most N deals not yet in FILE, then stop.")
@click.option("--skip-invalid", is_flag=True,
              help="Leave out files and deals that do not load (a warning each) instead of stopping.")
@TT_MB
@QUIET
def study(paths: tuple[str, ...], output: str, mode: str, jobs: int | None, scheduler: str | None,
          limit: int | None, skip_invalid: bool, tt_mb: int, quiet: bool) -> None:
    """Solve many deals: every deal of the hand files PATH... (directories are searched
    for *.yaml / *.yml) and one result row per deal appended to FILE.

    Each row has the deal's id (FILE#N) and a hash of its notation, the deal, declarer,
    contract, the declarer's trumps, the declarer's points, outcome and units, nodes and
    seconds. Rows are written whole as results come in (sort by id for deal order); a
    second run skips the deals already in FILE (by their content: the same deal under
    another path is one deal) and solves again those edited since. An advice view (a
    document with `me`) is no deal: it is left out with a note.
    The workers are processes. Ctrl-C stops at once: what is written stays, exit code 130.
    """
    with exit_on_ctrl_c():
        from ..study import StudyInterrupted, collect_deals, run_study
        from ..study.codecs import output_format

    def warn(e: ValueError) -> None:
        say(f"Warning: skipped: {e}")

    output_format(output)
    try:
        items: list[Any] = collect_deals(paths, on_invalid=warn if skip_invalid else None,
                                         on_view=None if quiet else lambda note: say(f"Note: {note}"))
    except HandFileError as e:   # a hand file's content, not a path that is not there
        if skip_invalid:
            raise
        raise BadInput(f"{e} (--skip-invalid leaves such deals out)") from None
    with Progress("solving", quiet) as bar:
        try:
            summary = run_study(items, output, mode=mode, jobs=jobs, scheduler=scheduler, tt_mb=tt_mb,
                                limit=limit, on_start=lambda s: bar.start(s.todo),
                                on_rows=lambda rows: bar.advance(len(rows)))
        except StudyInterrupted as e:
            bar.close()
            exit_interrupted(e.summary.text())
    if not quiet:
        say(summary.text())
