"""Tests of the three analyses (dobbm_solver.analyzer.bid, .discard, .double) and lay-away classes.

The analyses run on small fixed-seed sample counts (jobs=1, in-process) so
that the file stays fast; the clear cases are chosen so that the right
answer wins by a wide margin even on a few samples.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import cs
from views import BID_PASSED, DISCARD, DOUBLE_DEFENDER, RETOUR, SEATS, bid_file, view_of

from dobbm_solver.analyzer import analyze_bid, analyze_discard, analyze_double, load_views
from dobbm_solver.analyzer.discard_classes import discard_classes
from dobbm_solver.cards import BB_ALL, BB_TRUMPS, cardset, popcount, scan_forward
from dobbm_solver.deal import Deal, validate
from dobbm_solver.errors import DobbmError, OptionError
from dobbm_solver.models.discard_rule import legal_discards
from dobbm_solver.report.advice import advice_dict
from dobbm_solver.rules import discard_error


def test_discard_classes_cover_and_agree() -> None:
    hand12 = cs("HA H9 H8 H7 EA E9 E8 L10 L6 SK S7 S6")
    classes = discard_classes(hand12)
    members = [m for _, ms in classes for m in ms]
    assert sorted(members) == sorted(legal_discards(hand12))
    assert len(classes) < len(members)
    # equivalent lay-aways have the same value in a deal
    from dobbm_solver.solver import Solver
    solver = Solver(8)
    rest = list(scan_forward(BB_ALL & ~hand12))
    random.Random(1).shuffle(rest)
    hands = {"Anna": cardset(rest[:8]), "Bert": cardset(rest[8:16]), "Cora": cardset(rest[16:24])}
    eight = cs("HA H9 H8 H7 EA E9 E8 L10")
    hands["Dave"] = eight
    deal = Deal(seats=tuple(SEATS), declarer="Dave", contract="dobbm", hands=hands, dobb=hand12 & ~eight)
    validate(deal)
    for _, ms in classes:
        if len(ms) > 1:
            values = {solver.solve(deal.with_discard(m)).declarer_points for m in ms[:3]}
            assert len(values) == 1


def test_bad_arguments() -> None:
    v = view_of(BID_PASSED, "bid")
    # bad arguments are bad input: OptionError, a DobbmError (and so a ValueError)
    assert issubclass(OptionError, DobbmError) and issubclass(DobbmError, ValueError)
    with pytest.raises(OptionError):
        analyze_bid(v, samples=1)
    with pytest.raises(OptionError):
        analyze_bid(v, samples=4, jobs=-1)
    with pytest.raises(OptionError):
        analyze_discard(v, samples=4)          # a bid view
    with pytest.raises(OptionError):
        analyze_bid(v, samples=4, target_stderr=0)
    with pytest.raises(OptionError, match="seed must be a whole number"):
        analyze_bid(v, samples=4, seed=1.5)    # type: ignore[arg-type]
    with pytest.raises(OptionError, match="unknown command"):
        view_of(BID_PASSED, "lead")


def test_bid_six_top_trumps_plays_solo() -> None:
    v = view_of(bid_file("HA H10 HK HO HU H9 E6 L6", "  - {Anna: pass}\n"), "bid")
    advice = analyze_bid(v, samples=10, seed=1, jobs=1)
    assert advice.recommendation == "solo"
    solo = next(o for o in advice.options if o.option == "solo")
    assert solo.win_probability > 0.9 and solo.ev_units > 20


def test_bid_no_trump_no_sau_passes() -> None:
    v = view_of(bid_file("E9 E8 E7 L9 L8 L7 S9 SU", "  - {Anna: pass}\n"), "bid")
    advice = analyze_bid(v, samples=10, seed=1, jobs=1)
    assert advice.recommendation == "pass"
    assert all(o.ev_units < 0 for o in advice.options if o.option != "pass")
    assert advice.info["model_bid"] == "pass"


def test_bid_must_round_and_after_a_dobbm() -> None:
    weak = "E9 E8 E7 L9 L8 L7 S9 SU"
    advice = analyze_bid(view_of(bid_file(weak, extra="must: true\n"), "bid"), samples=6, seed=1, jobs=1)
    assert {o.option for o in advice.options} == {"dobbm", "solo"}
    assert advice.recommendation == "dobbm"          # the lesser evil
    advice = analyze_bid(view_of(bid_file(weak, "  - {Anna: dobbm}\n"), "bid"), samples=6, seed=1, jobs=1)
    assert {o.option for o in advice.options} == {"pass", "solo"} and advice.recommendation == "pass"


def test_discard_banks_a_bare_ten_and_keeps_trumps() -> None:
    # Dave: six trumps from the top, the E Sau with its ten, a bare L10 (LA is out)
    # and three small bells.  Laying away L10 banks 10 points that would fall
    # to the Sau; the small bells go too, leaving two voids to trump in.
    text = DISCARD.replace("Dave: H10 HK H8 EK LK LO L9 SU", "Dave: HA H10 HK HO HU H9 S7 S8") \
        .replace("dobb: EA E10 EU L10", "dobb: EA E10 L10 S9")
    v = view_of(text, "discard")
    advice = analyze_discard(v, samples=6, seed=2, jobs=1)
    best = advice.recommendation
    assert best & cs("L10") and not best & cs("HA H10 HK HO HU H9 EA")
    assert all(discard_error(o.option) is None for o in advice.options)
    assert sum(1 + len(o.alike) for o in advice.options) == len(legal_discards(v.my_hand | v.dobb))
    assert len(advice.options) == advice.info["classes"]
    # the same ranking whatever the number of worker processes
    assert strip(analyze_discard(v, samples=6, seed=2, jobs=2)) == strip(advice)


def test_discard_never_recommends_laying_away_trumps_for_nothing() -> None:
    v = view_of(DISCARD, "discard")
    advice = analyze_discard(v, samples=8, seed=3, jobs=1)
    best = advice.recommendation
    assert not best & BB_TRUMPS
    top = advice.options[0]
    assert top.samples == 8 and top.stderr is not None
    assert advice.info["lay_aways"] == sum(1 + len(o.alike) for o in advice.options)
    assert advice.options[-1].samples == 1 and advice.options[-1].stderr is not None   # pooled


def test_double_defender_with_top_trumps_doubles() -> None:
    advice = analyze_double(view_of(DOUBLE_DEFENDER, "double"), samples=12, seed=1, jobs=1)
    assert advice.recommendation == "double"
    assert advice.info["declarer_win_probability"] < 0.3
    dbl, on = advice.options
    # twice playing on, and more where the declarer's Retour doubles her gain again
    assert dbl.ev_units >= 2 * on.ev_units - 1e-9 and advice.info["expected_doublings"] >= 1


def test_double_declarer_with_a_monster_retours() -> None:
    advice = analyze_double(view_of(RETOUR, "double"), samples=8, seed=1, jobs=1)
    assert advice.recommendation == "retour" and advice.role == "declarer"
    assert advice.options[0].win_probability == 1.0


# --------------------------------------------------------------------------
# reproducibility, parallelism, convergence, output


def strip(advice) -> dict:
    j = advice_dict(advice)
    j.pop("seconds")
    j.pop("jobs")
    return j


def test_seed_reproduces_and_jobs_do_not_matter() -> None:
    v = view_of(BID_PASSED, "bid")
    a = analyze_bid(v, samples=6, seed=7, jobs=1)
    b = analyze_bid(v, samples=6, seed=7, jobs=2)
    assert strip(a) == strip(b)
    c = analyze_bid(v, samples=6, seed=8, jobs=1)
    assert strip(c) != strip(a)
    assert a.seed == 7 and analyze_bid(v, samples=2, jobs=1).seed is not None


def test_batches_started_ahead_change_nothing() -> None:
    # on workers the next batch starts before the last one is judged: a batch
    # not needed in the end must leave no trace in the advice
    [v] = load_views(Path(__file__).resolve().parents[1] / "hands" / "double_retour.yaml", "double")
    one = analyze_double(v, seed=3, jobs=1)
    assert one.samples > 32 and one.info["stopped"] == "target"   # more than one batch
    for jobs in (2, 3):
        assert strip(analyze_double(v, seed=3, jobs=jobs)) == strip(one)
    # bid: an option dropped from the race after the first batch (Solo here) has
    # results in the batch started ahead that must not count
    [v] = load_views(Path(__file__).resolve().parents[1] / "hands" / "bid.yaml", "bid")
    one = analyze_bid(v, seed=1, jobs=1)
    counts = {o.option: o.samples for o in one.options}
    assert counts["solo"] == 32 < counts["dobbm"]
    for jobs in (2, 3):
        assert strip(analyze_bid(v, seed=1, jobs=jobs)) == strip(one)


def test_adaptive_sampling_reaches_the_target() -> None:
    v = view_of(DOUBLE_DEFENDER, "double")
    advice = analyze_double(v, seed=5, jobs=2, target_stderr=3.0)
    assert advice.info["stopped"] in ("target", "max_samples")
    assert advice.options[0].stderr <= 3.0
    again = analyze_double(v, seed=5, jobs=1, target_stderr=3.0)
    assert strip(again) == strip(advice)


def test_estimates_converge() -> None:
    v = view_of(DOUBLE_DEFENDER, "double")
    small = analyze_double(v, samples=10, seed=9, jobs=1).options[1]
    large = analyze_double(v, samples=40, seed=9, jobs=1).options[1]
    assert large.stderr < small.stderr
    assert abs(large.expected_points - small.expected_points) < 3 * small.stderr


def test_progress_and_json() -> None:
    calls = []
    v = view_of(BID_PASSED, "bid")
    advice = analyze_bid(v, samples=4, seed=1, jobs=1, progress=lambda d, t: calls.append((d, t)))
    # pass, Dobbm and Solo, each solved on 4 samples (the pass's games count as one)
    assert calls and calls[-1][0] == calls[-1][1] == 12 and all(d <= t for d, t in calls)
    zero = []
    analyze_bid(v, samples=4, seed=1, jobs=1, progress=lambda d, t: zero.append((d, t)), pass_value="zero")
    assert zero[-1] == (8, 8)     # a pass worth 0 is not solved
    j = advice_dict(advice)
    assert j["recommendation"] == advice.recommendation
    for o in j["options"]:
        assert set(o) >= {"option", "ev_units", "win_probability", "expected_points", "stderr"}
    discard = analyze_discard(view_of(DISCARD, "discard"), samples=2, seed=1, jobs=1)
    assert isinstance(discard.recommendation, int) and popcount(discard.recommendation) == 4
    dj = advice_dict(discard)
    assert isinstance(dj["recommendation"], list) and len(dj["recommendation"]) == 4
    assert all(isinstance(o["option"], list) for o in dj["options"])
    import json
    json.dumps(dj)


def test_discards_that_play_the_same_are_one_row() -> None:
    """Interchangeable 6-9 cards: one option per class, the others listed alike, and
    every member is a lay-away that leaves the same cards to play."""
    text = DISCARD.replace("Dave: H10 HK H8 EK LK LO L9 SU", "Dave: H10 HK H8 E9 E8 E7 L9 L8")
    v = view_of(text, "discard")
    advice = analyze_discard(v, samples=2, seed=1, jobs=1)
    grouped = [o for o in advice.options if o.alike]
    assert grouped, "E9 E8 E7 and L9 L8 are runs: some lay-aways must be alike"
    for o in grouped:
        kept = {o.option, *o.alike}
        assert len(kept) == 1 + len(o.alike)
        assert len({d & ~cs("E9 E8 E7 L9 L8") for d in kept}) == 1   # they differ only in the runs
    names = [o.option for o in advice.options] + [a for o in advice.options for a in o.alike]
    assert len(names) == len(set(names)) == advice.info["lay_aways"]


def test_discard_table_is_ranked_by_the_estimates_it_shows() -> None:
    # adaptive: the race and the lay-aways estimated through the leader
    advice = analyze_discard(view_of(DISCARD, "discard"), seed=1, jobs=2)
    for ranked in (True, False):    # the ranked rows, then those with too few samples to rank
        keys = [(o.ev_units, o.expected_points or 0.0) for o in advice.options if o.ranked == ranked]
        assert keys == sorted(keys, reverse=True)
    flags = [o.ranked for o in advice.options]
    assert flags == sorted(flags, reverse=True) and not all(flags)
    assert advice.options[0].samples == advice.samples == max(o.samples for o in advice.options)
    assert advice.info["finalists"] >= 1
    assert len({o.samples for o in advice.options}) > 2       # stages and the race
    assert all(o.stderr_units is not None and o.stderr is not None for o in advice.options)


@pytest.mark.parametrize("z", [0, -1.0, float("nan"), float("inf"), "2"])
def test_discard_race_z_must_be_a_positive_number(z) -> None:
    with pytest.raises(OptionError, match="race_z"):
        analyze_discard(view_of(DISCARD, "discard"), samples=2, seed=1, jobs=1, race_z=z)
