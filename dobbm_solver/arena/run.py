"""Running an arena: N seeded deals, each played at every table of the duplicate plan.

    >>> config = ArenaConfig(parse_player("advice"), parse_player("rule"), seed=1)
    >>> run = run_arena(config, deals=20, output="arena.jsonl", jobs=2)
    >>> summary = summarize(run.rows, config)

Deals are independent work items on the shared worker pool (``jobs`` as
everywhere: None or 0 all cores, 1 in this process).  A deal's row depends
only on the seed and its index, never on ``jobs`` or on which worker ran it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, TextIO

from .._pool import WorkerPool, resolve_jobs, worker_solver
from ..cards import cards_text
from ..errors import DobbmRuntimeError
from .cluster import run_on_cluster
from .decisions import Env
from .duplicate import play_deal
from .game import deal_board
from .rows import open_for_rows, read_rows, write_line
from .strategies import ARENA_SAMPLES, ArenaError, ArenaSamples, Player

#: The most deals one run may ask for.
MAX_DEALS = 1_000_000


@dataclass(frozen=True)
class ArenaConfig:
    """What an arena compares: player ``a`` against ``b`` on deals seeded ``seed``."""

    a: Player
    b: Player
    seed: int
    per_decision: bool = False
    samples: ArenaSamples = ARENA_SAMPLES

    def settings(self) -> dict[str, Any]:
        """What a result file's header holds: a rerun must match it."""
        return {"a": self.a.name, "b": self.b.name, "seed": self.seed, "per_decision": self.per_decision,
                "samples": self.samples.as_dict(), "version": 1}


@dataclass
class ArenaRun:
    """The rows of a run (deal order), how many were already in the file, whether
    Ctrl-C stopped it, and its wall-clock seconds."""

    rows: list[dict[str, Any]]
    resumed: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    jobs: int = 1
    played: list[int] = field(default_factory=list)
    scheduler: str | None = None

    @property
    def where(self) -> str:
        """Where the deals were played: ``2 jobs``, or the Dask scheduler's address."""
        if self.scheduler is not None:
            return f"the Dask cluster at {self.scheduler}"
        return f"{self.jobs} job{'s' if self.jobs != 1 else ''}"


def check_arena(deals: int, seed: int) -> None:
    """:class:`ArenaError` unless ``deals`` is 1..MAX_DEALS and ``seed`` 0 or more."""
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise ArenaError(f"--deals must be a whole number from 1 to {MAX_DEALS}, not {deals!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ArenaError(f"--seed must be a whole number, 0 or more, not {seed!r}")


def arena_deal(config: ArenaConfig, index: int) -> dict[str, Any]:
    """One deal's row: the cards dealt and every table's result (a pool task)."""
    board = deal_board(config.seed, index)
    env = Env(worker_solver(), config.samples)
    tables = play_deal(board, env, config.a, config.b, config.per_decision)
    return {"deal": index, "seed": config.seed,
            "hands": {s: cards_text(h) for s, h in board.hands.items()},
            "dobb": cards_text(board.dobb), "tables": tables}


class ArenaWriteError(DobbmRuntimeError):
    """A row that could not be written (a full disk, say): the rows before it stay."""


def _open(output: str, settings: dict[str, Any]) -> TextIO:
    try:
        return open_for_rows(output, settings)
    except OSError as e:
        raise ArenaError(f"--output {output}: cannot be written ({e.strerror or e})") from None


def _write(f: TextIO, output: str | None, row: dict[str, Any]) -> None:
    try:
        write_line(f, row)
    except OSError as e:
        raise ArenaWriteError(f"--output {output}: writing a row failed ({e.strerror or e}); "
                              f"the rows before it stay") from None


def run_arena(config: ArenaConfig, deals: int, output: str | None = None, jobs: int | None = None,
              on_row: Callable[[dict[str, Any]], None] | None = None, scheduler: str | None = None) -> ArenaRun:
    """Play deals ``0 .. deals-1`` (those not yet in ``output``), writing each row to
    ``output`` as it completes; the rows of all ``deals`` in deal order.  ``scheduler``:
    the address of a Dask scheduler to run on instead of local workers (``jobs`` is then unused)."""
    check_arena(deals, config.seed)
    n_jobs = resolve_jobs(jobs)
    done: dict[int, dict[str, Any]] = {}
    settings = config.settings()
    if output is not None:
        done = {i: r for i, r in read_rows(output, settings).items() if i < deals}
    todo = [i for i in range(deals) if i not in done]
    run = ArenaRun([], resumed=len(done), jobs=n_jobs, scheduler=scheduler)
    t0 = time.perf_counter()
    f = _open(output, settings) if output is not None and todo else None
    task = partial(arena_deal, config)

    def take(index: int, row: dict[str, Any]) -> None:
        if f is not None:
            _write(f, output, row)
        done[index] = row
        run.played.append(index)
        if on_row is not None:
            on_row(row)

    try:
        if scheduler is not None:
            for index, row in run_on_cluster(scheduler, task, todo):
                take(index, row)
        else:
            with WorkerPool(n_jobs) as pool:
                for index, row in pool.run(task, todo):
                    take(index, row)
                run.interrupted = pool.interrupted
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        if f is not None:
            f.close()
    run.seconds = time.perf_counter() - t0
    run.rows = [done[i] for i in sorted(done)]
    return run
