"""Running samples on the shared worker pool (:mod:`dobbm_solver._pool`).

:class:`SampleRunner` runs work items ``(sample index, payload)``: each
item's sample is drawn by the view's sampler and solved as
:data:`dobbm_solver.analyzer.work.WORK` says.  The tasks a worker runs are
:func:`solve_items` and :func:`draw_features`; the workers, their solvers,
``jobs`` and Ctrl-C are the pool's.  The workers are threads of this process
(the search and the compiled sampler release the GIL, so solves and cheap
draws run on separate cores; no process is started and nothing pickled).
"""

from __future__ import annotations

from concurrent.futures import Future
from functools import partial
from typing import Any, Callable, Iterable, Sequence

from .._pool import WorkerPool, worker_solver
from ..models.discard_rule import build_tables
from ..solver import DEFAULT_TT_MB
from .estimate import CV_DRAWS, CV_MIN_SAMPLES, ControlVariates, PlainMean, deal_features
from .sampling import sampler_for
from .view import View
from .work import WORK, Results

__all__ = ["CHUNK_ITEMS", "IN_FLIGHT", "Progress", "SampleRunner", "solve_items", "draw_features"]

#: At most this many work items go to a worker at once.
CHUNK_ITEMS = 8
#: Chunks submitted per worker at a time (the next as one finishes).
IN_FLIGHT = 4
Progress = Callable[[int, int], None]
Item = tuple[int, Any]
Row = tuple[int, Results, tuple[float, ...]]


def prime_caches(view: View) -> None:
    """Build here, once per process, what each worker would otherwise build on its first
    task: the view's sampler (with its compiled core's self-check) and the lay-away
    rules' tables.  The worker threads share them (forked workers inherit them: the
    analyzer's own pool is threads, but a caller may run these tasks on processes);
    the results do not change."""
    sampler_for(view)
    build_tables()


def solve_items(view: View, seed: int, items: Sequence[Item]) -> list[Row]:
    """Draw and solve each item's sample on this worker's solver: ``(index, results,
    features)`` per item."""
    solver = worker_solver()
    sampler = sampler_for(view)
    work = WORK[view.command]
    out = []
    for index, payload in items:
        deal, dealt, dobb = sampler.sample(seed, index)
        assert deal is not None
        out.append((index, work(view, solver, deal, dealt, payload), deal_features(view, dealt, dobb)))
    return out


def draw_features(view: View, seed: int, start: int, count: int) -> list[tuple[float, ...]]:
    """The features of cheap draws ``start .. start+count-1`` (the control variates' stream):
    by the compiled core in one call where it can, else sample by sample (the same values)."""
    sampler = sampler_for(view)
    fast = sampler.compiled_cv_features(seed, start, count)
    if fast is not None:
        return fast
    out = []
    for i in range(start, start + count):
        _, dealt, dobb = sampler.sample(seed, i, "cv")
        out.append(deal_features(view, dealt, dobb))
    return out


class SampleRunner:
    """Runs work items ``(sample index, payload)`` on a :class:`~dobbm_solver._pool.WorkerPool`
    of ``jobs`` (its meaning: :func:`~dobbm_solver._pool.resolve_jobs`; 1: in this process).

    Results are keyed by sample index and merged, so they never depend on
    ``jobs``.  ``progress(done, total)`` counts solves.  Use it as a context
    manager.  ``interrupted`` is set once Ctrl-C stopped a :meth:`run`: the
    work stops, what was solved stays (the workers end the chunk they are
    solving).  A worker that cannot make its solver raises
    :class:`~dobbm_solver._pool.WorkerStartFailed`.
    """

    def __init__(self, view: View, seed: int, jobs: int | None, progress: Progress | None,
                 tt_mb: int = DEFAULT_TT_MB) -> None:
        self.view = view
        self.seed = seed
        self.pool = WorkerPool(jobs, tt_mb=tt_mb, in_flight=IN_FLIGHT, threads=True)
        self.jobs = self.pool.jobs
        self.progress = progress
        self.done = 0
        self.total = 0
        self.results: dict[int, Results] = {}
        self.features: dict[int, tuple[float, ...]] = {}
        self._cv_count = CV_DRAWS
        self._cv_futures: list[Future[list[tuple[float, ...]]]] = []
        self._cv: ControlVariates | None = None
        self._cv_lost = False
        self._ahead: list[tuple[list[Item], int, Future[list[Row]]]] = []

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped a run (nothing more runs then)."""
        return self.pool.interrupted

    def __enter__(self) -> SampleRunner:
        if not self.pool.in_process:
            prime_caches(self.view)
        self.pool.__enter__()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: Any) -> None:
        self.pool.__exit__(exc_type, *exc)

    # -- control variates: cheap draws, submitted first so they overlap the solving
    def start_cv(self, count: int = CV_DRAWS, needed: bool = True) -> None:
        """Start the cheap draws (``needed`` False: the run is too short to use them; ``count``
        0: no control variates at all, plain means)."""
        self._cv_count = count
        if not self.pool.in_process and needed:
            step = max(1, -(-count // (self.jobs * 2)))
            self._cv_futures = [self.pool.submit(draw_features, self.view, self.seed, a, min(step, count - a))
                                for a in range(0, count, step)]

    def cv(self) -> ControlVariates | None:
        """The control variates (waits for the cheap draws, or makes them here); None
        if Ctrl-C stopped that (the run is then interrupted)."""
        if self._cv is None and not self._cv_lost:
            try:
                if self._cv_futures:
                    draws = [f for part in self.pool.gather(self._cv_futures) for f in part]
                else:
                    draws = draw_features(self.view, self.seed, 0, self._cv_count)
            except KeyboardInterrupt:
                self.pool.interrupted = True
                self._cv_lost = True
                return None
            self._cv = ControlVariates(draws)
        return self._cv

    def fit(self, indices: Sequence[int]) -> PlainMean:
        """The mean estimator for the samples ``indices`` (a plain mean for few samples,
        or once Ctrl-C stopped the cheap draws: partial advice all the same)."""
        if len(indices) < CV_MIN_SAMPLES or self._cv_count == 0:
            return PlainMean()
        cv = self.cv()
        return PlainMean() if cv is None else cv.fit(indices, self.features)

    # -- solving
    def plan(self, more: int) -> None:
        """Announce ``more`` solves to come (for the progress total)."""
        self.total = self.done + more

    def run(self, items: Sequence[Item], cost: Callable[[Any], int]) -> None:
        """Solve the items; results merge into ``self.results[index]``.

        ``cost(payload)``: the solves an item counts for progress.  Items started by
        :meth:`start_ahead` are waited for, not solved again (their payloads must
        cover these items': the results merge).
        """
        if self.interrupted:
            self.cancel_ahead()
            return
        taken = self._take_ahead()
        items = [it for it in items if it[0] not in taken]
        if not items or self.interrupted:
            return
        task = partial(solve_items, self.view, self.seed)
        for chunk, rows in self.pool.run(task, self._chunks(items)):
            self._take(rows, sum(cost(p) for _, p in chunk))

    def start_ahead(self, items: Sequence[Item], cost: Callable[[Any], int]) -> None:
        """Start solving ``items`` on the workers now, before the caller decides whether it
        needs them (the workers need not wait for that decision): the next :meth:`run`
        takes them, :meth:`cancel_ahead` drops them.  In process nothing starts.  Results
        not taken are never used, so the advice does not change."""
        self.cancel_ahead()
        if self.pool.in_process or self.interrupted or not items:
            return
        task = partial(solve_items, self.view, self.seed)
        self._ahead = [(chunk, sum(cost(p) for _, p in chunk), self.pool.submit(task, chunk))
                       for chunk in self._chunks(items)]

    def cancel_ahead(self) -> None:
        """Drop the items started ahead: the queued ones never run, the results of the
        others are not used."""
        ahead, self._ahead = self._ahead, []
        for _, _, fut in ahead:
            fut.cancel()

    def _take_ahead(self) -> set[int]:
        """Wait for the items started ahead and merge them (Ctrl-C meanwhile stops the
        run: what was solved stays); the indices taken."""
        ahead, self._ahead = self._ahead, []
        taken: set[int] = set()
        for k, (chunk, spent, fut) in enumerate(ahead):
            try:
                [rows] = self.pool.gather([fut])
            except KeyboardInterrupt:     # the pool is marked interrupted
                for _, _, rest in ahead[k + 1:]:
                    rest.cancel()
                break
            self._take(rows, spent)
            taken.update(index for index, _ in chunk)
        return taken

    def _chunks(self, items: Sequence[Item]) -> list[list[Item]]:
        # in process: one item at a time (steady progress, Ctrl-C stops between items);
        # on workers small chunks: steady progress, and Ctrl-C waits for little running work
        if self.pool.in_process:
            return [[item] for item in items]
        n_chunks = max(1, min(len(items), max(self.jobs * 6, -(-len(items) // CHUNK_ITEMS))))
        size = -(-len(items) // n_chunks)
        return [list(items[i:i + size]) for i in range(0, len(items), size)]

    def _take(self, rows: Iterable[Row], spent: int) -> None:
        for index, res, feats in rows:
            self.results.setdefault(index, {}).update(res)
            self.features[index] = feats
        self.done += spent
        if self.total < self.done:
            self.total = self.done
        if self.progress:
            self.progress(self.done, self.total)

    def has(self, index: int, key: Any) -> bool:
        """Whether sample ``index`` has a result under ``key``."""
        return key in self.results.get(index, ())
