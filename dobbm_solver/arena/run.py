"""Running an arena: N seeded deals, each played at every table of the duplicate plan.

    >>> config = ArenaConfig(parse_player("advice"), parse_player("rule"), seed=1)
    >>> run = run_arena(config, deals=20, output="arena.jsonl", jobs=2)
    >>> run.summary.difference

Deals are independent work items on the shared worker pool (``jobs`` as
everywhere: None or 0 all cores, 1 in this process).  A deal's row depends
only on the seed and its index, never on ``jobs`` or on which worker ran it.
A run keeps no row: each is written, tallied into the summary and passed to
``on_row`` as it completes; the rows resumed from the file are read one by one.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from .._pool import WorkerPool, resolve_jobs, worker_solver
from .cluster import run_on_cluster
from .decisions import Env
from .duplicate import play_deal, table_plan
from .game import SEATS, deal_board
from .results import DealRow
from .rows import ArenaFile, ArenaWriteError, LinesFile
from .strategies import ARENA_SAMPLES, ArenaError, ArenaSamples, Player
from .summary import ArenaSummary, Tally

__all__ = ["MAX_DEALS", "ArenaConfig", "ArenaRun", "ArenaWriteError", "arena_deal", "check_arena", "run_arena"]

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
    #: milliseconds each analysis may sample for (None: its sample count alone); the
    #: sample counts are then caps
    budget_ms: int | None = None

    def settings(self) -> dict[str, Any]:
        """What a result file's header holds: a rerun must match it."""
        out = {"a": self.a.name, "b": self.b.name, "seed": self.seed, "per_decision": self.per_decision,
               "samples": self.samples.as_dict(), "version": 2}
        if self.budget_ms is not None:
            out["budget_ms"] = self.budget_ms
        return out

    @property
    def budget_s(self) -> float | None:
        return None if self.budget_ms is None else self.budget_ms / 1000.0


@dataclass
class ArenaRun:
    """What a run did: its summary over every deal done (resumed and played), how many
    deals came from the file, those played now (their indices, in the order they were
    done), whether Ctrl-C stopped it, and its wall-clock seconds."""

    summary: ArenaSummary
    resumed: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    jobs: int = 1
    played: list[int] = field(default_factory=list)
    scheduler: str | None = None

    @property
    def done(self) -> int:
        """The deals done: resumed and played now."""
        return self.resumed + len(self.played)

    @property
    def where(self) -> str:
        """Where the deals were played: ``2 jobs``, or the Dask scheduler's address."""
        if self.scheduler is not None:
            return f"the Dask cluster at {self.scheduler}"
        return f"{self.jobs} job{'s' if self.jobs != 1 else ''}"


def check_arena(deals: int, seed: int, budget_ms: int | None = None) -> None:
    """:class:`ArenaError` unless ``deals`` is 1..MAX_DEALS, ``seed`` 0 or more and
    ``budget_ms`` None or 1 or more."""
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise ArenaError(f"--deals must be a whole number from 1 to {MAX_DEALS}, not {deals!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ArenaError(f"--seed must be a whole number, 0 or more, not {seed!r}")
    if budget_ms is not None and (isinstance(budget_ms, bool) or not isinstance(budget_ms, int)
                                  or budget_ms < 1):
        raise ArenaError(f"--budget-ms must be a whole number of milliseconds, 1 or more, not {budget_ms!r}")


def arena_deal(config: ArenaConfig, index: int) -> DealRow:
    """One deal's row: the cards dealt and every table's result (a pool task)."""
    board = deal_board(config.seed, index)
    env = Env(worker_solver(), config.samples, budget_s=config.budget_s)
    tables = play_deal(board, env, config.a, config.b, config.per_decision)
    return DealRow(deal=index, seed=config.seed, hands=dict(board.hands), dobb=board.dobb, tables=tables)


class _Resumed:
    """The checks of a row read back against the run: its seed, its deal number (one of
    the run's, given once), the cards of that deal, the tables of the players."""

    def __init__(self, config: ArenaConfig) -> None:
        self.config = config
        self.tables = set(table_plan(config.a, config.b, config.per_decision))
        self.seen = bytearray(MAX_DEALS)

    def __call__(self, row: DealRow) -> str | None:
        c = self.config
        if row.seed != c.seed:
            return f"a row of seed {row.seed}, this run's seed is {c.seed}"
        if not 0 <= row.deal < MAX_DEALS:
            return f"deal {row.deal} is not a deal number of a run (0 to {MAX_DEALS - 1})"
        if self.seen[row.deal]:
            return f"deal {row.deal} is in the file twice"
        self.seen[row.deal] = 1
        board = deal_board(c.seed, row.deal)
        if dict(row.hands) != dict(board.hands) or row.dobb != board.dobb:
            return f"the cards of deal {row.deal} are not those seed {c.seed} deals"
        if set(row.tables) != self.tables:
            return f"its tables are not those of {c.a.name} against {c.b.name}"
        return None


def run_arena(config: ArenaConfig, deals: int, output: str | None = None, jobs: int | None = None,
              on_row: Callable[[DealRow], None] | None = None, scheduler: str | None = None,
              lines: str | None = None) -> ArenaRun:
    """Play deals ``0 .. deals-1`` (those not yet in ``output``), writing each row to
    ``output`` as it completes; the summary over all ``deals`` done.  ``on_row`` is given
    each row played now.  ``scheduler``: the address of a Dask scheduler to run on
    instead of local workers (``jobs`` is then unused).  ``lines``: a file to write every
    table's play of every deal done (resumed or played) to in the one-line notation
    (:class:`~.rows.LinesFile`)."""
    check_arena(deals, config.seed, config.budget_ms)
    if lines is not None and output is not None and os.path.realpath(lines) == os.path.realpath(output):
        raise ArenaError(f"--lines {lines} is the result file (--output): give another file")
    n_jobs = resolve_jobs(jobs)
    tally = Tally(config)
    run = ArenaRun(tally.summary(), jobs=n_jobs, scheduler=scheduler)
    out = ArenaFile(output, config.settings(), SEATS) if output is not None else None
    plays: LinesFile | None = None
    try:
        resumed = _Resumed(config)
        if out is not None:
            for row in out.rows(resumed):
                if row.deal < deals:   # a rerun with fewer deals sums up the first ones
                    tally.add(row)
                    run.resumed += 1
                    if lines is not None:
                        plays = plays or LinesFile(lines, config.a.name, config.b.name, config.seed)
                        plays.write(row)
        if lines is not None and plays is None:
            plays = LinesFile(lines, config.a.name, config.b.name, config.seed)
        todo = [i for i in range(deals) if not resumed.seen[i]]
        if out is not None and todo:
            out.start()
        t0 = time.perf_counter()

        def take(index: int, row: DealRow) -> None:
            if out is not None:
                out.write(row)
            if plays is not None:
                plays.write(row)
            tally.add(row)
            run.played.append(index)
            if on_row is not None:
                on_row(row)

        task = partial(arena_deal, config)
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
        run.seconds = time.perf_counter() - t0
    finally:
        if out is not None:
            out.close()   # closing loses nothing (each row was one write) and raises nothing
        if plays is not None:
            plays.close()
    run.summary = tally.summary()
    return run
