"""The model of the card play (dobbm_solver.models.play_model) and ``play``'s inference from it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from views import view_of

from dobbm_solver.analyzer import analyze_play
from dobbm_solver.analyzer.estimate import PlainMean
from dobbm_solver.analyzer.play import _weighted, _weighted_estimate
from dobbm_solver.cards import legal_cards, parse_cards
from dobbm_solver.deal import Deal, replay, validate
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.models.play_model import card_chances, play_log_likelihood, positions
from dobbm_solver.solver import Solver

MIDPLAY = """\
seats: [Anna, Bert, Cora, Dave]
declarer: Anna
contract: solo
me: Cora
hands:
  Cora: EA E10 EO L10 L8
tricks:
  - HA H6 E7 E8
  - HK H9 E9 E6
  - SA S6 SO S8
  - SK S10
"""

OPENING_LEAD = """\
seats: [Anna, Bert, Cora, Dave]
dealer: Dave
declarer: Anna
contract: solo
me: Anna
hands:
  Anna: HA HK HO HU H8 LU SA SK
"""


def test_card_chances() -> None:
    values = dict(zip(parse_cards("HA H10 E6"), (70, 60, 40)))
    a, b, c = parse_cards("HA H10 E6")
    decl = card_chances(values, True, 6.0)
    defe = card_chances(values, False, 6.0)
    assert math.isclose(math.fsum(decl.values()), 1.0) and math.isclose(math.fsum(defe.values()), 1.0)
    assert decl[a] > decl[b] > decl[c] and defe[c] > defe[b] > defe[a]
    assert decl[a] / decl[b] == pytest.approx(math.exp(10 / 6.0))
    assert card_chances(values, True, 0.01)[a] == pytest.approx(1.0)
    assert card_chances(values, True, 1e6)[a] == pytest.approx(1 / 3, rel=1e-4)


def _midplay_deal() -> Deal:
    [deal] = load_hand_file(Path(__file__).resolve().parents[1] / "hands" / "midplay.yaml")
    return deal


def test_positions_rebuild_the_play() -> None:
    deal = _midplay_deal()
    got = positions(deal)
    assert len(got) == sum(len(t) for t in deal.tricks) == 14
    first, seat, card = got[0]
    assert first.tricks == () and seat == "Anna" and card == parse_cards("HA")[0]
    assert all(bin(h).count("1") == 8 for h in first.hands.values())
    for position, seat, card in got:
        validate(position)
        state = replay(position)
        assert state.to_move == seat
        lead = state.trick[0] if state.trick else None
        assert (legal_cards(position.hands[seat], lead) >> card) & 1


def test_the_play_likelihood_by_hand() -> None:
    deal = _midplay_deal()
    solver = Solver()
    want = 0.0
    for position, seat, card in positions(deal):
        if seat == "Cora":
            continue
        values = solver.solve_all_cards(position)
        if len(values) > 1:
            sign = 1 if seat == "Anna" else -1
            z = math.fsum(math.exp(sign * v / 5.0) for v in values.values())
            want += sign * values[card] / 5.0 - math.log(z)
    got = play_log_likelihood(solver.solve_all_cards, deal, ("Anna", "Bert", "Dave"), 5.0)
    assert got == pytest.approx(want, abs=1e-9) and got < 0
    assert play_log_likelihood(solver.solve_all_cards, deal, (), 5.0) == 0.0


def test_the_weighted_estimate_is_the_weighted_mean() -> None:
    pays, w = [3.0, -1.0, 2.0, 0.0], [1.0, 0.5, 0.25, 1.0]
    e = _weighted_estimate(0, PlainMean(), _weighted(pays, w), [70, 50, 65, 60], w)
    assert e.ev_units == pytest.approx(math.fsum(p * x for p, x in zip(pays, w)) / sum(w))
    assert e.expected_points == pytest.approx((70 + 25 + 16.25 + 60) / 2.75)
    assert e.stderr_units is not None and e.stderr_units > 0


def test_inference_weighs_the_samples_by_the_play() -> None:
    view = view_of(MIDPLAY, "play")
    plain = analyze_play(view, samples=12, seed=4, jobs=1)
    read = analyze_play(view, samples=12, seed=4, jobs=1, inference=True)
    assert "effective_samples" not in plain.info
    assert read.info["play_temperature"] > 0 and 1.0 <= read.info["effective_samples"] < 12
    assert [o.option for o in read.options] != [] and read.samples == plain.samples == 12
    # the same whatever the workers
    two = analyze_play(view, samples=12, seed=4, jobs=2, inference=True)
    assert [(o.option, o.ev_units) for o in two.options] == [(o.option, o.ev_units) for o in read.options]


def test_no_card_played_no_inference() -> None:
    view = view_of(OPENING_LEAD, "play")
    plain = analyze_play(view, samples=8, seed=2, jobs=1)
    read = analyze_play(view, samples=8, seed=2, jobs=1, inference=True)
    assert read.info["effective_samples"] == 8.0
    assert [o.option for o in read.options] == [o.option for o in plain.options]
    assert [o.ev_units for o in read.options] == pytest.approx([o.ev_units for o in plain.options])


def test_a_bad_temperature_is_refused() -> None:
    from dobbm_solver.errors import OptionError
    with pytest.raises(OptionError, match="temperature"):
        analyze_play(view_of(MIDPLAY, "play"), samples=4, seed=1, jobs=1, inference=True, temperature=0.0)
