"""A Dobbm deal as the solver sees it: seats, contract, cards, tricks so far.

:class:`Deal` holds what a hand file says; :func:`replay` follows the tricks
played so far and gives the :class:`PlayState` (who is to move, the points
taken, the cards of the unfinished trick); :func:`trick_seats` is the order
the seats play to a trick.  :func:`validate` checks a deal against the rule
book and raises :class:`DealError` naming the offending key.  Its checks that
also apply to a player's partial view of a deal (``check_*``,
:func:`dobb_strays`, :func:`revoke_error`) are public, and the analyzer's
view builder calls the same ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Mapping

from .cards import (
    BB_ALL,
    DOBB_SIZE,
    HAND_SIZE,
    Card,
    CardSet,
    card_name,
    card_points,
    cards_text,
    cardset,
    legal_cards,
    popcount,
    scan_forward,
    set_points,
    trick_winner,
)
from .echo import brief
from .errors import DobbmError
from .rules import CONTRACTS, discard_error

# Schwacher and Retour each double the stakes, and the rule book sets no limit.  Ten is
# 1024 times the stake, far beyond any table; a bound keeps payments and the analyzer's
# arithmetic small (2 ** 1100 overflows a float, 2 ** 10**11 exhausts memory).
MAX_DOUBLINGS = 10


class DealError(DobbmError):
    """A deal that breaks the rules or does not add up; ``key`` names the offending key."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True, kw_only=True)
class Deal:
    """One deal.  ``hands`` are the cards each active seat holds now; built with keywords.

    ``seats`` lists every seat clockwise (four, or five with a ``dealer`` who
    sits the hand out).  ``discard`` is None in a Solo, and in a Dobbm whose
    lay-away is still to be chosen (then the declarer holds the 8 dealt cards).
    """

    seats: tuple[str, ...]
    declarer: str
    contract: str
    hands: Mapping[str, CardSet]
    dobb: CardSet
    discard: CardSet | None = None
    tricks: tuple[tuple[Card, ...], ...] = ()
    doublings: int = 0
    dealer: str | None = None

    def __post_init__(self) -> None:
        # the one check made on construction: every payment is 2 ** doublings times a few
        # units, so an unchecked huge number would hang or exhaust memory wherever it is paid
        check_doublings(self.doublings)

    @property
    def active_seats(self) -> tuple[str, ...]:
        """The four seats that play, clockwise (with five, the dealer sits out)."""
        seats = tuple(self.seats)
        if len(seats) == 5 and self.dealer in seats:
            i = seats.index(self.dealer)
            return seats[:i] + seats[i + 1:]
        return seats

    @property
    def defenders(self) -> tuple[str, ...]:
        return tuple(s for s in self.active_seats if s != self.declarer)

    @property
    def bonus_points(self) -> int:
        """Points that count for the declarer at the end: lay-away (Dobbm) or Dobb (Solo)."""
        if self.contract == "solo":
            return set_points(self.dobb)
        return set_points(self.discard or 0)

    @property
    def needs_discard(self) -> bool:
        return self.contract == "dobbm" and self.discard is None

    def with_discard(self, discard: CardSet) -> "Deal":
        """The Dobbm after the declarer takes the Dobb and lays ``discard`` away."""
        hands = dict(self.hands)
        hands[self.declarer] = (hands[self.declarer] | self.dobb) & ~discard
        return replace(self, hands=hands, discard=discard)


@dataclass(frozen=True)
class PlayState:
    """Where play stands after the tricks of a deal."""

    leader: str                      # who led (or leads) the current trick
    to_move: str | None              # None when all 8 tricks are played
    trick: tuple[Card, ...]          # cards of the unfinished trick, in play order
    declarer_trick_points: int       # points in the declarer's finished tricks
    declarer_tricks: int
    defender_tricks: int
    leaders: tuple[str, ...] = field(default=())   # leader of every trick in ``tricks``

    @property
    def finished(self) -> bool:
        return self.to_move is None


def trick_seats(active: tuple[str, ...], leader: str) -> tuple[str, ...]:
    """The seats in the order they play to a trick that ``leader`` leads: ``leader``, then clockwise.

    ``trick_seats(active, leader)[trick_winner(trick)]`` is the seat that wins a full trick.
    """
    i = active.index(leader)
    return active[i:] + active[:i]


def replay(deal: Deal, *, check: bool = True) -> PlayState:
    """Follow ``deal.tricks`` from the declarer's opening lead.

    With ``check`` each card must be legal for its player given the cards that
    player holds (now plus played later); a revoke raises :class:`DealError`.
    """
    active = deal.active_seats
    leaders: list[str] = []
    pts = dtr = ftr = 0
    leader = deal.declarer
    for trick in deal.tricks:
        leaders.append(leader)
        if len(trick) == 4:
            w = trick_seats(active, leader)[trick_winner(trick)]
            if w == deal.declarer:
                pts += sum(card_points(c) for c in trick)
                dtr += 1
            else:
                ftr += 1
            leader = w
    last = deal.tricks[-1] if deal.tricks else ()
    cur = tuple(last) if len(last) < 4 else ()
    done = dtr + ftr == HAND_SIZE
    to_move = None if done else trick_seats(active, leader)[len(cur)]
    state = PlayState(leader, to_move, cur, pts, dtr, ftr, tuple(leaders))
    if check:
        revokes = _revokes(deal, state)
        if revokes:
            raise revoke_error(revokes[0])
    return state


def final_points(deal: Deal, state: PlayState) -> int:
    """The declarer's final points once all tricks are played: the points of their
    tricks plus :attr:`Deal.bonus_points`, or 0 if they took no trick (the Match rule)."""
    if state.declarer_tricks == 0:
        return 0
    return state.declarer_trick_points + deal.bonus_points


def _plays(deal: Deal, state: PlayState) -> Iterator[tuple[int, str, Card, Card | None]]:
    """Every card of ``deal.tricks`` in play order: trick number, seat, card, card led (None: a lead)."""
    active = deal.active_seats
    for n, (lead, trick) in enumerate(zip(state.leaders, deal.tricks), 1):
        order = trick_seats(active, lead)
        for i, c in enumerate(trick):
            yield n, order[i], c, trick[0] if i else None


def cards_played(deal: Deal, state: PlayState | None = None) -> dict[str, CardSet]:
    """The cards each active seat has played to ``deal.tricks`` (``state``: its :func:`replay`)."""
    played = dict.fromkeys(deal.active_seats, 0)
    for _, seat, c, _ in _plays(deal, state or replay(deal, check=False)):
        played[seat] |= 1 << c
    return played


def validate(deal: Deal, *, allow_revokes: bool = False) -> PlayState:
    """Check a deal against the rule book; return its :class:`PlayState`.

    With ``allow_revokes`` a revoke in ``tricks`` is no error (for scoring a
    hand as it was played; see :func:`find_revokes`).
    """
    seats = deal.seats
    if len(seats) not in (4, 5):
        raise DealError("seats", f"need 4 or 5 seats, not {len(seats)}")
    if len(set(seats)) != len(seats):
        raise DealError("seats", "a seat is named twice")
    check_dealer_given(seats, deal.dealer)
    if deal.dealer is not None and deal.dealer not in seats:
        raise DealError("dealer", f"{brief(deal.dealer)} is not a seat")
    active = deal.active_seats
    if deal.declarer not in active:
        raise DealError("declarer", f"{brief(deal.declarer)} is not a seat that plays")
    if deal.contract not in CONTRACTS:
        raise DealError("contract", f"must be dobbm or solo, not {brief(deal.contract)}")
    check_doublings(deal.doublings)
    check_hand_seats(deal.hands, active)
    for s in active:
        if s not in deal.hands:
            raise DealError("hands", f"no hand for {s}")
    check_dobb_size(deal.dobb)
    check_no_solo_discard(deal.contract, deal.discard)
    check_trick_shapes(deal.tricks)
    if deal.needs_discard and deal.tricks:
        raise DealError("discard", "tricks were played, so the lay-away must be given")

    # every card exactly once
    seen: dict[Card, str] = {}

    def account(cards: Iterable[Card], where: str) -> None:
        for c in cards:
            if c in seen:
                raise DealError(where, f"{card_name(c)} is also in {seen[c]}")
            seen[c] = where

    for s in active:
        account(scan_forward(deal.hands[s]), f"hands.{s}")
    for n, t in enumerate(deal.tricks, 1):
        if len(set(t)) != len(t):
            raise DealError("tricks", f"trick {n} holds a card twice")
        account(t, "tricks")
    if deal.contract == "solo" or deal.needs_discard:
        account(scan_forward(deal.dobb), "dobb")
    else:
        assert deal.discard is not None
        account(scan_forward(deal.discard), "discard")
        check_discard(deal.discard)
    missing = BB_ALL & ~cardset(seen)
    if missing:
        raise DealError("hands", f"cards missing: {cards_text(missing)}")

    state = replay(deal, check=not allow_revokes)
    # hand sizes: after k finished tricks each seat holds 8-k, less one if it
    # already played to the unfinished trick
    finished = state.declarer_tricks + state.defender_tricks
    played_now = trick_seats(active, state.leader)[:len(state.trick)]
    for s in active:
        check_hand_size(s, deal.hands[s], finished + (1 if s in played_now else 0))
    if deal.contract == "dobbm" and deal.discard is not None:
        # the Dobb went to the declarer: each Dobb card is held, played or laid away by them
        decl_played = cards_played(deal, state)[deal.declarer]
        stray = dobb_strays(deal.dobb, deal.hands[deal.declarer] | deal.discard | decl_played)
        if stray:
            raise DealError("dobb", f"{cards_text(stray)} from the Dobb is not with the declarer")
    return state


# --- checks shared by validate and the analyzer's views ------------------------
# Each raises DealError(key, message); a hand-file reader adds the file and document.


def check_doublings(doublings: object) -> None:
    """A whole number from 0 to :data:`MAX_DOUBLINGS` (each Schwacher and Retour doubles the stakes)."""
    if (not isinstance(doublings, int) or isinstance(doublings, bool)
            or not 0 <= doublings <= MAX_DOUBLINGS):
        raise DealError("doublings", f"must be a whole number from 0 to {MAX_DOUBLINGS} "
                                     f"(each doubles the stakes), not {brief(doublings)}")


def check_dealer_given(seats: tuple[str, ...], dealer: str | None) -> None:
    """Five seats need the dealer named: the dealer sits the hand out."""
    if len(seats) == 5 and dealer is None:
        raise DealError("dealer", "with five seats the dealer (who sits out) must be given")


def check_hand_seats(hands: Mapping[str, CardSet], active: tuple[str, ...]) -> None:
    """Every seat given a hand is one that plays."""
    for s in hands:
        if s not in active:
            raise DealError(f"hands.{s}", f"{brief(s)} is not a seat that plays")


def check_dobb_size(dobb: CardSet) -> None:
    if popcount(dobb) != DOBB_SIZE:
        raise DealError("dobb", f"must hold {DOBB_SIZE} cards, not {popcount(dobb)}")


def check_no_solo_discard(contract: str | None, discard: CardSet | None) -> None:
    if contract == "solo" and discard is not None:
        raise DealError("discard", "a Solo has no lay-away")


def check_discard(discard: CardSet) -> None:
    """Four cards, and the Sau rule (``rules.discard_error``)."""
    if popcount(discard) != DOBB_SIZE:
        raise DealError("discard", f"must hold {DOBB_SIZE} cards, not {popcount(discard)}")
    why = discard_error(discard)
    if why:
        raise DealError("discard", why)


def check_trick_shapes(tricks: tuple[tuple[Card, ...], ...]) -> None:
    """At most 8 tricks of 4 cards; only the last may be unfinished (1 to 3 cards)."""
    if len(tricks) > HAND_SIZE:
        raise DealError("tricks", f"at most {HAND_SIZE} tricks, not {len(tricks)}")
    for n, t in enumerate(tricks, 1):
        if not 1 <= len(t) <= 4 or (len(t) < 4 and n < len(tricks)):
            raise DealError("tricks", f"trick {n} has {len(t)} cards; only the last may be unfinished")


def check_hand_size(seat: str, hand: CardSet, n_played: int, note: str = "") -> None:
    """A seat that played ``n_played`` cards holds the rest of its 8 (``note`` ends the message)."""
    want = HAND_SIZE - n_played
    have = popcount(hand)
    if have != want:
        raise DealError(f"hands.{seat}", f"holds {have} cards, should hold {want}{note}")


def dobb_strays(dobb: CardSet, declarers: CardSet) -> CardSet:
    """The Dobb cards outside ``declarers`` (what the declarer holds, played and laid away):
    after the exchange of a Dobbm there must be none."""
    return dobb & ~declarers


def revoke_error(r: Revoke) -> DealError:
    """The error naming revoke ``r`` (key ``tricks``)."""
    return DealError("tricks", f"trick {r.trick}: {r.seat} plays {card_name(r.card)}, a revoke "
                     f"(must play one of {cards_text(r.legal)})")


@dataclass(frozen=True)
class Revoke:
    """A card played against follow-suit or must-trump."""

    trick: int          # 1-based trick number
    seat: str
    card: Card
    legal: CardSet      # what the seat could have played


def find_revokes(deal: Deal) -> list[Revoke]:
    """Every revoke in ``deal.tricks``, in play order (cards held are known from later play)."""
    return _revokes(deal, replay(deal, check=False))


def _revokes(deal: Deal, state: PlayState) -> list[Revoke]:
    held = {s: deal.hands.get(s, 0) | cards for s, cards in cards_played(deal, state).items()}
    out = []
    for n, seat, c, led in _plays(deal, state):
        legal = legal_cards(held[seat], led)
        if not (legal >> c) & 1:
            out.append(Revoke(n, seat, c, legal))
        held[seat] &= ~(1 << c)
    return out
