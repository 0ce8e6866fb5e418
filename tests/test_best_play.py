"""``Solver.solve_best``: a deal as it will be played, a Dobbm's lay-away studied first."""

from __future__ import annotations

from pathlib import Path

import pytest

from dobbm_solver.deal import replay
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.jobs import JobsError
from dobbm_solver.solver import Analysis, BestPlay, Solver

HANDS = Path(__file__).resolve().parents[1] / "hands"
STUDIES = load_hand_file(HANDS / "discard_study.yaml") + load_hand_file(HANDS / "benchmark_discard.yaml")[:2]
PLAYED = load_hand_file(HANDS / "example.yaml") + load_hand_file(HANDS / "midplay.yaml")


@pytest.mark.parametrize("deal", STUDIES)
def test_value_is_the_studys_best_discard_without_a_second_search(deal):
    ranked = Solver(tt_mb=16).study_discards(deal, jobs=1)
    best = Solver(tt_mb=16).solve_best(deal, analyze=False, jobs=1)
    assert best.studied == tuple(ranked)
    assert best.deal == deal.with_discard(ranked[0].cards) and not best.deal.needs_discard
    assert not isinstance(best.value, Analysis)
    assert best.value.declarer_points == ranked[0].declarer_points
    assert best.value.nodes == ranked[0].nodes
    assert best.nodes == sum(r.nodes for r in ranked)        # the study's nodes, nothing more
    assert best.value.to_move == replay(best.deal).to_move
    assert (best.value.declarer, best.value.contract, best.value.doublings) == \
        (deal.declarer, deal.contract, deal.doublings)
    # the value the study found is the value of the deal played with that lay-away
    assert Solver(tt_mb=16).solve(best.deal).declarer_points == best.value.declarer_points


@pytest.mark.parametrize("deal", STUDIES)
def test_analysis_is_the_deal_solved_with_the_best_discard(deal):
    best = Solver(tt_mb=16).solve_best(deal, analyze=True, jobs=1)
    by_hand = Solver(tt_mb=16)                    # the same steps on a solver of the same size
    ranked = by_hand.study_discards(deal, jobs=1)
    an = by_hand.analyze(deal.with_discard(ranked[0].cards))
    assert best.studied == tuple(ranked)
    assert best.deal == deal.with_discard(ranked[0].cards)
    assert best.analysis == an
    assert best.nodes == sum(r.nodes for r in ranked) + an.nodes
    assert best.analysis.declarer_points == ranked[0].declarer_points
    fresh = Solver(tt_mb=16).analyze(best.deal)   # the values do not depend on the table's history
    assert (fresh.declarer_points, dict(fresh.cards)) == (an.declarer_points, dict(an.cards))


def test_the_discards_do_not_depend_on_jobs():
    deal = STUDIES[0]
    one = Solver(tt_mb=16).solve_best(deal, analyze=False, jobs=1)
    two = Solver(tt_mb=16).solve_best(deal, analyze=False, jobs=2)
    assert [(r.cards, r.declarer_points) for r in one.studied or ()] == \
        [(r.cards, r.declarer_points) for r in two.studied or ()]
    assert two.deal == one.deal and two.value.declarer_points == one.value.declarer_points
    with pytest.raises(JobsError):
        Solver(tt_mb=1).solve_best(deal, analyze=False, jobs=-1)


@pytest.mark.parametrize("deal", PLAYED)
def test_a_deal_with_its_discard_is_solved_as_it_is(deal):
    solver = Solver(tt_mb=16)
    an = solver.solve_best(deal, analyze=True)
    assert an.studied is None and an.deal == deal
    assert an.analysis == Solver(tt_mb=16).analyze(deal) and an.nodes == an.analysis.nodes
    sol = Solver(tt_mb=16).solve_best(deal, analyze=False)
    assert sol.studied is None and sol.deal == deal
    assert sol.value == Solver(tt_mb=16).solve(deal) and sol.nodes == sol.value.nodes


def test_value_mode_has_no_analysis():
    best = Solver(tt_mb=1).solve_best(PLAYED[0], analyze=False)
    assert isinstance(best, BestPlay)
    with pytest.raises(TypeError):
        best.analysis
