"""Tests of the worker pool shared by the analyzer and the study (``dobbm_solver._pool``).

The Ctrl-C and watchdog tests run a small script that uses the pool in a
child process (its own session, so a signal to its process group reaches its
workers too, as Ctrl-C in a terminal does) and look for its workers in /proc.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from helpers import alive, children

from dobbm_solver import _pool
from dobbm_solver import jobs as jobs_module
from dobbm_solver._pool import WorkerDied, WorkerPool, WorkerStartFailed, worker_solver
from dobbm_solver.errors import DobbmError, DobbmRuntimeError, OptionError
from dobbm_solver.jobs import JobsError, available_cores, resolve_jobs

REPO = Path(__file__).resolve().parents[1]
needs_proc = pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")


def _square(x: int) -> tuple[int, int]:
    return x, x * x


def _pid_and_solver(_: object) -> tuple[int, int, int]:
    s = worker_solver()   # the one the worker made at start
    return os.getpid(), id(s), s.tt_mb


def _sigint_ignored(_: object) -> bool:
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def _die_on_3(x: int) -> int:
    if x == 3:
        os._exit(7)
    return x


def _fail_on_2(x: int) -> int:
    if x == 2:
        raise ArithmeticError(f"item {x}")
    return x




def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    """The processes of ``pids`` still alive after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


# --------------------------------------------------------------------------
# jobs


def test_resolve_jobs_one_meaning():
    cores = len(os.sched_getaffinity(0))
    assert available_cores() == cores
    assert resolve_jobs(None) == resolve_jobs(0) == cores
    assert [resolve_jobs(j) for j in (1, 2, 7, 256)] == [1, 2, 7, 256]
    for bad in (-1, 257, 10_000, True, False, 1.0, "2"):
        with pytest.raises(JobsError, match=r"jobs must be a whole number from 1 to 256 \(0 or none: all cores\)"):
            resolve_jobs(bad)  # type: ignore[arg-type]
    assert issubclass(JobsError, OptionError) and issubclass(JobsError, DobbmError)
    with pytest.raises(JobsError):
        WorkerPool(300)


def test_the_bound_is_read_from_max_jobs(monkeypatch):
    monkeypatch.setattr(jobs_module, "MAX_JOBS", 4)
    assert resolve_jobs(4) == 4
    with pytest.raises(JobsError, match="from 1 to 4"):
        resolve_jobs(5)


# --------------------------------------------------------------------------
# results


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_do_not_depend_on_jobs(jobs):
    with WorkerPool(jobs, tt_mb=None) as pool:
        got = list(pool.run(_square, range(40)))
        assert not pool.interrupted
    assert all(item == r[0] and r[1] == item * item for item, r in got)
    assert sorted(item for item, _ in got) == list(range(40))
    if jobs == 1:   # in process: item order
        assert [item for item, _ in got] == list(range(40))


@pytest.mark.parametrize("jobs", [1, 2])
def test_work_in_flight_is_bounded(jobs):
    pulled = []

    def items():
        for i in range(100):
            pulled.append(i)
            yield i

    with WorkerPool(jobs, tt_mb=None, in_flight=3) as pool:
        run = pool.run(_square, items())
        next(run)
        assert len(pulled) <= jobs * 3 + 1
        assert len(list(run)) == 99


def test_in_process_when_one_job():
    with WorkerPool(1, tt_mb=5) as pool:
        assert pool.in_process
        (_, (pid, _, tt)), = pool.run(_pid_and_solver, [0])
        assert pid == os.getpid() and tt == 5
        fut = pool.submit(_square, 5)
        assert fut.done() and pool.result(fut) == (5, 25)
    with WorkerPool(2) as pool:
        assert not pool.in_process and pool.result(pool.submit(_square, 6)) == (6, 36)


def test_one_solver_per_worker_and_table_size():
    with WorkerPool(2, tt_mb=4) as pool:
        rows = [r for _, r in pool.run(_pid_and_solver, range(20))]
    pids = {pid for pid, _, _ in rows}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    for pid in pids:   # each worker made its solver once
        assert len({sid for p, sid, _ in rows if p == pid}) == 1
    assert {tt for _, _, tt in rows} == {4}
    four = worker_solver(4)
    assert worker_solver(4) is four and worker_solver() is four
    eight = worker_solver(8)
    assert eight.tt_mb == 8 and eight is not four and worker_solver() is eight


def test_workers_ignore_sigint_and_the_parent_does_not():
    # from Python's own handler (another test may have left this process otherwise)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with WorkerPool(2, tt_mb=None) as pool:
            assert all(r for _, r in pool.run(_sigint_ignored, range(8)))
        with WorkerPool(1) as pool:   # in process: Ctrl-C stays the caller's
            assert not any(r for _, r in pool.run(_sigint_ignored, range(2)))
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("jobs", [1, 2])
def test_gather_gives_the_results_in_order(jobs):
    with WorkerPool(jobs, tt_mb=None) as pool:
        futures = [pool.submit(_square, i) for i in range(12)]
        assert pool.gather(futures) == [(i, i * i) for i in range(12)]
        assert not pool.interrupted


def test_nothing_runs_once_interrupted():
    for jobs in (1, 2):
        with WorkerPool(jobs, tt_mb=None) as pool:
            pool.interrupted = True
            assert list(pool.run(_square, range(5))) == []


# --------------------------------------------------------------------------
# worker threads


def _thread_and_solver(x: int) -> tuple[int, int, int, int]:
    import threading
    s = worker_solver()
    return os.getpid(), threading.get_ident(), id(s), s.tt_mb


@pytest.mark.parametrize("jobs", [2, 3])
def test_thread_workers_give_the_same_results_in_this_process(jobs):
    before = set(children(os.getpid())) if Path("/proc").is_dir() else set()
    with WorkerPool(jobs, tt_mb=None, threads=True) as pool:
        got = list(pool.run(_square, range(40)))
        assert pool.gather([pool.submit(_square, i) for i in range(5)]) == [(i, i * i) for i in range(5)]
        if Path("/proc").is_dir():
            assert set(children(os.getpid())) == before     # no process started
    assert sorted(got) == [(i, (i, i * i)) for i in range(40)]


def test_each_worker_thread_has_its_own_solver():
    import threading
    with WorkerPool(2, tt_mb=3, threads=True) as pool:
        rows = [r for _, r in pool.run(_thread_and_solver, range(40))]
    assert {pid for pid, _, _, _ in rows} == {os.getpid()}
    threads = {t for _, t, _, _ in rows}
    assert threading.get_ident() not in threads and 1 <= len(threads) <= 2
    for t in threads:   # made once per thread, with the pool's table size
        assert len({sid for _, tt, sid, _ in rows if tt == t}) == 1
    assert len({sid for _, _, sid, _ in rows}) == len(threads)
    assert {tt for _, _, _, tt in rows} == {3}


def test_a_worker_thread_that_cannot_start_is_one_clear_error(monkeypatch):
    monkeypatch.setattr(_pool, "Solver", _NoTable)
    with pytest.raises(WorkerStartFailed, match="a worker could not start: MemoryError: cannot allocate a 4 MiB"):
        with WorkerPool(2, tt_mb=4, threads=True) as pool:
            list(pool.run(_square, range(10)))


def test_a_worker_thread_the_system_cannot_start_is_one_clear_error(monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    def no_thread(self) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(ThreadPoolExecutor, "_adjust_thread_count", no_thread)
    with pytest.raises(WorkerStartFailed, match="could not start a worker thread: can't start new thread"):
        with WorkerPool(2, tt_mb=None, threads=True) as pool:
            list(pool.run(_square, range(4)))


def test_leaving_a_thread_pool_by_an_exception_cancels_the_queued_tasks():
    ran = []

    def slow(x: int) -> int:
        time.sleep(0.02)
        ran.append(x)
        return x

    with pytest.raises(KeyError):
        with WorkerPool(2, tt_mb=None, threads=True) as pool:
            futures = [pool.submit(slow, i) for i in range(100)]
            raise KeyError("leave")
    n = len(ran)
    assert n < 100 and all(f.done() for f in futures)   # the running ones ended, the rest cancelled
    time.sleep(0.1)
    assert len(ran) == n


# --------------------------------------------------------------------------
# failures


@needs_proc
def test_a_dead_worker_raises_worker_died():
    before = set(children(os.getpid()))
    with pytest.raises(WorkerDied, match="a worker process died") as caught:
        with WorkerPool(2, tt_mb=4) as pool:
            assert pool.result(pool.submit(_square, 1)) == (1, 1)   # the workers are up
            kids = [k for k in children(os.getpid()) if k not in before]
            assert len(kids) == 2
            list(pool.run(_die_on_3, range(10)))
    assert not isinstance(caught.value, BrokenProcessPool)
    assert isinstance(caught.value, DobbmRuntimeError) and "4 MiB" in str(caught.value)
    assert _wait_gone(kids, 5) == []


class _NoTable:
    def __init__(self, tt_mb: int) -> None:
        raise MemoryError(f"cannot allocate a {tt_mb} MiB table")


def _boom(tt_mb: int) -> None:
    raise ZeroDivisionError("a bug in start-up")


@needs_proc
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_worker_that_cannot_start_is_one_clear_error(monkeypatch, capfd, jobs):
    monkeypatch.setattr(_pool, "Solver", _NoTable)   # read by worker_solver, inherited by the forks
    before = set(children(os.getpid()))
    with pytest.raises(WorkerStartFailed, match="a worker could not start: MemoryError: cannot allocate a 4 MiB"):
        with WorkerPool(jobs, tt_mb=4) as pool:
            list(pool.run(_square, range(10)))
    assert issubclass(WorkerStartFailed, DobbmRuntimeError)
    assert "Traceback" not in capfd.readouterr().err   # the workers print nothing of their own
    assert _wait_gone([k for k in children(os.getpid()) if k not in before], 5) == []


def test_a_bug_in_start_up_stays_a_bug(monkeypatch, capfd):
    monkeypatch.setattr(_pool, "Solver", _boom)
    with pytest.raises(ZeroDivisionError, match="a bug in start-up"):
        with WorkerPool(2, tt_mb=4) as pool:
            list(pool.run(_square, range(4)))
    assert "Traceback" not in capfd.readouterr().err


def test_a_task_error_keeps_its_type():
    for jobs in (1, 2):
        with pytest.raises(ArithmeticError, match="item 2"):
            with WorkerPool(jobs, tt_mb=None) as pool:
                list(pool.run(_fail_on_2, range(6)))


@needs_proc
def test_leaving_by_an_exception_kills_the_workers_at_once():
    before = set(children(os.getpid()))
    t = time.monotonic()
    with pytest.raises(LookupError):
        with WorkerPool(2, tt_mb=None) as pool:
            pool.submit(time.sleep, 60)
            kids = [k for k in children(os.getpid()) if k not in before]
            raise LookupError
    assert time.monotonic() - t < 10
    assert len(kids) >= 2 and _wait_gone(kids, 5) == []


def test_killing_a_process_pool_joins_its_manager_thread():
    """Left running, the pool's manager thread raced with the interpreter's exit (a
    traceback on stderr after some Ctrl-Cs); before the fix it was still alive here
    nine times in ten."""
    for _ in range(3):
        ex = ProcessPoolExecutor(2, mp_context=_pool._fork_context())
        for _ in range(4):
            ex.submit(time.sleep, 30)
        time.sleep(0.1)     # the workers are busy
        manager = getattr(ex, "_executor_manager_thread", None)
        t = time.monotonic()
        _pool._kill_executor(ex)
        assert time.monotonic() - t < 10
        assert manager is None or not manager.is_alive()


# --------------------------------------------------------------------------
# Ctrl-C and a parent that dies: real processes

SCRIPT = textwrap.dedent('''
    import sys, time
    from dobbm_solver import _pool
    from dobbm_solver._pool import WorkerPool

    def slow(x):
        time.sleep(0.3)
        return x

    if __name__ == "__main__":
        jobs, how = int(sys.argv[1]), sys.argv[2]
        if sys.argv[3:] == ["watchdog"]:   # no signal from the kernel: the watchdog alone
            _pool.PARENT_DEATH_SIGNAL = 0
        done = 0
        with WorkerPool(jobs, tt_mb=None) as pool:
            for item, r in pool.run(slow, range(10000)):
                done += 1
                print("result", r, flush=True)
            print("interrupted" if pool.interrupted else "finished", done, flush=True)
            if how == "raise" and pool.interrupted:
                raise KeyboardInterrupt   # leave at once: the workers are killed
        sys.exit(130 if pool.interrupted else 0)
''')


def _start(tmp_path: Path, *args: str) -> subprocess.Popen:
    script = tmp_path / "uses_pool.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, str(script), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@needs_proc
@pytest.mark.parametrize("jobs, how", [("2", "finish"), ("2", "raise"), ("1", "finish")])
def test_ctrl_c_stops_the_run_and_no_worker_survives(tmp_path, jobs, how):
    proc = _start(tmp_path, jobs, how)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("result"), (first, proc.stderr.read() if proc.stderr else "")
        kids = children(proc.pid, recursive=True)
        assert len(kids) == (int(jobs) if jobs != "1" else 0)
        t = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)   # as Ctrl-C does: the workers get it too
        out, err = proc.communicate(timeout=30)
        stopped = time.monotonic() - t
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert stopped < 5
    if how == "raise":
        assert proc.returncode != 0 and "KeyboardInterrupt" in err
        assert "WorkerDied" not in err and "BrokenProcessPool" not in err
    else:
        assert proc.returncode == 130, err
        assert "Traceback" not in err
    assert out.splitlines()[-1].startswith("interrupted ")
    assert _wait_gone(kids, 2) == []


@needs_proc
@pytest.mark.parametrize("how", ["kernel", "watchdog"])
def test_workers_exit_when_the_parent_is_killed(tmp_path, how):
    proc = _start(tmp_path, "2", "finish", how)
    kids: list[int] = []
    try:
        assert proc.stdout is not None and proc.stdout.readline().startswith("result")
        kids = children(proc.pid, recursive=True)
        assert len(kids) == 2
        proc.send_signal(signal.SIGKILL)   # no clean-up in the parent at all
        proc.wait(timeout=10)
        left = _wait_gone(kids, 5 + 2 * _pool.WATCHDOG_SECONDS)
    finally:
        for k in kids:   # the test's own processes, if the watchdog failed
            if alive(k):
                os.kill(k, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert left == []


def test_every_error_of_the_package_crosses_a_process_boundary() -> None:
    # a worker raises its error to the parent by pickling it: every error class
    # with arguments of its own must come back whole (one did not, and hung a Pool)
    import pickle

    from dobbm_solver.analyzer.view import AnalyzerError
    from dobbm_solver.deal import DealError
    from dobbm_solver.handfile import HandFileError
    from dobbm_solver.notation import NotationError

    for err in (HandFileError("f.yaml", "hands.Bert", "nine cards", 2), AnalyzerError("v.yaml", "bids", "unlikely"),
                DealError("discard", "not four cards"), NotationError("head", "missing")):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err) and vars(back) == vars(err)
