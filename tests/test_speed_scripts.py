"""benchmarks/side_by_side.py and benchmarks/time_by_tricks.py run as commands and print their figures."""

from __future__ import annotations

import json

import pytest
from helpers import load_script

side_by_side = load_script("benchmarks/side_by_side.py")
time_by_tricks = load_script("benchmarks/time_by_tricks.py")


def test_side_by_side_prints_the_four_figures(capsys) -> None:
    pytest.importorskip("endplay.dds")
    assert side_by_side.main(["--deals", "3", "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 3 and out["seed"] == 5
    for part in ("value", "every_card"):
        f = out[part]
        assert f["ratio_by_median"] > 0 and f["ratio_in_total"] > 0
        assert f["dobbm_ms_median"] > 0 and f["dds_ms_median"] > 0
        assert f["ratio_by_median"] == pytest.approx(f["dobbm_ms_median"] / f["dds_ms_median"], rel=0.01)


def test_side_by_side_deals_are_seeded() -> None:
    a = side_by_side.dobbm_deals(7, 4)
    assert a == side_by_side.dobbm_deals(7, 4) and a != side_by_side.dobbm_deals(8, 4)
    assert all(d.tricks == () and not d.needs_discard for d in a)


def test_time_by_tricks_rows(capsys) -> None:
    assert time_by_tricks.main(["--deals", "2", "--reps", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["tricks_left"] for r in rows] == list(range(8, 0, -1))
    assert all(r["positions"] == 2 and r["value_us_median"] > 0 and r["every_card_5_us_median"] > 0
               for r in rows)
    assert rows[0]["value_nodes_median"] > rows[-1]["value_nodes_median"]


def test_time_by_tricks_positions_are_trick_starts_of_the_line() -> None:
    from dobbm_solver.solver import Solver

    solver = Solver(4)
    by_left = time_by_tricks.positions(3, 2, solver)
    for k, deals in by_left.items():
        for deal in deals:
            assert sum(map(int.bit_count, deal.hands.values())) == 4 * k
            assert all(len(t) == 4 for t in deal.tricks) and len(deal.tricks) == 8 - k
            five = time_by_tricks.five_seats(deal)
            assert len(five.seats) == 5 and five.active_seats == deal.active_seats
            assert solver.solve(five).declarer_points == solver.solve(deal).declarer_points
