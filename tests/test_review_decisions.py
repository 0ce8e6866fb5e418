"""``review`` judges the lay-away and the doublings: checked against computations of their own.

The lay-away: every legal lay-away of the 12 cards solved one by one from the
opening lead (each a fresh search, where the study shares one table), ranked
here.  The doublings: the payments worked out from the rule book's
multipliers, and a hand worked by hand.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner
from randdeals import random_deal

from dobbm_solver import cli
from dobbm_solver.cards import cardset, scan_forward
from dobbm_solver.deal import MAX_DOUBLINGS, replay
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.playout import open_card_strategy, play_hand
from dobbm_solver.review import (
    deal_before_discard,
    deal_before_play,
    doubling_review,
    review_discard,
    review_doublings,
    review_hand,
)
from dobbm_solver.rules import base_units, legal_discard
from dobbm_solver.solver import Solver

HANDS = Path(__file__).resolve().parents[1] / "hands"


def _brute_force(solver: Solver, deal):
    """Every legal lay-away's points, each solved on its own: {lay-away: points}."""
    before = deal_before_discard(deal)
    twelve = before.hands[deal.declarer] | deal.dobb
    out = {}
    for combo in combinations(scan_forward(twelve), 4):
        cs = cardset(combo)
        if legal_discard(cs):
            out[cs] = solver.solve(before.with_discard(cs)).declarer_points
    return out


def _played_dobbms() -> list:
    """The shipped played Dobbms, and random Dobbms played out with open cards."""
    deals = [load_hand_file(HANDS / name)[0] for name in ("played.yaml", "finished.yaml")]
    rng = random.Random(34)
    solver = Solver(4)
    while len(deals) < 5:
        d = random_deal(rng)
        if d.contract != "dobbm" or d.discard is None or len(d.active_seats) != 4:
            continue
        start = deal_before_play(d)
        deals.append(play_hand(start, {s: open_card_strategy(solver) for s in start.active_seats}))
    return deals


@pytest.mark.parametrize("deal", _played_dobbms())
def test_the_lay_away_against_every_legal_one_solved_alone(deal):
    solver = Solver(4)
    values = _brute_force(Solver(4), deal)
    got = review_discard(solver, deal)
    assert got is not None
    top = max(values.values())
    assert got.points == values[deal.discard]
    assert got.best_points == top
    assert set(got.best) == {c for c, v in values.items() if v == top}
    assert got.rank == 1 + sum(v > values[deal.discard] for v in values.values())
    assert got.count == len(values)
    assert got.cost == top - values[deal.discard]
    assert got.points == review_hand(solver, deal).start_points


def _payment(points: int, contract: str, doublings: int) -> int:
    """What each defender pays the declarer, from the rule book: base units, Solo x2, x2 a doubling."""
    if points == 60:
        return 0
    u = base_units(points) * (2 if contract == "solo" else 1) * 2 ** doublings
    return u if points > 60 else -u


@pytest.mark.parametrize("contract", ["dobbm", "solo"])
def test_a_doubling_wins_or_loses_its_side_the_stake(contract):
    for points in range(121):
        for number in range(1, 6):
            declarers = number % 2 == 0
            gain = _payment(points, contract, number) - _payment(points, contract, number - 1)
            side_gain = gain if declarers else -gain
            for said in (True, False):
                d = doubling_review(points, contract, number, said)
                assert d.by_declarer == declarers
                assert d.worth == side_gain
                assert d.cost == (max(0, -side_gain) if said else max(0, side_gain))
                assert d.stake == _payment(points, contract, number - 1)


def test_the_doublings_of_a_hand_worked_by_hand():
    deal = load_hand_file(HANDS / "finished.yaml")[0]   # Bert's Dobbm, one Schwacher, 76 with open cards
    schwacher, retour = review_doublings(deal, 76)
    # 76 points: 4 units a payment; the defenders' Schwacher doubled it against them
    assert (schwacher.name, schwacher.said, schwacher.stake, schwacher.worth, schwacher.cost) == \
        ("Schwacher", True, 4, -4, 4)
    # Bert did not answer with Retour, which would have doubled 8 to 16 for him
    assert (retour.name, retour.said, retour.stake, retour.worth, retour.cost) == ("Retour", False, 8, 8, 8)
    assert all(d.said for d in review_doublings(replace(deal, doublings=MAX_DOUBLINGS), 76))   # none more to say


def test_review_json_and_text_carry_the_judgments():
    runner = CliRunner()
    out = runner.invoke(cli.main, ["review", "--json", "--tt-mb", "4", str(HANDS / "finished.yaml")])
    obj = json.loads(out.stdout)
    assert obj["lay_away"]["cards"] == "E9 L6 S10 S8" and obj["lay_away"]["points"] == obj["start_points"]
    assert obj["lay_away"]["cost"] == obj["lay_away"]["best_points"] - obj["lay_away"]["points"]
    assert [(d["name"], d["said"], d["cost"]) for d in obj["doubling"]] == [("Schwacher", True, 4),
                                                                           ("Retour", False, 8)]
    text = runner.invoke(cli.main, ["review", "--no-diagram", "--tt-mb", "4", str(HANDS / "finished.yaml")]).stdout
    assert "lay-away E9 L6 S10 S8: Bert 76 points with open cards" in text
    assert "Schwacher said: it cost the defenders 4 units" in text
    assert "no Retour: it would have won the declarer 8 units" in text
    solo = runner.invoke(cli.main, ["review", "--json", "--tt-mb", "4", "--deal",
                                    _solo_line()]).stdout
    assert json.loads(solo)["lay_away"] is None


def _solo_line() -> str:
    from dobbm_solver.notation import format_deal_line
    rng = random.Random(7)
    while True:
        d = random_deal(rng)
        if d.contract == "solo" and d.tricks and len(d.active_seats) == 4:
            replay(d)
            return format_deal_line(d)
