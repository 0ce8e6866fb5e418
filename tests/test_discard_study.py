"""The open-card lay-away study shares one table across lay-aways: it must equal fresh solves."""

from __future__ import annotations

from pathlib import Path

from dobbm_solver.handfile import load_hand_file
from dobbm_solver.models.discard_rule import legal_discards
from dobbm_solver.solver import Solver

HANDS = Path(__file__).resolve().parents[1] / "hands"


def test_study_equals_fresh_solves_of_every_discard():
    deal = load_hand_file(HANDS / "discard_study.yaml")[0]
    study = Solver().study_discards(deal)
    twelve = deal.hands[deal.declarer] | deal.dobb
    assert sorted(r.cards for r in study) == sorted(legal_discards(twelve))
    values = [r.declarer_points for r in study]
    assert values == sorted(values, reverse=True)
    fresh = Solver(tt_mb=1)           # a tiny table, and a new position each time
    for r in study:
        assert fresh.solve(deal.with_discard(r.cards)).declarer_points == r.declarer_points


def test_study_does_not_depend_on_table_size_or_history():
    deals = load_hand_file(HANDS / "benchmark_discard.yaml")[:2]
    big, small = Solver(), Solver(tt_mb=1)
    for deal in deals:
        a = {r.cards: r.declarer_points for r in big.study_discards(deal)}
        b = {r.cards: r.declarer_points for r in small.study_discards(deal)}
        assert a == b
