"""Today's advice as the arena player ``pimc``, and analyses and arena players on a time budget."""
# (the pass's value in bid: test_bid_pass.py; the play model: test_play_model.py)

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from views import BID_PASSED, DISCARD, DOUBLE_DEFENDER, view_of

from dobbm_solver import cli
from dobbm_solver.analyzer import Advice, analyze_bid, analyze_discard, analyze_double, analyze_play
from dobbm_solver.analyzer.template import TIMED_BATCH
from dobbm_solver.arena import ArenaConfig, ArenaSamples, TableResult, parse_player, run_arena
from dobbm_solver.arena.decisions import Env, WholeMonteCarlo, decide_discard, decide_double, play_strategy
from dobbm_solver.arena.duplicate import swapped_decisions, table_plan
from dobbm_solver.arena.game import deal_board, play_table
from dobbm_solver.arena.results import DealRow, RowError
from dobbm_solver.arena.strategies import TIMED_SAMPLES, method
from dobbm_solver.errors import OptionError
from dobbm_solver.solver import Solver

PLAY = (Path(__file__).resolve().parents[1] / "hands" / "play.yaml").read_text()
FEW = ArenaSamples(bid=3, discard=1, double=3, play=3)
#: a budget used up before the first batch ends
NO_TIME = 1e-9


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


# --------------------------------------------------------------------------
# pimc: today's advice by name

def test_pimc_is_a_player_by_name() -> None:
    assert parse_player("pimc").name == "pimc"
    assert parse_player("advice,bid=pimc").name == "advice,bid=pimc"
    assert parse_player("pimc").uses_advice


def test_pimc_decides_as_the_advice_except_where_the_advice_changed() -> None:
    a, p = parse_player("advice"), parse_player("pimc")
    decisions = ("bid", "discard", "double", "play")
    assert [method(d, "pimc") for d in decisions] == ["pimc", "advice", "advice", "advice"]
    assert [method(d, "infer") for d in decisions] == ["advice", "advice", "advice", "infer"]
    # only the bid is compared: elsewhere the two are one method
    assert swapped_decisions(a, p) == ("bid",)
    assert swapped_decisions(parse_player("infer"), a) == ("play",)
    assert swapped_decisions(parse_player("infer"), p) == ("bid", "play")
    assert {k.name for k in table_plan(a, p, per_decision=True)} == (
        {"base"} | {f"A@{k}" for k in range(4)} | {f"A-bid@{k}" for k in range(4)})


def test_pimc_lays_away_doubles_and_plays_as_the_advice(solver: Solver) -> None:
    board = deal_board(1, 1)
    bids = (("Anna", "pass"), ("Bert", "dobbm"), ("Cora", "pass"), ("Dave", "pass"))
    lay = {s: decide_discard(s, board, Env(solver, FEW), "Bert", bids) for s in ("advice", "pimc")}
    assert lay["advice"] == lay["pimc"]
    deal = board.open_deal("Bert", "dobbm").with_discard(lay["advice"])
    assert (decide_double("advice", board, Env(solver, FEW), deal, "Cora", bids)
            == decide_double("pimc", board, Env(solver, FEW), deal, "Cora", bids))
    # the card play: the same Monte Carlo player, infer's reading the play
    pimc, advice, infer = (play_strategy(s, board, Env(solver, FEW), "Anna") for s in ("pimc", "advice", "infer"))
    assert isinstance(pimc, WholeMonteCarlo) and isinstance(advice, WholeMonteCarlo)
    assert isinstance(infer, WholeMonteCarlo)
    assert (pimc.inference, advice.inference, infer.inference) == (False, False, True)
    assert pimc.seed == advice.seed == infer.seed


# --------------------------------------------------------------------------
# a time budget: stop between batches, the result that of the samples reached

def _same(a: Advice[Any], b: Advice[Any]) -> None:
    assert a.recommendation == b.recommendation and a.samples == b.samples
    assert [(o.option, o.ev_units, o.stderr_units, o.samples) for o in a.options] == [
        (o.option, o.ev_units, o.stderr_units, o.samples) for o in b.options]


@pytest.mark.parametrize("analyze, text, command", [
    (analyze_bid, BID_PASSED, "bid"), (analyze_double, DOUBLE_DEFENDER, "double"), (analyze_play, PLAY, "play")])
def test_a_used_budget_stops_after_the_first_batch(analyze: Any, text: str, command: str) -> None:
    view = view_of(text, command)
    timed = analyze(view, samples=40, seed=3, jobs=1, budget_s=NO_TIME)
    assert timed.samples == TIMED_BATCH and timed.info["stopped"] == "time"
    # deterministic given the samples reached: as a run of that fixed count
    _same(timed, analyze(view, samples=TIMED_BATCH, seed=3, jobs=1))
    # adaptively too: the first batch is cut to the timed batch
    adaptive = analyze(view, seed=3, jobs=1, budget_s=NO_TIME)
    assert adaptive.samples == TIMED_BATCH and adaptive.info["stopped"] == "time"


def test_a_budget_not_used_up_changes_nothing() -> None:
    view = view_of(PLAY, "play")
    _same(analyze_play(view, samples=10, seed=2, jobs=1, budget_s=600.0),
          analyze_play(view, samples=10, seed=2, jobs=1))
    bid = view_of(BID_PASSED, "bid")
    assert analyze_bid(bid, samples=6, seed=2, jobs=1, budget_s=600.0).info["stopped"] == "samples"


def test_discard_on_a_used_budget_ranks_the_first_sample() -> None:
    view = view_of(DISCARD, "discard")
    advice = analyze_discard(view, samples=40, seed=1, jobs=1, budget_s=NO_TIME)
    assert advice.samples == 1 and advice.info["stopped"] == "time"
    assert advice.recommendation == advice.options[0].option


@pytest.mark.parametrize("budget", [0, -1.0, float("inf"), True])
def test_a_bad_budget_is_refused(budget: Any) -> None:
    with pytest.raises(OptionError, match="budget"):
        analyze_play(view_of(PLAY, "play"), samples=4, seed=1, jobs=1, budget_s=budget)


# --------------------------------------------------------------------------
# the arena on a time budget

def test_a_timed_table_records_the_samples_each_analysis_used(solver: Solver) -> None:
    env = Env(solver, ArenaSamples(bid=8, discard=8, double=8, play=8), budget_s=NO_TIME)
    players = [parse_player("pimc")] * 4
    for index in range(6):
        board = deal_board(3, index)
        result = play_table(board, env, players)
        assert result.samples and all(n == (1 if d == "discard" else TIMED_BATCH) for _, d, n in result.samples)
        assert {d for _, d, _ in result.samples} >= {"bid"}
        assert TableResult.from_json(result.to_json(), board.seats, "t") == result
        if result.contract is not None:
            assert "play" in {d for _, d, _ in result.samples}
            break
    # without a budget nothing is recorded (each analysis has its fixed count)
    assert play_table(deal_board(3, 0), Env(solver, FEW), players).samples == ()


def test_a_timed_run_says_so_and_sums_up_the_samples() -> None:
    config = ArenaConfig(parse_player("pimc"), parse_player("rule"), seed=5,
                         samples=ArenaSamples(bid=8, discard=8, double=8, play=8), budget_ms=1)
    assert config.settings()["budget_ms"] == 1 and "budget_ms" not in ArenaConfig(
        parse_player("pimc"), parse_player("rule"), seed=5).settings()
    rows: list[DealRow] = []
    s = run_arena(config, 2, jobs=1, on_row=rows.append).summary
    used = s.samples_used
    assert used["a"] and not used["b"]           # rule never samples
    assert all(1 <= n <= 8 for n in used["a"].values())     # (a fast solve may finish early)
    assert s.as_dict()["budget_ms"] == 1
    for row in rows:
        back = DealRow.from_json(json.loads(json.dumps(row.to_json())), tuple(row.hands))
        assert back == row


def test_a_bad_samples_entry_is_refused() -> None:
    table: dict[str, Any] = {"bids": [], "declarer": None, "contract": None, "discard": None, "doubled_by": [],
                             "doublings": 0, "points": None, "tricks": [],
                             "units": {s: 0 for s in ("Anna", "Bert", "Cora", "Dave")}}
    seats = ("Anna", "Bert", "Cora", "Dave")
    for bad in ([["Anna", "bid"]], [["Zed", "bid", 4]], [["Anna", "lead", 4]], [["Anna", "bid", 0]]):
        with pytest.raises(RowError, match="samples"):
            TableResult.from_json({**table, "samples": bad}, seats, "t")


def test_cli_budget() -> None:
    got = CliRunner().invoke(cli.main, ["arena", "pimc", "rule", "--deals", "1", "--seed", "5", "--jobs", "1",
                                        "--budget-ms", "1", "-q"])
    assert got.exit_code == 0, got.output
    assert "advice budget: 1 ms per analysis" in got.output and "samples used per analysis" in got.output
    assert f"play {TIMED_SAMPLES.play}" in got.output
    bad = CliRunner().invoke(cli.main, ["arena", "pimc", "rule", "--budget-ms", "0"])
    assert bad.exit_code == 2 and "--budget-ms" in bad.output
