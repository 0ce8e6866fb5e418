"""A study run: the options checked, the output prepared, the deals solved, a summary."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .._pool import JobsError, resolve_jobs
from ..solver import DEFAULT_TT_MB
from .collect import StudyDeal
from .dask_runner import dask_client, run_dask
from .errors import StudyError
from .local import auto_chunk, chunks, run_local
from .output import ResultFile
from .rows import check_mode

__all__ = ["StudySummary", "StudyInterrupted", "run_study"]


@dataclass
class StudySummary:
    """What a study did.  ``solved`` counts rows written by this run."""

    output: str
    total: int = 0                  # deals in the study
    skipped: int = 0                # already in the output (same id and hash)
    todo: int = 0                   # to solve in this run (after --limit)
    solved: int = 0                 # rows written by this run
    stale_dropped: int = 0          # rows of since-edited deals removed from the output
    truncated_dropped: bool = False  # a cut-short last line was dropped
    workers: int = 0
    where: str = "local"            # "local" or the scheduler address
    seconds: float = 0.0
    interrupted: bool = False
    output_read: bool = False       # the output was read (the counts above are known)

    @property
    def in_output(self) -> int:
        """Rows of this study's deals now in the output."""
        return self.skipped + self.solved

    def text(self) -> str:
        """One line for a person."""
        runner = (f"{self.workers} worker{'s' if self.workers != 1 else ''}"
                  + ("" if self.where == "local" else f" on {self.where}"))
        parts = [f"{self.total} deal{'s' if self.total != 1 else ''}"]
        if self.skipped:
            parts.append(f"{self.skipped} already in {self.output}")
        if self.todo or self.interrupted:
            parts.append(f"{self.solved} solved in {self.seconds:.1f} s ({runner})")
        else:
            parts.append("nothing left to solve")
        if self.stale_dropped:
            parts.append(f"{self.stale_dropped} stale row{'s' if self.stale_dropped != 1 else ''} replaced")
        if self.truncated_dropped:
            parts.append("a cut-short last line dropped")
        left = self.total - self.in_output
        if self.interrupted and not self.output_read:
            during = "" if self.where == "local" else f" (while connecting to {self.where})"
            return (f"interrupted before {self.output} was read{during}: nothing written; "
                    "run the same command again")
        if self.interrupted:
            return (f"interrupted: {', '.join(parts)}; {self.in_output} of {self.total} in "
                    f"{self.output}, {left} left: run the same command again to resume")
        tail = f"; {left} left (--limit)" if left else ""
        return f"study: {', '.join(parts)} -> {self.output}{tail}"


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C during a study; ``summary`` says how far it got (all its rows are written)."""

    def __init__(self, summary: StudySummary) -> None:
        super().__init__(summary.text())
        self.summary = summary


def _is_count(value: object, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _check_options(mode: str, jobs: int | None, scheduler: str | None, tt_mb: int,
                   limit: int | None, chunk_size: int | None) -> int | None:
    """A :class:`StudyError` for a bad option; the local worker processes (None with Dask)."""
    check_mode(mode)
    if jobs is not None and scheduler is not None:
        raise StudyError("give --jobs (local processes) or --scheduler (Dask), not both")
    try:
        workers = None if scheduler is not None else resolve_jobs(jobs)
    except JobsError as e:
        raise StudyError(str(e)) from None
    if limit is not None and not _is_count(limit, 0):
        raise StudyError(f"limit must be 0 or more, not {limit!r}")
    if not _is_count(tt_mb, 1):
        raise StudyError(f"table size must be a whole number of MiB, at least 1, not {tt_mb!r}")
    if chunk_size is not None and not _is_count(chunk_size, 1):
        raise StudyError(f"chunk size must be a whole number, at least 1, not {chunk_size!r}")
    return workers


def _unique(items: Sequence[StudyDeal]) -> list[StudyDeal]:
    """The items, the first of each id only; a :class:`StudyError` for an id that cannot
    be written as UTF-8 (a file name that is not UTF-8)."""
    ids: set[str] = set()
    unique: list[StudyDeal] = []
    for it in items:
        try:
            it.id.encode("utf-8")
        except UnicodeEncodeError:
            shown = it.id.encode("utf-8", "backslashreplace").decode("utf-8")
            raise StudyError(f"{shown}: the name is not UTF-8 text and cannot be written "
                             "to the output; rename the file") from None
        if it.id not in ids:
            ids.add(it.id)
            unique.append(it)
    return unique


def _plan(out: ResultFile, unique: list[StudyDeal], limit: int | None,
          summary: StudySummary) -> list[StudyDeal]:
    """Prepare the output; the deals to solve in this run (counted in ``summary``)."""
    done, summary.stale_dropped, summary.truncated_dropped = out.prepare(unique)
    summary.output_read = True
    todo = [it for it in unique if it.key not in done]
    summary.skipped = len(unique) - len(todo)
    if limit is not None:
        todo = todo[:limit]
    summary.todo = len(todo)
    return todo


def run_study(items: Sequence[StudyDeal], output: str | os.PathLike[str], *,
              mode: str = "value", jobs: int | None = None, scheduler: str | None = None,
              tt_mb: int = DEFAULT_TT_MB, limit: int | None = None,
              chunk_size: int | None = None,
              on_start: Callable[[StudySummary], None] | None = None,
              on_rows: Callable[[list[dict[str, Any]]], None] | None = None) -> StudySummary:
    """Solve the deals of ``items`` not yet in ``output`` and append their rows.

    ``jobs`` local worker processes (``None`` or 0: every core this process may
    use; at most 256), or the Dask cluster at ``scheduler``; ``limit`` solves
    at most that many new deals.
    ``on_start(summary)`` is called once the output is read (``summary.todo``
    deals to solve), ``on_rows(rows)`` after each chunk is written.  Raises
    :class:`StudyError` for bad options or output, :class:`StudyRunError`
    when the workers or Dask fail, :class:`StudyInterrupted` on Ctrl-C.
    """
    local_jobs = _check_options(mode, jobs, scheduler, tt_mb, limit, chunk_size)
    unique = _unique(items)
    t0 = time.perf_counter()
    out = ResultFile(output, mode)
    summary = StudySummary(output=str(output), total=len(unique),
                           where="local" if scheduler is None else scheduler)
    client = None
    try:
        if scheduler is not None:   # connect first: a bad address leaves the output alone
            client = dask_client(scheduler)
        todo = _plan(out, unique, limit, summary)
        if client is not None:
            summary.workers = max(1, sum(client.nthreads().values()))
        else:
            summary.workers = max(1, min(local_jobs or 1, len(todo) or 1))
        if on_start is not None:
            on_start(summary)
        if todo:
            parts = chunks(todo, chunk_size or auto_chunk(len(todo), summary.workers))

            def sink(rows: list[dict[str, Any]]) -> None:
                for row in rows:
                    out.write(row)
                    summary.solved += 1
                if on_rows is not None:
                    on_rows(rows)

            if client is not None:
                run_dask(client, parts, mode, tt_mb, sink)
            else:
                run_local(parts, mode, tt_mb, summary.workers, sink)
    except KeyboardInterrupt:
        summary.interrupted = True
        summary.seconds = time.perf_counter() - t0
        raise StudyInterrupted(summary) from None
    finally:
        out.close()
        if client is not None:
            try:
                client.close()
            except Exception:  # pragma: no cover
                pass
    summary.seconds = time.perf_counter() - t0
    return summary
