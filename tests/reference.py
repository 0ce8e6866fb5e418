"""A tiny, deliberately plain double-dummy solver for Dobbm endings.

This is a test oracle, written straight from RULES.md and independently of
the production code: it does not use ``dobbm_solver``'s ``legal_cards``,
``trick_winner``, ``beats`` or ``replay``.  From ``dobbm_solver`` it takes only
the card numbering (``card_name``/``parse_card``, to read each card's suit
letter and rank text) and the :class:`Deal` type for its input.  Suit order,
rank order and card points below are copied from the rule book.

It is plain minimax (declarer maximises, the three defenders minimise) with a
memo on the complete state, good for endings of up to about four tricks.

The value of a position is the declarer's FINAL points 0..120: the points in
the declarer's tricks (taken and to come) plus the Dobb's points (the cards
laid away in a Dobbm, the untouched Dobb in a Solo) -- except the Match rule:
if the defenders take all 8 tricks the declarer ends with 0, if the declarer
takes all 8 the declarer ends with 120.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, NamedTuple, Sequence

from dobbm_solver.cards import card_name, parse_card
from dobbm_solver.deal import Deal

__all__ = [
    "TRUMP_SUIT", "suit_of", "strength", "points", "ref_legal", "ref_winner",
    "ref_state", "ref_value", "ref_card_values", "ref_play", "ref_line_points",
    "ref_final_points", "RefError",
]

# --- the rule book, "Cards" ------------------------------------------------
TRUMP_SUIT = "H"                                            # hearts are always trumps
RANKS_HIGH_TO_LOW = ("A", "10", "K", "O", "U", "9", "8", "7", "6")
RANK_POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2,
               "9": 0, "8": 0, "7": 0, "6": 0}

_SUIT: dict[int, str] = {}
_STRENGTH: dict[int, int] = {}   # higher is better, within a suit
_POINTS: dict[int, int] = {}
for _c in range(36):
    _name = card_name(_c)
    _suit, _rank = _name[0], _name[1:]
    _SUIT[_c] = _suit
    _STRENGTH[_c] = len(RANKS_HIGH_TO_LOW) - RANKS_HIGH_TO_LOW.index(_rank)
    _POINTS[_c] = RANK_POINTS[_rank]
assert sum(_POINTS.values()) == 120


class RefError(ValueError):
    """A position or a line the reference cannot follow (e.g. an illegal card)."""


def suit_of(card: int) -> str:
    return _SUIT[card]


def strength(card: int) -> int:
    return _STRENGTH[card]


def points(cards: Iterable[int]) -> int:
    return sum(_POINTS[c] for c in cards)


def _cards_of(cs: int) -> list[int]:
    """The cards of a bitboard, as a sorted list."""
    return [c for c in range(36) if (cs >> c) & 1]


# --- the rule book, "Play" --------------------------------------------------
def ref_legal(hand: Iterable[int], trick: Sequence[int]) -> list[int]:
    """Cards of ``hand`` that may be played to ``trick`` (the cards so far)."""
    hand = sorted(hand)
    if not trick:
        return hand                                  # the leader plays anything
    led = _SUIT[trick[0]]
    same = [c for c in hand if _SUIT[c] == led]
    if same:
        return same                                  # follow suit if able
    trumps = [c for c in hand if _SUIT[c] == TRUMP_SUIT]
    if trumps:
        return trumps                                # else trump if able (any trump)
    return hand                                      # else anything


def ref_winner(trick: Sequence[int]) -> int:
    """Index in play order of the card that wins a complete trick."""
    trumps = [i for i, c in enumerate(trick) if _SUIT[c] == TRUMP_SUIT]
    if trumps:                                       # the highest trump wins
        return max(trumps, key=lambda i: _STRENGTH[trick[i]])
    led = _SUIT[trick[0]]                            # else the highest of the suit led
    return max((i for i, c in enumerate(trick) if _SUIT[c] == led),
               key=lambda i: _STRENGTH[trick[i]])


# --- state ------------------------------------------------------------------
class State(NamedTuple):
    seats: tuple[str, ...]         # the four players, clockwise
    declarer: int                  # index into seats
    hands: tuple[tuple[int, ...], ...]   # sorted cards of each seat
    trick: tuple[int, ...]         # cards of the unfinished trick
    leader: int                    # who led ``trick``
    taken: int                     # points in the declarer's finished tricks
    dtricks: int                   # tricks won by the declarer
    ftricks: int                   # tricks won by the defenders
    bonus: int                     # the Dobb's points for the declarer

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def finished(self) -> bool:
        return not self.trick and not any(self.hands)


def _play(st: State, card: int) -> State:
    """The state after the player to move plays ``card`` (no legality check)."""
    p = (st.leader + len(st.trick)) % 4
    hands = list(st.hands)
    hands[p] = tuple(c for c in hands[p] if c != card)
    trick = st.trick + (card,)
    if len(trick) < 4:
        return st._replace(hands=tuple(hands), trick=trick)
    w = (st.leader + ref_winner(trick)) % 4
    if w == st.declarer:
        return st._replace(hands=tuple(hands), trick=(), leader=w,
                           taken=st.taken + points(trick), dtricks=st.dtricks + 1)
    return st._replace(hands=tuple(hands), trick=(), leader=w, ftricks=st.ftricks + 1)


def ref_final_points(st: State) -> int:
    """Declarer's final points of a finished state (rule book, "Result")."""
    if not st.finished:
        raise RefError("the hand is not finished")
    if st.dtricks + st.ftricks != 8:
        raise RefError(f"{st.dtricks + st.ftricks} tricks played, not 8")
    if st.ftricks == 8:
        return 0            # Match by the defenders: the Dobb's points go to them too
    if st.dtricks == 8:
        return 120          # Match by the declarer
    return st.taken + st.bonus


def ref_state(deal: Deal) -> State:
    """Follow the deal's tricks with the reference rules (legality is not checked here)."""
    if len(deal.seats) == 5:
        seats = tuple(s for s in deal.seats if s != deal.dealer)
    else:
        seats = tuple(deal.seats)
    if len(seats) != 4:
        raise RefError("need four active seats")
    decl = seats.index(deal.declarer)
    if deal.contract == "solo":
        bonus = points(_cards_of(deal.dobb))
    elif deal.contract == "dobbm":
        if deal.discard is None:
            raise RefError("a Dobbm needs its lay-away")
        bonus = points(_cards_of(deal.discard))
    else:
        raise RefError(f"unknown contract {deal.contract!r}")
    leader = decl                       # the declarer leads to the first trick
    taken = dtr = ftr = 0
    trick: tuple[int, ...] = ()
    for n, t in enumerate(deal.tricks, 1):
        if len(t) == 4:
            w = (leader + ref_winner(t)) % 4
            if w == decl:
                taken += points(t)
                dtr += 1
            else:
                ftr += 1
            leader = w                  # the winner leads the next trick
        elif n == len(deal.tricks) and 1 <= len(t) <= 3:
            trick = tuple(t)
        else:
            raise RefError(f"trick {n} has {len(t)} cards")
    hands = tuple(tuple(_cards_of(deal.hands[s])) for s in seats)
    st = State(seats, decl, hands, trick, leader, taken, dtr, ftr, bonus)
    sizes = [len(h) for h in hands]
    left = 8 - dtr - ftr
    for i in range(4):
        played = 1 if (i - leader) % 4 < len(trick) else 0
        if sizes[i] != left - played:
            raise RefError(f"{seats[i]} holds {sizes[i]} cards, should hold {left - played}")
    return st


# --- minimax ----------------------------------------------------------------
def _minimax(decl: int, bonus: int):
    """The value function for one deal: declarer ``decl`` maximises, others minimise."""
    memo: dict = {}

    def value(hands: tuple, trick: tuple, leader: int, taken: int, dtr: int, ftr: int) -> int:
        if len(trick) == 4:                                  # the trick is complete
            w = (leader + ref_winner(trick)) % 4             # its winner leads next
            if w == decl:
                return value(hands, (), w, taken + points(trick), dtr + 1, ftr)
            return value(hands, (), w, taken, dtr, ftr + 1)
        if not trick and not any(hands):                     # all 8 tricks played
            return ref_final_points(State((), decl, hands, trick, leader, taken, dtr, ftr, bonus))
        key = (hands, trick, leader, taken, dtr, ftr)
        if key in memo:
            return memo[key]
        p = (leader + len(trick)) % 4
        vals = []
        for c in ref_legal(hands[p], trick):
            rest = hands[:p] + (tuple(x for x in hands[p] if x != c),) + hands[p + 1:]
            vals.append(value(rest, trick + (c,), leader, taken, dtr, ftr))
        v = max(vals) if p == decl else min(vals)
        memo[key] = v
        return v

    return value


def _state_value(st: State, value) -> int:
    return value(st.hands, st.trick, st.leader, st.taken, st.dtricks, st.ftricks)


def ref_value(deal: Deal) -> int:
    """Declarer's final points 0..120 under double-dummy best play from ``deal``."""
    st = ref_state(deal)
    return _state_value(st, _minimax(st.declarer, st.bonus))


def ref_position_value(hands: Sequence[Iterable[int]], leader: int, taken: int, dtricks: int,
                       ftricks: int, bonus: int, trick: Sequence[int] = ()) -> int:
    """Declarer's final points from a bare position: four hands (seat 0 the
    declarer, then clockwise), the seat on lead, the points the declarer has
    taken, each side's tricks so far and the bonus (lay-away or Dobb points);
    ``trick``: the cards of an unfinished trick, in play order (its players
    hold one card fewer)."""
    hs = tuple(tuple(sorted(h)) for h in hands)
    left = 8 - dtricks - ftricks
    if len(hs) != 4 or not 0 <= len(trick) <= 3 or any(
            len(hs[i]) != left - (1 if (i - leader) % 4 < len(trick) else 0) for i in range(4)):
        raise RefError("the hands do not fit the tricks played and the unfinished trick")
    return _minimax(0, bonus)(hs, tuple(trick), leader, taken, dtricks, ftricks)


def ref_card_values(deal: Deal) -> dict[int, int]:
    """For each legal card of the player to move: the value after playing it."""
    st = ref_state(deal)
    if st.finished:
        return {}
    value = _minimax(st.declarer, st.bonus)
    p = st.to_move
    return {c: _state_value(_play(st, c), value) for c in ref_legal(st.hands[p], st.trick)}


def _as_card(c) -> int:
    return parse_card(c) if isinstance(c, str) else int(c)


def ref_play(deal: Deal, cards: Iterable) -> Deal:
    """The deal after the players to move play ``cards`` (checked legal) in turn."""
    st = ref_state(deal)
    tricks = [list(t) for t in deal.tricks]
    hands = dict(deal.hands)
    for c in map(_as_card, cards):
        if st.finished:
            raise RefError(f"{card_name(c)} played after the last trick")
        p = st.to_move
        if c not in ref_legal(st.hands[p], st.trick):
            raise RefError(f"{st.seats[p]} may not play {card_name(c)}")
        if not st.trick:
            tricks.append([])
        tricks[-1].append(c)
        hands[st.seats[p]] &= ~(1 << c)
        st = _play(st, c)
    return replace(deal, hands=hands, tricks=tuple(tuple(t) for t in tricks))


def ref_line_points(deal: Deal, line: Iterable) -> int:
    """Play ``line`` (checked legal) to the end of the hand; the declarer's final points."""
    end = ref_play(deal, line)
    st = ref_state(end)
    if not st.finished:
        raise RefError("the line stops before the end of the hand")
    return ref_final_points(st)
