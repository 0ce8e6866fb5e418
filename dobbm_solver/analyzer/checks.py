"""Checking what a seat knows into a :class:`~dobbm_solver.analyzer.view.View`.

A view comes from a hand file (:func:`make_view` of its :class:`~dobbm_solver.handfile.HandSpec`)
or from typed values (:meth:`View.from_seat <dobbm_solver.analyzer.view.View.from_seat>`,
:func:`view_from_seat`); both run the one :func:`check_view`.
It runs named checks in a fixed order; what a deal must
satisfy anyway (trick shapes, hand sizes, the Sau rule, revokes...) is
checked by the shared checks of :mod:`dobbm_solver.deal`, what only a
partial view needs (the command's fields, cards seen once, voids shown,
the auction) here.  Every check raises :class:`~dobbm_solver.deal.DealError`;
:func:`check_view` turns it into a :class:`~dobbm_solver.handfile.HandFileError`
naming the file (or ``<view>``) and the key.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from ..cards import (
    BB_ALL,
    DOBB_SIZE,
    HAND_SIZE,
    NUM_CARDS,
    SUIT_NAMES,
    Card,
    CardSet,
    card_name,
    card_suit,
    cards_text,
    popcount,
)
from ..deal import (
    Deal,
    DealError,
    check_dealer_given,
    check_discard,
    check_dobb_size,
    check_doublings,
    check_hand_seats,
    check_hand_size,
    check_no_solo_discard,
    check_trick_shapes,
    dobb_strays,
    find_revokes,
    revoke_error,
)
from ..echo import brief
from ..errors import OptionError
from ..handfile import BIDS, HandFileError, HandSpec, load_specs, seat_name_error
from ..rules import CONTRACTS
from .auction import read_auction
from .sampling import sampler_for
from .view import PlayedCards, View, follow_tricks

COMMANDS = ("bid", "discard", "double", "play")


@contextmanager
def _keys_of(spec: HandSpec) -> Iterator[None]:
    """Report a check's DealError as a HandFileError of ``spec``'s file."""
    try:
        yield
    except DealError as e:
        raise HandFileError(spec.path, e.key, e.message, spec.doc) from None


def make_view(spec: HandSpec, command: str) -> View:
    """Check a hand-file spec for ``command`` (bid, discard, double, play) and return its view.

    Raises :class:`~dobbm_solver.handfile.HandFileError` (``FILE: key: what is
    wrong``) for anything inconsistent: counts, a card twice, an illegal
    lay-away, a revoke or a broken void, bids out of turn, a view that does
    not fit the command.
    """
    return check_view(spec, command)


def check_view(spec: HandSpec, command: str) -> View:
    """The one check of a view, whether it comes from a file or from typed values:
    what a hand file's reader guarantees (seat names, known seats, contract and
    bid words, cards of the deck) and then every rule; errors as :func:`make_view`'s."""
    if command not in COMMANDS:
        raise OptionError(f"unknown command {brief(command)}")
    with _keys_of(spec):
        _check_given(spec)
        return _checked_view(spec, command)


def view_from_seat(command: str, *, seats: Sequence[str], me: str, hand: CardSet,
                   declarer: str | None = None, contract: str | None = None, dobb: CardSet | None = None,
                   discard: CardSet | None = None, tricks: Sequence[Sequence[Card]] = (),
                   doublings: int = 0, dealer: str | None = None, bids: Sequence[tuple[str, str]] = (),
                   must: bool = False, path: str = "<view>") -> View:
    """The checked view of ``me`` (who holds ``hand``) for ``command``, from typed values:
    the same checks and errors as :func:`make_view` (``path`` names the source in them)."""
    spec = HandSpec(seats=tuple(seats), declarer=declarer, contract=contract, hands={me: hand},
                    dobb=dobb, discard=discard, tricks=tuple(tuple(t) for t in tricks),
                    doublings=doublings, dealer=dealer, me=me, bids=tuple((w, b) for w, b in bids),
                    must=must or None, path=path)
    return check_view(spec, command)


def load_views(path: str | Path, command: str) -> list[View]:
    """The views of every document of a hand file, checked for ``command``."""
    return [make_view(spec, command) for spec in load_specs(path)]


def view_command(spec: HandSpec) -> str:
    """The advice command a view is written for, judged from what it gives.

    No declarer and no contract: ``bid``, or ``discard`` when the Dobb is shown;
    the declarer's own Dobbm without a lay-away: ``discard``; before the first
    card, with the doublings it is ``me``'s turn to answer: ``double``; else
    ``play`` (a view during play).
    """
    if spec.declarer is None and spec.contract is None:
        return "discard" if spec.dobb is not None else "bid"
    mine = spec.declarer in (None, spec.me)
    if mine and spec.contract in (None, "dobbm") and spec.discard is None and not spec.tricks:
        return "discard"
    if not spec.tricks and spec.doublings % 2 == (1 if mine else 0):
        return "double"
    return "play"


def _check_given(spec: HandSpec) -> None:
    """What :func:`~dobbm_solver.handfile.parse_spec` ensures of a file's spec, checked for
    a spec made from typed values: seat names, every seat named one of ``seats``, the
    contract and bid words, cards of the deck."""
    seats = spec.seats
    if len(seats) not in (4, 5):
        raise DealError("seats", f"need 4 seats, or 5 with a dealer who sits out, not {len(seats)}")
    for s in seats:
        why = seat_name_error(s) if isinstance(s, str) else f"a seat name must be text, not {brief(s)}"
        if why:
            raise DealError("seats", why)
    if len({s.casefold() for s in seats}) != len(seats):
        raise DealError("seats", "a seat is named twice (seat names are case-insensitive)")
    for key, seat in (("dealer", spec.dealer), ("declarer", spec.declarer), ("me", spec.me)):
        if seat is not None and seat not in seats:
            raise DealError(key, f"{brief(seat)} is not a seat (seats: {' '.join(seats)})")
    if spec.contract is not None and spec.contract not in CONTRACTS:
        raise DealError("contract", f"must be one of {' | '.join(CONTRACTS)}, not {brief(spec.contract)}")
    for n, (who, bid) in enumerate(spec.bids, 1):
        if who not in seats or bid not in BIDS:
            raise DealError("bids", f"bid {n}: {brief(who)}: {brief(bid)} is not a seat's pass, dobbm or solo")
    for key, cs in [(f"hands.{s}", cs) for s, cs in spec.hands.items()] + [("dobb", spec.dobb),
                                                                          ("discard", spec.discard)]:
        if cs is not None and not (isinstance(cs, int) and 0 <= cs <= BB_ALL):
            raise DealError(key, f"not a set of cards of the deck: {brief(cs)}")
    for n, trick in enumerate(spec.tricks, 1):
        if any(not isinstance(c, int) or not 0 <= c < NUM_CARDS for c in trick):
            raise DealError("tricks", f"trick {n}: not cards of the deck: {brief(trick)}")


def _checked_view(spec: HandSpec, command: str) -> View:
    check_doublings(spec.doublings)
    check_dealer_given(spec.seats, spec.dealer)
    active = tuple(s for s in spec.seats if s != spec.dealer) if len(spec.seats) == 5 else tuple(spec.seats)
    me = _check_me(spec, active)
    declarer, contract = _check_command(spec, command, me, active)
    hands, dobb, discard, tricks = dict(spec.hands), spec.dobb, spec.discard, tuple(spec.tricks)
    check_no_solo_discard(contract, discard)
    if dobb is not None:
        check_dobb_size(dobb)
    if discard is not None:
        check_discard(discard)
    check_hand_seats(hands, active)
    check_trick_shapes(tricks)
    played = follow_tricks(active, declarer, tricks) if declarer else PlayedCards({}, {})
    seen = _check_cards_once(hands, tricks, discard)
    exchanged = contract == "dobbm" and command not in ("bid", "discard")
    if dobb is not None:
        _check_dobb(dobb, seen, played, hands, discard, active, me, declarer, exchanged)
    _check_hand_sizes(hands, played, active, me, command)
    if exchanged and declarer != me:
        assert declarer is not None
        twelve_known = hands.get(declarer, 0) | (discard or 0) | (dobb or 0) | played.cards(declarer)
        if popcount(twelve_known) > HAND_SIZE + DOBB_SIZE:
            raise DealError(f"hands.{declarer}", "more cards than the declarer's 12 (hand, Dobb, lay-away)")
    if declarer:
        assert contract is not None
        _check_revokes(hands, played, active, me, declarer, contract, tricks)
    must = bool(spec.must)
    order, auction = read_auction(spec, command, active, me, declarer, contract, must)
    view = View(
        command=command, seats=spec.seats, active=active, me=me, hands=hands, declarer=declarer,
        contract=contract, dobb=dobb, discard=discard, tricks=tricks, doublings=spec.doublings,
        dealer=spec.dealer, bids=tuple(spec.bids), must=must, order=order, auction=auction,
        path=spec.path, doc=spec.doc,
    )
    if sampler_for(view).allocator.total == 0:
        raise DealError("tricks" if tricks else "hands",
                        "no deal of the unseen cards fits what is known (hand sizes, voids shown)")
    return view


def _check_me(spec: HandSpec, active: tuple[str, ...]) -> str:
    me = spec.me
    if me is None:
        raise DealError("me", "missing: name the seat whose view this is (me: SEAT)")
    if me not in active:
        raise DealError("me", f"{me} is the dealer and sits this hand out")
    if me not in spec.hands:
        raise DealError(f"hands.{me}", "missing: give your own cards")
    return me


def _check_command(spec: HandSpec, command: str, me: str,
                   active: tuple[str, ...]) -> tuple[str | None, str | None]:
    """What the command needs of the spec; return the declarer and the contract."""
    if command == "bid":
        _check_bid_spec(spec)
        return spec.declarer, spec.contract
    if command == "discard":
        return _check_discard_spec(spec, me)
    return _check_play_spec(spec, command, me, active)


def _check_bid_spec(spec: HandSpec) -> None:
    for key, value in (("declarer", spec.declarer), ("contract", spec.contract), ("discard", spec.discard)):
        if value is not None:
            raise DealError(key, "the bidding is not over, so there is none yet (bid advises "
                                 "the player about to bid)")
    if spec.tricks:
        raise DealError("tricks", "no card is played before the bidding ends")
    if spec.doublings:
        raise DealError("doublings", "nobody doubles before the bidding ends")


def _check_discard_spec(spec: HandSpec, me: str) -> tuple[str, str]:
    declarer = me if spec.declarer is None else spec.declarer
    if declarer != me:
        raise DealError("declarer", f"discard advises the declarer: {declarer} is not me ({me})")
    contract = "dobbm" if spec.contract is None else spec.contract
    if contract != "dobbm":
        raise DealError("contract", "a Solo lays nothing away; discard needs a Dobbm")
    if spec.dobb is None:
        raise DealError("dobb", "missing: the declarer of a Dobbm sees the four Dobb cards")
    if spec.discard is not None:
        raise DealError("discard", "the lay-away is what discard chooses: leave it out")
    if spec.tricks:
        raise DealError("tricks", "no card is played before the lay-away")
    if spec.doublings:
        raise DealError("doublings", "doubling comes after the lay-away")
    return declarer, contract


def _check_play_spec(spec: HandSpec, command: str, me: str, active: tuple[str, ...]) -> tuple[str, str]:
    """A view after the bidding (``double``, ``play``)."""
    declarer, contract, doublings = spec.declarer, spec.contract, spec.doublings
    if declarer is None:
        raise DealError("declarer", "missing")
    if contract is None:
        raise DealError("contract", "missing")
    if declarer not in active:
        raise DealError("declarer", f"{declarer} is the dealer and sits this hand out")
    if command == "double":
        if spec.tricks:
            raise DealError("tricks", "Schwacher and Retour are said before the first card")
        if me == declarer and doublings % 2 == 0:
            raise DealError("doublings", f"as the declarer you answer a Schwacher: doublings "
                                         f"must be odd (1: a defender said Schwacher), not {doublings}")
        if me != declarer and doublings % 2 == 1:
            raise DealError("doublings", f"{doublings} doublings: it is the declarer's turn to "
                                         f"answer (Retour or play on), not a defender's")
    if contract == "dobbm" and me == declarer and spec.discard is None:
        raise DealError("discard", "missing: as the declarer you know what you laid away")
    return declarer, contract


def _clash(cs: CardSet, other: CardSet) -> str | None:
    both = cs & other
    return cards_text(both) if both else None


def _also_in(dup: str, key: str) -> str:
    return f"{dup} {'is' if ' ' not in dup else 'are'} also in {key}"


def _check_cards_once(hands: Mapping[str, CardSet], tricks: tuple[tuple[Card, ...], ...],
                      discard: CardSet | None) -> list[tuple[str, CardSet]]:
    """Every card at most once in the hands, the tricks and the lay-away; return them by key."""
    played_set = 0
    for n, t in enumerate(tricks, 1):
        for c in t:
            if (played_set >> c) & 1:
                raise DealError("tricks", f"trick {n}: {card_name(c)} is played twice")
            played_set |= 1 << c
    seen: list[tuple[str, CardSet]] = [(f"hands.{s}", cs) for s, cs in hands.items()]
    seen.append(("tricks", played_set))
    if discard is not None:
        seen.append(("discard", discard))
    for i, (ka, a) in enumerate(seen):
        for kb, b in seen[:i]:
            dup = _clash(a, b)
            if dup:
                raise DealError(ka, _also_in(dup, kb))
    return seen


def _check_dobb(dobb: CardSet, seen: list[tuple[str, CardSet]], played: PlayedCards,
                hands: Mapping[str, CardSet], discard: CardSet | None, active: tuple[str, ...],
                me: str, declarer: str | None, exchanged: bool) -> None:
    """The Dobb's cards are nowhere else -- after the exchange, only with the declarer."""
    if not exchanged:
        for k, cs in seen:
            dup = _clash(dobb, cs)
            if dup:
                raise DealError("dobb", _also_in(dup, k))
        return
    # the Dobb went to the declarer: its cards are held, played or laid away by them
    if declarer == me:
        stray = dobb_strays(dobb, hands[me] | (discard or 0) | played.cards(me))
        if stray:
            raise DealError("dobb", f"{cards_text(stray)} from the Dobb is not in your "
                                    f"hand, lay-away or tricks: the Dobb went to you")
    for s in active:
        if s == declarer:
            continue
        dup = _clash(dobb, hands.get(s, 0) | played.cards(s))
        if dup:
            raise DealError("dobb", f"{dup} from the Dobb cannot be with {s}: "
                                    f"the Dobb went to the declarer {declarer}")


def _check_hand_sizes(hands: Mapping[str, CardSet], played: PlayedCards, active: tuple[str, ...],
                      me: str, command: str) -> None:
    """``me`` holds all their cards left, the others at most theirs."""
    for s in active:
        n_played = len(played.by_seat.get(s, ()))
        if s == me:
            check_hand_size(s, hands.get(s, 0), n_played,
                            " (the 8 dealt cards; the Dobb is given as dobb)" if command == "discard" else "")
        want = HAND_SIZE - n_played
        have = popcount(hands.get(s, 0))
        if have > want:
            raise DealError(f"hands.{s}", f"holds {have} cards, at most {want} are left")


def _suits_text(mask: int) -> str:
    return " and ".join(SUIT_NAMES[s] for s in range(4) if (mask >> s) & 1)


def _check_revokes(hands: Mapping[str, CardSet], played: PlayedCards, active: tuple[str, ...], me: str,
                   declarer: str, contract: str, tricks: tuple[tuple[Card, ...], ...]) -> None:
    """``me``'s cards are all known, so each one played was legal; the others keep the voids
    they showed (no later card of that suit, none held now)."""
    mine = [r for r in find_revokes(Deal(seats=active, declarer=declarer, contract=contract, hands=hands, dobb=0,
                                         tricks=tricks))
            if r.seat == me]
    if mine:
        raise revoke_error(mine[0])
    if played.broken is not None:
        n, seat, c = played.broken
        raise DealError("tricks", f"trick {n}: {seat} plays {card_name(c)}, but showed "
                                  f"no {SUIT_NAMES[card_suit(c)]} before (a revoke)")
    for s in active:
        bad = hands.get(s, 0) & played.void_cards(s)
        if bad:
            raise DealError(f"hands.{s}", f"holds {cards_text(bad)}, but {s} showed no "
                                          f"{_suits_text(played.voids[s])} in the tricks")
