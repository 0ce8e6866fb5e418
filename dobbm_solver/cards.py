"""Cards and card sets of the 36-card German-suited Tell deck.

A card is a plain ``int`` from 0 to 35, ``suit * 9 + rank``; a set of cards
is a plain ``int`` bitboard with bit ``card`` set for each card in it.  Ranks
run from low to high, so within a suit the higher card has the higher bit.

Suits: E (Eichel) 0, L (Laub, also G) 1, H (Herz, always trumps) 2,
S (Schellen, also B) 3.  Ranks: 6 7 8 9 U O K 10 A.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from .echo import brief
from .errors import DobbmError

Card = int
CardSet = int
Suit = int

SUITS: tuple[str, ...] = ("E", "L", "H", "S")
SUIT_NAMES: tuple[str, ...] = ("Eichel", "Laub", "Herz", "Schellen")
E, L, H, S = 0, 1, 2, 3
TRUMP: Suit = H

RANKS: tuple[str, ...] = ("6", "7", "8", "9", "U", "O", "K", "10", "A")
RANK_POINTS: tuple[int, ...] = (0, 0, 0, 0, 2, 3, 4, 10, 11)
RANK_6, RANK_7, RANK_8, RANK_9, RANK_U, RANK_O, RANK_K, RANK_10, RANK_A = range(9)

NUM_CARDS = 36
CARDS_PER_SUIT = 9
HAND_SIZE = 8
DOBB_SIZE = 4
TOTAL_POINTS = 120

BB_ALL: CardSet = (1 << NUM_CARDS) - 1
BB_SUITS: tuple[CardSet, ...] = tuple(((1 << 9) - 1) << (9 * s) for s in range(4))
BB_TRUMPS: CardSet = BB_SUITS[TRUMP]
BB_SAUS: CardSet = sum(1 << (9 * s + RANK_A) for s in range(4))
BB_PLAIN_SAUS: CardSet = BB_SAUS & ~BB_TRUMPS

_SUIT_ALIASES = {"E": E, "L": L, "G": L, "H": H, "S": S, "B": S}
_RANK_ALIASES = {
    "6": RANK_6, "7": RANK_7, "8": RANK_8, "9": RANK_9,
    "U": RANK_U, "O": RANK_O, "K": RANK_K,
    "10": RANK_10, "X": RANK_10, "Z": RANK_10, "A": RANK_A,
}


class CardError(DobbmError):
    """Raised for card text that names no card of the deck."""


def make_card(suit: Suit, rank: int) -> Card:
    return suit * CARDS_PER_SUIT + rank


def card_suit(card: Card) -> Suit:
    return card // CARDS_PER_SUIT


def card_rank(card: Card) -> int:
    return card % CARDS_PER_SUIT


def card_points(card: Card) -> int:
    return RANK_POINTS[card % CARDS_PER_SUIT]


def card_name(card: Card) -> str:
    """Canonical text: suit letter then rank, e.g. ``HA``, ``E10``, ``S6``."""
    if not 0 <= card < NUM_CARDS:
        raise CardError(f"no card number {card}")
    return SUITS[card // 9] + RANKS[card % 9]


def parse_card(text: str) -> Card:
    """Parse card text, case-insensitive, with the aliases of the rule book.

    >>> card_name(parse_card("hx")), card_name(parse_card("GZ")), card_name(parse_card("b7"))
    ('H10', 'L10', 'S7')
    """
    if not isinstance(text, str):
        raise CardError(f"card must be text, not {brief(text)}")
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in _SUIT_ALIASES or t[1:] not in _RANK_ALIASES:
        raise CardError(f"unknown card {brief(text)}")
    return make_card(_SUIT_ALIASES[t[0]], _RANK_ALIASES[t[1:]])


def cardset(cards: Iterable[Card]) -> CardSet:
    s = 0
    for c in cards:
        s |= 1 << c
    return s


def popcount(cs: CardSet) -> int:
    return cs.bit_count()


def scan_forward(cs: CardSet) -> Iterator[Card]:
    """Cards of a set, lowest number first."""
    while cs:
        low = cs & -cs
        yield low.bit_length() - 1
        cs ^= low


def display_key(card: Card) -> tuple[int, int]:
    """Sort key: trumps first, then E, L, S; high ranks first within a suit."""
    suit = card // 9
    return (0 if suit == TRUMP else 1 + (suit if suit < TRUMP else suit - 1), -(card % 9))


def sorted_cards(cs: CardSet | Iterable[Card]) -> list[Card]:
    cards = list(scan_forward(cs)) if isinstance(cs, int) else list(cs)
    return sorted(cards, key=display_key)


_SUIT_MASK = (1 << CARDS_PER_SUIT) - 1
# card points of each holding of one suit (bit r: the card of rank index r)
_HOLDING_POINTS = tuple(sum(RANK_POINTS[r] for r in range(CARDS_PER_SUIT) if (m >> r) & 1)
                        for m in range(_SUIT_MASK + 1))


def set_points(cs: CardSet) -> int:
    """The card points of a set (by suit holding, from a table: the sampler counts them often)."""
    return (_HOLDING_POINTS[cs & _SUIT_MASK] + _HOLDING_POINTS[(cs >> CARDS_PER_SUIT) & _SUIT_MASK]
            + _HOLDING_POINTS[(cs >> (2 * CARDS_PER_SUIT)) & _SUIT_MASK]
            + _HOLDING_POINTS[(cs >> (3 * CARDS_PER_SUIT)) & _SUIT_MASK])


def set_names(cs: CardSet | Iterable[Card]) -> list[str]:
    """The names of a set's cards in display order (see :func:`display_key`)."""
    return [card_name(c) for c in sorted_cards(cs)]


def cards_text(cs: CardSet | Iterable[Card]) -> str:
    """A set's cards as text for output: names in display order, space-separated
    (``"HA H10 E9"``; the empty set gives ``""``)."""
    return " ".join(set_names(cs))


def lowest_card(cs: CardSet) -> Card:
    """The card of the lowest number in a non-empty set (the card of a one-card set)."""
    if not cs:
        raise CardError("no card in an empty set")
    return (cs & -cs).bit_length() - 1


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a space-separated string or a list of card texts."""
    items = text.split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in items]


def beats(challenger: Card, winning: Card) -> bool:
    """True if ``challenger`` played later takes the trick from ``winning``."""
    cs, ws = challenger // 9, winning // 9
    if cs == ws:
        return challenger > winning
    return cs == TRUMP


def trick_winner(trick: Iterable[Card]) -> int:
    """Index (in play order) of the card that wins a trick."""
    cards = list(trick)
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best]):
            best = i
    return best


def legal_cards(hand: CardSet, led: Card | None) -> CardSet:
    """Cards of ``hand`` that may be played when ``led`` was led (None: leading).

    Follow suit if able; otherwise trump if able; otherwise anything.
    """
    if led is None:
        return hand
    follow = hand & BB_SUITS[led // 9]
    if follow:
        return follow
    trumps = hand & BB_TRUMPS
    return trumps if trumps else hand
