"""Tests of the arena (dobbm_solver/arena, report/arena.py, ``dobbm arena``).

Deals are seeded, so every figure checked here is a fixed computation, not a
statistical bet: "open beats rule" is checked on fixed seeds where it holds.
The advice strategies run with tiny sample counts (:data:`FEW`) to keep the
file quick.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from dobbm_solver import cli
from dobbm_solver.arena import (
    ArenaConfig,
    ArenaError,
    ArenaSamples,
    DealRow,
    Player,
    TableKey,
    TableResult,
    parse_player,
    run_arena,
    summarize,
)
from dobbm_solver.arena.decisions import Env
from dobbm_solver.arena.duplicate import table_plan
from dobbm_solver.arena.game import deal_board, play_table
from dobbm_solver.cards import popcount
from dobbm_solver.errors import DobbmError
from dobbm_solver.models.discard_rule import heuristic_discard
from dobbm_solver.rules import discard_error, units
from dobbm_solver.solver import Solver

FEW = ArenaSamples(bid=3, discard=1, double=3, play=3)
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def run(*args: str):
    return CliRunner().invoke(cli.main, ["arena", *args])


# --------------------------------------------------------------------------
# player names

def test_player_names():
    assert parse_player("rule") == Player("rule", "rule", "rule", "rule")
    assert parse_player("advice,play=rule") == Player("advice", "advice", "advice", "rule")
    assert parse_player(" Bid=Open , discard=rule,double=rule,play=advice ") == Player("open", "rule", "rule", "advice")
    assert parse_player("advice,play=rule").name == "advice,play=rule"
    assert parse_player("bid=rule,discard=rule,double=rule,play=rule").name == "rule"
    assert parse_player("bid=open,discard=rule,double=open,play=advice").name == "open,discard=rule,play=advice"


@pytest.mark.parametrize("name, says", [
    ("cheat", "no strategy 'cheat'"), ("rule,play=best", "no strategy 'best'"),
    ("rule,lead=open", "no decision 'lead'"), ("bid=rule", "no strategy for discard, double, play"),
    ("rule,open", "two base strategies"), ("rule,play=open,play=rule", "play named twice"),
    ("", "empty"), ("rule,,play=open", "empty part")])
def test_bad_player_names(name, says):
    with pytest.raises(ArenaError, match=says):
        parse_player(name)
    assert issubclass(ArenaError, DobbmError)


# --------------------------------------------------------------------------
# one table

def check_result(board, result: TableResult) -> None:
    assert sum(result.units.values()) == 0
    if result.contract is None:
        assert [b for _, b in result.bids] == ["pass"] * 4 and set(result.units.values()) == {0}
        return
    declarer, contract, d = result.declarer, result.contract, result.doublings
    assert [s for s, _ in result.bids] == ["Anna", "Bert", "Cora", "Dave"][:len(result.bids)]
    assert result.points is not None and 0 <= result.points <= 120
    assert 0 <= d <= 2 and len(result.doubled_by) == d
    assert len(result.tricks) == 8 and all(len(t) == 4 for t in result.tricks)
    u = units(result.points, contract, d)
    assert result.units == {s: 3 * u if s == declarer else -u for s in board.seats}
    if contract == "dobbm":
        lay = result.discard
        assert lay is not None and popcount(lay) == 4 and discard_error(lay) is None
        assert lay & ~(board.hands[declarer] | board.dobb) == 0
    else:
        assert result.discard is None
    # the JSON of the result file reads back as the same result
    assert TableResult.from_json(result.to_json(), board.seats, "t") == result


@pytest.mark.parametrize("names", [
    ("rule",) * 4, ("open",) * 4, ("advice",) * 4,
    ("advice,play=rule", "open,double=advice", "bid=rule,discard=advice,double=open,play=advice", "rule"),
])
def test_a_deal_plays_end_to_end(solver, names):
    players = [parse_player(n) for n in names]
    played = 0
    for index in range(6):
        board = deal_board(3, index)
        result = play_table(board, Env(solver, FEW), players)
        check_result(board, result)
        played += result.contract is not None
        if played == 2:
            break
    assert played == 2


def test_every_decision_of_every_strategy_runs(solver):
    # a deal where the first seat's Dobbm is forced: each strategy lays away and doubles
    from dobbm_solver.arena.decisions import decide_discard, decide_double
    board = deal_board(1, 1)
    bids = (("Anna", "pass"), ("Bert", "dobbm"), ("Cora", "pass"), ("Dave", "pass"))
    env = Env(solver, FEW)
    for s in ("rule", "advice", "open"):
        lay = decide_discard(s, board, env, "Bert", bids)
        assert popcount(lay) == 4 and discard_error(lay) is None
        deal = board.open_deal("Bert", "dobbm").with_discard(lay)
        assert decide_double(s, board, env, deal, "Cora", bids) in (True, False)
    assert decide_double("rule", board, env, deal, "Cora", bids) is False


def test_the_arena_card_player_is_the_monte_carlo_player(solver):
    from dobbm_solver.analyzer.strategy import monte_carlo_strategy
    from dobbm_solver.arena.decisions import WholeMonteCarlo
    from dobbm_solver.playout import play_hand, rule_of_thumb_strategy
    board = deal_board(1, 1)
    deal = board.open_deal("Bert", "dobbm")
    deal = deal.with_discard(heuristic_discard(deal.hands["Bert"] | deal.dobb))
    seen = []
    env = Env(solver, FEW)
    player = WholeMonteCarlo(env, "Anna", 9)

    class Both:
        sees_all_cards = False

        def __call__(self, view):
            ours, theirs = player(view), monte_carlo_strategy(3, 9, 1)(view)
            seen.append((ours, theirs))
            return ours

    play_hand(deal, {"Anna": Both(), "Bert": rule_of_thumb_strategy(), "Cora": rule_of_thumb_strategy(),
                     "Dave": rule_of_thumb_strategy()})
    assert len(seen) == 8 and all(a == b for a, b in seen)
    assert {(seat, decision) for seat, decision, _ in env.used} == {("Anna", "play")}


def test_an_analysis_cut_short_stops_the_deal():
    from dataclasses import replace

    from dobbm_solver.analyzer import analyze_bid, make_view
    from dobbm_solver.arena.decisions import whole
    from dobbm_solver.handfile import parse_spec
    view = make_view(parse_spec({"seats": ["Anna", "Bert", "Cora", "Dave"], "dealer": "Dave", "me": "Anna",
                                 "hands": {"Anna": "HA H10 HK EA E9 L8 L7 S6"}}), "bid")
    advice = analyze_bid(view, samples=2, seed=1, jobs=1)
    assert whole(advice) is advice
    with pytest.raises(KeyboardInterrupt):
        whole(replace(advice, info={**advice.info, "stopped": "interrupted"}))


def test_deals_are_seeded():
    assert deal_board(5, 2) == deal_board(5, 2)
    assert deal_board(5, 2).hands != deal_board(5, 3).hands != deal_board(6, 2).hands


def test_table_plan():
    a, b = parse_player("advice,play=rule"), parse_player("rule")
    plan = table_plan(a, b, per_decision=True)
    assert {k.name for k in plan} == {"base"} | {f"A@{k}" for k in range(4)} | {
        f"A-{d}@{k}" for d in ("bid", "discard", "double") for k in range(4)}
    assert all(TableKey.parse(k.name) == k for k in plan)
    assert plan[TableKey(2)] == (b, b, a, b)
    assert plan[TableKey(0, "bid")][0] == Player("rule", "advice", "advice", "rule")


@pytest.mark.parametrize("a, b", [("open", "rule"),
                                  pytest.param("advice,play=rule", "rule", marks=pytest.mark.slow)])
def test_per_decision_shortcut_changes_nothing(solver, a, b):
    from dobbm_solver.arena.duplicate import play_deal
    pa, pb = parse_player(a), parse_player(b)
    for index in range(2 if a == "open" else 1):
        board = deal_board(11, index)
        fast = play_deal(board, Env(solver, FEW), pa, pb, per_decision=True)
        full = play_deal(board, Env(solver, FEW), pa, pb, per_decision=True, shortcut=False)
        assert fast == full


# --------------------------------------------------------------------------
# runs and summaries

def rows_of(config: ArenaConfig, deals: int, **kw) -> list[DealRow]:
    """The rows a run plays, in deal order."""
    rows: list[DealRow] = []
    run_arena(config, deals, on_row=rows.append, **kw)
    return sorted(rows, key=lambda r: r.deal)


def test_rule_against_rule_is_exactly_zero():
    config = ArenaConfig(parse_player("rule"), parse_player("rule"), seed=4, per_decision=True)
    s = run_arena(config, 6, jobs=1).summary
    assert (s.deals, s.difference.units_per_hand, s.difference.stderr) == (6, 0.0, 0.0)
    assert all(m is not None and (m.units_per_hand, m.stderr) == (0.0, 0.0) for m in s.per_decision.values())


def test_open_beats_rule():
    config = ArenaConfig(parse_player("open"), parse_player("rule"), seed=1, per_decision=True)
    rows: list[DealRow] = []
    arena = run_arena(config, 6, jobs=1, on_row=rows.append)
    s = arena.summary
    assert summarize(sorted(rows, key=lambda r: -r.deal), config) == s   # the same in any order
    assert s.difference.units_per_hand > 0 and s.a.units_per_hand > 0 and s.b.units_per_hand == 0
    assert s.difference.stderr is not None and s.difference.units_per_hand > s.difference.stderr
    # the four decisions' values are each a paired difference on the same deals
    assert all(s.per_decision[d] is not None for d in ("bid", "discard", "double", "play"))
    play = s.per_decision["play"]
    assert play is not None and play.units_per_hand > 0


@pytest.mark.parametrize("a, b", [("open", "rule"), ("advice", "rule,play=open")])
def test_the_same_seed_gives_the_same_rows_whatever_jobs(a, b):
    config = ArenaConfig(parse_player(a), parse_player(b), seed=7, samples=FEW)
    one, two = rows_of(config, 2, jobs=1), rows_of(config, 2, jobs=2)
    assert one == two and [r.deal for r in one] == [0, 1]


def test_resume_skips_done_deals(tmp_path):
    out = tmp_path / "rows.jsonl"
    config = ArenaConfig(parse_player("open"), parse_player("rule"), seed=2)
    first = run_arena(config, 3, str(out), jobs=1)
    assert (first.resumed, first.played) == (0, [0, 1, 2])
    with open(out, "a") as f:        # a row cut short by a kill
        f.write('{"deal": 3, "tab')
    again = run_arena(config, 5, str(out), jobs=1)
    assert again.resumed == 3 and sorted(again.played) == [3, 4]
    lines = out.read_text().splitlines()
    assert len(lines) == 6 and json.loads(lines[0])["dobbm_arena"] == config.settings()
    assert again.summary == run_arena(config, 5, jobs=1).summary
    assert run_arena(config, 5, str(out), jobs=1).played == []


def test_an_output_that_cannot_be_written_is_bad_input(tmp_path):
    r = run("rule", "rule", "--deals", "1", "-o", str(tmp_path / "no" / "such" / "rows.jsonl"))
    assert r.exit_code == 2 and "cannot be written" in r.stderr
    r = run("rule", "rule", "--deals", "1", "-o", str(tmp_path))
    assert r.exit_code == 2 and "is a directory" in r.stderr


def test_only_an_arena_file_of_these_settings_is_appended_to(tmp_path):
    foreign = tmp_path / "notes.jsonl"
    foreign.write_text('{"id": "x"}\n')
    r = run("open", "rule", "--deals", "1", "-o", str(foreign))
    assert r.exit_code == 2 and "not an arena result file" in r.stderr
    assert foreign.read_text() == '{"id": "x"}\n'
    out = tmp_path / "rows.jsonl"
    assert run("rule", "rule", "--deals", "1", "-o", str(out)).exit_code == 0
    before = out.read_text()
    r = run("open", "rule", "--deals", "1", "-o", str(out))
    assert r.exit_code == 2 and "other settings" in r.stderr and out.read_text() == before


# --------------------------------------------------------------------------
# the command

def test_cli_json_keys():
    r = run("open", "rule", "--deals", "2", "--seed", "1", "--json", "-j", "1")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert {"deals", "difference", "per_decision", "a_units", "b_units", "samples", "seed"} <= set(out)
    assert out["deals"] == 2 and set(out["difference"]) == {"units_per_hand", "stderr", "significant"}
    assert set(out["per_decision"]) == {"bid", "discard", "double", "play"}
    assert out["per_decision"]["play"] is None   # not measured without --per-decision
    assert out["samples"] == ArenaSamples().as_dict()


def test_cli_text():
    r = run("rule", "open", "--deals", "2", "--seed", "1", "-j", "1")
    assert r.exit_code == 0, r.output
    assert "A - B (paired)" in r.stdout and "advice samples (fixed, per analysis): bid 12" in r.stdout
    assert "not measured (give --per-decision)" in r.stdout


@pytest.mark.parametrize("args, says", [
    (["rule", "rule", "--deals", "0"], "--deals must be"),
    (["rule", "rule", "--deals", "-3"], "--deals must be"),
    (["rule", "rule", "--seed", "-1"], "--seed must be"),
    (["rule", "cheat"], "no strategy 'cheat'"),
    (["rule,play=x", "rule"], "no strategy 'x'"),
])
def test_bad_input_exits_2(args, says):
    r = run(*args)
    assert r.exit_code == 2 and says in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_scheduler_that_is_not_there_is_bad_input():
    pytest.importorskip("distributed")
    r = run("rule", "rule", "--deals", "1", "--scheduler", "tcp://127.0.0.1:1")
    assert r.exit_code == 2 and "connection refused" in r.stderr
    r = run("rule", "rule", "--deals", "1", "--scheduler", "no address")
    assert r.exit_code == 2 and "not a scheduler address" in r.stderr


@pytest.mark.slow   # starts a local cluster
def test_dask_cluster_gives_the_local_rows(tmp_path):
    distributed = pytest.importorskip("distributed")
    config = ArenaConfig(parse_player("open"), parse_player("rule"), seed=5, per_decision=True)
    out = tmp_path / "rows.jsonl"
    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        remote = run_arena(config, 3, str(out), scheduler=cluster.scheduler_address)
        again = run_arena(config, 3, str(out), scheduler=cluster.scheduler_address)
    assert remote.scheduler == cluster.scheduler_address and again.played == [] and again.resumed == 3
    assert remote.summary == run_arena(config, 3, jobs=1).summary


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("a, jobs, flags", [("open", "2", ["--per-decision"]), ("advice", "1", [])])
def test_ctrl_c_keeps_the_rows_and_exits_130(tmp_path, a, jobs, flags):
    # in process (one job) the advice's analyses run here: Ctrl-C must still stop the run
    out = tmp_path / "rows.jsonl"
    cmd = [sys.executable, "-m", "dobbm_solver.cli", "arena", a, "rule", *flags,
           "--deals", "500", "-o", str(out), "-j", jobs]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 2:
                break
            time.sleep(0.02)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "interrupted:" in err and "Traceback" not in err
    lines = out.read_text().splitlines()
    rows = [json.loads(x) for x in lines[1:]]
    assert 1 <= len(rows) < 500 and out.read_text().endswith("\n")
    config = ArenaConfig(parse_player(a), parse_player("rule"), seed=1, per_decision=bool(flags))
    assert json.loads(lines[0])["dobbm_arena"] == config.settings()
    if a == "open":
        resumed = run_arena(config, len(rows) + 1, str(out), jobs=1)
        assert resumed.resumed == len(rows) and len(resumed.played) == 1


def test_the_shipped_example(tmp_path, capsys):
    import importlib.util
    spec = importlib.util.spec_from_file_location("arena_example", REPO / "examples" / "arena.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = tmp_path / "arena.png"
    assert example.main(["--deals", "2", "--jobs", "1", "--seed", "3", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "A - B" in text and "play: open vs rule" in text
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "no plot saved" in text
    else:
        assert out.stat().st_size > 0


# --------------------------------------------------------------------------
# the running summary: exactly what fsum and statistics.stdev give on the list

def test_running_mean_is_exactly_the_mean_of_the_list():
    import math
    import random
    import statistics

    from dobbm_solver.arena.summary import Running, mean_of
    rng = random.Random(7)
    for _ in range(2000):
        n = rng.randint(0, 30)
        values = [rng.choice([rng.randint(-96, 96) / 4, rng.uniform(-50, 50), 0.0]) for _ in range(n)]
        m = mean_of(values)
        assert m.deals == n
        if n == 0:
            assert (m.units_per_hand, m.stderr) == (0.0, None)
            continue
        assert m.units_per_hand == math.fsum(values) / n
        assert m.stderr == (statistics.stdev(values) / math.sqrt(n) if n > 1 else None)
        running = Running()     # in another order: the same to the last bit
        for v in reversed(values):
            running.add(v)
        assert running.mean() == m
