"""The search's static bounds against the reference's exact values.

The search cuts wherever a bound settles a test, so a bound that is too high
(or too low) gives wrong values only in the positions where nothing cheaper
cuts first: the cross-check of whole endings can miss it.  Here the bounds are
checked directly: seeded random trick starts with 2 to 4 tricks left (half of
them with no trump among the defenders, where the declarer's plain winners
count), and positions of an unfinished trick the declarer is still to play
to (the one bound the search takes mid-trick), each valued by
``reference.py``; a lower bound may not exceed the value, the upper bound may
not fall below it.
"""

from __future__ import annotations

import random

import pytest
from reference import points, ref_legal, ref_position_value

from dobbm_solver import _search
from dobbm_solver.cards import BB_TRUMPS, cardset, parse_cards

SEED = 20261202


TOP_TRUMPS = parse_cards("HA H10 HK")


def random_trick_start(rng: random.Random, tricks_left: int, *, trumpless: bool,
                       top_trumps: int = 0) -> dict:
    """Four hands of ``tricks_left`` cards (seat 0 the declarer), a leader and a
    consistent score: points taken, tricks of each side, the Dobb's points.
    ``top_trumps``: the declarer holds that many of the highest trumps and a
    defender leads (where his top plain cards count as sure winners, and
    enough top trumps draw the defenders': see ``plain_winners``)."""
    n = tricks_left
    deck = list(range(36))
    if top_trumps:
        # the highest trumps first, to the declarer
        top = TOP_TRUMPS[:min(top_trumps, n)]
        deck = [c for c in deck if c not in top]
        rng.shuffle(deck)
        deck = top + deck
        hands = [deck[i * n:(i + 1) * n] for i in range(4)]
    elif trumpless:
        # the defenders get no trump: the declarer's hand is drawn first
        # from the whole deck, theirs from the plain cards left
        rng.shuffle(deck)
        decl = deck[:n]
        rest = [c for c in deck[n:] if not (1 << c) & BB_TRUMPS]
        rng.shuffle(rest)
        hands = [decl, rest[:n], rest[n:2 * n], rest[2 * n:3 * n]]
    else:
        rng.shuffle(deck)
        hands = [deck[i * n:(i + 1) * n] for i in range(4)]
    in_hands = sum(points(h) for h in hands)
    played = 8 - n
    dtricks = rng.randint(0, played)
    bonus = rng.choice([0, rng.randint(0, 120 - in_hands)])
    room = 120 - in_hands - bonus
    # the points not in the hands nor the Dobb were taken, by the declarer
    # all of them when he took every trick so far
    taken = room if dtricks == played else rng.randint(0, room) if dtricks else 0
    return {"hands": [tuple(sorted(h)) for h in hands], "leader": rng.randrange(1 if top_trumps else 0, 4),
            "taken": taken, "dtricks": dtricks, "ftricks": played - dtricks, "bonus": bonus}


def exact_value(pos: dict) -> int:
    """The reference's value of a trick start of :func:`random_trick_start`."""
    return ref_position_value(pos["hands"], pos["leader"], pos["taken"], pos["dtricks"], pos["ftricks"],
                              pos["bonus"])


def core_args(pos: dict) -> tuple:
    """The position's hands as card sets, leader, points taken, Match flag and bonus."""
    return ([cardset(h) for h in pos["hands"]], pos["leader"], pos["taken"], pos["dtricks"] > 0,
            pos["bonus"])


def set_core(core, pos: dict, keep_table: bool = False) -> None:
    """Make a position of :func:`random_trick_start` or :func:`random_mid_trick`
    ``core``'s root."""
    hands, leader, taken, has_trick, bonus = core_args(pos)
    core.set_position(hands, leader, list(pos.get("trick", ())), taken, has_trick, bonus, keep_table)


def written_position(hands: tuple[str, ...], leader: int, trick: str = "") -> dict:
    """A trick start of :func:`random_trick_start`'s kind from the four hands
    written out (seat 0 the declarer): nothing taken, one trick the
    declarer's and the rest the defenders', no Dobb; with ``trick``, the
    cards played to an unfinished trick (the declarer still to play to it),
    as :func:`random_mid_trick` gives."""
    cards = [tuple(sorted(parse_cards(h))) for h in hands]
    pos = {"hands": cards, "leader": leader, "taken": 0, "dtricks": 1,
           "ftricks": 8 - len(cards[0]) - 1, "bonus": 0}
    if trick:
        pos["trick"] = tuple(parse_cards(trick))
    return pos


def written_bounds(hands: tuple[str, ...], leader: int) -> tuple[int, int]:
    """The static bounds of :func:`written_position`."""
    return _search.trick_start_bounds(*core_args(written_position(hands, leader)))


def _check(rng: random.Random, count: int, tricks_left: int, top_trumps: int = 0) -> int:
    """Check ``count`` positions; returns how many of them the lower bound raised
    above the points already sure (so the test is known to reach the bounds).
    With ``top_trumps``, the declarer holds one to that many of the highest
    trumps, and the defenders hold trumps."""
    raised = 0
    for i in range(count):
        if top_trumps:
            pos = random_trick_start(rng, tricks_left, trumpless=False, top_trumps=1 + i % top_trumps)
        else:
            pos = random_trick_start(rng, tricks_left, trumpless=i % 2 == 0)
        value = exact_value(pos)
        lo, hi = _search.trick_start_bounds(*core_args(pos))
        assert lo <= value <= hi, (pos, lo, value, hi)
        if lo > pos["taken"] + (pos["bonus"] if pos["dtricks"] else 0):
            raised += 1
    return raised


@pytest.mark.parametrize("tricks_left,count", [(2, 600), (3, 400)])
def test_static_bounds_hold_on_random_trick_starts(tricks_left, count):
    raised = _check(random.Random(SEED + tricks_left), count, tricks_left)
    assert raised > count // 10


@pytest.mark.slow
def test_static_bounds_hold_with_four_tricks_left():
    raised = _check(random.Random(SEED + 4), 250, 4)
    assert raised > 25


@pytest.mark.parametrize("tricks_left,count", [(3, 1000), pytest.param(4, 300, marks=pytest.mark.slow)])
def test_static_bounds_hold_where_a_defender_leads_against_the_top_trumps(tricks_left, count):
    raised = _check(random.Random(SEED + 10 + tricks_left), count, tricks_left, top_trumps=3)
    assert raised > count // 2


def test_a_top_trump_wins_the_lead_to_cash_the_declarer_top_plain_cards():
    """A defender leads; the declarer's Heart Sau wins him the lead whenever it
    falls, and then his Leaves Sau and Acorns Sau win too: the only trump
    against him is a defender's who holds a card of both suits.  With the
    cheapest cards the defenders must add, that is every point of the deal."""
    lo, hi = written_bounds(("HA LA EA", "H6 L6 E6", "L7 E7 S6", "L8 E8 S7"), 1)
    assert lo == hi == 33


def test_a_trump_that_surely_wins_by_length_wins_the_lead_as_well():
    """No trump of the declarer's is above the defenders' one trump, the Heart
    Ober, but that trump can take only one of his two: the other wins him
    the lead, and his Bells Sau then wins, the Ober's holder following suit."""
    lo, hi = written_bounds(("H6 H7 SA", "E6 E7 E8", "L6 L7 L8", "HO S6 L9"), 1)
    assert lo == hi == 11


def test_more_top_trumps_than_a_defender_holds_trumps_draw_them_all():
    """The declarer's Sau and Ten of hearts are above the defenders' one trump,
    the Ober: when he first wins a trick (with one of them, the first time he
    must play a trump) he draws the Ober with the other, and his Unter wins
    too.  The lower bound counts all three trumps; the exact value also has
    the Ober, drawn."""
    hs = ("HA H10 HU E6", "HO L6 L7 L8", "E7 E8 L9 S6", "E9 S7 S8 S9")
    lo, hi = written_bounds(hs, 1)
    assert lo == 11 + 10 + 2
    assert exact_value(written_position(hs, 1)) == 26 <= hi


def test_drawn_trumps_leave_the_top_plain_cards_unruffable():
    """The declarer's two top trumps draw the Ober, the one trump against him,
    after the first trick he wins; until then the Ober's holder, with an acorn,
    follows suit to his first acorn.  He takes every trick: both top acorns
    count, though the Ober's holder holds fewer acorns than he has top ones."""
    hs = ("HA H10 EA E10", "HO EK L6 L7", "L8 L9 S6 S7", "LU S8 S9 SU")
    lo, hi = written_bounds(hs, 1)
    assert lo == hi == 53


def test_trumps_left_after_a_partial_draw_bound_the_declarer_losers():
    """His Sau and Ten of hearts are above every defender's trump: once in, he
    draws with the one he did not need to get in, and of the three trumps
    above his Seven only the King can be left to beat one of his Ober and
    Seven: he loses one of them at most, not both (the richest, the Ober,
    is the one counted lost)."""
    hs = ("HA H10 HO H7", "HK H9 L6 L7", "HU EU EO EK", "L8 L9 S6 S7")
    lo, hi = written_bounds(hs, 3)
    assert lo == 28     # HA H10 H7, and the cheapest three cards of each defender
    assert exact_value(written_position(hs, 3)) == 39 <= hi


def test_drawn_trumps_leave_a_suit_no_defender_holds_to_the_declarer():
    """His two trumps are above the defenders' one, and no defender holds a
    leaf: before he is in, no one can lead his Leaves King, and once their
    trump is drawn no one can ruff it.  He takes every trick."""
    hs = ("LK H8 HO", "H6 S6 SO", "EU EA S9", "S7 S10 SA")
    lo, hi = written_bounds(hs, 2)
    assert lo == hi == 44


def test_a_card_the_defenders_must_drop_promotes_the_next():
    """No trump against the declarer: his trump wins the lead, his Bells Sau
    takes the Bells Ten, a singleton, and his King is then the highest bell."""
    hs = ("H6 SA SK", "S10 E6 E7", "E8 E9 L6", "L7 L8 L9")
    lo, hi = written_bounds(hs, 1)
    assert lo == hi == 25


def test_the_declarer_on_lead_cashes_the_card_his_top_one_promotes():
    """On lead, he draws the trumps with his Sau; his Bells Sau then takes the
    Bells Ten, a singleton, and his King is the highest bell left."""
    hs = ("HA SA SK E6", "H6 S10 E7 E8", "H7 E9 L6 L7", "L8 L9 S6 S7")
    lo, hi = written_bounds(hs, 0)
    assert lo == hi == 36


def test_the_declarer_on_lead_draws_and_his_other_trumps_win_by_length():
    """On lead, his Sau draws three trumps; of his Nine and Eight only one can
    fall to the Ober, the one trump left against him: the other wins too."""
    hs = ("LA H8 H9 HA", "EU L7 HU SU", "EO E10 HK SA", "H7 HO S7 SK")
    lo, hi = written_bounds(hs, 0)
    assert lo == 20     # HA, HU HK H7 drawn, and one cheapest card of each defender
    assert exact_value(written_position(hs, 0)) == 54 <= hi


def test_the_declarer_on_lead_cashes_as_many_top_cards_as_a_ruffer_must_follow_to():
    """His Bells Sau and King are above every bell against him, but the one
    trump against him is held with a single bell: he cashes the Sau (its
    holder must follow), not the King (which that defender could ruff)."""
    hs = ("SA SK E6 E7", "H6 S6 L6 L7", "L8 L9 E8 E9", "LU LO S7 S8")
    lo, hi = written_bounds(hs, 0)
    assert lo == 11
    assert exact_value(written_position(hs, 0)) == 11 <= hi


def test_trumpless_defenders_may_throw_their_cards_before_the_declarer_cashes():
    """The defenders, on lead and holding no trump, first take tricks in which the
    last of them throws the bells he would have had to add to the declarer's
    bells King; the lower bound must not count them (a bound that did was 38
    for a value of 36 in this five-trick position, found by a random search)."""
    hands = [cardset(parse_cards(h)) for h in ("E9 L7 H10 H8 SK", "EA E8 LO S8 S6",
                                               "E10 EO EU L10 LU", "LK L9 L8 L6 SU")]
    lo, hi = _search.trick_start_bounds(hands, 2, 4, True, 11)
    assert lo <= 36 <= hi


# (leader, cards played to the trick) where the declarer, seat 0, is still to
# play to it: at his turn second or third, or after the defender to move
MID_TRICK_STARTS = ((3, 1), (2, 2), (1, 1), (1, 2), (2, 1))


def random_mid_trick(rng: random.Random, tricks_left: int, kind: int) -> dict:
    """A position of :func:`random_trick_start` (``kind`` 0: any hands, 1: the
    declarer holding one or two of the highest trumps, 2: no trump among the
    defenders) with a defender on lead and one or two cards played to the
    trick at random (legal ones), the declarer still to play to it."""
    pos = random_trick_start(rng, tricks_left, trumpless=kind == 2, top_trumps=rng.randint(1, 2) if kind == 1 else 0)
    pos["leader"], played = rng.choice(MID_TRICK_STARTS)
    hands = [list(h) for h in pos["hands"]]
    trick: list[int] = []
    for k in range(played):
        seat = (pos["leader"] + k) % 4
        card = rng.choice(ref_legal(hands[seat], trick))
        hands[seat].remove(card)
        trick.append(card)
    pos["hands"] = [tuple(h) for h in hands]
    pos["trick"] = tuple(trick)
    return pos


def mid_trick_value(pos: dict) -> int:
    """The reference's value of a position of :func:`random_mid_trick`."""
    return ref_position_value(pos["hands"], pos["leader"], pos["taken"], pos["dtricks"], pos["ftricks"],
                              pos["bonus"], trick=pos["trick"])


def mid_trick_bound(pos: dict) -> int:
    hands, leader, taken, has_trick, bonus = core_args(pos)
    return _search.mid_trick_bound(hands, leader, pos["trick"], taken, has_trick, bonus)


@pytest.mark.parametrize("tricks_left,count", [(2, 600), (3, 900), pytest.param(4, 300, marks=pytest.mark.slow)])
def test_mid_trick_bound_holds_on_random_positions(tricks_left, count):
    """The bound never exceeds the exact value; it applies (a card of the
    declarer's surely wins the trick) in many positions, at his turn and at
    a defender's, and is exact in some."""
    rng = random.Random(SEED + 20 + tricks_left)
    applies = {True: 0, False: 0}
    exact = 0
    for i in range(count):
        pos = random_mid_trick(rng, tricks_left, i % 3)
        value = mid_trick_value(pos)
        lo = mid_trick_bound(pos)
        assert lo <= value, (pos, lo, value)
        if lo >= 0:
            applies[(pos["leader"] + len(pos["trick"])) % 4 == 0] += 1
            exact += lo == value
    assert min(applies.values()) > count // 10
    assert exact > count // 20


def test_the_declarer_second_to_a_trick_he_wins_then_draws_and_cashes():
    """A defender leads the Acorns Ten; the declarer's Sau takes it (the two
    defenders after him must follow with lower acorns), and his two trumps,
    with none against him, take the last two tricks: every point but the
    defenders' cheapest cards, here the Acorns King one of them must add to
    the first trick."""
    pos = written_position(("EA HA H10", "E9 S7 S8", "EK L6 L7", "S9 L8"), 3, "E10")
    assert mid_trick_bound(pos) == mid_trick_value(pos) == 10 + 11 + 4 + 11 + 10   # E10 EA EK, HA H10


def test_no_mid_trick_bound_where_a_later_defender_can_beat_the_declarer():
    """The same, but the defender after the declarer holds no acorn and a trump:
    he may ruff the Sau, so the trick is not surely the declarer's."""
    pos = written_position(("EA HA H10", "H6 S7 S8", "EK L6 L7", "S9 L8"), 3, "E10")
    assert mid_trick_bound(pos) == -1
    for leader, trick in ((0, []), (3, []), (1, parse_cards("E10 E9 EK"))):
        with pytest.raises(ValueError):
            _search.mid_trick_bound(core_args(pos)[0], leader, trick, 0, True, 0)


def test_a_trick_the_declarer_still_to_play_surely_wins_bounds_the_defender_to_move():
    """The defender to move, second to the Acorns Ten, must follow with an
    acorn, and so must the last; the declarer, third, takes the trick with
    his Sau whatever they play, and his two trumps the last two tricks: every
    point, the defenders' cheapest cards the King and Unter they must add."""
    pos = written_position(("EA HA H10", "EU S6 S9", "L6 L7", "EK E9 S8"), 2, "E10")
    assert mid_trick_bound(pos) == mid_trick_value(pos) == 10 + 11 + 11 + 10 + 4 + 2


def first_choice(core, pos: dict) -> int:
    """``Core.first_choice_bound`` of a position of :func:`random_trick_start`
    or :func:`random_mid_trick`."""
    set_core(core, pos)
    bound = core.first_choice_bound()
    assert bound is not None
    return bound


@pytest.mark.parametrize("tricks_left,count", [(2, 400), (3, 400), pytest.param(4, 200, marks=pytest.mark.slow)])
def test_the_defenders_first_choices_bound_the_value_from_above(tricks_left, count):
    """The value when each defender plays only his first-ordered card, where
    MTD(f) starts, is never below the exact value, at trick starts and mid
    trick; it is above it in some positions (a defender's first card is not
    always his best) and the value searched after it, on the table it left
    its bounds in, is still exact."""
    rng = random.Random(SEED + 40 + tricks_left)
    core = _search.Core(1)
    above = exact = 0
    for i in range(count):
        if i % 2:
            pos = random_mid_trick(rng, tricks_left, i % 3)
            value = mid_trick_value(pos)
        else:
            pos = random_trick_start(rng, tricks_left, trumpless=i % 4 == 0)
            value = exact_value(pos)
        bound = first_choice(core, pos)
        assert bound >= value, (pos, bound, value)
        above += bound > value
        exact += bound == value
        assert core.value() == value, pos
    # above in 4, 35 and 54 of them with 2, 3 and 4 tricks left
    assert above >= (1 if tricks_left == 2 else count // 20)
    assert exact > count // 2


def test_the_first_choices_search_gives_up_past_its_nodes():
    """With no nodes allowed it gives no bound, and MTD(f) starts from the top:
    the same value."""
    rng = random.Random(SEED + 45)
    for _ in range(30):
        pos = random_trick_start(rng, 3, trumpless=False)
        bounded, top = _search.Core(1), _search.Core(1, start_nodes=0)
        for core in (bounded, top):
            set_core(core, pos)
        assert top.first_choice_bound() is None
        assert bounded.value() == top.value() == exact_value(pos)
    with pytest.raises(ValueError):
        _search.Core(1, start_nodes=-1)


def test_the_bounds_refuse_a_position_that_is_no_trick_start():
    with pytest.raises(ValueError):
        _search.trick_start_bounds([1, 2, 4], 0, 0, False, 0)
    with pytest.raises(ValueError):
        _search.trick_start_bounds([1 | 8, 2, 4, 16], 0, 0, False, 0)


def test_reference_values_bare_trick_starts_as_the_search_does():
    """The exact values the bounds are checked against agree with the search's."""
    rng = random.Random(SEED)
    core = _search.Core(1)
    for i in range(200):
        pos = random_trick_start(rng, 2 + i % 2, trumpless=i % 3 == 0)
        set_core(core, pos)
        assert core.value() == exact_value(pos), pos
