"""Sanity of the reference solver on tiny positions worked out by hand.

The positions are built from the templates in ``endings.py``: after the six
tricks of ``P_TRICKS`` the declarer N has 56 points and leads; after
``Q_TRICKS`` the defenders have 56 points (the declarer no trick) and W leads.
"""

from __future__ import annotations

import random

import pytest
from endings import P_TRICKS, Q_TRICKS, make, names, random_ending
from reference import (
    RefError,
    ref_card_values,
    ref_legal,
    ref_line_points,
    ref_play,
    ref_value,
    ref_winner,
)

from dobbm_solver.cards import parse_cards


def legal_names(deal) -> set[str]:
    return set(names(ref_card_values(deal)))


# --- the rules inside the reference ---------------------------------------------
def test_reference_trick_winner():
    assert ref_winner(parse_cards("S9 SA S10 S6")) == 1             # highest of the suit led
    assert ref_winner(parse_cards("S9 EA LA S6")) == 0              # other suits never win
    assert ref_winner(parse_cards("SA H6 S10 H7")) == 3             # highest trump
    assert ref_winner(parse_cards("H6 HA H10 HK")) == 1             # A over 10 over K
    assert ref_winner(parse_cards("EU EO E9 EK")) == 3              # K over O over U over 9


def test_reference_legal_cards():
    hand = parse_cards("EA E6 H6 HA SK")
    assert sorted(ref_legal(hand, [])) == sorted(hand)                            # lead anything
    assert sorted(ref_legal(hand, parse_cards("E9"))) == sorted(parse_cards("EA E6"))  # follow
    assert sorted(ref_legal(hand, parse_cards("L9 LA"))) == sorted(parse_cards("H6 HA"))  # trump
    # no duty to overtrump: H6 stays legal after a higher trump
    assert sorted(ref_legal(hand, parse_cards("L9 H10"))) == sorted(parse_cards("H6 HA"))
    assert sorted(ref_legal(parse_cards("EA SK"), parse_cards("L9"))) == sorted(parse_cards("EA SK"))


# --- last trick and the Match rule ---------------------------------------------
def test_last_trick_defenders_take_every_trick():
    """W SK leads the last trick; E must trump with HU and wins: the declarer
    took no trick, so the Dobb's 28 points go to the defenders: 0."""
    deal = make({"N": "EU", "E": "HU", "S": "LU", "W": "SK"},
                Q_TRICKS + ("SA S10 SO SU",), dobb="HA H10 HK HO")
    assert ref_value(deal) == 0
    assert names(ref_card_values(deal)) == {"SK": 0}


def test_last_trick_one_trick_taken_counts_the_dobb():
    """N won trick 7 (SK S10 SO SU = 19) and loses the last: 19 + Dobb 28 = 47."""
    deal = make({"N": "EU", "E": "HU", "S": "LU", "W": "SA"},
                Q_TRICKS + ("SK S10 SO SU",), dobb="HA H10 HK HO")
    assert ref_value(deal) == 47
    mid = ref_play(deal, parse_cards("EU"))           # N leads EU
    assert legal_names(mid) == {"HU"}                  # E void in E: must trump
    assert ref_value(mid) == 47


def test_defenders_choose_the_match():
    """W to lead trick 7 with SA SK.  SA first keeps every trick (Match: 0);
    SK first lets N's S10 win trick 7 (19) and N ends with 19 + 28 = 47."""
    deal = make({"N": "S10 EU", "E": "SO HU", "S": "SU LU", "W": "SA SK"},
                Q_TRICKS, dobb="HA H10 HK HO")
    assert names(ref_card_values(deal)) == {"SA": 0, "SK": 47}
    assert ref_value(deal) == 0
    # the declarer must follow with S10 (EU is not legal)
    assert legal_names(ref_play(deal, parse_cards("SK"))) == {"S10"}


def test_declarer_takes_every_trick():
    """N has won six tricks and holds HA HK: Match, 120."""
    deal = make({"N": "HA HK", "E": "SK SO", "S": "SU EU", "W": "HU LU"},
                P_TRICKS, dobb="SA S10 H10 HO")
    assert ref_value(deal) == 120
    assert names(ref_card_values(deal)) == {"HA": 120, "HK": 120}
    # W must follow HA with HU
    assert legal_names(ref_play(deal, parse_cards("HA SK SU"))) == {"HU"}


# --- follow suit, must trump, no duty to overtrump -------------------------------
def test_follow_suit():
    """N: SA SO.  SA: everyone follows (E may not trump with HA): N wins 27, then
    loses SO to E's HA: 56 + 27 + Dobb 9 = 92.  SO first: S's S10 wins, then E's
    HA wins the heart trick: 56 + 9 = 65."""
    deal = make({"N": "SA SO", "E": "SK HA", "S": "S10 HK", "W": "SU H10"},
                P_TRICKS, dobb="EU LU HO HU")
    assert names(ref_card_values(deal)) == {"SA": 92, "SO": 65}
    assert ref_value(deal) == 92
    assert legal_names(ref_play(deal, parse_cards("SA"))) == {"SK"}
    assert ref_line_points(deal, parse_cards("SA SK S10 SU SO HA HK H10")) == 92


def test_must_trump():
    """N leads a spade; E, void, must trump with HU (not discard EU) and wins.
    Then S's HA wins E's EU lead.  N: 56 + Dobb 11 = 67."""
    deal = make({"N": "SA S10", "E": "HU EU", "S": "SK HA", "W": "SO H10"},
                P_TRICKS, dobb="SU LU HO HK")
    assert names(ref_card_values(deal)) == {"SA": 67, "S10": 67}
    mid = ref_play(deal, parse_cards("SA"))
    assert names(ref_card_values(mid)) == {"HU": 67}
    # on E's EU lead S and W must trump, N (no trump) may play anything
    mid = ref_play(deal, parse_cards("SA HU SK SO EU"))
    assert legal_names(mid) == {"HA"}
    assert legal_names(ref_play(mid, parse_cards("HA"))) == {"H10"}
    assert legal_names(ref_play(mid, parse_cards("HA H10"))) == {"S10"}


def test_no_duty_to_overtrump_and_must_undertrump():
    """N SA, E trumps HK.  S (void in spades) may play HA or HU: no duty to
    overtrump.  If E trumps with HA instead, S must still play its only trump HU."""
    deal = make({"N": "SA S10", "E": "HK EU", "S": "HA HU", "W": "SK SO"},
                P_TRICKS, dobb="SU LU H10 HO")
    mid = ref_play(deal, parse_cards("SA HK"))
    assert names(ref_card_values(mid)) == {"HA": 73, "HU": 73}
    assert ref_value(deal) == 73                           # 56 + Dobb 17
    deal2 = make({"N": "SA S10", "E": "HA EU", "S": "HU LU", "W": "SK SO"},
                 P_TRICKS, dobb="SU H10 HK HO")
    assert legal_names(ref_play(deal2, parse_cards("SA HA"))) == {"HU"}
    assert ref_value(deal2) == 56 + 19


def test_dobbm_discard_counts():
    """Dobbm: N laid away SA S10 H10 HU (33 points).  HA first: E discards EU,
    N wins 20, then E's SK takes SU: 56 + 20 + 33 = 109.  SU first: W trumps
    (13 lost), then N's HA wins W's LU lead (18): 56 + 18 + 33 = 107."""
    deal = make({"N": "HA SU", "E": "SK EU", "S": "SO HO", "W": "LU HK"},
                P_TRICKS, contract="dobbm", dobb="E9 L9 S9 EA", discard="SA S10 H10 HU")
    assert names(ref_card_values(deal)) == {"HA": 109, "SU": 107}
    assert ref_value(deal) == 109
    # after HA, E (void in hearts, no trump) may play either card
    assert names(ref_card_values(ref_play(deal, parse_cards("HA")))) == {"EU": 109, "SK": 111}


def test_five_seats_dealer_sits_out():
    deal = make({"N": "SA SO", "E": "SK HA", "S": "S10 HK", "W": "SU H10"},
                P_TRICKS, dobb="EU LU HO HU", seats=("N", "D", "E", "S", "W"), dealer="D")
    assert names(ref_card_values(deal)) == {"SA": 92, "SO": 65}


# --- the helpers -----------------------------------------------------------------
def test_finished_deal_and_lines():
    deal = make({"N": "SA SO", "E": "SK HA", "S": "S10 HK", "W": "SU H10"},
                P_TRICKS, dobb="EU LU HO HU")
    end = ref_play(deal, parse_cards("SO SK S10 SU HK H10 SA HA"))
    assert ref_value(end) == 65
    assert ref_card_values(end) == {}
    with pytest.raises(RefError):
        ref_play(deal, parse_cards("SA HA"))               # E must follow with SK
    with pytest.raises(RefError):
        ref_line_points(deal, parse_cards("SA SK S10 SU"))  # stops before the end


def test_value_is_best_card_value():
    """On random endings the value is the max (declarer) or min (defender) of the card values."""
    rng = random.Random(7)
    for _ in range(200):
        deal = random_ending(rng, tricks_left=rng.randint(1, 3))
        from reference import ref_state
        st = ref_state(deal)
        cv = ref_card_values(deal)
        best = max(cv.values()) if st.to_move == st.declarer else min(cv.values())
        assert ref_value(deal) == best
        assert all(0 <= v <= 120 for v in cv.values())
