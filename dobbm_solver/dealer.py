"""Random deals: the deck shuffled and dealt as at the table (:func:`random_deal`).

:func:`deal_cards` deals a shuffled deck as the rule book says (packets of
four, clockwise; the last four cards are the Dobb).  :func:`random_deal`
shuffles with a seeded ``random.Random`` and seats the declarer as players
would: the strongest hand by
:func:`~dobbm_solver.models.strength.hand_strength` declares, a Solo when
its strength is at least :data:`SOLO_THRESHOLD` = 16.5, else a Dobbm, laying
away the rule of thumb's choice
(:func:`~dobbm_solver.models.discard_rule.heuristic_discard`).  Hands just
above the threshold: ``HA H10 HK EA E9 L8 L7 S6`` (17), ``HU H9 H8 H7 H6 EA
L9 S8`` (17), ``HA H10 HK H9 E9 E8 L7 L6`` (18).  Over random deals about 30%
are then Solos (the benchmark set, ``hands/benchmark.yaml``, states its own
share).  The benchmark hand files and the seeded tests are made with it.

:func:`deal_random` (``dobbm deal``) deals for practice and teaching: the
dealer, the auction of the bidding model
(:func:`~dobbm_solver.models.bidding.model_bid`, a deal all four pass dealt
again) and the calibrated lay-away, to :class:`Constraints` on the hands as
dealt (before the exchange, unlike :func:`random_deal`, whose declarer holds
the hand after it).  It draws uniform deals and throws in those that miss,
so each deal is uniform over the deals that meet the constraints; after
:data:`MAX_DRAWS` misses it raises :class:`ConstraintError`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Sequence

from .cards import BB_ALL, BB_TRUMPS, DOBB_SIZE, HAND_SIZE, NUM_CARDS, Card, CardSet, card_name, popcount, set_points
from .deal import Deal, replay, validate
from .echo import brief
from .errors import DobbmError
from .models.bidding import Bid, model_bid
from .models.discard_rule import calibrated_discard, heuristic_discard
from .models.strength import fast_hand_strength, hand_strength
from .rules import CONTRACTS

__all__ = ["SOLO_THRESHOLD", "DEFAULT_SEATS", "deal_cards", "random_deal", "FOREHAND", "MAX_DRAWS",
           "ConstraintError", "SeatRange", "Constraints", "DealtDeal", "check_constraints", "model_auction",
           "deal_random", "describe_constraints", "play_until"]

#: A hand at least this strong plays Solo in :func:`random_deal` (about 30% of deals).
SOLO_THRESHOLD = 16.5

#: The seats :func:`random_deal` deals to unless told.
DEFAULT_SEATS: tuple[str, ...] = ("Anna", "Bert", "Cora", "Dave")


def deal_cards(order: Sequence[int], n_seats: int = 4) -> tuple[list[CardSet], CardSet]:
    """Deal a shuffled deck as the rule book says: packets of four, clockwise,
    until each seat has 8; the last four cards are the Dobb."""
    if sorted(order) != list(range(NUM_CARDS)):
        raise ValueError("order must be a permutation of the 36 cards")
    hands = [0] * n_seats
    pos = 0
    for _ in range(HAND_SIZE // 4):
        for seat in range(n_seats):
            for c in order[pos:pos + 4]:
                hands[seat] |= 1 << c
            pos += 4
    dobb = 0
    for c in order[pos:pos + DOBB_SIZE]:
        dobb |= 1 << c
    assert sum(hands) | dobb == BB_ALL
    return hands, dobb


def random_deal(rng: random.Random, seats: Sequence[str] = DEFAULT_SEATS,
                contract: str | None = None, *, discard: bool = True) -> Deal:
    """A random deal at the opening lead, declarer and contract as at the table.

    The deck is shuffled with ``rng`` (one ``rng.shuffle`` of the 36 cards)
    and dealt by :func:`deal_cards` to the four ``seats`` in order.  The
    declarer is the seat with the highest
    :func:`~dobbm_solver.models.strength.hand_strength` (the first
    such seat on a tie).  With ``contract`` None the declarer plays Solo if
    that strength is at least :data:`SOLO_THRESHOLD`, else Dobbm.  In a Dobbm
    the declarer takes the Dobb and lays away
    :func:`~dobbm_solver.models.discard_rule.heuristic_discard`; with
    ``discard=False`` the Dobb is left untaken (``discard`` None, the
    declarer holding the 8 dealt cards) for a lay-away study.  The result is
    checked with :func:`dobbm_solver.deal.validate`.
    """
    seats = tuple(seats)
    if len(seats) != 4:
        raise ValueError(f"need four seats, not {len(seats)}")
    if contract not in (None, "dobbm", "solo"):
        raise ValueError(f"contract must be None, 'dobbm' or 'solo', not {contract!r}")
    order = list(range(NUM_CARDS))
    rng.shuffle(order)
    hands, dobb = deal_cards(order, len(seats))
    strengths = [hand_strength(h) for h in hands]
    i = max(range(len(seats)), key=lambda k: (strengths[k], -k))
    declarer = seats[i]
    if contract is None:
        contract = "solo" if strengths[i] >= SOLO_THRESHOLD else "dobbm"
    deal = Deal(seats=seats, declarer=declarer, contract=contract,
                hands=dict(zip(seats, hands)), dobb=dobb)
    if contract == "dobbm" and discard:
        deal = deal.with_discard(heuristic_discard(hands[i] | dobb))
    validate(deal)
    return deal


# --- constrained deals for practice and teaching (``dobbm deal``) ----------------

#: The seat word that means the player after the dealer, whoever deals.
FOREHAND = "forehand"
#: Deals drawn for one constrained deal before giving up: a constraint met by fewer
#: than about one deal in this many is refused as impossible or too rare to deal.
MAX_DRAWS = 100_000


class ConstraintError(DobbmError):
    """Constraints that contradict each other or that no deal within the budget meets."""


@dataclass(frozen=True, kw_only=True)
class SeatRange:
    """``low <= value <= high`` for the hand ``seat`` (a seat name or :data:`FOREHAND`) was dealt."""

    seat: str
    low: float
    high: float


@dataclass(frozen=True, kw_only=True)
class Constraints:
    """What a dealt deal must meet; every field None or empty means no constraint.

    ``dealer``: who deals.  ``declarer`` and ``contract``: the auction of the
    bidding model ends with that seat declaring that contract.  ``trumps``,
    ``points`` and ``strength``: ranges of a seat's 8 dealt cards (before the
    exchange): its hearts, its card points, its
    :func:`~dobbm_solver.models.strength.hand_strength`.  ``bidder``: that seat
    gets to bid (no Solo before its turn), so the deal has its bid to advise.
    """

    dealer: str | None = None
    declarer: str | None = None
    contract: str | None = None
    trumps: tuple[SeatRange, ...] = ()
    points: tuple[SeatRange, ...] = ()
    strength: tuple[SeatRange, ...] = ()
    #: this seat (or forehand) gets to bid: no Solo ends the bidding before its turn
    bidder: str | None = None


@dataclass(frozen=True, kw_only=True)
class DealtDeal:
    """One random deal as dealt: the deal at the opening lead (``dealer`` set, the
    lay-away made in a Dobbm), the auction that gave it, and how many deals were drawn."""

    deal: Deal
    bids: tuple[tuple[str, Bid], ...]
    draws: int


def _seat_of(word: str, seats: tuple[str, ...], what: str) -> str:
    for s in seats:
        if s.casefold() == word.casefold():
            return s
    if what != "dealer" and word.casefold() == FOREHAND:
        return FOREHAND
    raise ConstraintError(f"--{what}: {brief(word)} is not a seat at the table ({', '.join(seats)}"
                          + (")" if what == "dealer" else f", or {FOREHAND})"))


def check_constraints(c: Constraints, seats: Sequence[str] = DEFAULT_SEATS) -> Constraints:
    """``c`` with seat names as the table spells them; raises :class:`ConstraintError` at once
    for a seat not at the table, a contract not ``dobbm`` or ``solo``, a range whose low end
    is above its high end or outside what 8 cards can hold."""
    seats = tuple(seats)
    dealer = None if c.dealer is None else _seat_of(c.dealer, seats, "dealer")
    declarer = None if c.declarer is None else _seat_of(c.declarer, seats, "declarer")
    if c.contract is not None and c.contract not in CONTRACTS:
        raise ConstraintError(f"contract must be dobbm or solo, not {brief(c.contract)}")
    ranges: dict[str, tuple[SeatRange, ...]] = {}
    for name, top in (("trumps", HAND_SIZE), ("points", _MAX_POINTS), ("strength", None)):
        out = []
        for r in getattr(c, name):
            seat = _seat_of(r.seat, seats, name)
            if r.low > r.high:
                raise ConstraintError(f"--{name} {r.seat}:{r.low:g}-{r.high:g}: the low end is above the high end")
            if r.low < 0 or (top is not None and r.low > top):
                raise ConstraintError(f"--{name} {r.seat}:{r.low:g}-{r.high:g}: 8 dealt cards hold "
                                      f"0 to {top if top is not None else 'more'} {name}")
            out.append(SeatRange(seat=seat, low=r.low, high=r.high))
        ranges[name] = tuple(out)
    bidder = None if c.bidder is None else _seat_of(c.bidder, seats, "view bid")
    return Constraints(dealer=dealer, declarer=declarer, contract=c.contract, bidder=bidder, **ranges)


#: The most card points 8 cards can hold: four Saus and four 10s.
_MAX_POINTS = 4 * 11 + 4 * 10


def model_auction(dealt: dict[str, CardSet], order: tuple[str, ...]) -> list[tuple[str, Bid]]:
    """The noiseless bidding model's auction (:func:`~dobbm_solver.models.bidding.model_bid`)
    over the hands ``dealt``, the seats speaking in ``order`` (forehand first): a Solo ends
    it at once; after a Dobbm only a Solo or a pass follows."""
    bids: list[tuple[str, Bid]] = []
    dobbm_said = False
    for turn, seat in enumerate(order):
        bid = model_bid(dealt[seat], dobbm_said=dobbm_said, turn=turn)
        bids.append((seat, bid))
        if bid == "solo":
            break
        dobbm_said = dobbm_said or bid == "dobbm"
    return bids


def deal_random(rng: random.Random, constraints: Constraints = Constraints(),
                seats: Sequence[str] = DEFAULT_SEATS, *, max_draws: int = MAX_DRAWS) -> DealtDeal:
    """A random deal that meets ``constraints``, uniform over all such deals.

    Each draw picks the dealer (the one given, else a seat at random) and
    shuffles the deck (one ``rng.shuffle``), dealt by :func:`deal_cards` from
    forehand clockwise; the seats bid by :func:`model_auction`.  A draw that
    fails a constraint, or that all four pass, is thrown in and dealt again:
    rejection sampling from uniform deals, so every deal that meets the
    constraints is equally likely.  In a Dobbm the declarer lays away
    :func:`~dobbm_solver.models.discard_rule.calibrated_discard`.  After
    ``max_draws`` draws with none that fits, raises :class:`ConstraintError`.
    """
    seats = tuple(seats)
    if len(seats) != 4:
        raise ValueError(f"need four seats, not {len(seats)}")
    c = check_constraints(constraints, seats)
    for draw in range(1, max_draws + 1):
        dealer = c.dealer if c.dealer is not None else seats[rng.randrange(len(seats))]
        order = list(range(NUM_CARDS))
        rng.shuffle(order)
        first = (seats.index(dealer) + 1) % len(seats)
        speaking = seats[first:] + seats[:first]   # forehand first, the dealer last
        hands, dobb = deal_cards(order, len(seats))
        dealt = dict(zip(speaking, hands))
        if not _ranges_hold(c, dealt, speaking[0]):
            continue
        bids = model_auction(dealt, speaking)
        last_seat, last_bid = bids[-1]
        if last_bid == "solo":
            declarer, contract = last_seat, "solo"
        else:
            dobbms = [s for s, b in bids if b == "dobbm"]
            if not dobbms:   # all passed: dealt again
                continue
            declarer, contract = dobbms[0], "dobbm"
        if c.declarer is not None and _resolve(c.declarer, speaking[0]) != declarer:
            continue
        if c.contract is not None and contract != c.contract:
            continue
        if c.bidder is not None and _resolve(c.bidder, speaking[0]) not in (s for s, _ in bids):
            continue
        deal = Deal(seats=seats, declarer=declarer, contract=contract,
                    hands={s: dealt[s] for s in seats}, dobb=dobb, dealer=dealer)
        if contract == "dobbm":
            deal = deal.with_discard(calibrated_discard(dealt[declarer] | dobb))
        validate(deal)
        return DealtDeal(deal=deal, bids=tuple(bids), draws=draw)
    raise ConstraintError(f"no deal of {max_draws} drawn meets {describe_constraints(c)}: "
                          "impossible, or too rare to deal")


def _resolve(seat: str, forehand: str) -> str:
    return forehand if seat == FOREHAND else seat


def _ranges_hold(c: Constraints, dealt: dict[str, CardSet], forehand: str) -> bool:
    for r in c.trumps:
        if not r.low <= popcount(dealt[_resolve(r.seat, forehand)] & BB_TRUMPS) <= r.high:
            return False
    for r in c.points:
        if not r.low <= set_points(dealt[_resolve(r.seat, forehand)]) <= r.high:
            return False
    for r in c.strength:
        if not r.low <= fast_hand_strength(dealt[_resolve(r.seat, forehand)]) <= r.high:
            return False
    return True


def describe_constraints(c: Constraints) -> str:
    """The constraints in the words of ``dobbm deal``'s options (``--trumps forehand:5-8``)."""
    parts = []
    if c.dealer is not None:
        parts.append(f"--dealer {c.dealer}")
    if c.declarer is not None:
        parts.append(f"--declarer {c.declarer}")
    if c.contract is not None:
        parts.append(f"--contract {c.contract}")
    for name in ("trumps", "points", "strength"):
        parts += [f"--{name} {r.seat}:{r.low:g}-{r.high:g}" for r in getattr(c, name)]
    if c.bidder is not None:
        parts.append(f"--view bid:{c.bidder}")
    return ", ".join(parts) or "no constraints"


def play_until(deal: Deal, seat: str, line: Sequence[Card]) -> Deal:
    """``deal`` with the cards of ``line`` (a line of play from where the deal stands, such as
    the solver's best line) played, in turn, until it is ``seat``'s turn to play.

    Raises :class:`ValueError` if ``seat`` does not come to play within ``line``, or a card
    of ``line`` is not in the hand of the seat to play.
    """
    cards = iter(line)
    while True:
        state = replay(deal, check=False)
        if state.to_move == seat:
            return deal
        card = next(cards, None)
        if state.to_move is None or card is None:
            raise ValueError(f"{seat} does not come to play within the line given")
        hand = deal.hands[state.to_move]
        if not (hand >> card) & 1:
            raise ValueError(f"{card_name(card)} is not in {state.to_move}'s hand")
        tricks = deal.tricks[:-1] + (deal.tricks[-1] + (card,),) if state.trick else deal.tricks + ((card,),)
        deal = replace(deal, hands={**deal.hands, state.to_move: hand & ~(1 << card)}, tricks=tricks)
