"""``benchmarks/distinct_values.py``: its counts, on hand-made rows and on a shipped deal."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("distinct_values", ROOT / "benchmarks" / "distinct_values.py")
assert _spec is not None and _spec.loader is not None
distinct = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(distinct)


def test_summary_counts_cards_values_and_the_best():
    rows = [[(1, 40), (2, 40), (3, 35)], [(4, 10), (5, 12), (6, 14), (7, 12)]]
    got = distinct.summary(rows, "max")
    assert got == "2 deals: 3.50 legal cards, 2.50 distinct values, 1.50 cards at the best value"
    # the best for the side that wants fewer: the lowest value, 35 once and 10 once
    assert distinct.summary(rows, "min").endswith("1.00 cards at the best value")


def test_summary_of_a_solved_benchmark_deal():
    from dobbm_solver.handfile import load_hand_file
    from dobbm_solver.solver import Solver

    deal = load_hand_file(distinct.BENCHMARK_FILE)[0]
    cards = Solver(tt_mb=4).solve_all_cards(deal)
    got = distinct.summary([list(cards.items())], "max")
    best = max(cards.values())
    assert got == (f"1 deals: {len(cards)}.00 legal cards, {len(set(cards.values()))}.00 distinct values, "
                   f"{list(cards.values()).count(best)}.00 cards at the best value")


def test_the_script_gives_the_speed_page_its_figures(capsys):
    """docs/speed.md quotes this script's counts: they must be what it prints."""
    import importlib.util as util

    distinct.main()
    out = capsys.readouterr().out.splitlines()
    readme = (ROOT / "docs" / "speed.md").read_text()
    assert out[0] == ("dobbm, full deals: 120 deals: 8.00 legal cards, 4.24 distinct values, "
                      "3.26 cards at the best value")
    assert "4.24 different values" in readme and "3.26 cards share the best" in readme
    if util.find_spec("endplay") is not None:
        assert out[1] == ("DDS, 32-card bridge endings: 120 deals: 8.00 legal cards, 1.94 distinct values, "
                          "5.19 cards at the best value")
        assert "have 1.94 (5.19 share the best)" in readme
