"""Hands as dealt: the 8 cards each seat was dealt, before the Dobb and the tricks.

A hand file may give ``dealt:`` instead of ``hands:``, as a hand is written
down at the record.  The cards held now follow from it: a Dobbm declarer who
laid four cards away holds ``dealt + dobb - discard - played``, every other
seat ``dealt - played``.  :func:`hands_from_dealt` makes that step and
checks that the dealt hands account for the exchange and the tricks;
:func:`dealt_hands` goes back.  Both read any :class:`HandRecord` (a
:class:`~dobbm_solver.deal.Deal`, or a hand-file spec, a partial view too).
Every problem raises :class:`~dobbm_solver.deal.DealError` with key
``dealt.SEAT`` (or the key whose absence makes the step impossible).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Mapping, Protocol

from .cards import HAND_SIZE, Card, CardSet, card_name, cards_text, popcount, trick_winner
from .deal import DealError, check_trick_shapes, trick_seats
from .echo import brief


class HandRecord(Protocol):
    """What the step from dealt hands to the hands held now reads (a Deal or a spec)."""

    @property
    def seats(self) -> tuple[str, ...]: ...
    @property
    def declarer(self) -> str | None: ...
    @property
    def contract(self) -> str | None: ...
    @property
    def hands(self) -> Mapping[str, CardSet]: ...
    @property
    def dobb(self) -> CardSet | None: ...
    @property
    def discard(self) -> CardSet | None: ...
    @property
    def tricks(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def dealer(self) -> str | None: ...


def _active(record: HandRecord) -> tuple[str, ...]:
    seats = tuple(record.seats)
    if len(seats) == 5 and record.dealer in seats:
        return tuple(s for s in seats if s != record.dealer)
    return seats


def _plays(record: HandRecord) -> Iterator[tuple[int, str, Card]]:
    """Every card of the tricks in play order: trick number, seat, card (the declarer leads)."""
    active = _active(record)
    if record.declarer not in active:
        raise DealError("declarer", f"{brief(record.declarer)} is not a seat that plays"
                        if record.declarer is not None else
                        "missing: needed to follow the tricks from the dealt hands")
    check_trick_shapes(record.tricks)
    leader = record.declarer
    for n, trick in enumerate(record.tricks, 1):
        order = trick_seats(active, leader)
        for i, c in enumerate(trick):
            yield n, order[i], c
        if len(trick) == 4:
            leader = order[trick_winner(trick)]


def _exchanged(record: HandRecord, seat: str) -> bool:
    """True if ``seat`` is a Dobbm declarer who took the Dobb (a lay-away given, or tricks played)."""
    return (seat == record.declarer and record.contract == "dobbm"
            and (record.discard is not None or bool(record.tricks)))


def _check_dealt(dealt: Mapping[str, CardSet], record: HandRecord) -> None:
    """Each dealt hand 8 cards, none in another's or in the Dobb."""
    active = _active(record)
    seen: list[tuple[str, CardSet]] = []
    if record.dobb is not None:
        seen.append(("the Dobb (dobb)", record.dobb))
    for s, cs in dealt.items():
        key = f"dealt.{s}"
        if s not in active:
            raise DealError(key, f"{brief(s)} is not a seat that plays")
        if popcount(cs) != HAND_SIZE:
            raise DealError(key, f"holds {popcount(cs)} cards: each seat is dealt {HAND_SIZE}")
        for where, other in seen:
            if cs & other:
                raise DealError(key, f"{cards_text(cs & other)} is also in {where}")
        seen.append((key, cs))


def _exchange(seat: str, cs: CardSet, record: HandRecord) -> CardSet:
    """The Dobbm declarer's 8 cards after taking the Dobb into ``cs`` and laying four away."""
    key = f"dealt.{seat}"
    if record.dobb is None:
        raise DealError(key, f"{seat} took the Dobb into the hand: give dobb to follow the hand from the dealt cards")
    if record.discard is None:
        raise DealError(key, f"{seat} laid four cards away: give discard to follow the hand from the dealt cards")
    stray = record.discard & ~(cs | record.dobb)
    if stray:
        raise DealError(key, f"the lay-away's {cards_text(stray)} is neither in {seat}'s dealt hand nor in the Dobb")
    return (cs | record.dobb) & ~record.discard


def hands_from_dealt(record: HandRecord) -> dict[str, CardSet]:
    """The hands held now, reading ``record.hands`` as the dealt hands.

    A seat left out stays out (not known, in a view).  Raises
    :class:`~dobbm_solver.deal.DealError` for a dealt hand that is not 8
    cards, a card dealt twice or also in the Dobb, a lay-away the declarer
    did not hold, a card played that its seat did not hold then.
    """
    dealt = dict(record.hands)
    _check_dealt(dealt, record)
    held = {s: _exchange(s, cs, record) if _exchanged(record, s) else cs for s, cs in dealt.items()}
    if not record.tricks:
        return held
    played_in: dict[Card, int] = {}
    for n, seat, c in _plays(record):
        if seat in held:
            if not (held[seat] >> c) & 1:
                raise DealError(f"dealt.{seat}", f"trick {n}: {seat} plays {card_name(c)}, "
                                + _not_held(seat, c, dealt[seat], record, played_in.get(c)))
            held[seat] &= ~(1 << c)
        played_in.setdefault(c, n)
    return held


def _not_held(seat: str, c: Card, dealt: CardSet, record: HandRecord, before: int | None) -> str:
    bit = 1 << c
    if before is not None and (dealt | (record.dobb or 0) if _exchanged(record, seat) else dealt) & bit:
        return f"already played in trick {before}"
    if _exchanged(record, seat):
        if (record.discard or 0) & bit:
            return f"which {seat} laid away"
        return f"which is neither in {seat}'s dealt hand nor in the Dobb"
    return f"which is not in {seat}'s dealt hand"


def dealt_hands(record: HandRecord) -> dict[str, CardSet]:
    """The dealt hands of the seats whose hands ``record`` gives: held now plus played,
    and for a Dobbm declarer after the exchange plus the lay-away less the Dobb.

    A Dobbm declarer whose hand is given after the exchange but whose Dobb is
    not known is left out.
    """
    dealt = {s: cs for s, cs in record.hands.items()}
    if record.tricks and record.declarer in _active(record):
        for _, seat, c in _plays(record):
            if seat in dealt:
                dealt[seat] |= 1 << c
    for s in list(dealt):
        if _exchanged(record, s):
            if record.dobb is None:
                del dealt[s]
            else:
                dealt[s] = (dealt[s] | (record.discard or 0)) & ~record.dobb
    return dealt


@dataclass(frozen=True, kw_only=True)
class SeatOrder:
    """The tricks of a record read as if written in seat order (each trick's cards in the
    order of the seats, not from its leader): ``tricks`` so read, ``trick`` the number of the
    first trick that reads otherwise, and ``leader`` its leader."""

    tricks: tuple[tuple[Card, ...], ...]
    trick: int
    leader: str

    def message(self) -> str:
        """What a record that is consistent only so read is told (key ``tricks``)."""
        who = "the declarer, who leads the first" if self.trick == 1 else f"who won trick {self.trick - 1}"
        return (f"trick {self.trick} is written in seat order: each trick starts with its leader "
                f"({self.leader}, {who}), then clockwise")


def seat_order_reading(record: HandRecord) -> SeatOrder | None:
    """The tricks read in seat order (see :class:`SeatOrder`), or None when that reads them
    as they are (every trick led by the first seat) or cannot be done (no declarer who plays).

    Each whole trick's cards are taken as the active seats' in seat order and put in play
    order from its leader; a trick not finished is left as written.
    """
    active = _active(record)
    leader = record.declarer
    if leader is None or leader not in active:
        return None
    tricks: list[tuple[Card, ...]] = []
    first: tuple[int, str] | None = None
    for n, trick in enumerate(record.tricks, 1):
        if len(trick) != len(active):
            tricks.append(tuple(trick))
            continue
        order = trick_seats(active, leader)
        read = tuple(trick[active.index(s)] for s in order)
        if first is None and read != tuple(trick):
            first = (n, leader)
        tricks.append(read)
        leader = order[trick_winner(read)]
    if first is None:
        return None
    return SeatOrder(tricks=tuple(tricks), trick=first[0], leader=first[1])


__all__ = ["HandRecord", "SeatOrder", "dealt_hands", "hands_from_dealt", "seat_order_reading"]
