"""What a player sees: the :class:`View`, and what the tricks so far show (:func:`follow_tricks`).

A view is built and checked from a hand file by :func:`dobbm_solver.analyzer.checks.make_view`,
or from typed values by :meth:`View.from_seat`; both run the same checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..cards import BB_SUITS, TRUMP, Card, CardSet, card_suit, cardset, trick_winner
from ..deal import Deal, trick_seats
from ..dealt import dealt_hands
from ..handfile import HandFileError, HandSpec


class AnalyzerError(HandFileError):
    """A view the analyzer cannot work with (e.g. an auction the model finds too unlikely)."""


@dataclass(frozen=True)
class View:
    """What ``me`` knows, checked: the input of every analysis.

    ``command`` is ``bid``, ``discard``, ``double`` or ``play`` (a general
    view, also mid-play, used for sampling).  ``hands`` holds the cards seen
    in each seat now (``me``'s complete).  ``auction`` lists the constraints
    on other seats' dealt cards: ``(seat, kind)`` with kind ``pass`` (passed
    before any Dobbm), ``not_solo`` (passed after a Dobbm, or passed-or-Dobbm),
    ``dobbm`` or ``solo``.  ``order`` is the bidding order from forehand when
    known.  Build it with :meth:`from_seat` (typed values) or
    :func:`~dobbm_solver.analyzer.make_view` (a hand file's spec).
    """

    command: str
    seats: tuple[str, ...]
    active: tuple[str, ...]
    me: str
    hands: Mapping[str, CardSet]
    declarer: str | None = None
    contract: str | None = None
    dobb: CardSet | None = None
    discard: CardSet | None = None
    tricks: tuple[tuple[Card, ...], ...] = ()
    doublings: int = 0
    dealer: str | None = None
    bids: tuple[tuple[str, str], ...] = ()
    must: bool = False
    order: tuple[str, ...] | None = None
    auction: tuple[tuple[str, str], ...] = ()
    path: str = field(default="<string>", compare=False)
    doc: int | None = field(default=None, compare=False)

    @classmethod
    def from_seat(cls, command: str, *, seats: Sequence[str], me: str, hand: CardSet,
                  declarer: str | None = None, contract: str | None = None, dobb: CardSet | None = None,
                  discard: CardSet | None = None, tricks: Sequence[Sequence[Card]] = (),
                  doublings: int = 0, dealer: str | None = None, bids: Sequence[tuple[str, str]] = (),
                  must: bool = False, path: str = "<view>") -> View:
        """The checked view of ``me``, who holds ``hand``, for ``command`` (bid, discard,
        double, play): the seats clockwise (five with the ``dealer``), what is known of
        the contract, the Dobb and the lay-away as ``me`` has seen them, the tricks so far
        (cards in play order), the doublings and the bids (``(seat, bid)`` in order).

        The same checks as a hand file's (:func:`~dobbm_solver.analyzer.make_view`): a
        :class:`~dobbm_solver.handfile.HandFileError` naming ``path`` and the key."""
        from .checks import view_from_seat
        return view_from_seat(command, seats=seats, me=me, hand=hand, declarer=declarer, contract=contract,
                              dobb=dobb, discard=discard, tricks=tricks, doublings=doublings, dealer=dealer,
                              bids=bids, must=must, path=path)

    @classmethod
    def cut(cls, deal: Deal, command: str, me: str, *, bids: Sequence[tuple[str, str]] = (),
            doublings: int | None = None, path: str = "<view>") -> View:
        """``me``'s checked view of a whole ``deal`` for ``command``: the deal cut to what
        ``me`` sees when the decision comes (``bids``: the whole auction, ``(seat, bid)`` in
        order; ``doublings``: those said, default the deal's).

        * ``bid``: ``me``'s 8 dealt cards and the bids said before ``me``'s own (``me``
          must bid in ``bids``); no contract yet.
        * ``discard``: ``me`` is the declarer of a Dobbm: the 8 dealt cards and the Dobb.
        * ``double`` and ``play``: ``me``'s cards now and the tricks so far; the declarer
          of a Dobbm also sees the Dobb and the lay-away; nobody sees a Solo's Dobb.
          ``double`` is before the first card, a defender's turn at an even number of
          doublings, the declarer's at an odd one.

        The same checks as :meth:`from_seat`; a decision that does not fit the deal (a
        ``bid`` for a seat that did not bid, a ``discard`` for a defender or a Solo) is a
        :class:`~dobbm_solver.handfile.HandFileError` naming ``path``.
        """
        said = tuple((who, bid) for who, bid in bids)
        declarer: str | None = None
        contract: str | None = None
        dobb: CardSet | None = None
        discard: CardSet | None = None
        tricks: tuple[tuple[Card, ...], ...] = ()
        said_doublings = 0
        if command == "bid":
            turn = [n for n, (who, _) in enumerate(said) if who == me]
            if not turn:
                raise AnalyzerError(path, "bids", f"{me} does not bid in this auction (a Solo ended it before)")
            hand = dealt_hands(deal)[me]
            said = said[:turn[0]]
        elif command == "discard":
            if me != deal.declarer or deal.contract != "dobbm":
                raise AnalyzerError(path, "me", f"discard is the view of a Dobbm's declarer, not {me}'s "
                                                f"({deal.contract} by {deal.declarer})")
            hand = dealt_hands(deal)[me]
            declarer, contract, dobb = me, "dobbm", deal.dobb
        else:
            hand = deal.hands[me]
            declarer, contract, tricks = deal.declarer, deal.contract, deal.tricks
            said_doublings = deal.doublings if doublings is None else doublings
            if me == deal.declarer and deal.contract == "dobbm":
                dobb, discard = deal.dobb, deal.discard
        return cls.from_seat(command, seats=deal.seats, me=me, hand=hand, declarer=declarer, contract=contract,
                             dobb=dobb, discard=discard, tricks=tricks, doublings=said_doublings,
                             dealer=deal.dealer, bids=said, path=path)

    def spec(self) -> HandSpec:
        """The hand-file spec that gives this view back (for writing it out).

        ``make_view(view.spec(), view.command) == view`` for every checked view.
        """
        return HandSpec(
            seats=self.seats, declarer=self.declarer, contract=self.contract, hands=dict(self.hands),
            dobb=self.dobb, discard=self.discard, tricks=self.tricks, doublings=self.doublings,
            dealer=self.dealer, me=self.me, bids=self.bids, must=self.must or None,
            path=self.path, doc=self.doc,
        )

    @property
    def my_hand(self) -> CardSet:
        return self.hands[self.me]

    @property
    def exchanged(self) -> bool:
        """A Dobbm after the exchange: the Dobb is part of the declarer's 12 cards."""
        return self.contract == "dobbm" and self.command not in ("bid", "discard")

    @property
    def role(self) -> str:
        """``bidder`` (bid), ``declarer`` or ``defender``."""
        if self.declarer is None:
            return "bidder"
        return "declarer" if self.me == self.declarer else "defender"

    @property
    def dobbm_said(self) -> bool:
        return any(b == "dobbm" for _, b in self.bids)

    def later_bidders(self) -> tuple[str, ...]:
        """Bid view: the players who speak after ``me`` (all others if the order is unknown)."""
        if self.order is None:
            i = self.active.index(self.me)
            return tuple(self.active[(i + k) % 4] for k in range(1, 4))
        return self.order[self.order.index(self.me) + 1:]

    def bid_options(self) -> tuple[str, ...]:
        if self.must:
            return ("dobbm", "solo")
        if self.dobbm_said:
            return ("pass", "solo")
        return ("pass", "dobbm", "solo")


@dataclass(frozen=True)
class PlayedCards:
    """Who played what: the tricks followed from the declarer's lead with known cards only."""

    by_seat: Mapping[str, tuple[Card, ...]]
    voids: Mapping[str, int]        # seat -> bitmask of suits shown void
    #: the first card played in a suit its seat had shown void: (trick number, seat, card)
    broken: tuple[int, str, Card] | None = None

    def cards(self, seat: str) -> CardSet:
        """The cards ``seat`` played."""
        return cardset(self.by_seat.get(seat, ()))

    def void_cards(self, seat: str) -> CardSet:
        """Every card of the suits ``seat`` showed void in."""
        mask = self.voids.get(seat, 0)
        return sum(BB_SUITS[suit] for suit in range(4) if (mask >> suit) & 1)


def follow_tricks(active: tuple[str, ...], declarer: str,
                  tricks: tuple[tuple[Card, ...], ...]) -> PlayedCards:
    """Who played each card of ``tricks`` (the declarer leads the first), and the voids shown.

    A seat that does not follow suit shows a void in the suit led, and one
    that neither follows nor trumps a void in trumps too.
    """
    by_seat: dict[str, list[Card]] = {s: [] for s in active}
    voids = {s: 0 for s in active}
    broken = None
    leader = declarer
    for n, trick in enumerate(tricks, 1):
        order = trick_seats(active, leader)
        for i, c in enumerate(trick):
            seat = order[i]
            if broken is None and (voids[seat] >> card_suit(c)) & 1:
                broken = (n, seat, c)
            by_seat[seat].append(c)
            if i:
                led = card_suit(trick[0])
                if card_suit(c) != led:
                    voids[seat] |= 1 << led
                    if card_suit(c) != TRUMP:
                        voids[seat] |= 1 << TRUMP
        if len(trick) == 4:
            leader = order[trick_winner(trick)]
    return PlayedCards({s: tuple(v) for s, v in by_seat.items()}, voids, broken)
