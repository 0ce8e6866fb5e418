"""Tests of dobbm_solver.analyzer.bidding and .payment: the bidding model and what a result pays."""

from __future__ import annotations

from helpers import cs

from dobbm_solver.analyzer import bid_probabilities, model_bid, payment
from dobbm_solver.rules import units


def test_payment() -> None:
    assert payment(60, "dobbm", 0, True) == 0 and payment(60, "solo", 3, False) == 0
    assert payment(61, "dobbm", 0, True) == 3          # 1 unit from each of three defenders
    assert payment(61, "dobbm", 0, False) == -1        # a defender pays their own unit
    assert payment(120, "solo", 0, True) == 3 * 12 * 2
    assert payment(0, "dobbm", 2, True) == -3 * 12 * 4
    assert payment(54, "solo", 1, False) == 2 * 2 * 2  # defender receives 2 units x Solo x Schwacher
    for p in range(121):
        assert payment(p, "dobbm", 1, True) == 3 * units(p, "dobbm", 1)


def test_bidding_model() -> None:
    weak = cs("E9 E8 E7 L9 L8 L7 S9 S8")
    strong = cs("HA H10 HK HO HU H9 E6 L6")
    for hand in (weak, strong, cs("HA H10 HK EA E9 L8 L7 S6")):
        for kw in ({}, {"dobbm_said": True}, {"must": True}):
            p = bid_probabilities(hand, **kw)
            assert abs(sum(p.values()) - 1) < 1e-12 and all(0 <= x <= 1 for x in p.values())
    assert model_bid(weak) == "pass" and model_bid(weak, must=True) == "dobbm"
    assert model_bid(strong) == "solo" and model_bid(strong, dobbm_said=True) == "solo"
    assert bid_probabilities(weak)["pass"] > 0.99
    assert bid_probabilities(strong)["solo"] > 0.95
    assert set(bid_probabilities(weak, dobbm_said=True)) == {"pass", "solo"}
