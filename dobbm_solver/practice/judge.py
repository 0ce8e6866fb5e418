"""The player's decisions of a practice hand judged with open cards, beside the advice's choice.

After a hand, each decision the player made is valued with every hand open
(the hidden truth of the hand) and set beside what the advice would have
chosen from the player's own view (:meth:`~.table.Ask.advice`: the
computer's choice in that seat):

* a bid: each bid open to the player valued as the arena's open-card bidder
  values it: pass 0, a Dobbm with its best lay-away and a Solo solved with
  open cards, settled at no doublings (:func:`~dobbm_solver.arena.decisions.decide_bid`);
* the lay-away: :func:`~dobbm_solver.review.review_discard`, every legal
  lay-away solved;
* a doubling said or not: :func:`~dobbm_solver.review.doubling_review` at the
  open-card result from the opening lead;
* a card: the declarer's final points under best play after each legal card
  (:meth:`~dobbm_solver.solver.Solver.solve_all_cards`), as ``review`` does.

Costs are what the decision lost the player: points for the player's side,
and the player's own units for the hand (the declarer settles with each of
the three defenders, so a declarer's units are three payments).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Union

from ..arena.decisions import Env
from ..cards import Card, CardSet
from ..deal import replay
from ..playout import play_card
from ..review import (
    CardReview,
    DiscardReview,
    DoublingReview,
    Review,
    card_review,
    deal_before_discard,
    deal_before_play,
    doubling_review,
    review_hand,
)
from ..rules import units
from ..solver import Solver
from .game import Decision, HandPlayed

__all__ = ["BidJudged", "CardJudged", "DiscardJudged", "DoublingJudged", "Judged", "PracticeReview",
           "judge_hand"]


@dataclass(frozen=True, kw_only=True)
class BidJudged:
    """A bid: ``values`` each open bid's units for the player with open cards."""

    bid: str
    advice: str
    values: Mapping[str, int]

    @property
    def best(self) -> tuple[str, ...]:
        top = max(self.values.values())
        return tuple(b for b, v in self.values.items() if v == top)

    @property
    def cost_units(self) -> int:
        return max(self.values.values()) - self.values[self.bid]

    @property
    def advice_cost_units(self) -> int:
        return max(self.values.values()) - self.values[self.advice]


@dataclass(frozen=True, kw_only=True)
class DiscardJudged:
    """The lay-away: ``review`` against every legal one; the advice's lay-away, what it
    would have cost in the declarer's points and the player's units."""

    review: DiscardReview
    cost_units: int
    advice: CardSet
    advice_cost: int
    advice_cost_units: int


@dataclass(frozen=True, kw_only=True)
class DoublingJudged:
    """A doubling said or not (``review``), and the advice's choice judged alike."""

    review: DoublingReview
    cost_units: int
    advice: bool
    advice_cost_units: int


@dataclass(frozen=True, kw_only=True)
class CardJudged:
    """A card: ``review`` as ``dobbm review`` judges it; the advice's card and what it
    would have cost the player's side in points and the player in units."""

    review: CardReview
    cost_units: int
    advice: Card
    advice_cost: int
    advice_cost_units: int


Judged = Union[BidJudged, DiscardJudged, DoublingJudged, CardJudged]


@dataclass(frozen=True, kw_only=True)
class PracticeReview:
    """A practice hand reviewed: the hand's open-card review (None: thrown in) and the
    player's decisions judged, in the order made."""

    hand: HandPlayed
    review: Review | None
    judged: tuple[Judged, ...]

    @property
    def units_lost(self) -> int:
        """What the player's decisions lost the player in units, by open cards."""
        return sum(j.cost_units for j in self.judged)

    @property
    def advice_units_lost(self) -> int:
        """What the advice's choices would have lost, judged decision by decision alike."""
        return sum(j.advice_cost_units for j in self.judged)


def _share(hand: HandPlayed) -> int:
    """The payments the player settles: three as the declarer, one as a defender."""
    deal = hand.deal
    return len(deal.defenders) if deal is not None and deal.declarer == hand.me else 1


def _bid(hand: HandPlayed, env: Env, d: Decision) -> BidJudged:
    board, me = hand.board, hand.me
    ask = d.ask
    values = {"pass": 0}
    if "dobbm" in ask.options:
        values["dobbm"] = 3 * units(env.best_discard(board, me)[1], "dobbm")
    if "solo" in ask.options:
        values["solo"] = 3 * units(env.solo_points(board, me), "solo")
    return BidJudged(bid=str(d.answer), advice=str(ask.advice()), values=values)


def judge_hand(solver: Solver, env: Env, hand: HandPlayed) -> PracticeReview:
    """Judge every decision of the player in ``hand`` with open cards, and the advice's
    choice beside it (computed here for the decisions where no hint was asked)."""
    bids = [_bid(hand, env, d) for d in hand.decisions if d.ask.kind == "bid"]
    deal = hand.deal
    if deal is None:
        return PracticeReview(hand=hand, review=None, judged=tuple(bids))
    review = review_hand(solver, deal)
    share = _share(hand)

    def pay(points: int) -> int:
        return units(points, deal.contract, deal.doublings)

    judged: list[Judged] = list(bids)
    start = deal_before_play(deal)
    position, state = start, replay(start, check=False)
    cards = [c for t in deal.tricks for c in t]
    played = 0
    for d in hand.decisions:
        ask = d.ask
        if ask.kind == "discard":
            assert review.discard is not None
            advice = ask.advice()
            assert isinstance(advice, int)
            points = solver.solve(deal_before_discard(deal).with_discard(advice)).declarer_points
            best = review.discard.best_points
            judged.append(DiscardJudged(review=review.discard, cost_units=share * review.discard.units_cost,
                                        advice=advice, advice_cost=best - points,
                                        advice_cost_units=share * (pay(best) - pay(points))))
        elif ask.kind == "double":
            number = ask.doublings + 1
            mine = doubling_review(review.start_points, deal.contract, number, bool(d.answer))
            advice_said = bool(ask.advice())
            theirs = doubling_review(review.start_points, deal.contract, number, advice_said)
            judged.append(DoublingJudged(review=mine, cost_units=share * mine.cost, advice=advice_said,
                                         advice_cost_units=share * theirs.cost))
        elif ask.kind == "play":
            view = ask.view
            assert view is not None
            upto = sum(len(t) for t in view.tricks)
            while played < upto:
                position = play_card(position, cards[played], state)
                state = replay(position, check=False)
                played += 1
            values = solver.solve_all_cards(position)
            card, advice_card = d.answer, ask.advice()
            assert isinstance(card, int) and isinstance(advice_card, int)
            trick = len(view.tricks) + (0 if view.trick else 1)
            cr = card_review(deal, trick, state, card, values)
            sign = 1 if cr.declarer_side else -1
            after = values[advice_card]
            judged.append(CardJudged(review=cr, cost_units=share * cr.units_cost, advice=advice_card,
                                     advice_cost=sign * (cr.before - after),
                                     advice_cost_units=share * sign * (pay(cr.before) - pay(after))))
    return PracticeReview(hand=hand, review=review, judged=tuple(judged))
