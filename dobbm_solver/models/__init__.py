"""The models of the players at the table: how they rate a hand, bid, double and lay away.

Rules of thumb and calibrated rules, each seeing only the cards a player
holds; none calls the solver.  The analyses in :mod:`dobbm_solver.analyzer`
use them to deal the unseen cards as the bidding and the doublings imply,
and to value what the other players answer; the arena's ``rule`` players
play by them.

* :mod:`.strength` -- a hand's bidding strength (:func:`hand_strength`);
* :mod:`.bidding` -- the bidding model: each bid's chance for given cards (:func:`model_bid`);
* :mod:`.doubling` -- the doubling model: each side's chance of another doubling;
* :mod:`.discard_rule` -- the lay-away rules: the rule of thumb (:func:`heuristic_discard`)
  and the calibrated rule ``bid`` lays away by (:func:`calibrated_discard`).
"""

from __future__ import annotations

from .bidding import Bid, bid_probabilities, model_bid
from .discard_rule import calibrated_discard, heuristic_discard, legal_discards
from .strength import hand_strength

__all__ = ["Bid", "hand_strength", "bid_probabilities", "model_bid",
           "legal_discards", "heuristic_discard", "calibrated_discard"]
