"""Signals and workers with real processes: the ``dobbm`` command as a user's shell runs it.

Each command starts in a session of its own, so its process group holds it
and its workers and nothing else: Ctrl-C in a terminal is SIGINT to that
group, and "no stray process" is checked on the group through /proc.  The
tests wait for the work to have started by the CPU time the group has used
(not by the clock), so they hold on a loaded machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from helpers import children

from dobbm_solver._interrupt import EXIT_INTERRUPTED

REPO = Path(__file__).resolve().parents[1]
HANDS = REPO / "hands"
LONG_BID = ["bid", str(HANDS / "bid.yaml"), "--json", "--seed", "1", "--samples", "50000"]
#: a long run on worker processes (the advice commands' workers are threads)
LONG_ARENA = ["arena", "advice", "rule", "--deals", "5000", "--seed", "1", "-q"]
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), None if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def group(pgid: int) -> list[int]:
    """The live (not zombie) processes of the process group ``pgid``."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            st = _stat(int(d.name))
            if st is not None and st[0] != "Z" and int(st[2]) == pgid:
                out.append(int(d.name))
    return out


def _wait_group_gone(pgid: int, seconds: float = 15.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while group(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return group(pgid)


def _cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        st = _stat(pid)
        if st is not None:
            total += int(st[11]) + int(st[12])   # utime, stime
    return total / TICKS


def start(args: list[str], **kw: object) -> subprocess.Popen:
    """``python -m dobbm_solver.cli ARGS`` in a session of its own, Ctrl-C not ignored."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "dobbm_solver.cli", *args], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **kw)


def wait_working(proc: subprocess.Popen, workers: int, cpu: float = 1.5, seconds: float = 90) -> list[int]:
    """Wait until ``proc`` has ``workers`` children and its group has used ``cpu``
    seconds (the samples are being solved); its children."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        kids = children(proc.pid)
        if len(kids) >= workers and _cpu_seconds([proc.pid, *kids]) >= cpu:
            return kids
        time.sleep(0.05)
    raise AssertionError(f"the command did not get to work: exit {proc.poll()}")


def finish(proc: subprocess.Popen, timeout: float = 60) -> tuple[str, str]:
    """The output of ``proc`` once it ended; the whole group killed if it hangs."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return out.decode(), err.decode()


@pytest.fixture
def cleanup():
    """Kill what a failing test left behind (its own process groups only)."""
    started: list[subprocess.Popen] = []
    yield started.append
    for proc in started:
        if group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --------------------------------------------------------------------------
# Ctrl-C during the analysis, in process and on workers


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_gives_partial_advice_and_130(jobs, cleanup):
    proc = start([*LONG_BID, "--jobs", str(jobs)])
    cleanup(proc)
    wait_working(proc, 0)
    assert children(proc.pid) == []             # the workers are threads of the command
    os.killpg(proc.pid, signal.SIGINT)          # as Ctrl-C in a terminal
    out, err = finish(proc)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err
    advice = json.loads(out)
    assert advice["partial"] is True and 0 < advice["samples"] < 50000 and advice["jobs"] == jobs
    assert _wait_group_gone(proc.pid) == []


# --------------------------------------------------------------------------
# the main process killed: no worker outlives it


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_a_killed_command_leaves_no_process(sig, cleanup):
    proc = start([*LONG_ARENA, "--jobs", "2"])
    cleanup(proc)
    kids = wait_working(proc, 2, cpu=0.5)
    os.kill(proc.pid, sig)                      # the main process only
    finish(proc, timeout=20)                    # it ends promptly
    assert proc.returncode in (-sig, 128 + sig, 1)
    assert _wait_group_gone(proc.pid) == [], f"left behind of {kids}"


# --------------------------------------------------------------------------
# a worker that dies


def test_a_dying_worker_is_one_line_and_exit_1(cleanup):
    proc = start([*LONG_ARENA, "--jobs", "2"])
    cleanup(proc)
    kids = wait_working(proc, 2, cpu=0.5)
    os.kill(kids[0], signal.SIGKILL)            # as the out-of-memory killer does
    out, err = finish(proc)
    assert proc.returncode == 1, err
    assert err.splitlines() == [err.strip()] and err.startswith("Error: a worker process died"), err
    assert out == ""
    assert _wait_group_gone(proc.pid) == []


def test_a_worker_that_cannot_start_is_one_line_and_exit_1(tmp_path, cleanup):
    # each worker allocates a 2 GiB table; the address space allows this process and not that
    limit = 1536 * 2 ** 20

    def small_address_space() -> None:
        import resource
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "dobbm_solver.cli", "study", str(HANDS / "example.yaml"),
                             "-o", str(tmp_path / "out.jsonl"), "--jobs", "2", "--tt-mb", "2048", "-q"],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=small_address_space)
    cleanup(proc)
    out, err = finish(proc)
    assert proc.returncode == 1, err
    assert err.splitlines() == [err.strip()], err
    assert err.startswith("Error: a worker could not start: MemoryError"), err
    assert _wait_group_gone(proc.pid) == []


# --------------------------------------------------------------------------
# Ctrl-C while the command starts

INTERRUPT_WHILE_LOADING = textwrap.dedent('''
    import importlib.abc, os, signal, sys

    MODULE = sys.argv[1]

    class CtrlCOn(importlib.abc.MetaPathFinder):
        """Ctrl-C the moment MODULE is imported, as a hand on the keyboard might."""
        def find_spec(self, name, path, target=None):
            if name == MODULE:
                os.kill(os.getpid(), signal.SIGINT)
            return None

    sys.meta_path.insert(0, CtrlCOn())
    sys.argv = ["dobbm", "check", sys.argv[2]]
    from dobbm_solver.cli import main   # what the installed dobbm command does
    sys.exit(main())
''')


@pytest.mark.parametrize("module", ["click", "dobbm_solver.jobs", "dobbm_solver.cli.boundary",
                                    "dobbm_solver.handfile", "dobbm_solver.report",
                                    "yaml.nodes", "click.testing"])
def test_ctrl_c_while_the_command_loads_is_130(module, cleanup):
    # click.testing: not imported at all, so Ctrl-C comes never and the command runs
    proc = _load_with_ctrl_c(module, signal.SIG_DFL)
    cleanup(proc)
    out, err = finish(proc)
    if module == "click.testing":
        assert proc.returncode == 0 and "Anna" in out, err
        return
    assert (proc.returncode, out, err) == (EXIT_INTERRUPTED, "", "Interrupted.\n")


def test_an_ignored_sigint_stays_ignored_while_loading(cleanup):
    proc = _load_with_ctrl_c("dobbm_solver.report", signal.SIG_IGN)   # as nohup or a background job
    cleanup(proc)
    out, err = finish(proc)
    assert proc.returncode == 0 and "Anna" in out, err


def _load_with_ctrl_c(module: str, disposition: object) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-c", INTERRUPT_WHILE_LOADING, module, str(HANDS / "example.yaml")],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, disposition))


CONSOLE_SCRIPT = textwrap.dedent('''
    # what pip writes for the project's console script (dobbm = "_dobbm_entry:main")
    import re
    import sys
    from _dobbm_entry import main
    if __name__ == "__main__":
        sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
        sys.exit(main())
''')


@pytest.mark.parametrize("entry", ["script", "module"])
@pytest.mark.parametrize("after", [0.0, 0.03, 0.08, 0.15, 0.3])
def test_ctrl_c_in_the_first_moments_is_130(tmp_path, entry, after, cleanup):
    # Ctrl-C from the moment the package loads its compiled core (its modules loading,
    # the command line read, the analysis starting): always 130, never a traceback
    if entry == "script":
        script = tmp_path / "dobbm"
        script.write_text(CONSOLE_SCRIPT)
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        proc = subprocess.Popen([sys.executable, str(script), *LONG_BID, "--jobs", "1"], cwd=REPO, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    else:
        proc = start(LONG_BID + ["--jobs", "1"])
    cleanup(proc)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if "_search" in Path(f"/proc/{proc.pid}/maps").read_text():
                break
        except OSError:
            pass
        time.sleep(0.001)
    time.sleep(after)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = finish(proc)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err and err.count("\n") == 1, err


#: Where code of ours (or that we load) runs: a traceback through any of these is a Ctrl-C we let through.
OUR_CODE = (f"{os.sep}dobbm_solver{os.sep}", f"{os.sep}click{os.sep}", f"{os.sep}yaml{os.sep}", "_dobbm_entry.py")


def _start_up_outcome(script: Path, after: float | None) -> tuple[int, str]:
    """The exit status and stderr of ``dobbm --version`` sent SIGINT ``after`` seconds after
    it was spawned (None: not at all)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, str(script), "--version"], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        if after is not None:
            time.sleep(after)
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err.decode(errors="replace")


def test_ctrl_c_at_any_moment_of_the_start_is_130(tmp_path):
    # SIGINT at delays after the spawn that sweep the whole start of the command: the first
    # 50 ms in steps of 2 ms, then through the whole run of `dobbm --version` (the command's
    # modules all load, the command line is read, the answer is written).  Each ends with the
    # one Ctrl-C line and 130, or ran to its end (0) before the signal came, or was stopped by
    # the signal before Python had set up its own handling (the shell says 130; nothing is
    # printed).  A Ctrl-C while Python itself is still starting (its site module and the .pth
    # files of the installation, setting the script up) is Python's: its traceback (or its own
    # line) is allowed only if no code of ours, or that we load, is in it.  The outcome of each
    # delay may vary from run to run; none of them is a failure, so the test does not flake.
    script = tmp_path / "dobbm"
    script.write_text(CONSOLE_SCRIPT)
    began = time.monotonic()
    assert _start_up_outcome(script, None) == (0, "")
    whole = time.monotonic() - began
    delays = [ms / 1000 for ms in range(0, 51, 2)] + [whole * k / 10 for k in range(1, 10)]
    outcomes = [(after, *_start_up_outcome(script, after)) for after in delays]
    bad = []
    for after, status, err in outcomes:
        if (status, err) in ((EXIT_INTERRUPTED, "Interrupted.\n"), (0, ""), (-signal.SIGINT, "")):
            continue
        last = err.rstrip().splitlines()[-1] if err.strip() else ""
        pythons = not any(where in err for where in OUR_CODE) and (
            last.startswith("KeyboardInterrupt")   # with its traceback, or none if it came in C (the script parsed)
            or last == "python: failed to set __main__.__loader__")   # Ctrl-C as Python sets up the script
        if not pythons:
            bad.append((round(after * 1000, 1), status, err[-600:]))
    assert not bad, bad
    assert any(status == EXIT_INTERRUPTED for _, status, _ in outcomes), outcomes   # the sweep reached our code


def test_the_entry_hands_ctrl_c_to_the_command():
    # the script's entry module ends the process at once while the command loads, with the
    # same line and status as the command; once the command runs, Ctrl-C is Python's
    # KeyboardInterrupt again (caught by the command's boundary), not the entry's handler
    code = textwrap.dedent('''
        import signal, sys
        import _dobbm_entry
        assert signal.getsignal(signal.SIGINT) is _dobbm_entry.end_at_once
        from dobbm_solver._interrupt import EXIT_INTERRUPTED, INTERRUPTED_MESSAGE
        assert _dobbm_entry.INTERRUPTED_LINE == (INTERRUPTED_MESSAGE + "\\n").encode()
        assert _dobbm_entry.EXIT_INTERRUPTED == EXIT_INTERRUPTED
        from dobbm_solver.cli import main
        assert signal.getsignal(signal.SIGINT) not in (signal.default_int_handler, _dobbm_entry.end_at_once)
        main.loading.release()   # what the command does when it starts to run
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        print("ok")
    ''')
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=60, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (proc.returncode, proc.stdout) == (0, "ok\n"), proc.stderr


# --------------------------------------------------------------------------
# Ctrl-C while the output is blocked: a whole document or none


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_while_stdout_is_blocked_leaves_whole_json(jobs, cleanup):
    # the document (about 70 KB) is more than a pipe holds: its writer blocks until read
    proc = start(["discard", str(HANDS / "discard.yaml"), "--json", "--all", "--seed", "1",
                  "--samples", "6", "--jobs", jobs], bufsize=0)
    cleanup(proc)
    assert proc.stdout is not None
    got = proc.stdout.read(1)                   # the document has begun
    assert got == b"{"
    time.sleep(0.3)                             # and its writer is blocked (the pipe is full)
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.3)
    while True:                                 # a slow reader
        piece = proc.stdout.read(4096)
        if not piece:
            break
        got += piece
        time.sleep(0.002)
    _, err = finish(proc)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err
    assert len(got) > 65536 and json.loads(got)["command"] == "discard"


def test_a_second_ctrl_c_while_blocked_stops_at_once(cleanup):
    proc = start(["discard", str(HANDS / "discard.yaml"), "--json", "--all", "--seed", "1",
                  "--samples", "6", "--jobs", "1"], bufsize=0)
    cleanup(proc)
    assert proc.stdout is not None and proc.stdout.read(1) == b"{"
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.3)
    assert proc.poll() is None                  # still waiting for the reader
    os.killpg(proc.pid, signal.SIGINT)          # the user insists
    proc.wait(timeout=20)
    err = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.returncode == EXIT_INTERRUPTED
    assert err.strip().splitlines() == ["Interrupted: the output was cut short."]


WRITE_BLOCKED = textwrap.dedent('''
    import os, signal, sys
    from dobbm_solver._interrupt import WholeOutput

    with WholeOutput(seconds=0.5) as out:
        os.kill(os.getpid(), signal.SIGINT)     # Ctrl-C, then a write nobody reads
        sys.stdout.write("x" * 300000)
        sys.stdout.flush()
    print("not reached", file=sys.stderr)
''')


def test_a_document_nobody_reads_ends_after_the_bounded_wait(cleanup):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-c", WRITE_BLOCKED], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    cleanup(proc)
    proc.wait(timeout=30)                       # nobody reads stdout
    err = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert err.strip().splitlines() == ["Interrupted: the output was cut short."]
