"""The bidding model: how likely each bid is for a player holding given cards.

A player rates the 8 dealt cards with :func:`dobbm_solver.heuristics.hand_strength`
``s`` and perceives it with a little noise: ``s + e`` with ``e`` logistic of
scale :data:`BID_SPREAD`.  The player bids Solo when ``s + e`` reaches
:data:`BID_SOLO_THRESHOLD`, Dobbm when it reaches :data:`BID_DOBBM_THRESHOLD`
(and no Dobbm was said before; after a Dobbm only Solo can follow), else
passes.  So with ``sig(x) = 1 / (1 + exp(-x))``::

    P(solo)  = sig((s - T_solo) / spread)
    P(dobbm) = sig((s - T_dobbm) / spread) - P(solo)     (no Dobbm said yet)
    P(pass)  = 1 - sig((s - T_dobbm) / spread)           (no Dobbm said yet)
    P(pass)  = 1 - P(solo)                               (after a Dobbm)

:func:`bid_probabilities` gives these, :func:`model_bid` the noiseless bid
(the baseline shown next to the Monte Carlo recommendation).  The thresholds
are calibrated with the solver (see :data:`BID_DOBBM_THRESHOLD`).  For
sampling, a bid also has a small chance :data:`BID_LAPSE` of ignoring the
model, so that no auction is impossible: :func:`bid_likelihood` is the
chance of what a seat is known to have bid (a *kind*: :data:`KIND_PASS`,
:data:`KIND_NOT_SOLO`, :data:`KIND_DOBBM`, :data:`KIND_SOLO`).

A lapsing player says each bid as often as players say it at all (its
:data:`BID_BASE_RATE` over random hands), not one bid in three: so however
rare a bid is (Solo: 1.4% of hands), only :data:`BID_LAPSE` of the hands
that say it are lapses.  A flat floor of ``BID_LAPSE / 3`` made more than
half of the sampled Solo declarers random hands, and the doubling advice
took strong Solo bidders for weak ones.
"""

from __future__ import annotations

import math

from ..cards import CardSet
from ..heuristics import hand_strength

#: A hand perceived at least this strong bids Dobbm (if nobody said Dobbm before).
#: Calibrated with the solver (``benchmarks/calibrate_bidding.py``): over 5000
#: random deals the declarer's Dobbm -- the lay-away of ``heuristic_discard``,
#: open-card play against unconstrained defenders -- has expected units that
#: cross zero at strength 12.6 (linear fit over strengths 9..16).
BID_DOBBM_THRESHOLD = 12.5
#: A hand perceived at least this strong bids Solo.  Calibrated likewise: Solo's
#: expected units overtake Dobbm's at strength 22.3 (fit over 17..27).
BID_SOLO_THRESHOLD = 22.0
#: Scale of the logistic noise on the perceived strength (players differ, and
#: the strength score is only a rule of thumb).
BID_SPREAD = 1.5
#: The chance that a player's bid ignores the model (a lapse, or something in
#: the hand the strength score misses): the bid is then drawn at the bids'
#: base rates, so each bid has likelihood at least ``BID_LAPSE`` times its
#: :data:`BID_BASE_RATE` and no auction is impossible for any hand.
BID_LAPSE = 0.05

# what the auction says about one seat's 8 dealt cards
KIND_PASS = "pass"            # passed, no Dobbm said before
KIND_NOT_SOLO = "not_solo"    # passed after a Dobbm (or: passed or said Dobbm)
KIND_DOBBM = "dobbm"
KIND_SOLO = "solo"

#: How often a random 8-card hand makes each bid under the model (the model's
#: likelihood averaged over 400,000 random hands, two seeds agreeing to
#: 0.003; ``tests/test_bidding.py`` checks these against a fresh draw).
BID_BASE_RATE = {KIND_PASS: 0.7247, KIND_NOT_SOLO: 0.9864, KIND_DOBBM: 0.2617, KIND_SOLO: 0.0136}


def _sig(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def solo_probability(strength: float) -> float:
    """P(perceived strength reaches the Solo threshold)."""
    return _sig((strength - BID_SOLO_THRESHOLD) / BID_SPREAD)


def _p_dobbm_up(strength: float) -> float:
    """P(perceived strength reaches the Dobbm threshold)."""
    return _sig((strength - BID_DOBBM_THRESHOLD) / BID_SPREAD)


def bid_likelihood(kind: str, strength: float) -> float:
    """The chance of a bid of ``kind`` from a hand of ``strength``, lapses included."""
    return (1.0 - BID_LAPSE) * model_likelihood(kind, strength) + BID_LAPSE * BID_BASE_RATE[kind]


def model_likelihood(kind: str, strength: float) -> float:
    """The chance of a bid of ``kind`` from a hand of ``strength`` under the model alone."""
    if kind == KIND_PASS:
        return 1.0 - _p_dobbm_up(strength)
    if kind == KIND_NOT_SOLO:
        return 1.0 - solo_probability(strength)
    if kind == KIND_DOBBM:
        return max(0.0, _p_dobbm_up(strength) - solo_probability(strength))
    if kind == KIND_SOLO:
        return solo_probability(strength)
    raise KeyError(kind)


def bid_probabilities(hand: CardSet, *, dobbm_said: bool = False, must: bool = False) -> dict[str, float]:
    """The bidding model: the probability of each bid for a player holding ``hand`` (8 cards).

    ``dobbm_said``: someone already said Dobbm (only pass or Solo remain).
    ``must``: the must round (only Dobbm or Solo).
    """
    s = hand_strength(hand)
    ps = solo_probability(s)
    if must:
        return {"dobbm": 1.0 - ps, "solo": ps}
    if dobbm_said:
        return {"pass": 1.0 - ps, "solo": ps}
    pd = _p_dobbm_up(s)
    return {"pass": 1.0 - pd, "dobbm": max(0.0, pd - ps), "solo": ps}


def model_bid(hand: CardSet, *, dobbm_said: bool = False, must: bool = False) -> str:
    """The noiseless bid of the model: thresholds on ``hand_strength`` alone."""
    s = hand_strength(hand)
    if s >= BID_SOLO_THRESHOLD:
        return "solo"
    if must:
        return "dobbm"
    if s >= BID_DOBBM_THRESHOLD and not dobbm_said:
        return "dobbm"
    return "pass"
