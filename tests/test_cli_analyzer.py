"""`dobbm bid`, `dobbm discard`, `dobbm double` through the CLI: output, JSON, seeds, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import children

from dobbm_solver.cards import parse_card
from dobbm_solver.cli import main
from dobbm_solver.rules import discard_error

HANDS = Path(__file__).resolve().parents[1] / "hands"
FAST = ["--samples", "6", "--jobs", "1", "--seed", "5"]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("command, options", [
    ("bid", {"pass", "dobbm", "solo"}),
    ("double", {"double", "play on"}),
])
def test_json_advice(command, options):
    r = run(command, str(HANDS / f"{command}.yaml"), "--json", *FAST)
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert {o["option"] for o in obj["options"]} == options
    assert obj["recommendation"] == obj["options"][0]["option"]
    # best first by expected units
    evs = [o["ev_units"] for o in obj["options"]]
    assert evs == sorted(evs, reverse=True)
    for o in obj["options"]:
        assert set(o) >= {"option", "ev_units", "win_probability", "expected_points", "stderr"}
        if o["option"] != "pass":
            assert 0 <= o["win_probability"] <= 1 and 0 <= o["expected_points"] <= 120 and o["stderr"] >= 0


def test_discard_json_ranks_every_legal_discard():
    r = run("discard", str(HANDS / "discard.yaml"), "--json", *FAST)
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    lay = [o["option"] for o in obj["options"]] + [a for o in obj["options"] for a in o["alike"]]
    assert len(lay) == len({tuple(x) for x in lay}) == obj["info"]["lay_aways"]
    assert len(obj["options"]) == obj["info"]["classes"]
    for four in lay:
        assert len(four) == 4
        assert discard_error(sum(1 << parse_card(c) for c in four)) is None
    assert obj["recommendation"] == lay[0]


def test_text_table_and_all():
    r = run("discard", str(HANDS / "discard.yaml"), *FAST)
    assert r.exit_code == 0
    assert "recommendation:" in r.stdout and "--all shows every one" in r.stdout
    top = [ln for ln in r.stdout.splitlines() if ln.startswith("  ") and "." in ln and "units" not in ln]
    r_all = run("discard", str(HANDS / "discard.yaml"), "--all", *FAST)
    rows = [ln for ln in r_all.stdout.splitlines() if ln.startswith("  ") and "." in ln and "units" not in ln]
    assert len(rows) > len(top) >= 10


def test_seed_reproduces_output():
    a = run("bid", str(HANDS / "bid.yaml"), "--json", *FAST)
    b = run("bid", str(HANDS / "bid.yaml"), "--json", *FAST)
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    ja.pop("seconds"), jb.pop("seconds")
    assert ja == jb


def test_retour_for_the_declarer():
    r = run("double", str(HANDS / "double_retour.yaml"), "--json", *FAST)
    assert r.exit_code == 0
    obj = json.loads(r.stdout)
    assert obj["role"] == "declarer" and {o["option"] for o in obj["options"]} == {"retour", "play on"}


@pytest.mark.parametrize("args, needle", [
    (["bid", "nonexistent.yaml"], "no such file"),
    (["bid", str(HANDS / "bid.yaml"), "--samples", "0"], "--samples"),
    (["bid", str(HANDS / "bid.yaml"), "--seed", "-3"], "--seed"),
    (["bid", str(HANDS / "bid.yaml"), "--samples", "100000000"], "--samples"),
    (["discard", str(HANDS / "bid.yaml")], "Error: "),
    (["double", str(HANDS / "example.yaml")], "me"),
])
def test_bad_input_is_one_clean_line(args, needle):
    r = run(*args)
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert "Traceback" not in r.output
    assert needle in r.stderr
    assert len([ln for ln in lines if ln.startswith("Error")]) == 1


def test_bad_view_names_file_and_key(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("seats: [Anna, Bert, Cora, Dave]\nme: Bert\nhands:\n  Bert: HA H10 HK EA E9 L8 L7 XX\n")
    r = run("bid", str(f), *FAST)
    assert r.exit_code == 2 and r.stderr.startswith(f"Error: {f}: hands.Bert: unknown card")


@pytest.mark.skipif(not Path("/proc").exists(), reason="needs /proc")
def test_ctrl_c_prints_partial_advice_and_exits_130():
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen(
        [sys.executable, "-m", "dobbm_solver.cli", "bid", str(HANDS / "bid.yaml"), "--json",
         "--seed", "1", "--samples", "50000", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # wait until some samples are solved (the two worker threads are up), then
    # interrupt; the run would take about half a minute
    deadline = time.time() + 20
    while time.time() < deadline and len(list(Path(f"/proc/{p.pid}/task").glob("*"))) < 3:
        time.sleep(0.05)
    time.sleep(1.0)
    kids = children(p.pid)
    assert kids == [], "the advice commands' workers are threads: no process is started"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert "Traceback" not in err.decode()
    obj = json.loads(out)
    assert obj["partial"] is True and 0 < obj["samples"] < 50000
    assert obj["recommendation"] == obj["options"][0]["option"]
    time.sleep(0.5)
    assert not [k for k in kids if Path(f"/proc/{k}").exists()], "worker processes left behind"


def test_ctrl_c_during_solve_exits_130_with_whole_lines():
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen(
        [sys.executable, "-m", "dobbm_solver.cli", "solve", "--json", str(HANDS / "benchmark.yaml")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert err.decode().strip().splitlines() == ["Interrupted."]
    for line in out.decode().splitlines():      # every line printed is a whole JSON object
        assert json.loads(line)["declarer_points"] >= 0


def _jobs_help(command: str) -> str:
    r = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    start = next(i for i, ln in enumerate(lines) if "--jobs" in ln)
    block = lines[start:start + 8]
    text = " ".join(" ".join(block).split())
    return text[:text.index("]") + 1]   # up to the range shown: [0<=x<=256]


def test_jobs_has_one_meaning_and_one_text_in_every_command():
    texts = {c: _jobs_help(c) for c in ("bid", "discard", "double", "study")}
    assert len(set(texts.values())) == 1, texts
    text = texts["bid"]
    assert "-j, --jobs N" in text and "0 or not given: one per core" in text and "[0<=x<=256]" in text
    for command in texts:
        args = [command, str(HANDS / "bid.yaml"), "--jobs", "257"]
        if command == "study":
            args += ["-o", "unused.jsonl"]
        r = run(*args)
        assert r.exit_code == 2 and "--jobs" in r.stderr and "257" in r.stderr
