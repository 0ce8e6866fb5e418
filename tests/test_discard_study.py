"""The open-card lay-away study shares one table across lay-aways: it must equal fresh solves.

The table's bounds are stored independent of the lay-away's points (the bonus), so
an entry written for one lay-away is read for the next.  An entry shifted wrongly
there shows in no single solve, only in some lay-away values of a study (a few per
thousand), so the study of seeded random Dobbm deals is compared, lay-away by
lay-away, with a fresh solve of each on a fresh solver: thousands of values in the
quick suite, over a hundred thousand in the slow one.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dobbm_solver.dealer import random_deal
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


def study_against_fresh_solves(seeds: range) -> tuple[int, list[tuple[int, str, int, int]]]:
    """The lay-away values a study gave, and those unlike a fresh solve: (seed, cards, study, fresh).

    One solver studies every deal in turn (its table reused across lay-aways and deals,
    as ``dobbm study`` does); each lay-away is then solved alone on a new solver."""
    studying = Solver(tt_mb=16)
    count, wrong = 0, []
    for seed in seeds:
        deal = random_deal(random.Random(seed), contract="dobbm", discard=False)
        study = studying.study_discards(deal, jobs=1)
        assert sorted(r.cards for r in study) == sorted(legal_discards(deal.hands[deal.declarer] | deal.dobb))
        for r in study:
            fresh = Solver(tt_mb=1).solve(deal.with_discard(r.cards)).declarer_points
            count += 1
            if fresh != r.declarer_points:
                wrong.append((seed, hex(r.cards), r.declarer_points, fresh))
    return count, wrong


def test_every_lay_away_of_seeded_studies_equals_a_fresh_solve():
    count, wrong = study_against_fresh_solves(range(24))
    assert count > 5000
    assert wrong == [], f"{len(wrong)} of {count} lay-away values differ: {wrong[:10]}"


@pytest.mark.slow
def test_every_lay_away_of_300_seeded_studies_equals_a_fresh_solve():
    count, wrong = study_against_fresh_solves(range(1000, 1300))
    assert count > 100000
    assert wrong == [], f"{len(wrong)} of {count} lay-away values differ: {wrong[:10]}"
