"""The worker pool shared by the analyzer and the batch study.

``jobs`` means what :func:`dobbm_solver.jobs.resolve_jobs` says (``None`` or ``0``:
one worker per core; ``1``: in this process; ``N``: ``N`` workers).

    with WorkerPool(jobs, tt_mb=tt_mb) as pool:
        for item, result in pool.run(task, items):   # results as they complete
            ...
        if pool.interrupted:                          # Ctrl-C: stopped early
            ...

``task`` is a picklable callable of one item (a module-level function, or a
:func:`functools.partial` of one), run in a worker process; inside it,
:func:`worker_solver` is that process's :class:`~dobbm_solver.solver.Solver`.
With ``jobs == 1`` no process is started: the tasks run in this process, one
at a time, in item order.

With ``threads=True`` the workers are threads of this process instead: each
makes its own solver (a table of its own), and the search releases the GIL,
so the solves run on separate cores with no process started and nothing
pickled; only the Python around them (sampling, bookkeeping) takes turns.
A thread cannot be stopped from outside, so leaving the ``with`` block waits
for the tasks already running (the queued ones are cancelled); keep a
thread pool's tasks short.

Worker processes are forked.  Each ignores SIGINT (Ctrl-C is the parent's to
handle), makes its solver once, and dies with the parent process: on Linux
the kernel kills it the moment the parent is gone (killed by SIGTERM, SIGHUP
or SIGKILL, say), and a watchdog thread ends it within
:data:`WATCHDOG_SECONDS` anyway, so no worker outlives a run.  A worker that
cannot start (its table cannot be allocated, say) prints nothing: its tasks
raise :class:`WorkerStartFailed` in the parent.  The parent never ignores SIGINT: its handler is the
Ctrl-C flag only while a run is under way, and SIGINT is held back (to arrive
just after) only for the instant a worker is forked.

Ctrl-C while :meth:`WorkerPool.run` waits sets ``pool.interrupted`` and ends
the iteration at a point of its choosing (see
:class:`~dobbm_solver._interrupt.CtrlC`); the results yielded so far stand.
Leaving the ``with`` block normally waits for the tasks still running (the
queued ones are cancelled); leaving it by an exception (``KeyboardInterrupt``
included) terminates the workers at once.  A worker process that dies (out
of memory, ``os._exit``, killed) raises :class:`WorkerDied`.
"""

from __future__ import annotations

import inspect
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, Callable, Generator, Iterable, Iterator, Sequence, TypeVar

from ._interrupt import CtrlC
from .errors import DobbmRuntimeError
from .jobs import MAX_JOBS, JobsError, available_cores, resolve_jobs
from .solver import DEFAULT_TT_MB, Solver

__all__ = [
    "MAX_JOBS", "IN_FLIGHT", "POLL_SECONDS", "WATCHDOG_SECONDS", "PARENT_DEATH_SIGNAL",
    "JobsError", "WorkerDied", "WorkerStartFailed", "available_cores", "resolve_jobs", "worker_solver", "WorkerPool",
]

#: Tasks in flight per worker: enough to keep it busy, few to cancel on Ctrl-C.
IN_FLIGHT = 4
#: How often the waiting loop looks at the Ctrl-C flag, in seconds.
POLL_SECONDS = 0.2
#: How often a worker checks that its parent process is still there, in seconds.
WATCHDOG_SECONDS = 1.0

T = TypeVar("T")
R = TypeVar("R")


class WorkerDied(DobbmRuntimeError):
    """A worker process died while it ran a task (out of memory, killed, ``os._exit``)."""


class WorkerStartFailed(DobbmRuntimeError):
    """A worker process could not be started, or could not make its solver."""


# --------------------------------------------------------------------------
# inside a worker

#: A worker's own: its solver, and why it could not start (set by its initializer,
#: raised by its every task).
_local = threading.local()


def worker_solver(tt_mb: int | None = None) -> Solver:
    """This thread's solver (a pool worker runs its tasks in one thread, a Dask
    worker may run several), made when first asked for and kept.

    ``tt_mb`` None: the one this thread has (a pool worker's is made at start
    with the pool's ``tt_mb``), else a new one of ``solver.DEFAULT_TT_MB``;
    a size: a solver with a table of that size, made anew if the kept one
    differs."""
    s: Solver | None = getattr(_local, "solver", None)
    if s is None or (tt_mb is not None and s.tt_mb != tt_mb):
        s = _local.solver = Solver(DEFAULT_TT_MB if tt_mb is None else tt_mb)
    return s


#: The signal the kernel sends a worker when its parent process ends (Linux);
#: 0: none, the watchdog alone ends it.
PARENT_DEATH_SIGNAL = int(signal.SIGKILL)
_PR_SET_PDEATHSIG = 1


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(WATCHDOG_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def _die_with_parent(parent: int) -> None:
    """Be killed the moment the parent process ends (Linux), and in any case exit
    within :data:`WATCHDOG_SECONDS` of it (a thread that looks)."""
    if sys.platform.startswith("linux") and PARENT_DEATH_SIGNAL:
        import ctypes
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, PARENT_DEATH_SIGNAL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the watchdog alone
            pass
    if os.getppid() != parent:   # the parent was gone before that
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="dobbm-watchdog").start()


def _start_error(e: BaseException) -> BaseException:
    """What a start-up failure is reported as: running out of memory or of another
    resource is :class:`WorkerStartFailed`; anything else (a bug) stays itself."""
    if isinstance(e, (MemoryError, OSError)):
        return WorkerStartFailed(f"a worker could not start: {type(e).__name__}: {e}")
    return e


def _init_worker(parent: int, tt_mb: int | None) -> None:
    """Process pool initializer: ignore Ctrl-C (the parent decides), die with the
    parent, then as :func:`_init_thread`."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if hasattr(signal, "pthread_sigmask"):   # held back across the fork, see _sigint_blocked
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        _die_with_parent(parent)
    except Exception as e:
        _local.start_failure = _start_error(e)
        return
    _init_thread(tt_mb)


def _init_thread(tt_mb: int | None) -> None:
    """Pool initializer of a worker (a thread, or a process's one thread): make the
    solver once.  A failure is kept for the worker's tasks to raise (an initializer
    that raises prints a traceback and breaks the pool)."""
    _local.start_failure = None
    try:
        if tt_mb is not None:
            worker_solver(tt_mb)
    except Exception as e:
        _local.start_failure = _start_error(e)


def _in_worker(fn: Callable[..., R], *args: Any) -> R:
    """Run a task in a worker: ``fn(*args)``, unless the worker could not start."""
    failure = getattr(_local, "start_failure", None)
    if failure is not None:
        raise failure
    return fn(*args)


# --------------------------------------------------------------------------
# in the parent


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back in this thread (not ignored: it arrives when let through).
    A process forked meanwhile starts with it held back, until its initializer
    ignores it."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _fork_context() -> Any:
    try:
        return multiprocessing.get_context("fork")
    except ValueError:  # pragma: no cover - platforms without fork
        return multiprocessing.get_context()


def _kill_executor(ex: ProcessPoolExecutor) -> None:
    """Stop a process pool now: cancel what is queued, terminate and join the workers,
    and the pool's manager thread.

    The manager thread, seeing its workers gone, closes its wake-up pipe; the first
    ``shutdown`` forgets the thread, so the second one no longer joins it.  Left
    running, it raced with the interpreter's exit, which wakes every pool's manager
    through that pipe (on Python 3.11 with no lock against the close): about one
    exit in fifty printed ``OSError: [Errno 9] Bad file descriptor`` with a
    traceback, after a Ctrl-C of ``study``.  So it is joined here."""
    terminate = getattr(ex, "terminate_workers", None)   # Python 3.14+
    if terminate is not None:
        terminate()
        return
    procs = list((getattr(ex, "_processes", None) or {}).values())
    manager = getattr(ex, "_executor_manager_thread", None)
    ex.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=5)
        if p.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
            p.kill()
            p.join()
    try:
        ex.shutdown(wait=True)
    except Exception:  # pragma: no cover - a broken pool has nothing left to join
        pass
    if manager is not None:
        manager.join(timeout=5)


class WorkerPool:
    """``jobs`` worker processes (see :func:`resolve_jobs`) -- or threads, with
    ``threads`` -- or this process when ``jobs`` is 1; each worker (this
    process, then) makes a solver of ``tt_mb`` MiB at start (``tt_mb=None``:
    none, :func:`worker_solver` makes it when first asked).

    Use it as a context manager.  ``interrupted`` is set when Ctrl-C stopped a
    :meth:`run`; ``in_flight`` tasks per worker are queued at a time.
    """

    def __init__(self, jobs: int | None = None, *, tt_mb: int | None = DEFAULT_TT_MB,
                 in_flight: int = IN_FLIGHT, threads: bool = False) -> None:
        self.jobs = resolve_jobs(jobs)
        self.tt_mb = tt_mb
        self.in_flight = max(1, in_flight)
        #: the workers are threads of this process, not processes
        self.threads = threads
        #: set by Ctrl-C during :meth:`run`: the run stopped, what it yielded stands
        self.interrupted = False
        self._executor: Executor | None = None
        self._runs: list[Generator[Any, None, None]] = []

    @property
    def in_process(self) -> bool:
        """Whether the tasks run in this process (``jobs == 1``)."""
        return self.jobs == 1

    # -- life cycle ------------------------------------------------------------
    def __enter__(self) -> "WorkerPool":
        if self.in_process:
            if self.tt_mb is not None:   # this process is the worker
                try:
                    worker_solver(self.tt_mb)
                except (MemoryError, OSError) as e:
                    raise _start_error(e) from None
        elif self._executor is None and self.threads:
            self._executor = ThreadPoolExecutor(self.jobs, thread_name_prefix="dobbm-worker",
                                                initializer=_init_thread, initargs=(self.tt_mb,))
        elif self._executor is None:
            self._executor = ProcessPoolExecutor(self.jobs, mp_context=_fork_context(),
                                                 initializer=_init_worker, initargs=(os.getpid(), self.tt_mb))
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        self._close_runs()
        if exc_type is not None:
            self.kill()
        else:
            self.shutdown()

    def _close_runs(self) -> None:
        runs, self._runs = self._runs, []
        for run in runs:
            run.close()

    def shutdown(self) -> None:
        """Cancel the queued tasks, wait for the running ones, stop the workers
        (a Ctrl-C meanwhile kills worker processes; threads end their task)."""
        ex, self._executor = self._executor, None
        if ex is None:
            return
        try:
            ex.shutdown(wait=True, cancel_futures=True)
        except BaseException:
            if isinstance(ex, ProcessPoolExecutor):
                _kill_executor(ex)
            raise

    def kill(self) -> None:
        """Stop now: cancel the queued tasks, terminate and join the workers."""
        self._close_runs()
        ex, self._executor = self._executor, None
        if isinstance(ex, ProcessPoolExecutor):
            _kill_executor(ex)
        elif ex is not None:     # threads: the queued tasks cancelled, the running ones end
            ex.shutdown(wait=True, cancel_futures=True)

    # -- single tasks ----------------------------------------------------------
    def _submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        if self._executor is None:
            raise RuntimeError("the worker pool is not running: use it in a with block")
        if self.threads:
            try:
                return self._executor.submit(_in_worker, fn, *args)
            except RuntimeError as e:      # the thread itself could not start (no memory for its stack)
                if "start new thread" not in str(e):
                    raise
                raise WorkerStartFailed(f"could not start a worker thread: {e}") from None
        try:
            with _sigint_blocked():   # a worker forked now must not take a Ctrl-C meant for us
                return self._executor.submit(_in_worker, fn, *args)
        except BrokenProcessPool:
            raise self._died() from None
        except OSError as e:   # the fork itself failed (no memory, too many processes)
            raise WorkerStartFailed(f"could not start a worker process: {e}") from None

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Start ``fn(*args)`` on a worker; in process (``jobs == 1``) it runs now and
        the future is done.  Read it with :meth:`result`."""
        if not self.in_process:
            return self._submit(fn, *args)
        fut: Future[Any] = Future()
        try:
            fut.set_result(fn(*args))
        except Exception as e:
            fut.set_exception(e)
        return fut

    def result(self, fut: Future[Any]) -> Any:
        """The result of a future of this pool; :class:`WorkerDied` if its worker died."""
        try:
            return fut.result()
        except BrokenProcessPool:
            raise self._died() from None

    def gather(self, futures: Sequence[Future[Any]]) -> list[Any]:
        """The results of ``futures`` (of this pool) in order, waiting with Ctrl-C as a
        flag (see :class:`~dobbm_solver._interrupt.CtrlC`): Ctrl-C sets
        :attr:`interrupted`, cancels those not done and raises ``KeyboardInterrupt``."""
        pending = {f for f in futures if not f.done()}
        if pending:
            with CtrlC() as ctrl_c:
                while pending and not ctrl_c.caught:
                    _, pending = wait(pending, timeout=POLL_SECONDS)
            if ctrl_c.caught:
                self.interrupted = True
                for f in futures:
                    f.cancel()
                raise KeyboardInterrupt
        return [self.result(f) for f in futures]

    def _died(self) -> WorkerDied:
        table = "" if self.tt_mb is None else f": each holds a {self.tt_mb} MiB table"
        return WorkerDied(f"a worker process died (killed, or out of memory{table}; try fewer jobs)")

    # -- many tasks ------------------------------------------------------------
    def run(self, task: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        """``(item, task(item))`` for every item, as the tasks complete (those that
        complete together in item order; in process: in item order).  At most
        ``jobs * in_flight`` tasks are queued at a time.  Ctrl-C stops the
        iteration and sets :attr:`interrupted`; a dead worker raises
        :class:`WorkerDied`.  Nothing runs once :attr:`interrupted` is set."""
        gen = self._run_here(task, items) if self.in_process else self._run_pooled(task, items)
        self._runs = [g for g in self._runs if inspect.getgeneratorstate(g) != inspect.GEN_CLOSED] + [gen]
        return gen

    def _run_here(self, task: Callable[[T], R], items: Iterable[T]) -> Generator[tuple[T, R], None, None]:
        # Ctrl-C raises KeyboardInterrupt while a task runs (as soon as the task's
        # code lets Python see it), and is a flag while the caller holds a result
        if self.interrupted:
            return
        try:
            for item in items:
                result = task(item)
                with CtrlC() as ctrl_c:
                    yield item, result
                if ctrl_c.caught:
                    self.interrupted = True
                    return
        except KeyboardInterrupt:
            self.interrupted = True

    def _run_pooled(self, task: Callable[[T], R], items: Iterable[T]) -> Generator[tuple[T, R], None, None]:
        if self.interrupted:
            return
        todo = enumerate(items)
        running: dict[Future[R], tuple[int, T]] = {}

        def submit() -> None:
            nxt = next(todo, None)
            if nxt is not None:
                running[self._submit(task, nxt[1])] = nxt

        try:
            with CtrlC() as ctrl_c:   # Ctrl-C as a flag polled here (see CtrlC)
                for _ in range(self.jobs * self.in_flight):
                    submit()
                while running and not ctrl_c.caught:
                    finished, _ = wait(running, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
                    for fut in sorted(finished, key=lambda f: running[f][0]):
                        _, item = running.pop(fut)
                        result: R = self.result(fut)
                        yield item, result
                        submit()
            if ctrl_c.caught:
                self.interrupted = True
        except KeyboardInterrupt:   # Ctrl-C just before the flag was set up
            self.interrupted = True
        finally:
            for fut in running:
                fut.cancel()
