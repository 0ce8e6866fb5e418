"""Running samples on the worker pool: in-process (jobs=1) or on a process pool.

:class:`SampleRunner` runs work items ``(sample index, payload)``: each
item's sample is drawn by the view's sampler and solved as
:data:`dobbm_solver.analyzer.work.WORK` says.  The worker side is
:func:`init_worker`, :func:`solve_items` and :func:`draw_features`
(importable as ``dobbm_solver.analyzer.runner.*``).
"""

from __future__ import annotations

import multiprocessing
import signal
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from .._interrupt import CtrlC
from .arguments import resolve_jobs
from .estimate import CV_DRAWS, CV_MIN_SAMPLES, ControlVariates, PlainMean, deal_features
from .sampling import sampler_for
from .view import View
from .work import WORK

if TYPE_CHECKING:
    from ..solver import Solver

DEFAULT_TT_MB = 32
#: At most this many work items go to a worker at once.
CHUNK_ITEMS = 8
#: Chunks submitted per worker at a time (the next as one finishes).
IN_FLIGHT = 4
Progress = Callable[[int, int], None]
Item = tuple[int, Any]
Row = tuple[int, dict, tuple[float, ...]]

_WORKER: dict[str, Any] = {}


def init_worker(tt_mb: int) -> None:
    """Pool initializer: one Solver per worker process."""
    from ..solver import Solver
    # Ctrl-C is the parent's to handle: it cancels the work and shuts the pool down
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["solver"] = Solver(tt_mb)


def _worker_solver() -> Solver:
    s = _WORKER.get("solver")
    if s is None:
        init_worker(DEFAULT_TT_MB)
        s = _WORKER["solver"]
    return s


def solve_items(view: View, seed: int, items: Sequence[Item]) -> list[Row]:
    """Draw and solve each item's sample: ``(index, results, features)`` per item."""
    solver = _worker_solver()
    sampler = sampler_for(view)
    work = WORK[view.command]
    out = []
    for index, payload in items:
        deal, dealt, dobb = sampler.sample(seed, index)
        assert deal is not None
        out.append((index, work(view, solver, deal, dealt, payload), deal_features(view, dealt, dobb)))
    return out


def draw_features(view: View, seed: int, start: int, count: int) -> list[tuple[float, ...]]:
    """The features of cheap draws ``start .. start+count-1`` (the control variates' stream)."""
    sampler = sampler_for(view)
    out = []
    for i in range(start, start + count):
        _, dealt, dobb = sampler.sample(seed, i, "cv")
        out.append(deal_features(view, dealt, dobb))
    return out


class SampleRunner:
    """Runs work items ``(sample index, payload)``: in-process (jobs=1) or on a process pool.

    Each worker process holds one Solver (pool initializer).  Results are
    keyed by sample index and merged, so they never depend on ``jobs``.
    ``progress(done, total)`` counts solves.  Use it as a context manager.
    """

    def __init__(self, view: View, seed: int, jobs: int | None, progress: Progress | None,
                 tt_mb: int = DEFAULT_TT_MB) -> None:
        self.view = view
        self.seed = seed
        self.jobs = resolve_jobs(jobs)
        self.tt_mb = tt_mb
        self.progress = progress
        self.pool: ProcessPoolExecutor | None = None
        self.done = 0
        self.total = 0
        self.results: dict[int, dict] = {}
        self.features: dict[int, tuple[float, ...]] = {}
        self._cv_count = CV_DRAWS
        self._cv_futures: list[Future] = []
        self._cv: ControlVariates | None = None
        #: set by Ctrl-C during :meth:`run`: the work stops, what was solved stays
        self.interrupted = False

    def __enter__(self) -> SampleRunner:
        if self.jobs > 1:
            ctx: BaseContext
            try:
                ctx = multiprocessing.get_context("fork")
            except ValueError:  # pragma: no cover - platforms without fork
                ctx = multiprocessing.get_context()
            self.pool = ProcessPoolExecutor(self.jobs, mp_context=ctx, initializer=init_worker,
                                            initargs=(self.tt_mb,))
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    # -- control variates: cheap draws, submitted first so they overlap the solving
    def start_cv(self, count: int = CV_DRAWS, needed: bool = True) -> None:
        """Start the cheap draws (``needed`` False: the run is too short to use them)."""
        self._cv_count = count
        if self.pool is not None and needed:
            step = max(1, -(-count // (self.jobs * 2)))
            self._cv_futures = [self.pool.submit(draw_features, self.view, self.seed, a, min(step, count - a))
                                for a in range(0, count, step)]

    def cv(self) -> ControlVariates:
        """The control variates (waits for the cheap draws, or makes them here)."""
        if self._cv is None:
            if self.pool is not None:
                draws = [f for fut in self._cv_futures for f in fut.result()]
            else:
                draws = draw_features(self.view, self.seed, 0, self._cv_count)
            self._cv = ControlVariates(draws)
        return self._cv

    def fit(self, indices: Sequence[int]) -> PlainMean:
        """The mean estimator for the samples ``indices``."""
        if len(indices) < CV_MIN_SAMPLES:
            return PlainMean()
        return self.cv().fit(indices, self.features)

    # -- solving
    def plan(self, more: int) -> None:
        """Announce ``more`` solves to come (for the progress total)."""
        self.total = self.done + more

    def run(self, items: Sequence[Item], cost: Callable[[Any], int]) -> None:
        """Solve the items; results merge into ``self.results[index]``.

        ``cost(payload)``: the solves an item counts for progress.
        """
        if not items or self.interrupted:
            return
        if self.pool is None:
            self._run_here(items, cost)
        else:
            self._run_on_pool(self.pool, items, cost)

    def _take(self, rows: Iterable[Row], spent: int) -> None:
        for index, res, feats in rows:
            self.results.setdefault(index, {}).update(res)
            self.features[index] = feats
        self.done += spent
        if self.total < self.done:
            self.total = self.done
        if self.progress:
            self.progress(self.done, self.total)

    def _run_here(self, items: Sequence[Item], cost: Callable[[Any], int]) -> None:
        try:
            for item in items:
                self._take(solve_items(self.view, self.seed, [item]), cost(item[1]))
        except KeyboardInterrupt:
            self.interrupted = True

    def _run_on_pool(self, pool: ProcessPoolExecutor, items: Sequence[Item],
                     cost: Callable[[Any], int]) -> None:
        # small chunks: steady progress, and Ctrl-C waits for little running work;
        # a few per worker in flight, the next submitted as one finishes
        n_chunks = max(1, min(len(items), max(self.jobs * 6, -(-len(items) // CHUNK_ITEMS))))
        size = -(-len(items) // n_chunks)
        todo = iter([list(items[i:i + size]) for i in range(0, len(items), size)])
        running: dict[Future, list[Item]] = {}

        def submit() -> None:
            chunk = next(todo, None)
            if chunk is not None:
                running[pool.submit(solve_items, self.view, self.seed, chunk)] = chunk

        try:
            with CtrlC() as ctrl_c:
                for _ in range(self.jobs * IN_FLIGHT):
                    submit()
                while running and not ctrl_c.caught:
                    finished, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
                    for f in finished:
                        self._take(f.result(), sum(cost(p) for _, p in running.pop(f)))
                        submit()
            if ctrl_c.caught:
                # Ctrl-C: keep what is solved; the caller reports it as partial
                self.interrupted = True
        except KeyboardInterrupt:   # Ctrl-C just before the flag was set up
            self.interrupted = True
        finally:
            for f in running:
                f.cancel()

    def has(self, index: int, key: Any) -> bool:
        """Whether sample ``index`` has a result under ``key``."""
        return key in self.results.get(index, ())
