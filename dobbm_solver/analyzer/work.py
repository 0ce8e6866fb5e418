"""What a worker computes on one sample, per command: the declarer's points of each option.

``WORK[command](view, solver, deal, dealt, payload)`` returns a dict merged
into that sample's results: ``bid`` ``{option: (weight, points)}`` (the
weight: the chance a Dobbm is not overcalled; for ``pass``, the chance that
someone plays, and the expected units as a defender instead of points:
:func:`pass_value`), ``discard``
``{lay-away: points}``, ``double`` ``{"points": points, "answers": {side: chance}}``
(each side's chance of answering a doubling, by the doubling model), ``play``
``{"cards": {card: points}}`` (and ``"log_likelihood"`` of the play so far, with
inference).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..cards import CardSet
from ..deal import Deal
from ..models.bidding import bid_probabilities, solo_probability
from ..models.discard_rule import calibrated_discard
from ..models.doubling import answer_probabilities, declarer_cards
from ..models.play_model import play_log_likelihood
from .payment import payment
from .view import View

if TYPE_CHECKING:
    from ..solver import Solver

#: One sample's results, merged into the runner's: by option (see above).
Results = dict[Any, Any]
Work = Callable[[View, "Solver", Deal, Mapping[str, CardSet], Any], Results]

#: How ``bid`` lays away the declarer's 12 cards (the 8 dealt and the sampled
#: Dobb) in each sample: from those 12 cards alone, never the sampled hands.
BID_DISCARD: Callable[[CardSet], CardSet] = calibrated_discard


def _points(solver: Solver, deal: Deal) -> int:
    return solver.solve(deal).declarer_points


#: A game after ``me``'s pass: its declarer and contract.
Game = tuple[str, str]
#: A game after a pass less likely than this on a sample is not solved (it counts 0: on
#: random bid views the chances left out average 0.0003 a sample).
PASS_MIN_CHANCE = 0.002


def games_after_pass(view: View, dealt: Mapping[str, CardSet]) -> dict[Game, float]:
    """The games ``me``'s pass leads to and their chances, by the bidding model
    (:func:`~dobbm_solver.models.bidding.bid_probabilities`) on the later bidders'
    ``dealt`` cards, each at its turn in the round: a later Solo ends the bidding, a
    Dobbm (the first one, said before ``me`` or after) declares unless a Solo follows.
    The chances left over (everyone passes) are a thrown-in hand."""
    later = view.later_bidders()
    out: dict[Game, float] = {}

    def walk(k: int, chance: float, dobbm_by: str | None) -> None:
        if k == len(later):
            if dobbm_by is not None:
                out[(dobbm_by, "dobbm")] = out.get((dobbm_by, "dobbm"), 0.0) + chance
            return
        seat = later[k]
        turn = None if view.order is None else view.order.index(seat)
        p = bid_probabilities(dealt[seat], dobbm_said=dobbm_by is not None, turn=turn)
        if p["solo"] > 0.0:
            out[(seat, "solo")] = out.get((seat, "solo"), 0.0) + chance * p["solo"]
        if p.get("dobbm", 0.0) > 0.0:
            walk(k + 1, chance * p["dobbm"], seat)
        walk(k + 1, chance * p["pass"], dobbm_by)

    walk(0, 1.0, next((s for s, b in view.bids if b == "dobbm"), None))
    return out


def game_deal(deal: Deal, declarer: str, contract: str) -> Deal:
    """The sampled ``deal`` (8 dealt cards each, the Dobb) played as ``declarer``'s
    ``contract``: a Dobbm laid away by :data:`BID_DISCARD` from that declarer's 12 cards."""
    game = replace(deal, declarer=declarer, contract=contract, discard=None)
    if contract == "dobbm":
        game = game.with_discard(BID_DISCARD(game.hands[declarer] | game.dobb))
    return game


def pass_value(view: View, solver: Solver, deal: Deal, dealt: Mapping[str, CardSet]) -> tuple[float, float]:
    """``me``'s pass on one sample: the chance that someone plays, and ``me``'s expected
    units as a defender (``-units`` of each game of :func:`games_after_pass`, solved with
    open cards, weighted by its chance; a thrown-in hand counts 0, and so does a game less
    likely than :data:`PASS_MIN_CHANCE`)."""
    games = games_after_pass(view, dealt)
    value = 0.0
    for (declarer, contract), chance in games.items():
        if chance < PASS_MIN_CHANCE:
            continue
        points = _points(solver, game_deal(deal, declarer, contract))
        value += chance * payment(points, contract, 0, False)
    return sum(games.values()), value


def work_bid(view: View, solver: Solver, deal: Deal, dealt: Mapping[str, CardSet],
             payload: Sequence[str]) -> Results:
    """Each option of ``payload`` (``dobbm``, ``solo``, ``pass``): its weight and the
    declarer's points (``pass``: :func:`pass_value`).

    Dobbm is solved with the lay-away :data:`BID_DISCARD` chooses from the 12 cards."""
    out: Results = {}
    for opt in payload:
        if opt == "pass":
            out[opt] = pass_value(view, solver, deal, dealt)
        elif opt == "dobbm":
            me = view.me
            p = _points(solver, deal.with_discard(BID_DISCARD(deal.hands[me] | deal.dobb)))
            w = 1.0
            if not view.must:
                for s in view.later_bidders():
                    w *= 1.0 - solo_probability(dealt[s], over=True)
            out[opt] = (w, p)
        else:
            out[opt] = (1.0, _points(solver, replace(deal, contract="solo")))
    return out


def work_discard(view: View, solver: Solver, deal: Deal, dealt: Mapping[str, CardSet],
                 payload: Sequence[CardSet]) -> Results:
    """The declarer's points with each lay-away of ``payload``."""
    return {d: _points(solver, deal.with_discard(d)) for d in payload}


def work_double(view: View, solver: Solver, deal: Deal, dealt: Mapping[str, CardSet], payload: Any) -> Results:
    """The declarer's points of the deal as it stands, and each side's chance of answering
    a doubling on this deal (:func:`~dobbm_solver.models.doubling.answer_probabilities`)."""
    assert view.declarer is not None and view.contract is not None
    decl = declarer_cards(view.contract, dealt[view.declarer], deal.dobb)
    answers = answer_probabilities(view.contract, decl, [dealt[s] for s in view.active if s != view.declarer])
    return {"points": _points(solver, deal), "answers": answers}


def work_play(view: View, solver: Solver, deal: Deal, dealt: Mapping[str, CardSet], payload: Any) -> Results:
    """The declarer's final points after each legal card of the player to move (``me``);
    with a temperature as ``payload``, also the log-likelihood of the other seats' cards
    played so far (:func:`~dobbm_solver.models.play_model.play_log_likelihood`)."""
    out: Results = {"cards": solver.solve_all_cards(deal)}
    if payload is not None:
        others = [s for s in view.active if s != view.me]
        out["log_likelihood"] = play_log_likelihood(solver.solve_all_cards, deal, others, payload)
    return out


WORK: dict[str, Work] = {"bid": work_bid, "discard": work_discard, "double": work_double, "play": work_play}
