"""What a worker computes on one sample, per command: the declarer's points of each option.

``WORK[command](view, solver, deal, dealt, payload)`` returns a dict merged
into that sample's results: ``bid`` ``{option: (weight, points)}`` (the
weight: the chance a Dobbm is not overcalled), ``discard``
``{lay-away: points}``, ``double`` ``{"points": points, "answers": {side: chance}}``
(each side's chance of answering a doubling, by the doubling model), ``play``
``{"cards": {card: points}}``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..cards import CardSet
from ..deal import Deal
from ..models.bidding import solo_probability
from ..models.discard_rule import calibrated_discard
from ..models.doubling import answer_probabilities, declarer_cards
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


def work_bid(view: View, solver: Solver, deal: Deal, dealt: Mapping[str, CardSet],
             payload: Sequence[str]) -> Results:
    """Each option of ``payload`` (``dobbm``, ``solo``): its weight and the declarer's points.

    Dobbm is solved with the lay-away :data:`BID_DISCARD` chooses from the 12 cards."""
    out = {}
    for opt in payload:
        if opt == "dobbm":
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
    """The declarer's final points after each legal card of the player to move (``me``)."""
    return {"cards": solver.solve_all_cards(deal)}


WORK: dict[str, Work] = {"bid": work_bid, "discard": work_discard, "double": work_double, "play": work_play}
