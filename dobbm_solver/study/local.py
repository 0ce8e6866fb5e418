"""The local runner: the chunks of a study on the shared worker pool of this machine."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Sequence

from .._pool import WorkerDied, WorkerPool
from .collect import StudyDeal
from .errors import StudyRunError
from .rows import solve_chunk

__all__ = ["Sink", "chunks", "auto_chunk", "run_local"]

#: Takes the rows of one chunk as they come in.
Sink = Callable[[list[dict[str, Any]]], None]


def chunks(items: Sequence[StudyDeal], size: int) -> list[list[StudyDeal]]:
    """The items in runs of ``size`` consecutive ones (the last may be shorter)."""
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def auto_chunk(n: int, workers: int) -> int:
    """About 16 chunks per worker, 1..16 deals each: even load, frequent progress."""
    return max(1, min(16, n // max(1, workers * 16)))


def run_local(parts: list[list[StudyDeal]], mode: str, tt_mb: int, workers: int, sink: Sink) -> None:
    """Solve the chunks on ``workers`` processes (in this process if 1) and pass each
    chunk's rows to ``sink``.  Ctrl-C stops at once (the workers are terminated)
    and raises ``KeyboardInterrupt``; a worker that dies raises :class:`StudyRunError`."""
    task = partial(solve_chunk, mode=mode, tt_mb=tt_mb)
    with WorkerPool(workers, tt_mb=tt_mb) as pool:
        try:
            for _, rows in pool.run(task, parts):
                sink(rows)
        except WorkerDied:
            raise StudyRunError(
                f"a worker process died (out of memory? each holds a {tt_mb} MiB table: "
                "try fewer --jobs or a smaller --tt-mb)") from None
        if pool.interrupted:
            raise KeyboardInterrupt
