"""A played hand reviewed card by card with open cards: what each card cost, and whom.

>>> from dobbm_solver.review import review_hand
>>> review = review_hand(Solver(), deal)    # deal: hands held now + the tricks played
>>> review.cards[0].cost, review.players[0].points_lost, review.first_change

The hand is replayed from the position before the opening lead (the hands
now with the cards played put back, :func:`deal_before_play`).  Before every
card played, one :meth:`Solver.solve_all_cards` gives the value of each legal
card: the best of them is the value *before* the card (best play from there,
in the declarer's final points), the played card's entry the value *after*
it.  A card's *cost* is what it lost its side in points: ``before - after``
for the declarer, ``after - before`` for a defender (never below 0: the
values are exact).  32 such calls review a whole hand, on one solver.

Units follow :func:`dobbm_solver.rules.units`: what each defender pays the
declarer, one payment.  A card's ``units_cost`` is what that payment moved
against its side.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from .cards import Card, cardset, sorted_cards, trick_winner
from .deal import Deal, PlayState, cards_played, final_points, replay, trick_seats, validate
from .errors import DobbmError
from .playout import play_card
from .rules import Outcome, outcome, units
from .solver import Solver


class ReviewError(DobbmError):
    """A deal that cannot be reviewed (a Dobbm whose lay-away is not chosen)."""


@dataclass(frozen=True, kw_only=True)
class CardReview:
    """One card played and what open-card play says of it.

    ``before`` and ``after`` are the declarer's final points under best play
    from the position before and after the card; ``cost`` is what the card
    lost the side of ``seat`` in points (0 for a best card); ``best`` every
    card that keeps ``before``; ``units_cost`` what it lost that side in
    units of one payment (see the module text).
    """

    trick: int                  # 1-based
    seat: str
    card: Card
    declarer_side: bool         # ``seat`` is the declarer
    before: int
    after: int
    cost: int
    best: tuple[Card, ...]      # the best cards, in the seat's hand order (:func:`cards.sorted_cards`)
    outcome_before: Outcome
    outcome_after: Outcome
    units_cost: int

    @property
    def changes_outcome(self) -> bool:
        """The card turned a win, standoff or loss into another."""
        return self.outcome_before != self.outcome_after

    @property
    def changes_result(self) -> bool:
        """The card changed the outcome or the units paid."""
        return self.changes_outcome or self.units_cost != 0

    @property
    def mark(self) -> str:
        """``"outcome"``, ``"units"`` (units only) or ``""``: how the card changed the result."""
        if self.changes_outcome:
            return "outcome"
        return "units" if self.units_cost else ""


@dataclass(frozen=True, kw_only=True)
class PlayerReview:
    """One seat's play: its cards that cost points, and what they cost its side
    (the declarer's points for the declarer, the defenders' for a defender)."""

    seat: str
    declarer_side: bool
    cards_with_cost: tuple[CardReview, ...]
    points_lost: int
    units_lost: int


@dataclass(frozen=True, kw_only=True)
class Review:
    """A played hand reviewed.

    ``start_points`` is the declarer's final points under best play from the
    opening lead; ``declarer_points`` the result as played (a finished hand),
    or the value of the position now under best play (an unfinished one).
    ``first_change`` is the first card that changed the result (the outcome
    or the units), None if none did.
    """

    deal: Deal
    start: Deal
    cards: tuple[CardReview, ...]
    players: tuple[PlayerReview, ...]
    start_points: int
    declarer_points: int
    finished: bool

    @property
    def first_change(self) -> CardReview | None:
        return next((c for c in self.cards if c.changes_result), None)

    @property
    def outcome(self) -> Outcome:
        return outcome(self.declarer_points)

    @property
    def units(self) -> int:
        """Units each defender pays the declarer for ``declarer_points``."""
        return units(self.declarer_points, self.deal.contract, self.deal.doublings)


def deal_before_play(deal: Deal, state: PlayState | None = None) -> Deal:
    """``deal`` at the opening lead: each seat holds its cards now and the cards it played."""
    played = cards_played(deal, state)
    hands = {s: deal.hands[s] | played[s] for s in deal.active_seats}
    return replace(deal, hands=hands, tricks=())


def review_hand(solver: Solver, deal: Deal) -> Review:
    """Review every card of ``deal.tricks`` (0 to 8 tricks, the last maybe unfinished).

    The deal is validated first: a revoke in the tricks raises a
    :class:`~dobbm_solver.deal.DealError` naming the trick and the card.
    """
    if deal.needs_discard:
        raise ReviewError("discard: a Dobbm whose lay-away is not chosen has no play to review")
    validate(deal)
    start = deal_before_play(deal)
    position = start
    reviews: list[CardReview] = []
    for n, card in _cards_in_order(deal):
        state = replay(position, check=False)
        values = solver.solve_all_cards(position)
        reviews.append(card_review(deal, n, state, card, values))
        position = play_card(position, card, state)
    state = replay(position, check=False)
    if reviews:
        now = reviews[-1].after
        begin = reviews[0].before
    else:
        now = begin = solver.solve(position).declarer_points
    if state.finished:
        assert now == final_points(position, state)
    return Review(deal=deal, start=start, cards=tuple(reviews), players=_players(deal, reviews),
                  start_points=begin, declarer_points=now, finished=state.finished)


def _cards_in_order(deal: Deal) -> list[tuple[int, Card]]:
    return [(n, c) for n, trick in enumerate(deal.tricks, 1) for c in trick]


def card_review(deal: Deal, trick: int, state: PlayState, card: Card,
                values: Mapping[Card, int]) -> CardReview:
    """``card`` of the seat to move in ``state`` (trick number ``trick``) judged by ``values``,
    the declarer's final points after each legal card (:meth:`Solver.solve_all_cards`)."""
    seat = state.to_move
    assert seat is not None
    declarer_side = seat == deal.declarer
    before = max(values.values()) if declarer_side else min(values.values())
    after = values[card]
    cost = before - after if declarer_side else after - before
    u_before = units(before, deal.contract, deal.doublings)
    u_after = units(after, deal.contract, deal.doublings)
    best = tuple(c for c in sorted_cards(cardset(values)) if values[c] == before)
    return CardReview(trick=trick, seat=seat, card=card, declarer_side=declarer_side, before=before,
                      after=after, cost=cost, best=best, outcome_before=outcome(before),
                      outcome_after=outcome(after),
                      units_cost=u_before - u_after if declarer_side else u_after - u_before)


def _players(deal: Deal, reviews: list[CardReview]) -> tuple[PlayerReview, ...]:
    out = []
    for seat in deal.active_seats:
        costly = tuple(r for r in reviews if r.seat == seat and r.cost > 0)
        out.append(PlayerReview(seat=seat, declarer_side=seat == deal.declarer, cards_with_cost=costly,
                                points_lost=sum(r.cost for r in costly),
                                units_lost=sum(r.units_cost for r in costly)))
    return tuple(out)


def trick_rows(review: Review) -> list[tuple[int, str, tuple[CardReview, ...], str | None]]:
    """The tricks as played: number, leader, the card reviews in play order, winner (None: unfinished)."""
    rows = []
    active = review.deal.active_seats
    for n in range(1, len(review.deal.tricks) + 1):
        cards = tuple(r for r in review.cards if r.trick == n)
        leader = cards[0].seat
        winner = None
        if len(cards) == 4:
            winner = trick_seats(active, leader)[trick_winner([r.card for r in cards])]
        rows.append((n, leader, cards, winner))
    return rows


__all__ = ["CardReview", "PlayerReview", "Review", "ReviewError", "deal_before_play",
           "card_review", "review_hand", "trick_rows"]
