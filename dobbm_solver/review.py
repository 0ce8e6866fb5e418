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

The decisions before the play are judged with open cards too.  The lay-away
of a Dobbm (:class:`DiscardReview`): one :meth:`Solver.study_discards` of the
deal before the exchange values every legal lay-away; the one made is set
against the best.  The doublings (:class:`DoublingReview`): each Schwacher or
Retour said, and the next one not said, against the open-card result from the
opening lead: a doubling doubles the stake, so it wins its side the stake
when that side wins with open cards and loses it when the side loses (the
answers it could draw are not valued).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from .cards import Card, CardSet, cardset, sorted_cards, trick_winner
from .deal import MAX_DOUBLINGS, Deal, PlayState, cards_played, final_points, replay, trick_seats, validate
from .dealt import dealt_hands
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
class DiscardReview:
    """The lay-away of a Dobbm against every legal one, with open cards.

    ``points`` is the declarer's final points under best play from the opening
    lead with the lay-away made, ``best_points`` with a best one; ``best`` the
    lay-aways that reach ``best_points`` (in the study's order); ``rank`` is 1
    plus the number of lay-aways that do better than the one made, of
    ``count`` legal ones.  ``units_cost``: what the lay-away lost the declarer
    in units of one payment, at the hand's contract and doublings.
    """

    cards: CardSet
    points: int
    best: tuple[CardSet, ...]
    best_points: int
    rank: int
    count: int
    units_cost: int

    @property
    def cost(self) -> int:
        """What the lay-away lost the declarer in points (0 for a best one)."""
        return self.best_points - self.points


@dataclass(frozen=True, kw_only=True)
class DoublingReview:
    """One doubling, said or not, against the open-card result ``points``.

    ``number`` counts the doublings (1: the defenders' Schwacher, 2: the
    declarer's Retour, 3: the defenders' Retour back ...); the side to say it
    is the declarer's when ``number`` is even.  ``stake`` is what each defender
    pays the declarer before it, at ``points`` (negative: the declarer pays);
    ``worth`` what saying it wins its side in units of one payment (negative:
    loses); ``cost`` what the choice made lost the side (0: the right choice).
    """

    number: int
    said: bool
    points: int
    stake: int
    worth: int

    @property
    def by_declarer(self) -> bool:
        return self.number % 2 == 0

    @property
    def name(self) -> str:
        return "Schwacher" if self.number == 1 else "Retour"

    @property
    def cost(self) -> int:
        return max(0, -self.worth) if self.said else max(0, self.worth)


def doubling_review(points: int, contract: str, number: int, said: bool) -> DoublingReview:
    """Doubling ``number`` (1-based), ``said`` or not, judged at the declarer's open-card
    ``points``: it doubles the stake, winning it for the side that wins at ``points``."""
    stake = units(points, contract, number - 1)
    worth = stake if number % 2 == 0 else -stake
    return DoublingReview(number=number, said=said, points=points, stake=stake, worth=worth)


def review_doublings(deal: Deal, points: int) -> tuple[DoublingReview, ...]:
    """Each doubling of ``deal`` said, then the next one not said (unless the most
    were said), judged at the declarer's open-card ``points`` from the opening lead."""
    said = [doubling_review(points, deal.contract, n, True) for n in range(1, deal.doublings + 1)]
    if deal.doublings < MAX_DOUBLINGS:
        said.append(doubling_review(points, deal.contract, deal.doublings + 1, False))
    return tuple(said)


def deal_before_discard(deal: Deal) -> Deal:
    """A Dobbm with its lay-away made, taken back to before the exchange, at the opening
    lead: the declarer holds the 8 dealt cards, the Dobb is still in the middle."""
    start = deal_before_play(deal)
    hands = dict(start.hands)
    hands[deal.declarer] = dealt_hands(start)[deal.declarer]
    return replace(start, hands=hands, discard=None)


def review_discard(solver: Solver, deal: Deal) -> DiscardReview | None:
    """The lay-away of ``deal`` (a Dobbm with it made) against every legal one with open
    cards; None for a Solo or a Dobbm whose lay-away is not chosen."""
    if deal.contract != "dobbm" or deal.discard is None:
        return None
    study = solver.study_discards(deal_before_discard(deal), jobs=1)
    made = [r.declarer_points for r in study if r.cards == deal.discard]
    points = made[0] if made else solver.solve(deal_before_play(deal)).declarer_points
    best_points = study[0].declarer_points
    return DiscardReview(
        cards=deal.discard, points=points, best_points=best_points,
        best=tuple(r.cards for r in study if r.declarer_points == best_points),
        rank=1 + sum(r.declarer_points > points for r in study), count=len(study),
        units_cost=units(best_points, deal.contract, deal.doublings) - units(points, deal.contract, deal.doublings))


@dataclass(frozen=True, kw_only=True)
class Review:
    """A played hand reviewed.

    ``start_points`` is the declarer's final points under best play from the
    opening lead; ``declarer_points`` the result as played (a finished hand),
    or the value of the position now under best play (an unfinished one).
    ``first_change`` is the first card that changed the result (the outcome
    or the units), None if none did.  ``discard`` judges a Dobbm's lay-away
    (None for a Solo), ``doublings`` each doubling said and the next one not
    said, at ``start_points``.
    """

    deal: Deal
    start: Deal
    cards: tuple[CardReview, ...]
    players: tuple[PlayerReview, ...]
    start_points: int
    declarer_points: int
    finished: bool
    discard: DiscardReview | None = None
    doublings: tuple[DoublingReview, ...] = ()

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
    """Review every card of ``deal.tricks`` (0 to 8 tricks, the last maybe unfinished),
    the lay-away of a Dobbm and the doublings.

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
    discard = review_discard(solver, deal)
    assert discard is None or discard.points == begin
    return Review(deal=deal, start=start, cards=tuple(reviews), players=_players(deal, reviews),
                  start_points=begin, declarer_points=now, finished=state.finished, discard=discard,
                  doublings=review_doublings(deal, begin))


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


__all__ = ["CardReview", "DiscardReview", "DoublingReview", "PlayerReview", "Review", "ReviewError",
           "deal_before_discard", "deal_before_play", "card_review", "doubling_review", "review_discard",
           "review_doublings", "review_hand", "trick_rows"]
