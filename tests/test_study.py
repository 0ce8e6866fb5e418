"""Tests of the batch study: ``dobbm study`` (cli.py) over the ``dobbm_solver.study`` package.

A small study set is built once per module in a temporary directory: the first
deals of ``hands/benchmark.yaml`` as a multi-document file, the shipped
examples (a discard study and a five-seat deal among them) in a subdirectory,
and a hidden directory with a broken file that the search must skip.  Every
row is checked against ``Solver().solve`` (or the best lay-away of
``study_discards``) on the same deal.  The Dask test starts its own
``distributed.LocalCluster``; the Ctrl-C test runs the command in a child
process and interrupts it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import alive, children

from dobbm_solver import cli
from dobbm_solver.cards import BB_TRUMPS, cards_text, parse_card, popcount, set_names
from dobbm_solver.dealer import random_deal
from dobbm_solver.handfile import dump_deals_yaml, load_hand_file
from dobbm_solver.notation import format_deal_line
from dobbm_solver.rules import units
from dobbm_solver.solver import Solver
from dobbm_solver.study import (
    ANALYZE_COLUMNS,
    TIMING_FIELDS,
    VALUE_COLUMNS,
    StudyError,
    StudyRunError,
    collect_deals,
    deals_from,
    read_results,
    run_study,
)
from dobbm_solver.study import local as study_local
from dobbm_solver.study.collect import deal_hash
from dobbm_solver.study.output import ResultFile
from dobbm_solver.study.rows import solve_chunk

REPO = Path(__file__).resolve().parents[1]
HANDS = REPO / "hands"
N_BENCH = 10        # deals of hands/benchmark.yaml in the study set


def run(*args: str) -> Result:
    return CliRunner().invoke(cli.main, ["study", *args])


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
    return result


def bad(result: Result, text: str) -> None:
    """Exit code 2 and one line on stderr naming the problem."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("Error: ") and text in err, err
    assert result.stdout == ""


def jsonl(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def untimed(rows: list[dict]) -> list[dict]:
    return sorted(({k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in rows),
                  key=lambda r: r["id"])


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("study")
    bench = load_hand_file(HANDS / "benchmark.yaml")[:N_BENCH]
    (d / "a.yaml").write_text(dump_deals_yaml(bench), encoding="utf-8")
    (d / "sub").mkdir()
    for name in ("example.yaml", "midplay.yaml", "finished.yaml"):
        shutil.copy(HANDS / name, d / "sub" / name)
    shutil.copy(HANDS / "five_players.yaml", d / "sub" / "five.yml")
    (d / "sub" / "notes.txt").write_text("not a hand file\n")
    (d / ".hidden").mkdir()
    (d / ".hidden" / "broken.yaml").write_text("hands: [\n")
    return d


@pytest.fixture(scope="module")
def expected(study_dir: Path) -> dict[str, dict]:
    """id -> the row's deterministic facts, from the solver directly."""
    solver = Solver()
    out = {}
    for f in sorted(p for p in study_dir.rglob("*.y*ml") if ".hidden" not in p.parts):
        deals = load_hand_file(f)
        for n, deal in enumerate(deals, 1):
            line = format_deal_line(deal)
            played, points = deal, solver.solve(deal).declarer_points
            if deal.tricks:   # the finished example: hands empty, count the played hearts
                trumps = None
            else:
                trumps = popcount(played.hands[deal.declarer] & BB_TRUMPS)
            ident = f"{f.relative_to(study_dir.parent).as_posix()}#{n}"
            out[ident] = {"hash": deal_hash(line), "deal": line, "points": points,
                          "trumps": trumps, "played": played}
    assert len(out) == N_BENCH + 4
    return out


@pytest.fixture(scope="module")
def local_rows(study_dir: Path, tmp_path_factory) -> list[dict]:
    """The study set solved with --jobs 2 into JSON lines (run once)."""
    out = tmp_path_factory.mktemp("out") / "rows.jsonl"
    cwd = os.getcwd()
    os.chdir(study_dir.parent)   # ids are the paths as given: relative here
    try:
        r = ok(run(study_dir.name, "--output", str(out), "--jobs", "2"))
    finally:
        os.chdir(cwd)
    assert "14 deals, 14 solved" in r.stderr
    return jsonl(out)


# --------------------------------------------------------------------------
# rows


def test_rows_match_the_solver(local_rows, expected):
    assert len(local_rows) == len(expected)
    assert {r["id"] for r in local_rows} == set(expected)
    for row in local_rows:
        assert tuple(row) == VALUE_COLUMNS
        exp = expected[row["id"]]
        assert row["hash"] == exp["hash"] and row["deal"] == exp["deal"]
        assert row["mode"] == "value"
        played = exp["played"]
        pts = row["declarer_points"]
        assert pts == exp["points"], row["id"]
        assert row["defender_points"] == 120 - pts
        assert row["outcome"] == ("win" if pts >= 61 else "standoff" if pts == 60 else "loss")
        assert row["units"] == units(pts, played.contract, played.doublings)
        assert (row["declarer"], row["contract"], row["doublings"]) == (
            played.declarer, played.contract, played.doublings)
        if exp["trumps"] is not None:
            assert row["trumps"] == exp["trumps"]
        assert row["discard"] == (cards_text(played.discard) if played.discard is not None else "")
        assert row["studied"] is False
        assert type(row["nodes"]) is int and row["nodes"] >= 0
        assert type(row["seconds"]) is float and row["seconds"] >= 0
    # the finished hand: 5 hearts in Bert's 8 cards, counted from the tricks
    (fin,) = [r for r in local_rows if r["id"].endswith("finished.yaml#1")]
    assert fin["trumps"] == 5 and fin["nodes"] == 0


def test_discard_study_row(tmp_path):
    """A Dobbm with no lay-away: every lay-away is solved, the best one is the row's."""
    out = tmp_path / "d.jsonl"
    ok(run(str(HANDS / "discard_study.yaml"), "--output", str(out)))
    (row,) = jsonl(out)
    (deal,) = load_hand_file(HANDS / "discard_study.yaml")
    ranked = Solver().study_discards(deal, jobs=1)   # as the batch row does
    best = ranked[0]
    assert row["studied"] is True and row["deal"] == format_deal_line(deal)
    assert row["declarer_points"] == best.declarer_points
    assert row["discard"] == cards_text(best.cards)
    assert row["nodes"] == sum(r.nodes for r in ranked)
    kept = (deal.hands[deal.declarer] | deal.dobb) & ~best.cards
    assert row["trumps"] == popcount(kept & BB_TRUMPS)


def test_ids_are_sorted_paths_and_doc_numbers(study_dir):
    items = collect_deals([study_dir])
    base = study_dir.as_posix()
    assert [it.id[len(base) + 1:] for it in items] == (
        [f"a.yaml#{n}" for n in range(1, N_BENCH + 1)]
        + ["sub/example.yaml#1", "sub/finished.yaml#1", "sub/five.yml#1", "sub/midplay.yaml#1"])
    # the same file named twice, or through "./", is one deal set
    again = collect_deals([study_dir / "a.yaml", f"{study_dir}/./a.yaml"])
    assert [it.id for it in again] == [it.id for it in items[:N_BENCH]]


def test_jobs_1_and_2_give_the_same_rows(local_rows, study_dir, tmp_path):
    out = tmp_path / "one.jsonl"
    cwd = os.getcwd()
    os.chdir(study_dir.parent)
    try:
        r = ok(run(study_dir.name, "--output", str(out), "--jobs", "1", "--quiet"))
        order = [it.id for it in collect_deals([study_dir.name])]
    finally:
        os.chdir(cwd)
    assert r.stderr == ""   # --quiet: no summary
    rows = jsonl(out)
    assert untimed(rows) == untimed(local_rows)
    assert [x["id"] for x in rows] == order     # one worker writes in deal order


def test_csv_output_and_resume(local_rows, study_dir, tmp_path):
    out = tmp_path / "rows.csv"
    cwd = os.getcwd()
    os.chdir(study_dir.parent)
    try:
        ok(run(study_dir.name, "--output", str(out), "-q"))
        lines = out.read_text().splitlines()
        assert lines[0] == ",".join(VALUE_COLUMNS)
        assert sum(line == lines[0] for line in lines) == 1 and len(lines) == len(local_rows) + 1
        assert untimed(read_results(out)) == untimed(local_rows)
        # resume: nothing to do; a cut-short last line is solved again, the header kept once
        r = ok(run(study_dir.name, "--output", str(out)))
        assert "nothing left to solve" in r.stderr
        data = out.read_bytes()
        out.write_bytes(data[:-25])
        r = ok(run(study_dir.name, "--output", str(out)))
        assert "1 solved" in r.stderr and "cut-short last line dropped" in r.stderr
        lines = out.read_text().splitlines()
        assert sum(line == lines[0] for line in lines) == 1 and len(lines) == len(local_rows) + 1
        assert untimed(read_results(out)) == untimed(local_rows)
        # a value-mode CSV cannot take analyze rows
        bad(run(study_dir.name, "--output", str(out), "--mode", "analyze"), "columns")
    finally:
        os.chdir(cwd)


def test_resume_truncated_and_edited(local_rows, study_dir, tmp_path):
    d = tmp_path / "study"
    shutil.copytree(study_dir, d, ignore=shutil.ignore_patterns(".hidden", "a.yaml"))
    out = tmp_path / "rows.jsonl"
    ok(run(str(d), "--output", str(out), "--jobs", "2"))
    first = out.read_bytes()
    rows = jsonl(out)
    assert len(rows) == 4

    # a second run skips every deal and leaves the file as it was
    r = ok(run(str(d), "--output", str(out)))
    assert "4 already in" in r.stderr and "nothing left to solve" in r.stderr
    assert out.read_bytes() == first

    # a run stopped mid-line: the cut-short line is dropped and that deal solved again
    out.write_bytes(first[:-40])
    r = ok(run(str(d), "--output", str(out)))
    assert "3 already in" in r.stderr and "1 solved" in r.stderr
    assert untimed(jsonl(out)) == untimed(rows)

    # an edited deal (a doubling said) is solved again; its old row is gone
    five = d / "sub" / "five.yml"
    five.write_text(five.read_text().replace("doublings: 1", "doublings: 2"))
    r = ok(run(str(d), "--output", str(out)))
    assert "1 solved" in r.stderr and "1 stale row replaced" in r.stderr
    new = jsonl(out)
    assert len(new) == 4 and len({x["id"] for x in new}) == 4
    (old_five,) = [x for x in rows if x["id"].endswith("five.yml#1")]
    (new_five,) = [x for x in new if x["id"].endswith("five.yml#1")]
    assert new_five["hash"] != old_five["hash"] and new_five["doublings"] == 2
    assert new_five["declarer_points"] == old_five["declarer_points"]
    assert new_five["units"] == 2 * old_five["units"]
    assert untimed([x for x in new if x["id"] != new_five["id"]]) == \
        untimed([x for x in rows if x["id"] != old_five["id"]])


def test_limit_then_resume(study_dir, tmp_path):
    out = tmp_path / "rows.jsonl"
    r = ok(run(str(study_dir / "a.yaml"), "--output", str(out), "--limit", "3"))
    assert "3 solved" in r.stderr and f"{N_BENCH - 3} left (--limit)" in r.stderr
    assert len(jsonl(out)) == 3
    ok(run(str(study_dir / "a.yaml"), "--output", str(out)))
    assert sorted(x["id"] for x in jsonl(out)) == sorted(it.id for it in collect_deals([study_dir / "a.yaml"]))


def test_analyze_mode(tmp_path):
    out = tmp_path / "an.json"
    ok(run(str(HANDS / "example.yaml"), str(HANDS / "midplay.yaml"), "--output", str(out), "--mode", "analyze"))
    rows = jsonl(out)
    solver = Solver()
    for row, name in zip(sorted(rows, key=lambda x: x["id"]), ("example.yaml", "midplay.yaml")):
        assert tuple(row) == ANALYZE_COLUMNS and row["mode"] == "analyze"
        (deal,) = load_hand_file(HANDS / name)
        an = solver.analyze(deal)
        assert row["declarer_points"] == an.declarer_points
        assert row["to_move"] == an.to_move
        assert row["line"].split() == [set_names([c])[0] for c in an.line]
        assert row["best_card"] == row["line"].split()[0]
        assert an.cards[parse_card(row["best_card"])] == an.declarer_points
    # value rows and analyze rows do not mix in one file
    bad(run(str(HANDS / "example.yaml"), "--output", str(out)), "--mode analyze")


def test_library_in_memory_deals(tmp_path):
    import random
    rng = random.Random(3)
    deals = [(f"r#{i}", random_deal(rng, contract="solo")) for i in range(4)]
    out = tmp_path / "mem.jsonl"
    summary = run_study(deals_from(deals), out, jobs=1)
    assert (summary.total, summary.solved, summary.skipped, summary.interrupted) == (4, 4, 0, False)
    rows = read_results(out)
    solver = Solver()
    assert [r["id"] for r in rows] == [i for i, _ in deals]          # one worker: deal order
    assert [r["declarer_points"] for r in rows] == [solver.solve(d).declarer_points for _, d in deals]
    assert run_study(deals_from(deals), out, jobs=2).skipped == 4
    with pytest.raises(StudyError, match="given twice"):
        deals_from(deals + deals[:1])


def test_second_writer_is_refused(tmp_path):
    out = tmp_path / "x.jsonl"
    holder = ResultFile(out, "value")
    holder.prepare([])
    try:
        with pytest.raises(StudyError, match="another study is writing"):
            run_study(deals_from([]), out)
    finally:
        holder.close()
    run_study(deals_from([]), out)


@pytest.mark.parametrize("args, text", [
    (("nope.yaml", "--output", "{tmp}/o.jsonl"), "nope.yaml: no such file or directory"),
    (("{tmp}", "--output", "{tmp}/o.jsonl"), "no hand files"),
    (("{hands}/example.yaml", "--output", "{tmp}/o.txt"), "output must end in .jsonl"),
    (("{hands}/example.yaml", "--output", "{tmp}/no/o.jsonl"), "no such directory"),
    (("{hands}/revoke.yaml", "--output", "{tmp}/o.jsonl"), "revoke.yaml: tricks: trick 1: Cora plays LK, a revoke"),
    (("{hands}/example.yaml", "--output", "{tmp}/o.jsonl", "--jobs", "2", "--scheduler", "tcp://x:1"),
     "not both"),
    (("{hands}/example.yaml", "--output", "{tmp}/o.jsonl", "--jobs", "257"), "--jobs"),
    (("{hands}/example.yaml", "--output", "{tmp}/o.jsonl", "--jobs", "-1"), "--jobs"),
    (("{hands}/example.yaml", "--output", "{tmp}/junk.jsonl"), "line 1 is not a result row"),
])
def test_bad_input_exit_2(tmp_path, args, text):
    (tmp_path / "junk.jsonl").write_text('not json\n{"id": "x", "hash": "y"}\n')
    argv = [a.format(tmp=tmp_path, hands=HANDS) for a in args]
    r = run(*argv)
    if "--jobs" in argv and argv[-1] in ("257", "-1"):   # click's own range check: exit 2 with usage
        assert r.exit_code == 2 and "--jobs" in r.stderr
        return
    bad(r, text)
    assert not (tmp_path / "o.jsonl").exists()


def _example_items() -> list:
    return deals_from([(f"ex#{k}", load_hand_file(HANDS / "example.yaml")[0]) for k in range(4)])


@pytest.mark.parametrize("kwargs, text", [
    ({"jobs": -1}, "jobs must be a whole number from 1 to 256"),
    ({"jobs": 257}, "jobs must be a whole number from 1 to 256"),
    ({"jobs": True}, "jobs must be"),
    ({"jobs": 2.0}, "jobs must be"),
    ({"limit": -1}, "limit must be 0 or more"),
    ({"tt_mb": 0}, "table size must be"),
    ({"chunk_size": 0}, "chunk size must be"),
    ({"chunk_size": -2}, "chunk size must be"),
    ({"mode": "analyse"}, "mode must be one of value | analyze"),
])
def test_bad_options_are_study_errors(tmp_path, kwargs, text):
    with pytest.raises(StudyError, match=text):
        run_study(_example_items(), tmp_path / "o.jsonl", **kwargs)
    assert not (tmp_path / "o.jsonl").exists()


def test_jobs_0_is_every_core(study_dir, tmp_path):
    out = tmp_path / "o.jsonl"
    r = ok(run(str(study_dir / "a.yaml"), "--output", str(out), "--jobs", "0"))
    workers = min(len(os.sched_getaffinity(0)), N_BENCH)
    assert f"({workers} worker{'s' if workers > 1 else ''})" in r.stderr
    assert len(jsonl(out)) == N_BENCH


_SOLVED_IN: list[int] = []


def _solve_chunk_here(items, mode="value", tt_mb=64):
    _SOLVED_IN.append(os.getpid())
    return solve_chunk(items, mode, tt_mb)


def _die(items, mode="value", tt_mb=64):
    os._exit(3)


def test_jobs_1_solves_in_this_process(tmp_path, monkeypatch):
    monkeypatch.setattr(study_local, "solve_chunk", _solve_chunk_here)
    _SOLVED_IN.clear()
    summary = run_study(_example_items(), tmp_path / "o.jsonl", jobs=1, chunk_size=1)
    assert summary.solved == 4 and summary.workers == 1
    assert _SOLVED_IN == [os.getpid()] * 4


def test_a_dead_worker_is_a_run_error(tmp_path, monkeypatch):
    monkeypatch.setattr(study_local, "solve_chunk", _die)   # forked workers see it too
    out = tmp_path / "o.jsonl"
    r = run(str(HANDS / "example.yaml"), str(HANDS / "midplay.yaml"), "--output", str(out), "--jobs", "2")
    assert r.exit_code == 1, (r.exit_code, r.output, r.exception)
    assert "Error: a worker process died (out of memory? each holds a 64 MiB table" in r.stderr
    assert "Traceback" not in r.output and read_results(out) == []
    with pytest.raises(StudyRunError, match="try fewer --jobs or a smaller --tt-mb"):
        run_study(_example_items(), out, jobs=2, tt_mb=4)


def test_read_results_of_a_file_that_is_not_text(tmp_path):
    out = tmp_path / "o.jsonl"
    out.write_bytes(b'{"id": "\xff\xfe"}\n')
    with pytest.raises(StudyError, match="not UTF-8"):
        read_results(out)
    with pytest.raises(StudyError, match="none.csv: No such file"):
        read_results(tmp_path / "none.csv")


def test_skip_invalid(tmp_path):
    out = tmp_path / "o.jsonl"
    r = ok(run(str(HANDS / "revoke.yaml"), str(HANDS / "example.yaml"), "--output", str(out), "--skip-invalid"))
    assert "Warning: skipped: " in r.stderr and "revoke" in r.stderr
    assert len(jsonl(out)) == 1


def test_missing_dask_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)   # import fails as if not installed
    bad(run(str(HANDS / "example.yaml"), "--output", str(tmp_path / "o.jsonl"), "--scheduler", "tcp://127.0.0.1:1"),
        "pip install 'dobbm-solver[dask]'")
    assert not (tmp_path / "o.jsonl").exists()


def test_example_script(tmp_path):
    png = tmp_path / "t.png"
    r = subprocess.run([sys.executable, str(REPO / "examples" / "solo_trumps.py"), "--deals", "12",
                        "--seed", "1", "--jobs", "2", "--out", str(png)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "trumps  deals  declarer wins  win %  mean points" in r.stdout
    assert "   all     12" in r.stdout
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in r.stdout
    else:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------
# Ctrl-C




@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("jobs", ["2", "1"])
def test_ctrl_c_stops_at_once_and_resumes(tmp_path, jobs):
    d = tmp_path / "deals"
    d.mkdir()
    for k in range(3):   # 360 deals, every card valued and a line: seconds of work
        shutil.copy(HANDS / "benchmark.yaml", d / f"bench{k}.yaml")
    out = tmp_path / "rows.jsonl"
    cmd = [sys.executable, "-m", "dobbm_solver.cli", "study", str(d), "--output", str(out), "--jobs", jobs,
           "--mode", "analyze"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.01)
        assert proc.poll() is None, proc.communicate()
        kids = children(proc.pid, recursive=True)
        assert len(kids) >= 2 if jobs == "2" else kids == []   # one job: solved in the process
        t = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        stopped = time.monotonic() - t
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert stopped < 5
    assert "interrupted:" in err and "run the same command again to resume" in err
    assert "Traceback" not in err
    time.sleep(0.1)
    assert [k for k in kids if alive(k)] == []
    rows = jsonl(out)      # whole lines only
    assert 3 <= len(rows) < 360

    r = ok(CliRunner().invoke(cli.main, ["study", str(d), "--output", str(out), "--jobs", "2",
                                         "--mode", "analyze"]))
    assert f"{len(rows)} already in" in r.stderr
    rows = jsonl(out)
    assert len(rows) == 360 and len({x["id"] for x in rows}) == 360


# --------------------------------------------------------------------------
# Dask (last: it leaves threads behind in this process)


@pytest.mark.slow   # starts a local cluster
def test_dask_cluster_gives_the_local_rows(local_rows, study_dir, tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask.jsonl"
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        cwd = os.getcwd()
        os.chdir(study_dir.parent)
        try:
            r = ok(run(study_dir.name, "--output", str(out), "--scheduler", cluster.scheduler_address))
            again = ok(run(study_dir.name, "--output", str(out), "--scheduler", cluster.scheduler_address))
        finally:
            os.chdir(cwd)
    assert f"on {cluster.scheduler_address}" in r.stderr
    assert "nothing left to solve" in again.stderr
    assert untimed(jsonl(out)) == untimed(local_rows)


def test_study_discards_same_ranking_for_any_jobs():
    """Threads (each with its own table) give the values and tie order of one table."""
    (deal,) = load_hand_file(HANDS / "discard_study.yaml")
    s = Solver(tt_mb=4)
    one = [(r.cards, r.declarer_points) for r in s.study_discards(deal, jobs=1)]
    for jobs in (2, 3, None):
        assert [(r.cards, r.declarer_points) for r in s.study_discards(deal, jobs=jobs)] == one
    with pytest.raises(ValueError):
        s.study_discards(deal, jobs=-1)
