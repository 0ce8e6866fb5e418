"""The core's two ways of doing the same thing agree: BMI2 instructions, or portable code.

Where the CPU runs BMI2 fast the core packs the hands of its table key with
PEXT and PDEP and finds runs of a hand's cards with PEXT; elsewhere it loops
over the ranks and cards.  Both must give the very same keys and search:
with either, seeded endings get the reference's value and every card's
value, and full benchmark deals the same values and the same node counts (a
different key would change which positions share an entry, a missed run
the cards searched, and so the nodes).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from endings import random_ending
from reference import ref_card_values, ref_state

from dobbm_solver._search import FAST_BMI2, set_bmi2
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.solver import Solver

SEED = 20261201
DEALS = Path(__file__).resolve().parents[1] / "hands" / "benchmark.yaml"


@pytest.fixture(params=[False, True], ids=["loop", "bmi2"])
def keys(request) -> Iterator[bool]:
    if request.param and not FAST_BMI2:
        pytest.skip("this CPU does not run BMI2 fast: the core uses the loop only")
    before = set_bmi2(request.param)
    yield request.param
    set_bmi2(before)


def test_setting_reports_and_restores():
    before = set_bmi2(False)
    assert set_bmi2(True) is False
    assert set_bmi2(before) is FAST_BMI2      # on only where the CPU has it


def test_endings_match_the_reference(keys):
    rng = random.Random(SEED)
    s = Solver(tt_mb=1)
    for n in range(120):
        deal = random_ending(rng, tricks_left=rng.randint(2, 4), strong=0.5, greedy=0.25)
        want = ref_card_values(deal)
        st = ref_state(deal)
        value = max(want.values()) if st.to_move == st.declarer else min(want.values())
        assert s.solve(deal).declarer_points == value, n
        assert s.solve_all_cards(deal) == want, n


def test_full_deals_same_values_and_nodes():
    if not FAST_BMI2:
        pytest.skip("this CPU does not run BMI2 fast: the core uses the loop only")
    deals = load_hand_file(DEALS)[:12]
    runs = []
    before = set_bmi2(False)
    try:
        for on in (False, True):
            set_bmi2(on)
            s = Solver()
            runs.append([(s.solve(d).declarer_points, s.solve(d).nodes, s.analyze(d).cards) for d in deals])
    finally:
        set_bmi2(before)
    assert runs[0] == runs[1]
