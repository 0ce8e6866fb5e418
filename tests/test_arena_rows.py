"""The arena's result file under the shared policy of dobbm_solver/resultfile.py.

Each test is a way a careless or hostile user could hand the arena a result
file: a second writer, rows from elsewhere, rows with fields missing, a FIFO,
a device, a full disk.  Each must end in one clean line and a file left as
it was (or only whole rows added), never a hang or a traceback.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dobbm_solver import cli
from dobbm_solver.arena import ArenaConfig, ArenaError, parse_player, run_arena
from dobbm_solver.arena.rows import ArenaWriteError
from dobbm_solver.resultfile import MAX_LINE

REPO = Path(__file__).resolve().parents[1]
RULE = ("rule", "rule", "--seed", "3", "-j", "1", "-q")


def run(*args: str):
    return CliRunner().invoke(cli.main, ["arena", *args])


def refused(r, path: Path, before: bytes, says: str) -> None:
    """One clean line naming the file, exit 2, the file byte for byte as it was."""
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and len(r.stderr.strip().splitlines()) == 1
    assert str(path) in r.stderr and says in r.stderr, r.stderr
    assert path.read_bytes() == before


@pytest.fixture
def written(tmp_path) -> Path:
    """A result file of three deals of rule against rule, seed 3."""
    out = tmp_path / "rows.jsonl"
    assert run(*RULE, "--deals", "3", "-o", str(out)).exit_code == 0
    assert len(out.read_text().splitlines()) == 4
    return out


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_a_rerun_resumes_and_counts_each_deal_once(written):
    r = run(*RULE, "--deals", "4", "-o", str(written), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert (out["resumed"], out["played"], out["deals"]) == (3, 1, 4)
    assert [row["deal"] for row in lines(written)[1:]] == [0, 1, 2, 3]


def test_a_second_writer_is_refused(written):
    before = written.read_bytes()
    fd = os.open(written, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)     # as a running arena holds it
        r = run(*RULE, "--deals", "5", "-o", str(written))
        refused(r, written, before, "another arena is writing this file")
    finally:
        os.close(fd)
    assert run(*RULE, "--deals", "5", "-o", str(written)).exit_code == 0


def test_two_arenas_at_once_leave_whole_rows(tmp_path):
    out = tmp_path / "rows.jsonl"
    cmd = [sys.executable, "-m", "dobbm_solver.cli", "arena", "open", "rule", "--deals", "6", "-j", "1", "-q",
           "-o", str(out)]
    procs = [subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    results = [p.communicate(timeout=300) for p in procs]
    codes = sorted(p.returncode for p in procs)
    # both may run one after the other; when they overlap the second is refused cleanly
    assert codes in ([0, 0], [0, 2]), results
    if codes == [0, 2]:
        err = next(e for p, (_, e) in zip(procs, results) if p.returncode == 2)
        assert "another arena is writing this file" in err and "Traceback" not in err
    rows = lines(out)[1:]
    assert sorted(r["deal"] for r in rows) == list(range(6))
    assert out.read_text().endswith("\n")


def _edit_row(path: Path, n: int, change) -> bytes:
    """``path`` with line ``n`` (1-based) changed by ``change(row)``; its new bytes."""
    text = path.read_text().splitlines()
    row = json.loads(text[n - 1])
    change(row)
    text[n - 1] = json.dumps(row, sort_keys=True)
    path.write_text("\n".join(text) + "\n")
    return path.read_bytes()


def test_a_row_of_another_seed_is_refused(written, tmp_path):
    other = tmp_path / "other.jsonl"
    assert run("rule", "rule", "--seed", "4", "-j", "1", "-q", "--deals", "1", "-o", str(other)).exit_code == 0
    with open(written, "a") as f:      # a row of seed 4 appended to seed 3's file
        f.write(other.read_text().splitlines()[1] + "\n")
    before = written.read_bytes()
    refused(run(*RULE, "--deals", "5", "-o", str(written)), written, before, "line 5: a row of seed 4")


def test_a_row_whose_seed_was_edited_is_refused(written):
    before = _edit_row(written, 2, lambda row: row.update(seed=4))
    refused(run(*RULE, "--deals", "5", "-o", str(written)), written, before, "line 2: a row of seed 4")


@pytest.mark.parametrize("deal, says", [(-1, "deal -1 is not a deal number"),
                                        (10 ** 7, "deal 10000000 is not a deal number"),
                                        (1, "deal 1 is in the file twice"),
                                        (7, "the cards of deal 7 are not those seed 3 deals")])
def test_a_row_with_a_deal_number_outside_the_run_is_refused(written, deal, says):
    before = _edit_row(written, 4, lambda row: row.update(deal=deal))
    refused(run(*RULE, "--deals", "5", "-o", str(written)), written, before, f"line 4: {says}")


def test_rows_past_a_shorter_rerun_are_kept_and_not_counted(written):
    r = run(*RULE, "--deals", "2", "-o", str(written), "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["deals"] == 2
    assert len(lines(written)) == 4


def _drop(key_path: str):
    def change(row: dict) -> None:
        *parents, last = key_path.split(".")
        obj = row
        for k in parents:
            obj = obj[k]
        del obj[last]
    return change


def _set(key_path: str, value):
    def change(row: dict) -> None:
        *parents, last = key_path.split(".")
        obj = row
        for k in parents:
            obj = obj[k]
        obj[last] = value
    return change


@pytest.mark.parametrize("change, says", [
    (_drop("tables"), "line 3: tables: missing"),
    (_drop("tables.base.units"), "line 3: tables.base.units: missing"),
    (_drop("tables.base.units.Bert"), "line 3: tables.base.units.Bert: must be a whole number"),
    (_set("tables.base.units.Bert", "3"), "line 3: tables.base.units.Bert: must be a whole number, not '3'"),
    (_set("tables.base.units.Bert", None), "line 3: tables.base.units.Bert: must be a whole number"),
    (_set("tables.base.doublings", 1.5), "line 3: tables.base.doublings: must be a whole number"),
    (_set("tables.base.bids", "pass"), "line 3: tables.base.bids: must be a list"),
    (_set("dobb", "HA HA HA HA"), "line 3: the cards of deal 1 are not those"),
    (_set("tables.A@9", {}), "line 3: tables: no table 'A@9'"),
    (_drop("tables.A@2"), "line 3: its tables are not those of rule against rule"),
    (_set("deal", "1"), "line 3: deal: must be a whole number, not '1'"),
    (_set("extra", 1), "line 3: row: unknown field 'extra'"),
    (lambda row: row["hands"].update(Anna=row["hands"]["Anna"].lower()), "line 3 is not a row as the arena writes"),
])
def test_a_row_with_a_missing_or_bad_field_is_refused(written, change, says):
    before = _edit_row(written, 3, change)
    refused(run(*RULE, "--deals", "3", "-o", str(written)), written, before, says)


def test_lines_that_are_no_rows_are_refused(written):
    before = written.read_bytes() + b"[1, 2]\n"
    written.write_bytes(before)
    refused(run(*RULE, "--deals", "3", "-o", str(written)), written, before, "line 5 is not an arena row")
    before = written.read_bytes()[:-7] + b"x" * (MAX_LINE + 10) + b"\n"
    written.write_bytes(before)
    refused(run(*RULE, "--deals", "3", "-o", str(written)), written, before, "line 5 is longer than")


def test_a_torn_last_line_is_dropped_only_if_it_begins_as_a_row(written):
    whole = written.read_bytes()
    written.write_bytes(whole + b'{"deal": 3, "dobb": "E')      # killed while writing
    assert run(*RULE, "--deals", "4", "-o", str(written)).exit_code == 0
    assert [r["deal"] for r in lines(written)[1:]] == [0, 1, 2, 3]
    before = whole + b"notes of mine"
    written.write_bytes(before)
    refused(run(*RULE, "--deals", "4", "-o", str(written)), written, before, "line 5 (no newline at the end)")


def test_a_file_the_arena_did_not_write_is_never_rewritten(tmp_path):
    for text in (b"\n", b"   \n", b'{"id": "x"}\n', b"no newline"):
        path = tmp_path / "notes.jsonl"
        path.write_bytes(text)
        refused(run(*RULE, "--deals", "1", "-o", str(path)), path, text, "not an arena result file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_as_output_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    cmd = [sys.executable, "-m", "dobbm_solver.cli", "arena", *RULE, "--deals", "1", "-o", str(fifo)]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=60)   # a hang fails here
    assert done.returncode == 2 and done.stderr == f"Error: --output {fifo}: is a named pipe (FIFO); " \
                                                   f"give a regular file\n"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/full", "/dev/null"])
def test_a_device_as_output_is_refused_before_reading(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    cmd = [sys.executable, "-m", "dobbm_solver.cli", "arena", *RULE, "--deals", "1", "-o", device]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr == f"Error: --output {device}: is a device; give a regular file\n"


def test_a_directory_or_a_missing_one_is_refused(tmp_path):
    r = run(*RULE, "--deals", "1", "-o", str(tmp_path))
    assert r.exit_code == 2 and "is a directory" in r.stderr
    r = run(*RULE, "--deals", "1", "-o", str(tmp_path / "no" / "rows.jsonl"))
    assert r.exit_code == 2 and "cannot be written: no such directory" in r.stderr


def _small_file_limit(limit: int):
    def setup() -> None:
        import resource
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)     # a write past the limit then fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return setup


@pytest.mark.skipif(sys.platform != "linux", reason="needs RLIMIT_FSIZE and SIGXFSZ")
def test_a_full_disk_ends_in_one_clean_line_and_whole_rows(written, tmp_path):
    # the file may not grow past its size plus half the shortest row: the next row fails to write
    size = written.stat().st_size
    half_row = min(len(line) for line in written.read_text().splitlines()[1:]) // 2
    cmd = [sys.executable, "-m", "dobbm_solver.cli", "arena", *RULE, "--deals", "6", "-o", str(written)]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120,
                          preexec_fn=_small_file_limit(size + half_row))
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"Error: --output {written}: cannot write (File too large)")
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert written.stat().st_size == size and written.read_text().endswith("\n")
    assert run(*RULE, "--deals", "6", "-o", str(written)).exit_code == 0    # and it resumes


def test_a_failed_write_is_not_hidden_by_the_close(tmp_path, monkeypatch):
    from dobbm_solver import resultfile
    out = tmp_path / "rows.jsonl"
    config = ArenaConfig(parse_player("rule"), parse_player("rule"), seed=3)
    run_arena(config, 1, str(out), jobs=1)
    before = out.read_bytes()

    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    def bad_close(fd: int) -> None:
        real_close(fd)
        raise OSError(28, "No space left on device")

    real_close = os.close
    monkeypatch.setattr(resultfile.os, "write", full)
    monkeypatch.setattr(resultfile.os, "close", bad_close)
    with pytest.raises(ArenaWriteError, match="cannot write"):
        run_arena(config, 3, str(out), jobs=1)
    monkeypatch.undo()
    assert out.read_bytes() == before


def test_a_bad_row_in_the_library_is_an_arena_error(written):
    _edit_row(written, 2, _drop("tables.base.units"))
    config = ArenaConfig(parse_player("rule"), parse_player("rule"), seed=3)
    with pytest.raises(ArenaError, match="line 2: tables.base.units: missing"):
        run_arena(config, 3, str(written), jobs=1)


@pytest.mark.parametrize("tail", ["x" * 300, "x" * 300 + "/rows.jsonl"])
def test_a_file_name_past_the_system_limit_is_one_clean_line(tmp_path, tail):
    r = run(*RULE, "--deals", "1", "-o", str(tmp_path / tail))
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert len(r.stderr.strip().splitlines()) == 1 and "File name too long" in r.stderr
