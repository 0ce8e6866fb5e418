"""Playing a hand out at the table: a strategy per seat, one card at a time.

>>> from dobbm_solver.playout import play_hand, open_card_strategy, rule_of_thumb_strategy
>>> solver = Solver()
>>> finished = play_hand(deal, {seat: open_card_strategy(solver) for seat in deal.active_seats})

A *strategy* is a callable from a :class:`SeatView` (what one seat sees when
it is to play) to the card it plays.  The view holds the seat's own cards,
the contract, the tricks so far and, for the declarer of a Dobbm, the cards
laid away; nothing of the other hands.  Only a strategy that says it sees
every hand (``sees_all_cards = True``, see :class:`OpenCardPlayer`) is given
the view with :attr:`SeatView.open_deal` set: the whole deal as it stands.

:func:`play_hand` plays a deal from its current position to the end and
returns the finished deal; :func:`play_card` is one card of it.  Two
strategies ship here: :func:`open_card_strategy` (best play with open cards,
the ceiling any strategy can reach) and :func:`rule_of_thumb_strategy` (a
simple deterministic player, see :class:`RuleOfThumb`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Mapping, Protocol, runtime_checkable

from .cards import (
    BB_ALL,
    BB_SUITS,
    BB_TRUMPS,
    TRUMP,
    Card,
    CardSet,
    beats,
    card_name,
    card_points,
    card_rank,
    card_suit,
    cards_text,
    legal_cards,
    popcount,
    scan_forward,
    trick_winner,
)
from .deal import Deal, PlayState, replay, trick_seats
from .errors import DobbmError, DobbmRuntimeError, OptionError
from .solver import Solver


class PlayError(DobbmError):
    """A card or a deal that cannot be played: the hand is over, the card is not legal."""


class StrategyError(DobbmRuntimeError):
    """A strategy that answered with a card its seat may not play."""


@dataclass(frozen=True, kw_only=True)
class SeatView:
    """What ``seat`` sees when it is to play.

    ``tricks`` are all the tricks so far in play order (the last one is
    ``trick``, the unfinished one, when it has begun); ``leaders`` the seat
    that led each of them.  ``discard`` is the lay-away, known only to the
    declarer of a Dobbm (None otherwise).  ``open_deal`` is the whole deal as
    it stands, given only to a strategy that sees every hand.
    """

    seat: str
    hand: CardSet
    seats: tuple[str, ...]            # the four seats that play, clockwise
    declarer: str
    contract: str
    doublings: int
    tricks: tuple[tuple[Card, ...], ...]
    leaders: tuple[str, ...]
    discard: CardSet | None = None
    open_deal: Deal | None = None

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the unfinished trick so far (empty: this seat leads)."""
        return self.tricks[-1] if self.tricks and len(self.tricks[-1]) < 4 else ()

    @property
    def leader(self) -> str:
        """Who leads the current trick (this seat when ``trick`` is empty)."""
        return self.leaders[-1] if self.trick else self.seat

    @property
    def legal(self) -> CardSet:
        """The cards this seat may play now."""
        trick = self.trick
        return legal_cards(self.hand, trick[0] if trick else None)

    @property
    def played(self) -> CardSet:
        """Every card played so far, the current trick's included."""
        out = 0
        for t in self.tricks:
            for c in t:
                out |= 1 << c
        return out

    @property
    def unseen(self) -> CardSet:
        """Cards this seat has not seen: not in its hand, not played, not its own lay-away."""
        return BB_ALL & ~(self.hand | self.played | (self.discard or 0))

    @property
    def is_declarer(self) -> bool:
        return self.seat == self.declarer

    @property
    def still_to_play(self) -> tuple[str, ...]:
        """The seats that play to the current trick after this one."""
        order = trick_seats(self.seats, self.leader)
        return order[len(self.trick) + 1:]


Strategy = Callable[[SeatView], Card]
"""A player: from its view to the card it plays (one of ``view.legal``)."""


@runtime_checkable
class OpenCardPlayer(Protocol):
    """A strategy that sees every hand: :func:`play_hand` gives it the view with
    ``open_deal`` set when its ``sees_all_cards`` is true."""

    sees_all_cards: bool

    def __call__(self, view: SeatView) -> Card: ...


def seat_view(deal: Deal, state: PlayState | None = None, *, open_cards: bool = False) -> SeatView:
    """The view of the seat to move in ``deal`` (``state``: its :func:`replay`);
    with ``open_cards`` it carries the whole deal."""
    state = state or replay(deal, check=False)
    if state.to_move is None:
        raise PlayError("tricks: all 8 tricks are played; nobody is to move")
    seat = state.to_move
    return SeatView(
        seat=seat, hand=deal.hands[seat], seats=deal.active_seats, declarer=deal.declarer,
        contract=deal.contract, doublings=deal.doublings, tricks=deal.tricks,
        leaders=state.leaders, discard=deal.discard if seat == deal.declarer else None,
        open_deal=deal if open_cards else None)


def play_card(deal: Deal, card: Card, state: PlayState | None = None) -> Deal:
    """The deal after the seat to move plays ``card`` (which must be legal)."""
    state = state or replay(deal, check=False)
    seat = state.to_move
    if seat is None:
        raise PlayError(f"tricks: {card_name(card)} played after the last trick")
    hand = deal.hands[seat]
    legal = legal_cards(hand, state.trick[0] if state.trick else None)
    if not (legal >> card) & 1:
        raise PlayError(f"tricks: trick {len(state.leaders) + (0 if state.trick else 1)}: "
                        f"{seat} may not play {card_name(card)} (legal: {cards_text(legal)})")
    hands = dict(deal.hands)
    hands[seat] = hand & ~(1 << card)
    tricks = deal.tricks[:-1] + (state.trick + (card,),) if state.trick else deal.tricks + ((card,),)
    return replace(deal, hands=hands, tricks=tricks)


def play_hand(deal: Deal, strategies: Mapping[str, Strategy]) -> Deal:
    """Play ``deal`` from where it stands to the end of the hand, each card chosen by
    ``strategies[seat]`` from that seat's view; return the finished deal.

    A card that is not legal raises :class:`StrategyError` naming the seat and the card.
    """
    if deal.needs_discard:
        raise PlayError("discard: a Dobbm needs its lay-away before it is played")
    missing = [s for s in deal.active_seats if s not in strategies]
    if missing:
        raise OptionError(f"strategies: none for {', '.join(missing)}")
    state = replay(deal, check=False)
    while state.to_move is not None:
        seat = state.to_move
        strategy = strategies[seat]
        open_cards = isinstance(strategy, OpenCardPlayer) and bool(strategy.sees_all_cards)
        view = seat_view(deal, state, open_cards=open_cards)
        card = strategy(view)
        if not isinstance(card, int) or not (view.legal >> card) & 1:
            shown = card_name(card) if isinstance(card, int) and 0 <= card < 36 else repr(card)
            raise StrategyError(f"the strategy of {seat} played {shown}, not one of its legal "
                                f"cards {cards_text(view.legal)}")
        deal = play_card(deal, card, state)
        state = replay(deal, check=False)
    return deal


# --------------------------------------------------------------------------
# the open-card player


def tie_key(card: Card) -> tuple[int, int, int]:
    """The fixed order among equally good cards: fewest points, then lowest rank,
    then suit (E, L, H, S)."""
    return (card_points(card), card_rank(card), card_suit(card))


class OpenCardStrategy:
    """Best play with every hand open (a double-dummy player), by ``solver``.

    Each card is one :meth:`Solver.solve_all_cards`; of the best cards it plays
    the first by :func:`tie_key`.
    """

    sees_all_cards = True

    def __init__(self, solver: Solver) -> None:
        self.solver = solver

    def __call__(self, view: SeatView) -> Card:
        if view.open_deal is None:
            raise StrategyError("the open-card strategy needs the open deal in its view")
        values = self.solver.solve_all_cards(view.open_deal)
        best = max(values.values()) if view.is_declarer else min(values.values())
        return min((c for c, v in values.items() if v == best), key=tie_key)


def open_card_strategy(solver: Solver) -> OpenCardStrategy:
    """The open-card player on ``solver`` (reuse one solver for the whole table)."""
    return OpenCardStrategy(solver)


# --------------------------------------------------------------------------
# the rule-of-thumb player


def _cheapest(cards: CardSet) -> Card:
    """The card to throw: fewest points, a plain card before a trump, lowest rank."""
    return min(scan_forward(cards), key=lambda c: (card_points(c), card_suit(c) == TRUMP, card_rank(c)))


def _richest(cards: CardSet) -> Card:
    """The card to give a sure trick: most points, then the lowest rank."""
    return min(scan_forward(cards), key=lambda c: (-card_points(c), card_rank(c)))


def _beats_all(card: Card, others: CardSet) -> bool:
    return not any(beats(o, card) for o in scan_forward(others))


class RuleOfThumb:
    """A simple player that sees only its own view; deterministic, always legal.

    Leading:

    1. the declarer holding at least ``trump_lead`` trumps while trumps are
       still out leads the highest trump if no trump out beats it, else the lowest;
    2. a card no unseen card of its suit beats (a plain Sau, say), the one
       with most points;
    3. else the lowest card of the longest plain suit (a trump when only trumps are left).

    Following (the side to beat is the seat winning the trick so far):

    1. partner (a fellow defender) is winning and no card this seat has not
       seen could beat the winning card (or nobody plays after): smear, the
       card with most points;
    2. partner is winning otherwise: the cheapest card;
    3. an opponent is winning and this seat can beat it: the lowest card that
       wins, or the winning card with most points when this seat plays last;
    4. else the cheapest card (fewest points, plain before trump, lowest rank).
    """

    sees_all_cards = False

    def __init__(self, trump_lead: int = 3) -> None:
        self.trump_lead = trump_lead

    def __call__(self, view: SeatView) -> Card:
        legal = view.legal
        if not view.trick:
            return self._lead(view, legal)
        return self._follow(view, legal)

    def _lead(self, view: SeatView, hand: CardSet) -> Card:
        unseen = view.unseen
        trumps = hand & BB_TRUMPS
        if view.is_declarer and popcount(trumps) >= self.trump_lead and unseen & BB_TRUMPS:
            top = max(scan_forward(trumps))
            return top if _beats_all(top, unseen & BB_TRUMPS) else min(scan_forward(trumps))
        winners = [c for c in scan_forward(hand)
                   if _beats_all(c, unseen & BB_SUITS[card_suit(c)])
                   and (card_suit(c) == TRUMP or card_points(c) > 0)]
        if winners:
            return _richest(sum(1 << c for c in winners))
        plain = [hand & BB_SUITS[s] for s in range(4) if s != TRUMP and hand & BB_SUITS[s]]
        if not plain:
            return min(scan_forward(hand))
        longest = max(plain, key=lambda cs: (popcount(cs), -min(scan_forward(cs))))
        return min(scan_forward(longest))

    def _follow(self, view: SeatView, legal: CardSet) -> Card:
        trick = view.trick
        order = trick_seats(view.seats, view.leader)
        win_i = trick_winner(trick)
        winning, winner = trick[win_i], order[win_i]
        partner_wins = not view.is_declarer and winner != view.declarer
        if partner_wins:
            sure = not view.still_to_play or _beats_all(winning, view.unseen)
            return _richest(legal) if sure else _cheapest(legal)
        winners = sum(1 << c for c in scan_forward(legal) if beats(c, winning))
        if winners:
            if not view.still_to_play:
                return _richest(winners)
            return min(scan_forward(winners), key=card_rank)
        return _cheapest(legal)


def rule_of_thumb_strategy(trump_lead: int = 3) -> RuleOfThumb:
    """The rule-of-thumb player (see :class:`RuleOfThumb`)."""
    return RuleOfThumb(trump_lead)
