"""The rule-of-thumb card player, branch by branch, on hand-made positions.

Each position is made so that the branch under test decides the card and the
branch that would come next gives another card: a branch that is skipped,
or whose test is off by one, changes the card played.  The seats are Anna,
Bert, Cora and Dave, clockwise; Anna declares a Dobbm.
"""

from __future__ import annotations

from dobbm_solver.cards import card_name, cardset, parse_cards
from dobbm_solver.playout import RuleOfThumb, SeatView

SEATS = ("Anna", "Bert", "Cora", "Dave")


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text.split()))


def play(seat: str, hand: str, tricks: tuple[str, ...] = (), leaders: tuple[str, ...] = (),
         discard: str | None = None, trump_lead: int = 3) -> str:
    """The card the rule of thumb plays for ``seat`` holding ``hand`` after ``tricks``
    (the last one unfinished if it has fewer than four cards), led by ``leaders``."""
    view = SeatView(seat=seat, hand=cardset(cards(hand)), seats=SEATS, declarer="Anna", contract="dobbm",
                    doublings=0, tricks=tuple(cards(t) for t in tricks), leaders=leaders,
                    discard=cardset(cards(discard)) if discard else None)
    card = RuleOfThumb(trump_lead)(view)
    assert card in cards(hand)
    return card_name(card)


# --------------------------------------------------------------------------
# leading

def test_lead_1_declarer_with_trumps_leads_the_top_trump_when_no_trump_out_beats_it():
    # 3 trumps (the threshold itself), HA the best: HA, not the Sau EA branch 2 would take
    assert play("Anna", "HA H9 H6 EA E7 L7 S7 S8", discard="E6 E8 L6 L8") == "HA"


def test_lead_1_declarer_with_trumps_leads_the_lowest_trump_when_one_out_beats_the_top():
    # HA is out: the lowest trump, H6, not the Sau EA
    assert play("Anna", "HK H9 H6 EA E7 L7 S7 S8", discard="E6 E8 L6 L8") == "H6"


def test_lead_1_needs_trump_lead_trumps():
    # two trumps only: branch 1 is not taken, branch 2 leads the Sau
    assert play("Anna", "HA H6 EA E7 L7 S7 S8 S9", discard="E6 E8 L6 L8") == "EA"
    # with trump_lead=2 they are enough
    assert play("Anna", "HA H6 EA E7 L7 S7 S8 S9", discard="E6 E8 L6 L8", trump_lead=2) == "HA"


def test_lead_1_needs_trumps_still_out():
    # every other trump is laid away or played: no trump to draw, so branch 2 decides among
    # the winners, the three trumps (the richest, all 0 points: the lowest), not the top H8
    assert play("Anna", "H8 H7 H6 E7 L7", tricks=("HU EA E6 E8", "H9 LA L6 L8"), leaders=("Anna", "Anna"),
                discard="HA HK H10 HO") == "H6"


def test_lead_2_a_card_no_unseen_card_of_its_suit_beats_the_one_with_most_points():
    # EA beats every Eichel out: it is led, not E6 (the lowest of the longest suit, branch 3)
    assert play("Bert", "EA E6 E7 LK L7 L6 S7 S6") == "EA"


def test_lead_2_a_plain_winner_must_have_points():
    # S9 is the best Schellen left but worth nothing: branch 3 leads the longest suit's lowest
    assert play("Bert", "S9 E7 E8 L6 L7 L8 H6",
                tricks=("SA SK SO SU", "S10 S6 S7 S8"), leaders=("Anna", "Anna")) == "L6"


def test_lead_3_the_lowest_card_of_the_longest_plain_suit():
    assert play("Bert", "E7 E8 L6 L7 L8 S9 H6 SK") == "L6"
    assert play("Bert", "E7 E8 L9 S9 S8 S7 SK H6") == "S7"


def test_lead_3_a_trump_when_only_trumps_are_left():
    assert play("Bert", "H7 H6 HU") == "H6"


# --------------------------------------------------------------------------
# following

def test_follow_1_partner_winning_for_sure_smear_the_most_points():
    # Cora leads HA, which nothing out beats; Dave (no trump) gives her E10, not E6
    assert play("Dave", "E10 E6 L7 S8", tricks=("HA",), leaders=("Cora",)) == "E10"


def test_follow_1_partner_winning_and_nobody_plays_after():
    # Bert plays last to Cora's EK (EA is out, but nobody is left to play it): smear S10
    assert play("Bert", "S10 S6 L7", tricks=("EK E6 E7",), leaders=("Cora",)) == "S10"


def test_follow_2_partner_winning_not_for_sure_the_cheapest():
    # Cora's EK can still be beaten by the EA out, two seats play after Dave: S6, not S10
    assert play("Dave", "S10 S6 L7 L8", tricks=("EK",), leaders=("Cora",)) == "S6"


def test_follow_3_opponent_winning_playing_last_the_winning_card_with_most_points():
    # Anna (the declarer) wins with EO, Bert plays last: EA, not the lower winner EK
    assert play("Bert", "EA EK E8 L7", tricks=("E6 E7 EO",), leaders=("Cora",)) == "EA"


def test_follow_3_opponent_winning_not_last_the_lowest_card_that_wins():
    # Anna leads EO, Bert plays second: EK (the lowest winner), not EA
    assert play("Bert", "EA EK E8 L7", tricks=("EO",), leaders=("Anna",)) == "EK"


def test_follow_3_the_declarer_beats_a_defender():
    # for the declarer every defender is an opponent: Anna last wins with the richer HA
    assert play("Anna", "HA HK E8 L7", tricks=("H6 H7 H8",), leaders=("Bert",)) == "HA"


def test_follow_4_cannot_beat_the_cheapest():
    # Anna's EA wins: Bert throws E6 (no points, lowest), not EK
    assert play("Bert", "EK E8 E6 L7", tricks=("EA",), leaders=("Anna",)) == "E6"
    # void in Eichel and in trumps, after Anna's ruff with HA: the card with fewest points,
    # the lowest of them (S6), not S10
    assert play("Bert", "S10 L7 S6", tricks=("E6 E7 HA",), leaders=("Cora",)) == "S6"
