"""Seeded random legal Dobbm deals and endings, for cross-checking solvers.

``random_ending(rng)`` shuffles a full deal, picks a random declarer and
contract (and, in a Dobbm, a random lay-away that obeys the Sau rule), then
plays random legal cards -- with the rules of :mod:`reference`, independent of
the production code -- until 1..4 tricks are left, possibly in the middle of
a trick.  The result is a :class:`dobbm_solver.deal.Deal` whose ``hands`` are
the cards left and whose ``tricks`` are the cards played, in play order.
"""

from __future__ import annotations

import random

from reference import (
    TRUMP_SUIT,
    _play,
    points,
    ref_legal,
    ref_play,
    ref_state,
    strength,
    suit_of,
)

from dobbm_solver.cards import card_name, parse_cards
from dobbm_solver.deal import Deal, validate

SEAT_NAMES: tuple[tuple[str, ...], ...] = (
    ("N", "E", "S", "W"),
    ("Anna", "Bert", "Cora", "Dave"),
    ("Sepp", "Loisl", "Vroni", "Toni"),
)
FIVE_SEAT_NAMES: tuple[str, ...] = ("Anna", "Bert", "Cora", "Dave", "Emil")

PLAIN_SAUS = frozenset(c for c in range(36) if card_name(c) in ("EA", "LA", "SA"))


def _bits(cards) -> int:
    s = 0
    for c in cards:
        s |= 1 << c
    return s


def sau_rule_ok(cards) -> bool:
    """Rule book: plain-suit Saus laid away <= hearts laid away (HA is a heart)."""
    cards = list(cards)
    saus = sum(1 for c in cards if c in PLAIN_SAUS)
    hearts = sum(1 for c in cards if suit_of(c) == TRUMP_SUIT)
    return saus <= hearts


def random_discard(rng: random.Random, twelve: list[int]) -> list[int]:
    """Four random cards of the declarer's twelve that obey the Sau rule."""
    while True:
        pick = rng.sample(sorted(twelve), 4)
        if sau_rule_ok(pick):
            return sorted(pick)


def hand_strength(cards) -> int:
    """A crude measure for picking a realistic declarer: trumps count most, then points."""
    return sum(10 + strength(c) if suit_of(c) == TRUMP_SUIT else points([c]) for c in cards)


def random_deal(rng: random.Random, *, five_seats: bool = False,
                contract: str | None = None, strong: bool = False) -> Deal:
    """A random deal before the first lead (lay-away done in a Dobbm).  With
    ``strong`` the declarer is the seat with the strongest hand, as in real play."""
    if five_seats:
        seats = FIVE_SEAT_NAMES
        dealer = rng.choice(seats)
        active = tuple(s for s in seats if s != dealer)
    else:
        seats = rng.choice(SEAT_NAMES)
        dealer = None
        active = seats
    deck = list(range(36))
    rng.shuffle(deck)
    hands = {s: deck[8 * i: 8 * i + 8] for i, s in enumerate(active)}
    dobb = deck[32:]
    declarer = rng.choice(active)
    if strong:
        declarer = max(active, key=lambda s: hand_strength(hands[s]))
    contract = contract or rng.choice(("dobbm", "solo"))
    discard = None
    if contract == "dobbm":
        twelve = hands[declarer] + dobb
        discard = random_discard(rng, twelve)
        hands[declarer] = [c for c in twelve if c not in discard]
    return Deal(
        seats=tuple(seats), declarer=declarer, contract=contract,
        hands={s: _bits(h) for s, h in hands.items()}, dobb=_bits(dobb),
        discard=None if discard is None else _bits(discard),
        tricks=(), doublings=rng.choice((0, 0, 0, 1, 2)), dealer=dealer,
    )


def random_ending(rng: random.Random, *, tricks_left: int | None = None,
                  extra: int | None = None, five_seats: bool = False,
                  contract: str | None = None, strong: float = 0.0, greedy: float = 0.0,
                  check: bool = True) -> Deal:
    """A random legal position with ``tricks_left`` (1..4, default random) tricks
    not yet finished, ``extra`` (0..3, default random) cards of the current trick
    already played.  With probability ``strong`` the declarer is the strongest
    hand; each card is the player's highest legal card with probability
    ``greedy``, else a random legal card.  With ``check`` the result is checked
    by ``deal.validate``."""
    if tricks_left is None:
        tricks_left = rng.randint(1, 4)
    if extra is None:
        extra = rng.randint(0, 3)
    if not 0 <= tricks_left <= 8 or not 0 <= extra <= 3 or (tricks_left == 0 and extra):
        raise ValueError(f"bad tricks_left={tricks_left}, extra={extra}")
    deal = random_deal(rng, five_seats=five_seats, contract=contract,
                       strong=rng.random() < strong)
    n = 4 * (8 - tricks_left) + extra
    return random_play(rng, deal, n, greedy=greedy, check=check)


def _rank_key(c: int) -> tuple[bool, int]:
    return (suit_of(c) == TRUMP_SUIT, strength(c))


def random_play(rng: random.Random, deal: Deal, n: int, *, greedy: float = 0.0,
                check: bool = True) -> Deal:
    """``deal`` after ``n`` more random legal cards (reference rules); each card
    is the highest legal card with probability ``greedy``."""
    line = []
    st = ref_state(deal)
    for _ in range(n):
        legal = ref_legal(st.hands[st.to_move], st.trick)
        c = max(legal, key=_rank_key) if rng.random() < greedy else rng.choice(legal)
        line.append(c)
        st = _play(st, c)
    out = ref_play(deal, line)
    if check:
        validate(out)
    return out


def deal_to_text(deal: Deal) -> str:
    """A YAML-ish rendering, for failure messages."""
    from dobbm_solver.cards import set_names
    lines = [
        f"seats: [{', '.join(deal.seats)}]",
        *( [f"dealer: {deal.dealer}"] if deal.dealer else [] ),
        f"declarer: {deal.declarer}",
        f"contract: {deal.contract}",
        f"doublings: {deal.doublings}",
        "hands:",
        *(f"  {s}: [{' '.join(set_names(deal.hands[s]))}]" for s in deal.hands),
        f"dobb: [{' '.join(set_names(deal.dobb))}]",
        f"discard: {'null' if deal.discard is None else '[' + ' '.join(set_names(deal.discard)) + ']'}",
        "tricks:",
        *(f"  - [{' '.join(card_name(c) for c in t)}]" for t in deal.tricks),
    ]
    return "\n".join(lines)


# --- hand-made positions ------------------------------------------------------
# Seats N E S W (clockwise), declarer N.  Two templates of six finished tricks
# in which everybody follows suit, so the tricks are legal whatever the rest:
#   P_TRICKS: the declarer N wins all six (56 points) and leads trick 7;
#   Q_TRICKS: W wins all six (56 points for the defenders) and leads trick 7.
# Both leave the same twelve cards for the hands (two each) and the Dobb:
# EU LU SA S10 SK SO SU HA H10 HK HO HU.  The tests work the values out by hand.

SEATS = ("N", "E", "S", "W")

P_TRICKS = ("E9 E8 E7 E6", "L9 L8 L7 L6", "S9 S8 S7 S6", "H9 H8 H7 H6",
            "EA E10 EK EO", "LA L10 LK LO")
Q_TRICKS = ("E6 E7 E8 E9",          # N leads, W's E9 wins
            "L9 L8 L7 L6",          # W leads (W N E S) and wins from here on
            "S9 S8 S7 S6", "H9 H8 H7 H6", "EA EO EK E10", "LA LO LK L10")


def bits(text: str) -> int:
    s = 0
    for c in parse_cards(text):
        s |= 1 << c
    return s


def make(hands: dict[str, str], tricks, *, dobb: str, contract: str = "solo",
         discard: str | None = None, declarer: str = "N", seats=SEATS,
         dealer: str | None = None, doublings: int = 0, check: bool = True) -> Deal:
    deal = Deal(
        seats=tuple(seats), declarer=declarer, contract=contract,
        hands={s: bits(h) for s, h in hands.items()}, dobb=bits(dobb),
        discard=None if discard is None else bits(discard),
        tricks=tuple(tuple(parse_cards(t)) for t in tricks),
        doublings=doublings, dealer=dealer,
    )
    if check:
        validate(deal)
    return deal


def names(d: dict[int, int]) -> dict[str, int]:
    return {card_name(c): v for c, v in d.items()}
