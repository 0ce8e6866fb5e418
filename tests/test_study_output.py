"""Tests of the study's result file: only a file that a study wrote is ever rewritten,
special files and links, a full disk, CSV quoting of odd paths, and the Dask address.

Every case runs on real files; the full-disk cases run the command in a child
process with a file size limit (and in a small tmpfs when one can be mounted),
the Ctrl-C case interrupts a child process that is connecting to a port that
never answers.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dobbm_solver import cli
from dobbm_solver.study import (
    TIMING_FIELDS,
    VALUE_COLUMNS,
    StudyDeal,
    StudyError,
    StudySummary,
    collect_deals,
    read_results,
    run_study,
)
from dobbm_solver.study.codecs import format_line
from dobbm_solver.study.dask_runner import check_address
from dobbm_solver.study.output import ResultFile

REPO = Path(__file__).resolve().parents[1]
HANDS = REPO / "hands"
SMALL = ("example.yaml", "midplay.yaml", "finished.yaml")   # three deals solved in no time
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def run(*args: str) -> Result:
    return CliRunner().invoke(cli.main, ["study", *args])


def refused(result: Result, path: Path, text: str) -> None:
    """Exit code 2, one line ``Error: PATH: ...`` naming the problem."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith(f"Error: {path}: ") and text in err, err


def untimed(rows: list[dict]) -> list[dict]:
    return sorted(({k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in rows), key=lambda r: r["id"])


def small_items() -> list[StudyDeal]:
    return collect_deals([HANDS / n for n in SMALL])


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, bytes]:
    """The three small deals as a study writes them: JSON lines and CSV."""
    d = tmp_path_factory.mktemp("written")
    out = {}
    for fmt in ("jsonl", "csv"):
        run_study(small_items(), d / f"o.{fmt}", jobs=1)
        out[fmt] = (d / f"o.{fmt}").read_bytes()
    return out


def left_alone(d: Path) -> list[str]:
    """The names in ``d`` (no temporary file may be left behind)."""
    return sorted(p.name for p in d.iterdir())


# --------------------------------------------------------------------------
# a file that a study did not write is never touched

FOREIGN = {
    "notes": b'{"important": "data"}\n',
    "notes, no newline": b'{"important": "data"}',
    "text": b"hello\n",
    "text, no newline": b"hello",
    "binary": b"\x00\xff\xfe\n\x01",
    "a list": b"[1, 2]\n",
    "blank lines": b"\n\n",
    "a row with a key more": None,      # made from the study's own rows below
    "rows, then notes": None,
    "rows, then notes with no newline": None,
    "rows, then a row cut before its mode": None,
    "one row cut short and nothing else": None,
}


def _foreign(kind: str, ours: bytes) -> bytes:
    rows = ours.splitlines(keepends=True)
    made = {
        "a row with a key more": rows[0].replace(b'{"id": ', b'{"note": 1, "id": '),
        "rows, then notes": ours + b'{"important": "data"}\n',
        "rows, then notes with no newline": ours + b'{"important": "data"}',
        "rows, then a row cut before its mode": ours + rows[0][:30],
        "one row cut short and nothing else": rows[0][:-20],
    }
    return made.get(kind, FOREIGN[kind] or b"")


@pytest.mark.parametrize("kind", list(FOREIGN))
def test_a_file_a_study_did_not_write_is_left_as_it_was(tmp_path, written, kind):
    out = tmp_path / "notes.json"
    before = _foreign(kind, written["jsonl"])
    out.write_bytes(before)
    r = run(*(str(HANDS / n) for n in SMALL), "-o", str(out))
    refused(r, out, "not a study output? (the file is left as it is)")
    assert out.read_bytes() == before
    assert left_alone(tmp_path) == ["notes.json"]
    with pytest.raises(StudyError, match="not a study output"):
        read_results(out)


CSV_FOREIGN = {
    "another header": b"id,hash,points\nx,y,3\n",
    "no header": None,
    "header, then a short record": None,
    "header, rows, then notes with no newline": None,
    "header, rows, then notes": None,
    "a header only, cut": None,
}


@pytest.mark.parametrize("kind", list(CSV_FOREIGN))
def test_a_csv_a_study_did_not_write_is_left_as_it_was(tmp_path, written, kind):
    ours = written["csv"]
    header, *rows = ours.splitlines(keepends=True)
    before = CSV_FOREIGN[kind] or {
        "no header": b"".join(rows),
        "header, then a short record": header + b"a,b,c\n",
        "header, rows, then notes with no newline": ours + b"my notes",
        "header, rows, then notes": ours + b"my notes\n",
        "a header only, cut": header[:20],
    }[kind]
    out = tmp_path / "o.csv"
    out.write_bytes(before)
    r = run(*(str(HANDS / n) for n in SMALL), "-o", str(out))
    refused(r, out, "not a study output? (the file is left as it is)")
    assert out.read_bytes() == before
    assert left_alone(tmp_path) == ["o.csv"]


def test_the_reported_case_in_a_real_process(tmp_path):
    out = tmp_path / "notes.json"
    out.write_text('{"important": "data"}\n')
    done = subprocess.run([sys.executable, "-m", "dobbm_solver.cli", "study", str(HANDS / "example.yaml"),
                           "-o", str(out)], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"Error: {out}: line 1 is not a result row of a study; not a study output? " \
                          "(the file is left as it is)\n"
    assert out.read_text() == '{"important": "data"}\n'


@SETTINGS
@given(data=st.data())
def test_any_line_a_study_did_not_write_stops_it(tmp_path, written, data):
    """One foreign line anywhere in a study's own file: refused, the bytes kept."""
    fmt = data.draw(st.sampled_from(["jsonl", "csv"]))
    lines = written[fmt].splitlines(keepends=True)
    line = data.draw(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
                     .filter(lambda t: "\n" not in t and '"' not in t))
    at = data.draw(st.integers(1 if fmt == "csv" else 0, len(lines)))
    newline = data.draw(st.booleans()) or at < len(lines) or line == ""
    before = b"".join(lines[:at]) + line.encode() + (b"\n" if newline else b"") + b"".join(lines[at:])
    out = tmp_path / f"h.{fmt}"
    out.write_bytes(before)
    with pytest.raises(StudyError, match="not a study output"):
        run_study(small_items(), out, jobs=1)
    assert out.read_bytes() == before


@SETTINGS
@given(data=st.data())
def test_a_file_cut_anywhere_resumes_or_is_left_alone(tmp_path, written, data):
    """Cut a study's file at any byte: it resumes to the same rows, or (when nothing
    before the cut says a study wrote it) is refused and kept as it is."""
    fmt = data.draw(st.sampled_from(["jsonl", "csv"]))
    whole = written[fmt]
    cut = whole[:data.draw(st.integers(0, len(whole)))]
    out = tmp_path / f"c.{fmt}"
    out.write_bytes(cut)
    try:
        summary = run_study(small_items(), out, jobs=1)
    except StudyError as e:
        assert "not a study output" in str(e)
        assert out.read_bytes() == cut
        # only a cut inside the first line (JSON: a row, CSV: the header), or inside
        # the head of a row before its mode ends
        start = cut.rfind(b"\n") + 1
        assert start == 0 or len(cut) - start < _head_length(fmt, whole[start:])
        return
    assert summary.in_output == 3
    assert untimed(read_results(out)) == untimed(read_results_bytes(tmp_path, fmt, whole))
    assert out.read_bytes().endswith(b"\n")


def _head_length(fmt: str, row: bytes) -> int:
    """Bytes of a row up to the end of its mode (what a cut row must hold)."""
    mark = b'"mode": "value"' if fmt == "jsonl" else b",value,"
    return row.index(mark) + len(mark)


def read_results_bytes(tmp_path: Path, fmt: str, data: bytes) -> list[dict]:
    ref = tmp_path / f"ref.{fmt}"
    ref.write_bytes(data)
    return read_results(ref)


@SETTINGS
@given(data=st.binary(max_size=300) | st.text(st.sampled_from('{}[]",:\n\r\\ab0#é'), max_size=200).map(str.encode),
       fmt=st.sampled_from(["jsonl", "csv"]))
def test_any_bytes_are_rows_or_one_clear_error(tmp_path, data, fmt):
    from dobbm_solver.study.output import parse_results
    try:
        found = parse_results(data, fmt, "f")
    except StudyError as e:
        assert str(e).startswith("f: ") and "\n" not in str(e)
    else:   # then it is all rows a study writes, with at most a cut-short last one
        assert all(raw in data for raw, _ in found.rows) and data.endswith(found.tail)


@pytest.mark.parametrize("line", [b"[" * 100_000, b"a" * 200_000, b'{"id": "' + b"x" * 100_000])
def test_a_huge_or_deep_foreign_line_is_one_short_error(tmp_path, line):
    for fmt in ("jsonl", "csv"):
        out = tmp_path / f"big.{fmt}"
        out.write_bytes(line + b"\n")
        with pytest.raises(StudyError, match="not a study output") as e:
            run_study(small_items(), out, jobs=1)
        assert len(str(e.value)) < 300 and out.read_bytes() == line + b"\n"


# --------------------------------------------------------------------------
# links and special files


def test_a_symlink_is_written_through(tmp_path, written):
    target = tmp_path / "real" / "rows.jsonl"
    target.parent.mkdir()
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    ok = run(*(str(HANDS / n) for n in SMALL[:2]), "-o", str(link), "-q")     # a dangling link: the target is made
    assert ok.exit_code == 0, ok.output
    assert link.is_symlink() and len(target.read_bytes().splitlines()) == 2
    target.write_bytes(target.read_bytes()[:-15])                            # cut the last row: a rewrite
    ok = run(*(str(HANDS / n) for n in SMALL), "-o", str(link))
    assert ok.exit_code == 0, ok.output
    assert "1 already in" in ok.stderr and "2 solved" in ok.stderr and "cut-short last line dropped" in ok.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert untimed(read_results(target)) == untimed(read_results_bytes(tmp_path, "jsonl", written["jsonl"]))
    assert left_alone(target.parent) == ["rows.jsonl"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "rows.jsonl"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "dobbm_solver.cli", "study", str(HANDS / "example.yaml"),
                           "-o", str(fifo)], capture_output=True, text=True, cwd=REPO, timeout=30)
    assert done.returncode == 2
    assert done.stderr == f"Error: {fifo}: is a named pipe (FIFO); give a regular file\n"
    assert fifo.is_fifo()
    with pytest.raises(StudyError, match="is a named pipe"):   # and reading it does not wait for a writer
        read_results(fifo)


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_device_or_a_link_to_one_is_refused(tmp_path):
    link = tmp_path / "null.jsonl"
    link.symlink_to("/dev/null")
    refused(run(str(HANDS / "example.yaml"), "-o", str(link)), link, "is a device; give a regular file")
    d = tmp_path / "d.jsonl"
    d.mkdir()
    refused(run(str(HANDS / "example.yaml"), "-o", str(d)), d, "is a directory")


# --------------------------------------------------------------------------
# a full disk


def _limited(limit: int):
    def setup() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)      # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return setup


@pytest.mark.parametrize("fmt, limit", [("jsonl", 700), ("csv", 900), ("csv", 10)])
def test_a_write_that_fails_keeps_whole_rows_and_resumes(tmp_path, fmt, limit):
    out = tmp_path / f"rows.{fmt}"
    cmd = [sys.executable, "-m", "dobbm_solver.cli", "study", *(str(HANDS / n) for n in SMALL),
           "-o", str(out), "--jobs", "1"]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=60, preexec_fn=_limited(limit))
    assert done.returncode == 1, done.stderr
    assert done.stderr == (f"Error: {out}: cannot write (File too large); the rows written so far are kept: "
                           "make room and run the same command again to resume\n")
    data = out.read_bytes()
    assert data == b"" or data.endswith(b"\n")            # the part-row was taken back
    kept = read_results(out)
    assert len(kept) < 3
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=60)
    assert again.returncode == 0, again.stderr
    assert f"{len(kept)} already in" in again.stderr or not kept
    assert sorted(r["id"] for r in read_results(out)) == sorted(it.id for it in small_items())


@pytest.fixture
def tiny_disk(tmp_path):
    """A 64 KiB tmpfs (root only; skipped where it cannot be mounted)."""
    d = tmp_path / "disk"
    d.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(d)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield d
    finally:
        subprocess.run(["umount", str(d)], check=True)


def test_a_full_disk_during_a_rewrite_leaves_the_file(tiny_disk, written):
    out = tiny_disk / "rows.jsonl"
    before = written["jsonl"][:-10]                        # a cut row: the file must be rewritten
    out.write_bytes(before)
    filler = tiny_disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)         # fill the disk
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    r = run(*(str(HANDS / n) for n in SMALL), "-o", str(out))
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(f"Error: {out}: cannot ") and "Traceback" not in r.output
    assert out.read_bytes() == before
    assert left_alone(tiny_disk) == ["filler", "rows.jsonl"]
    filler.unlink()
    r = run(*(str(HANDS / n) for n in SMALL), "-o", str(out))
    assert r.exit_code == 0 and "2 already in" in r.stderr


# --------------------------------------------------------------------------
# CSV: odd paths are quoted and read back

ODD = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=30)


def _row(ident: str) -> dict:
    row = {k: "" for k in VALUE_COLUMNS}
    row.update(id=ident, hash="0123456789abcdef", mode="value", deal=f"solo Anna | {ident}", doublings=1,
               trumps=4, studied=False, declarer_points=61, defender_points=59, units=2, nodes=5, seconds=0.25)
    return row


@SETTINGS
@given(ids=st.lists(ODD, min_size=1, max_size=4, unique=True), cut=st.integers(1, 10))
def test_csv_rows_with_odd_ids_read_back_and_resume(tmp_path, ids, cut):
    ids = ["plain#1"] + [i for i in ids if i != "plain#1"]   # a whole row stays when the last is cut
    for fmt in ("csv", "jsonl"):
        out = tmp_path / f"odd.{fmt}"
        if out.exists():
            out.unlink()
        f = ResultFile(out, "value")
        f.prepare([])
        for ident in ids:
            f.write(_row(ident))
        f.close()
        assert read_results(out) == [_row(i) for i in ids]
        items = [StudyDeal(i, "0123456789abcdef", "") for i in ids]
        f = ResultFile(out, "value")
        try:
            done, stale, truncated = f.prepare(items)
        finally:
            f.close()
        assert (done, stale, truncated) == ({(i, "0123456789abcdef") for i in ids}, 0, False)
        # the last row cut short: dropped, the others kept byte for byte
        data = out.read_bytes()
        last = format_line(fmt, _row(ids[-1]), VALUE_COLUMNS).encode()
        out.write_bytes(data[:-cut])
        f = ResultFile(out, "value")
        try:
            done, _, truncated = f.prepare(items)
        finally:
            f.close()
        assert truncated and done == {(i, "0123456789abcdef") for i in ids[:-1]}
        assert out.read_bytes() == data[:len(data) - len(last)]


def test_a_csv_study_of_files_with_odd_names_resumes(tmp_path):
    d = tmp_path / 'a "b",\nc é\r'
    d.mkdir()
    for n in SMALL:
        shutil.copy(HANDS / n, d / f"x,\n\"{n}")
    out = tmp_path / "rows.csv"
    r = run(str(d), "-o", str(out), "-q")
    assert r.exit_code == 0, r.output
    ids = sorted(it.id for it in collect_deals([d]))
    assert sorted(x["id"] for x in read_results(out)) == ids and any("\n" in i and "\r" in i for i in ids)
    r = run(str(d), "-o", str(out))
    assert "3 already in" in r.stderr and "nothing left to solve" in r.stderr
    out.write_bytes(out.read_bytes()[:-20])
    r = run(str(d), "-o", str(out))
    assert r.exit_code == 0 and "2 already in" in r.stderr and "1 solved" in r.stderr
    assert sorted(x["id"] for x in read_results(out)) == ids


def test_a_name_that_is_not_utf8_is_refused_before_anything_is_written(tmp_path):
    d = tmp_path / "deals"
    d.mkdir()
    shutil.copy(HANDS / "example.yaml", os.fsencode(d) + b"/bad\xff.yaml")
    out = tmp_path / "rows.jsonl"
    r = run(str(d), "-o", str(out))
    assert r.exit_code == 2 and "bad\\udcff.yaml#1: the name is not UTF-8 text" in r.stderr
    assert not out.exists()


# --------------------------------------------------------------------------
# Dask: the address


@pytest.mark.parametrize("address, parsed", [
    ("tcp://127.0.0.1:8786", ("tcp", "127.0.0.1", 8786)),
    ("127.0.0.1:8786", ("tcp", "127.0.0.1", 8786)),
    ("tls://sched.example.org:1", ("tls", "sched.example.org", 1)),
    ("tcp://[::1]:8786", ("tcp", "::1", 8786)),
    ("inproc://10.0.0.1/123/1", None),
])
def test_scheduler_addresses(address, parsed):
    assert check_address(address) == parsed


@pytest.mark.parametrize("address", ["", "tcp://", "tcp://host", "host", "http://host:80", "tcp://h:0",
                                     "tcp://h:65536", "tcp://h:8786/x", "tcp://h o:1", "tcp://hé:1", "://h:1"])
def test_bad_scheduler_addresses_exit_2_at_once(tmp_path, address):
    pytest.importorskip("distributed")
    out = tmp_path / "o.jsonl"
    t = time.monotonic()
    r = run(str(HANDS / "example.yaml"), "-o", str(out), "--scheduler", address)
    assert r.exit_code == 2 and "not a scheduler address" in r.stderr, r.output
    assert time.monotonic() - t < 5 and not out.exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_refused_scheduler_exits_2_at_once(tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "o.jsonl"
    address = f"tcp://127.0.0.1:{_free_port()}"
    t = time.monotonic()
    r = run(str(HANDS / "example.yaml"), "-o", str(out), "--scheduler", address)
    assert r.exit_code == 2, r.output
    assert r.stderr == f"Error: --scheduler {address}: connection refused: no Dask scheduler listens there\n"
    assert time.monotonic() - t < 5 and not out.exists()


def test_a_port_that_is_not_a_scheduler_is_one_line_and_exit_1(tmp_path):
    # something else listens there (a web server, a proxy) and answers with bytes that
    # Dask reads as the length of a message of exabytes: one line, not "out of memory"
    pytest.importorskip("distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

    threading.Thread(target=serve, daemon=True).start()
    out = tmp_path / "o.jsonl"
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        r = run(str(HANDS / "example.yaml"), "-o", str(out), "--scheduler", address)
    finally:
        server.close()
    assert r.exit_code == 1, r.output
    assert r.stderr == f"Error: --scheduler {address}: the port answered, but not as a Dask scheduler\n"
    assert not out.exists()


def test_summary_of_a_study_stopped_before_its_output_was_read():
    s = StudySummary(output="o.jsonl", total=5, where="tcp://h:1", interrupted=True)
    assert s.text() == ("interrupted before o.jsonl was read (while connecting to tcp://h:1): nothing written; "
                        "run the same command again")
    s.output_read, s.skipped, s.todo, s.solved, s.workers = True, 2, 3, 1, 2
    assert s.text().startswith("interrupted: 5 deals, 2 already in o.jsonl, 1 solved in ")
    assert s.text().endswith("; 3 of 5 in o.jsonl, 2 left: run the same command again to resume")


def test_ctrl_c_while_connecting_to_dask(tmp_path):
    """A port that accepts and never answers: the command waits in Dask's handshake;
    Ctrl-C then stops it at once, says nothing was written and leaves the output."""
    pytest.importorskip("distributed")
    out = tmp_path / "o.jsonl"
    run_study(small_items()[:2], out, jobs=1)
    before = out.read_bytes()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=serve, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    proc = subprocess.Popen([sys.executable, "-m", "dobbm_solver.cli", "study", *(str(HANDS / n) for n in SMALL),
                             "-o", str(out), "--scheduler", address], cwd=REPO, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 30
        while len(accepted) < 2 and time.monotonic() < deadline:   # the port tried, then Dask's connection
            time.sleep(0.02)
        assert len(accepted) >= 2 and proc.poll() is None
        time.sleep(0.2)
        t = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
        assert time.monotonic() - t < 5
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        server.close()
        for c in accepted:
            c.close()
    assert proc.returncode == 130, err
    assert err.strip() == (f"interrupted before {out} was read (while connecting to {address}): nothing written; "
                           "run the same command again")
    assert out.read_bytes() == before


@pytest.mark.parametrize("data", [b'"\n"\n', b'"a\rb",c\n', b'"x\n",y,z,w\nmore\n'])
def test_a_header_holding_a_line_break_is_named_on_one_line(data):
    """A quoted CSV field may hold a line break: the message shows it escaped (found by the fuzz test above)."""
    from dobbm_solver.study.output import parse_results
    with pytest.raises(StudyError) as e:
        parse_results(data, "csv", "f")
    assert str(e.value).startswith("f: line 1 is not the header") and "\n" not in str(e.value)
    assert "\r" not in str(e.value)


# --------------------------------------------------------------------------
# rows read back are checked field by field; lines are read with a size cap


@pytest.mark.parametrize("field, value", [("units", "2"), ("nodes", None), ("declarer_points", 1.5),
                                          ("studied", "yes"), ("seconds", "fast"), ("discard", 3)])
def test_a_row_with_a_field_of_the_wrong_type_is_refused(tmp_path, written, field, value):
    lines = written["jsonl"].decode().splitlines()
    row = json.loads(lines[1])
    row[field] = value
    lines[1] = json.dumps(row)
    out = tmp_path / "o.jsonl"
    before = ("\n".join(lines) + "\n").encode()
    out.write_bytes(before)
    refused(run(*(str(HANDS / n) for n in SMALL), "-o", str(out)), out, "line 2 is not a result row of a study")
    assert out.read_bytes() == before


def test_a_row_with_a_missing_field_is_refused(tmp_path, written):
    lines = written["jsonl"].decode().splitlines()
    row = json.loads(lines[0])
    del row["units"]
    lines[0] = json.dumps(row)
    out = tmp_path / "o.jsonl"
    before = ("\n".join(lines) + "\n").encode()
    out.write_bytes(before)
    refused(run(*(str(HANDS / n) for n in SMALL), "-o", str(out)), out, "line 1 is not a result row of a study")
    assert out.read_bytes() == before


def test_a_line_too_long_to_be_a_row_is_refused_without_reading_on(tmp_path, written):
    from dobbm_solver.resultfile import MAX_LINE
    out = tmp_path / "o.jsonl"
    before = written["jsonl"] + b"x" * (MAX_LINE + 1) + b"\n" + written["jsonl"]
    out.write_bytes(before)
    refused(run(*(str(HANDS / n) for n in SMALL), "-o", str(out)), out, "line 4 is longer than")
    assert out.read_bytes() == before


@pytest.mark.parametrize("tail", ["x" * 300 + ".jsonl", "x" * 300 + "/rows.jsonl"])
def test_an_output_name_past_the_system_limit_is_one_clean_line(tmp_path, tail):
    r = run(str(HANDS / "example.yaml"), "-o", str(tmp_path / tail))
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert len(r.stderr.strip().splitlines()) == 1 and "File name too long" in r.stderr
