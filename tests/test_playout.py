"""Tests of playing a hand out by strategies (dobbm_solver/playout.py).

Legality is checked with the independent rules of ``tests/reference.py``:
every finished hand is replayed card by card from its opening lead with
``ref_play``, which refuses a card its rules do not allow.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reference import ref_play

from dobbm_solver.cards import BB_TRUMPS, Card, card_name, parse_card, popcount, scan_forward
from dobbm_solver.deal import final_points, find_revokes, replay, validate
from dobbm_solver.dealer import random_deal
from dobbm_solver.errors import DobbmError, DobbmRuntimeError, OptionError
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.playout import (
    OpenCardPlayer,
    PlayError,
    SeatView,
    StrategyError,
    open_card_strategy,
    play_card,
    play_hand,
    rule_of_thumb_strategy,
    seat_view,
    tie_key,
)
from dobbm_solver.review import deal_before_play
from dobbm_solver.solver import Solver

HANDS = Path(__file__).resolve().parents[1] / "hands"


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(16)


def _all(strategy):
    return lambda deal: {s: strategy for s in deal.active_seats}


def _cards_in_order(deal) -> list[Card]:
    return [c for t in deal.tricks for c in t]


def test_rule_of_thumb_plays_only_legal_cards_on_200_deals():
    rng = random.Random(20261201)
    rot = rule_of_thumb_strategy()
    for _ in range(200):
        deal = random_deal(rng)
        done = play_hand(deal, _all(rot)(deal))
        state = validate(done)                   # the production rules: no revoke, all cards once
        assert state.finished and find_revokes(done) == []
        # the reference's own rules accept every card, in order, from the opening lead
        replayed = ref_play(deal, _cards_in_order(done))
        assert replayed.tricks == done.tricks
        assert all(h == 0 for h in done.hands.values())


def test_rule_of_thumb_is_deterministic():
    deal = random_deal(random.Random(5))
    one = play_hand(deal, _all(rule_of_thumb_strategy())(deal))
    two = play_hand(deal, _all(rule_of_thumb_strategy())(deal))
    assert one == two


def test_open_card_play_reaches_the_solve_value(solver):
    rng = random.Random(77)
    check = Solver(16)
    for _ in range(4):
        deal = random_deal(rng)
        done = play_hand(deal, _all(open_card_strategy(solver))(deal))
        state = validate(done)
        assert final_points(done, state) == check.solve(deal).declarer_points


def test_open_card_play_from_mid_play(solver):
    (deal,) = load_hand_file(HANDS / "midplay.yaml")
    done = play_hand(deal, _all(open_card_strategy(solver))(deal))
    assert done.tricks[:len(deal.tricks) - 1] == deal.tricks[:-1]
    assert done.tricks[len(deal.tricks) - 1][:2] == deal.tricks[-1]
    assert final_points(done, validate(done)) == Solver(16).solve(deal).declarer_points


def test_open_card_ties_go_by_the_fixed_rule(solver):
    deal = random_deal(random.Random(3))
    values = Solver(16).solve_all_cards(deal)
    best = max(values.values())
    card = open_card_strategy(solver)(seat_view(deal, open_cards=True))
    assert card == min((c for c, v in values.items() if v == best), key=tie_key)


def test_open_card_strategy_without_the_open_deal_is_refused(solver):
    deal = random_deal(random.Random(3))
    with pytest.raises(StrategyError, match="open deal"):
        open_card_strategy(solver)(seat_view(deal))


def test_only_an_open_card_player_sees_the_deal():
    deal = random_deal(random.Random(11))
    views: list[SeatView] = []

    def watcher(view: SeatView) -> Card:
        views.append(view)
        return min(scan_forward(view.legal))

    play_hand(deal, _all(watcher)(deal))
    assert len(views) == 32 and all(v.open_deal is None for v in views)
    assert not isinstance(watcher, OpenCardPlayer)
    for v in views:
        held = deal_before_play(deal).hands[v.seat]
        assert v.hand & ~held == 0 and v.hand & v.played == 0
        # only the declarer of a Dobbm knows the lay-away
        assert (v.discard is not None) == (v.is_declarer and deal.contract == "dobbm")
        assert v.unseen & v.hand == 0 and popcount(v.unseen | v.hand | v.played | (v.discard or 0)) == 36

    class Peeker:
        sees_all_cards = True

        def __call__(self, view: SeatView) -> Card:
            assert view.open_deal is not None and view.open_deal.hands[view.seat] == view.hand
            return min(scan_forward(view.legal))

    assert isinstance(Peeker(), OpenCardPlayer)
    play_hand(deal, _all(Peeker())(deal))


def test_an_illegal_card_is_a_clear_error():
    deal = random_deal(random.Random(2))
    others = [c for c in range(36) if not (deal.hands[deal.declarer] >> c) & 1]
    with pytest.raises(StrategyError) as e:
        play_hand(deal, _all(lambda view: others[0])(deal))
    assert isinstance(e.value, DobbmRuntimeError)
    assert deal.declarer in str(e.value) and card_name(others[0]) in str(e.value)
    with pytest.raises(StrategyError, match="'x'"):
        play_hand(deal, _all(lambda view: "x")(deal))


def test_a_seat_without_strategy_and_a_deal_without_discard():
    deal = random_deal(random.Random(2))
    with pytest.raises(OptionError, match=deal.active_seats[-1]):
        play_hand(deal, {s: rule_of_thumb_strategy() for s in deal.active_seats[:-1]})
    study = random_deal(random.Random(2), contract="dobbm", discard=False)
    with pytest.raises(PlayError, match="lay-away"):
        play_hand(study, _all(rule_of_thumb_strategy())(study))


def test_play_card_checks_the_card():
    (deal,) = load_hand_file(HANDS / "midplay.yaml")
    # bells led; Cora holds neither bells nor trumps, so any card of hers is legal
    state = replay(deal)
    assert state.to_move == "Cora"
    after = play_card(deal, parse_card("EA"))
    assert after.tricks[-1] == deal.tricks[-1] + (parse_card("EA"),)
    assert not (after.hands["Cora"] >> parse_card("EA")) & 1
    with pytest.raises(PlayError, match="Cora may not play HO"):
        play_card(deal, parse_card("HO"))
    (finished,) = load_hand_file(HANDS / "finished.yaml")
    with pytest.raises(PlayError, match="after the last trick"):
        play_card(finished, parse_card("HA"))
    with pytest.raises(DobbmError, match="nobody is to move"):
        seat_view(finished)


# --- the rules of thumb, one by one, on hand-made views --------------------

SEATS = ("N", "E", "S", "W")


def _view(seat: str, hand: str, tricks: list[str], leaders: list[str], declarer: str = "N") -> SeatView:
    return SeatView(seat=seat, hand=sum(1 << parse_card(c) for c in hand.split()), seats=SEATS,
                    declarer=declarer, contract="solo", doublings=0,
                    tricks=tuple(tuple(parse_card(c) for c in t.split()) for t in tricks),
                    leaders=tuple(leaders))


def _play(view: SeatView) -> str:
    return card_name(rule_of_thumb_strategy()(view))


def test_declarer_with_many_trumps_leads_the_top_trump_or_a_low_one():
    assert _play(_view("N", "HA HK H6 E7 E8 L7 S7 S8", [], [])) == "HA"
    assert _play(_view("N", "HK HO H6 E7 E8 L7 S7 S8", [], [])) == "H6"
    # a defender does not pull trumps: it leads a Sau
    assert _play(_view("E", "HA HK H6 EA E8 L7 S7 S8", [], [], declarer="N")) == "EA"


def test_a_lead_without_a_sure_card_is_the_lowest_of_the_longest_plain_suit():
    assert _play(_view("E", "H6 EK E8 E7 L9 LO S7 S8", [], [])) == "E7"


def test_smear_on_partners_sure_trick_else_play_cheap():
    # N declares; E led HA (no trump beats it), S to play: S smears the ten
    assert _play(_view("S", "E10 E6 L7", ["HA"], ["E"])) == "E10"
    # E led EK: the EA is not seen by S, so the trick is not sure: S plays cheap
    assert _play(_view("S", "E10 E6 L7", ["EK"], ["E"])) == "E6"
    # partner winning and S plays last: sure
    assert _play(_view("S", "E10 E6", ["EK EU E7"], ["W"], declarer="E")) == "E10"


def test_win_cheaply_or_with_most_points_when_last():
    # declarer N beats EK with the lowest winner while others are still to play
    assert _play(_view("N", "EA E10 E6 HA", ["EK"], ["W"])) == "E10"
    assert _play(_view("N", "EA EO E6 HA", ["EK"], ["W"])) == "EA"
    # last to play: the winner with most points
    assert _play(_view("N", "EA E10 E6", ["EK E7 E8"], ["E"])) == "EA"
    # cannot win: the cheapest card, a plain card before a trump when free to choose
    assert _play(_view("N", "E6 E7 EO", ["EA"], ["W"])) == "E6"
    assert _play(_view("N", "H7 LO S6", ["EA HA"], ["S"])) == "H7"
    trumps = _view("N", "H7 H8 LO", ["EA"], ["W"]).legal
    assert trumps == BB_TRUMPS & _view("N", "H7 H8 LO", ["EA"], ["W"]).hand


def test_view_helpers():
    v = _view("S", "E10 E6 L7", ["HA"], ["E"])
    assert v.leader == "E" and v.still_to_play == ("W", "N")
    assert v.trick == (parse_card("HA"),) and v.played == 1 << parse_card("HA")
    assert _view("S", "E10", [], []).leader == "S"
