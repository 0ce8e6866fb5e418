"""One test (at least) for every clause of RULES.md that is code."""

from __future__ import annotations

import math

import pytest
from endings import P_TRICKS, Q_TRICKS, make
from endings import bits as cs

from dobbm_solver import cards as C
from dobbm_solver import rules as R
from dobbm_solver.cards import (
    CardError,
    beats,
    card_name,
    card_points,
    legal_cards,
    parse_card,
    parse_cards,
    set_points,
    trick_winner,
)
from dobbm_solver.deal import DealError, replay, trick_seats, validate

ALL_NAMES = [s + r for s in "ELHS" for r in ("A", "10", "K", "O", "U", "9", "8", "7", "6")]


def names(cardset: int) -> set[str]:
    return {card_name(c) for c in range(36) if (cardset >> c) & 1}


# --- Cards -------------------------------------------------------------------------
def test_36_cards_canonical_text_round_trip():
    assert sorted(card_name(c) for c in range(36)) == sorted(ALL_NAMES)
    for name in ALL_NAMES:
        assert card_name(parse_card(name)) == name
    assert len({parse_card(n) for n in ALL_NAMES}) == 36


@pytest.mark.parametrize("text,canonical", [
    ("hx", "H10"), ("HX", "H10"), ("hz", "H10"), ("GZ", "L10"), ("gx", "L10"),
    ("B7", "S7"), ("ba", "SA"), ("g6", "L6"), ("ea", "EA"), ("e10", "E10"),
    ("Lo", "LO"), ("sU", "SU"), ("bK", "SK"), (" hA ", "HA"),
])
def test_card_aliases_and_case(text, canonical):
    assert card_name(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["HS", "ES", "SS", "H1", "H11", "H5", "X10", "G", "", "EAA",
                                  "A", "10", "HT", "HD"])
def test_bad_card_text(text):
    with pytest.raises(CardError):
        parse_card(text)


def test_S_is_the_bells_suit_not_a_rank():
    assert card_name(parse_card("SA")) == "SA"
    assert C.card_suit(parse_card("SA")) == C.S
    assert C.card_rank(parse_card("SA")) == C.RANK_A


def test_card_points():
    want = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0, "6": 0}
    for name in ALL_NAMES:
        assert card_points(parse_card(name)) == want[name[1:]], name


def test_deck_120_each_suit_30():
    assert sum(card_points(c) for c in range(36)) == 120 == C.TOTAL_POINTS
    for s in "ELHS":
        assert set_points(cs(" ".join(s + r for r in ("A", "10", "K", "O", "U", "9", "8", "7", "6")))) == 30
    assert set_points(C.BB_ALL) == 120


def test_set_points_is_the_sum_of_its_cards():
    import random
    rng = random.Random(3)
    for _ in range(3000):
        hand = rng.getrandbits(36)
        assert set_points(hand) == sum(card_points(c) for c in range(36) if (hand >> c) & 1)


def test_rank_order_in_every_suit():
    order = ("A", "10", "K", "O", "U", "9", "8", "7", "6")          # high to low
    for s in "ELHS":
        for i, hi in enumerate(order):
            for lo in order[i + 1:]:
                assert beats(parse_card(s + hi), parse_card(s + lo))
                assert not beats(parse_card(s + lo), parse_card(s + hi))


def test_hearts_are_trumps():
    assert C.TRUMP == C.H
    assert names(C.BB_TRUMPS) == {"H" + r for r in ("A", "10", "K", "O", "U", "9", "8", "7", "6")}
    assert beats(parse_card("H6"), parse_card("EA"))
    assert not beats(parse_card("EA"), parse_card("H6"))
    assert not beats(parse_card("LA"), parse_card("E6"))            # other plain suit never wins


# --- Play: trick winner ----------------------------------------------------------------
@pytest.mark.parametrize("trick,winner", [
    ("E9 EA E10 E6", 1),            # highest of the suit led
    ("E9 LA SA HA", 3),             # trump
    ("E9 LA SA S10", 0),            # off-suit cards never win, however high
    ("E9 H6 EA H7", 3),             # highest trump
    ("H6 EA LA SA", 0),             # trump led, nobody follows
    ("HU HO H10 HK", 2),            # 10 above K
    ("SK SO SU S9", 0),
    ("LU L9 LO L6", 2),             # O above U
])
def test_trick_winner(trick, winner):
    assert trick_winner(parse_cards(trick)) == winner


# --- Play: legal cards ------------------------------------------------------------------
def test_legal_cards_lead_anything():
    hand = cs("EA H6 SK L7")
    assert legal_cards(hand, None) == hand


def test_legal_cards_follow_suit():
    hand = cs("EA E6 H6 HA SK")
    assert names(legal_cards(hand, parse_card("E9"))) == {"EA", "E6"}
    assert names(legal_cards(hand, parse_card("H10"))) == {"H6", "HA"}     # trumps led
    assert names(legal_cards(hand, parse_card("S9"))) == {"SK"}


def test_legal_cards_must_trump():
    hand = cs("EA E6 H6 HA SK")
    assert names(legal_cards(hand, parse_card("L9"))) == {"H6", "HA"}


def test_legal_cards_free_otherwise():
    hand = cs("EA E6 SK")
    assert names(legal_cards(hand, parse_card("L9"))) == {"EA", "E6", "SK"}


def test_no_duty_to_overtake_or_overtrump():
    # legal_cards sees only the card led: every trump stays legal whatever was trumped
    # with, and every card of the suit led whatever is winning
    hand = cs("H6 HA E6 EA")
    assert names(legal_cards(hand, parse_card("L9"))) == {"H6", "HA"}
    assert names(legal_cards(hand, parse_card("E9"))) == {"E6", "EA"}
    # and in a replayed deal: S underplays HU after E's HK (see test_reference)
    deal = make({"N": "S10", "E": "EU", "S": "HA", "W": "SO"},
                P_TRICKS + ("SA HK HU SK",), dobb="SU LU H10 HO")
    assert replay(deal).to_move == "E"


# --- Contracts: the Sau rule -----------------------------------------------------------------
@pytest.mark.parametrize("discard,ok", [
    ("EA H6 E6 L6", True),          # EA with a heart
    ("EA LA H6 E6", False),         # two Saus, one heart
    ("HA E6 L6 S6", True),          # HA alone: a heart, not a plain Sau
    ("EA HA E6 L6", True),          # HA counts as the heart
    ("EA E6 L6 S6", False),         # a Sau without a heart
    ("EA LA H6 H7", True),
    ("EA LA SA H6", False),
    ("EA LA SA HA", False),
    ("H6 H7 H8 H9", True),          # trumps may be laid away
    ("E10 L10 S10 H10", True),      # tens are not Saus
    ("EA LA SA H6 H7", False),      # five cards
    ("EA H6 E6", False),            # three cards
])
def test_discard_sau_rule(discard, ok):
    err = R.discard_error(cs(discard))
    assert (err is None) == ok, err
    assert R.legal_discard(cs(discard)) == ok


def test_discard_error_names_the_saus():
    err = R.discard_error(cs("EA LA H6 E6"))
    assert "EA" in err and "LA" in err


# --- Result -------------------------------------------------------------------------------------
@pytest.mark.parametrize("pts,out", [
    (61, R.Outcome.WIN), (60, R.Outcome.STANDOFF), (59, R.Outcome.LOSS),
    (120, R.Outcome.WIN), (0, R.Outcome.LOSS), (90, R.Outcome.WIN), (30, R.Outcome.LOSS),
])
def test_outcome(pts, out):
    assert R.outcome(pts) == out


# --- Payment ------------------------------------------------------------------------------------
@pytest.mark.parametrize("pts,u", [
    (60, 0), (61, 1), (65, 1), (66, 2), (70, 2), (71, 3), (75, 3), (76, 4),
    (115, 11), (116, 12), (120, 12),
    (59, -1), (55, -1), (54, -2), (50, -2), (49, -3), (5, -11), (4, -12), (0, -12),
])
def test_units_table(pts, u):
    assert R.units(pts, "dobbm") == u


def test_units_formula_everywhere():
    for pts in range(121):
        base = math.ceil(abs(pts - 60) / 5)
        sign = 1 if pts > 60 else -1
        assert R.base_units(pts) == base
        assert R.units(pts, "dobbm") == (sign * base if base else 0)
        assert R.units(pts, "solo") == 2 * R.units(pts, "dobbm")
        for d in range(4):
            assert R.units(pts, "dobbm", d) == R.units(pts, "dobbm") * 2 ** d
            assert R.units(pts, "solo", d) == R.units(pts, "dobbm") * 2 * 2 ** d


def test_units_examples_with_multipliers():
    assert R.units(61, "solo") == 2
    assert R.units(120, "solo", 1) == 48
    assert R.units(0, "dobbm", 2) == -48
    assert R.units(59, "solo", 3) == -16


@pytest.mark.parametrize("pts", [-1, 121, 200])
def test_units_out_of_range(pts):
    with pytest.raises(R.RuleError):
        R.units(pts, "dobbm")


def test_bad_contract_or_doublings():
    with pytest.raises(R.RuleError):
        R.units(70, "bettel")
    with pytest.raises(R.RuleError):
        R.units(70, "solo", -1)


def test_revoke_units():
    assert R.revoke_units("dobbm") == 6
    assert R.revoke_units("solo") == 12
    assert R.revoke_units("dobbm", 1) == 12
    assert R.revoke_units("solo", 2) == 48
    assert R.revoke_units("dobbm", 3) == 48


# --- Deal: replay and validate ------------------------------------------------------------------
FULL_HANDS = {"N": "SA SO", "E": "SK HA", "S": "S10 HK", "W": "SU H10"}


def test_replay_declarer_leads_and_winner_leads_next():
    deal = make({"N": "S10 EU", "E": "SO HU", "S": "SU LU", "W": "SA SK"}, Q_TRICKS,
                dobb="HA H10 HK HO")
    st = replay(deal)
    assert st.leaders == ("N", "W", "W", "W", "W", "W")
    assert st.leader == "W" and st.to_move == "W" and st.trick == ()
    assert (st.declarer_tricks, st.defender_tricks, st.declarer_trick_points) == (0, 6, 0)
    # W leads SK, N's S10 wins: N leads the last trick
    deal = make({"N": "EU", "E": "HU", "S": "LU", "W": "SA"}, Q_TRICKS + ("SK S10 SO SU",),
                dobb="HA H10 HK HO")
    st = replay(deal)
    assert st.leaders[-1] == "W" and st.leader == "N" and st.to_move == "N"
    assert (st.declarer_tricks, st.defender_tricks, st.declarer_trick_points) == (1, 6, 19)


def test_replay_mid_trick():
    deal = make({"N": "SO", "E": "SK HA", "S": "S10 HK", "W": "SU H10"}, P_TRICKS + ("SA",),
                dobb="EU LU HO HU")
    st = replay(deal)
    assert st.leader == "N" and st.trick == (parse_card("SA"),) and st.to_move == "E"
    assert (st.declarer_tricks, st.declarer_trick_points) == (6, 56)
    assert not st.finished


def test_replay_finished():
    deal = make({s: "" for s in "NESW"},
                P_TRICKS + ("SO SK S10 SU", "HK H10 SA HA"), dobb="EU LU HO HU")
    st = replay(deal)
    assert st.finished and st.to_move is None
    assert (st.declarer_tricks, st.defender_tricks, st.declarer_trick_points) == (6, 2, 56)


def test_replay_five_seats_dealer_sits_out():
    deal = make({"N": "SO", "E": "SK HA", "S": "S10 HK", "W": "SU H10"}, P_TRICKS + ("SA",),
                dobb="EU LU HO HU", seats=("N", "D", "E", "S", "W"), dealer="D")
    assert replay(deal).to_move == "E"


def test_revoke_not_following_suit():
    # E plays HK to the leaves trick though E still holds L8
    hands = {"N": "SA SO", "E": "L8 HA", "S": "S10 SK", "W": "SU H10"}
    tricks = list(P_TRICKS)
    tricks[1] = "L9 HK L7 L6"
    deal = make(hands, tricks, dobb="EU LU HO HU", check=False)
    with pytest.raises(DealError) as e:
        validate(deal)
    assert e.value.key == "tricks"
    assert "trick 2" in str(e.value) and "HK" in str(e.value) and "E" in str(e.value)
    # without the check replay follows the cards as given: E's HK won trick 2
    st = replay(deal, check=False)
    assert st.leaders[:3] == ("N", "N", "E") and st.to_move == "E"


def test_revoke_not_trumping():
    # trick 7: N leads SA; E, void in spades with HA, discards EU instead of trumping
    hands = {"N": "SO", "E": "HA", "S": "S10", "W": "SU"}
    deal = make(hands, P_TRICKS + ("SA EU SK H10",), dobb="LU HO HU HK", check=False)
    with pytest.raises(DealError) as e:
        validate(deal)
    assert e.value.key == "tricks" and "trick 7" in str(e.value) and "EU" in str(e.value)


def test_legal_discard_when_void_and_no_trump_is_no_revoke():
    # trick 7: N SA, E and S follow, W (void in spades, no trump) may play EU
    hands = {"N": "SO", "E": "HA", "S": "HK", "W": "LU"}
    deal = make(hands, P_TRICKS + ("SA SK S10 EU",), dobb="SU H10 HO HU")
    st = replay(deal)
    assert st.to_move == "N" and st.declarer_trick_points == 56 + 11 + 4 + 10 + 2


def test_validate_card_counts():
    good = dict(FULL_HANDS)
    make(good, P_TRICKS, dobb="EU LU HO HU")
    # a card moved from E to S: E has 1, S has 3
    bad = {"N": "SA SO", "E": "HA", "S": "S10 HK SK", "W": "SU H10"}
    with pytest.raises(DealError) as e:
        make(bad, P_TRICKS, dobb="EU LU HO HU")
    assert e.value.key in ("hands.E", "hands.S")
    # a card twice
    with pytest.raises(DealError) as e:
        make({**good, "W": "SU SA"}, P_TRICKS, dobb="EU LU HO HU")
    assert "SA" in str(e.value)
    # a card missing
    with pytest.raises(DealError) as e:
        make({**good, "W": "SU"}, P_TRICKS, dobb="EU LU HO HU")
    assert "H10" in str(e.value)
    # Dobb of three
    with pytest.raises(DealError) as e:
        make({**good, "W": "SU H10 HU"}, P_TRICKS, dobb="EU LU HO")
    assert e.value.key in ("dobb", "hands.W")


def test_validate_contract_and_discard():
    with pytest.raises(DealError) as e:
        make(FULL_HANDS, P_TRICKS, dobb="EU LU HO HU", contract="bettel")
    assert e.value.key == "contract"
    with pytest.raises(DealError) as e:          # a Solo has no lay-away
        make(FULL_HANDS, P_TRICKS, dobb="EU LU HO HU", discard="EU LU HO HU")
    assert e.value.key == "discard"


def test_validate_dobbm_sau_rule_and_dobb_with_declarer():
    hands = {"N": "HA SU", "E": "SK EU", "S": "SO HO", "W": "LU HK"}
    make(hands, P_TRICKS, contract="dobbm", dobb="E9 L9 S9 EA", discard="SA S10 H10 HU")
    # SA laid away without a heart: the Sau rule is broken
    hands = {"N": "HA SU", "E": "SK HU", "S": "SO HO", "W": "H10 HK"}
    with pytest.raises(DealError) as e:
        make(hands, P_TRICKS, contract="dobbm", dobb="E9 L9 S9 EA", discard="SA S10 EU LU")
    assert e.value.key == "discard" and "SA" in str(e.value)
    # a Dobb card (SK) in a defender's hand: the declarer took the Dobb in a Dobbm
    hands = {"N": "HA SU", "E": "SK EU", "S": "SO HO", "W": "LU HK"}
    with pytest.raises(DealError) as e:
        make(hands, P_TRICKS, contract="dobbm", dobb="E9 L9 S9 SK", discard="SA S10 H10 HU")
    assert e.value.key == "dobb" and "SK" in str(e.value)
    # the same cards as a Solo are fine (the Dobb stays in the middle, no lay-away)
    make({"N": "SA SO", "E": "SK HA", "S": "S10 HK", "W": "SU H10"}, P_TRICKS,
         dobb="EU LU HO HU")


def test_validate_only_last_trick_unfinished():
    tricks = list(P_TRICKS)
    tricks[2] = "S9 S8 S7"
    with pytest.raises(DealError) as e:
        make({"N": "SA SO", "E": "SK HA", "S": "S10 HK", "W": "SU H10 S6"}, tricks,
             dobb="EU LU HO HU")
    assert e.value.key == "tricks"


def test_validate_discard_needed_once_tricks_are_played():
    with pytest.raises(DealError) as e:
        make(FULL_HANDS, P_TRICKS, contract="dobbm", dobb="EU LU HO HU")
    assert e.value.key == "discard"


def test_trick_seats():
    active = ("Anna", "Bert", "Cora", "Dave")
    assert trick_seats(active, "Anna") == active
    assert trick_seats(active, "Cora") == ("Cora", "Dave", "Anna", "Bert")
    for leader in active:
        seats = trick_seats(active, leader)
        assert sorted(seats) == sorted(active) and seats[0] == leader
        for k in range(4):
            assert seats[k] == active[(active.index(leader) + k) % 4]
