"""The bidding model: how likely each bid is for a player holding given cards.

A player rates the 8 dealt cards with :func:`dobbm_solver.heuristics.hand_strength`
``s`` and perceives it with a little noise: ``s + e`` with ``e`` logistic of
scale :data:`BID_SPREAD`.  The player bids Solo when ``s + e`` reaches
:data:`BID_SOLO_THRESHOLD`, Dobbm when it reaches :data:`BID_DOBBM_THRESHOLD`
(and no Dobbm was said before; after a Dobbm only Solo can follow), else
passes.  The Dobbm threshold depends on the bidder's turn in the round
(:data:`BID_DOBBM_THRESHOLD_BY_TURN`): later bidders bid lighter.  So with ``sig(x) = 1 / (1 + exp(-x))``::

    P(solo)  = sig((s - T_solo) / spread)
    P(dobbm) = sig((s - T_dobbm) / spread) - P(solo)     (no Dobbm said yet)
    P(pass)  = 1 - sig((s - T_dobbm) / spread)           (no Dobbm said yet)
    P(pass)  = 1 - P(solo)                               (after a Dobbm)

:func:`bid_probabilities` gives these, :func:`model_bid` the noiseless bid
(the baseline shown next to the Monte Carlo recommendation).  The constants
are fitted to the arena's own bidders (see :data:`BID_DOBBM_THRESHOLD`).  For
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
#: The model's constants describe the arena's own bidders (its ``advice``
#: strategy, ``analyze_bid``): fitted by maximum likelihood to their bids with
#: ``benchmarks/measure_inference.py`` (400 deals, 1558 bids: Dobbm 11.80, Solo
#: 21.59, spread 1.34, lapse 0.010).  The solver's own break-even, where the
#: Dobbm's expected units cross zero, is close by: 12.6 with the rule-of-thumb
#: lay-away (``benchmarks/calibrate_bidding.py``); ``bid`` now lays away better.
BID_DOBBM_THRESHOLD = 11.8
#: The Dobbm threshold of the bidder who speaks ``turn``-th in the round (0:
#: forehand), fitted the same way to each turn's bids (400, 394, 387 and 379
#: bids: 12.62, 11.93, 11.32, 8.98).  A later bidder has heard passes (weak
#: hands) and fears fewer overcalls, so bids lighter; :data:`BID_DOBBM_THRESHOLD`
#: is for a bid whose turn is not known.
BID_DOBBM_THRESHOLD_BY_TURN = (12.6, 11.9, 11.3, 9.0)
#: A hand perceived at least this strong bids Solo (the break-even with Dobbm:
#: 22.3 with the rule-of-thumb lay-away).
BID_SOLO_THRESHOLD = 21.6
#: Scale of the logistic noise on the perceived strength (players differ, and
#: the strength score is only a rule of thumb).
BID_SPREAD = 1.35
#: The chance that a player's bid ignores the model (a lapse, or something in
#: the hand the strength score misses): the bid is then drawn at the bids'
#: base rates, so each bid has likelihood at least ``BID_LAPSE`` times its
#: :data:`BID_BASE_RATE` and no auction is impossible for any hand.
BID_LAPSE = 0.01

# what the auction says about one seat's 8 dealt cards
KIND_PASS = "pass"            # passed, no Dobbm said before
KIND_NOT_SOLO = "not_solo"    # passed after a Dobbm (or: passed or said Dobbm)
KIND_DOBBM = "dobbm"
KIND_SOLO = "solo"

#: How often a random 8-card hand makes each bid under the model (the model's
#: likelihood averaged over 400,000 random hands, two seeds agreeing to
#: 0.002: ``benchmarks/measure_inference.py --base-rates 400000``;
#: ``tests/test_bidding.py`` checks these against a fresh draw).
BID_BASE_RATE = {KIND_PASS: 0.6843, KIND_NOT_SOLO: 0.9858, KIND_DOBBM: 0.3014, KIND_SOLO: 0.0142}


def logistic(x: float) -> float:
    """``1 / (1 + exp(-x))``, without overflow for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def solo_probability(strength: float) -> float:
    """P(perceived strength reaches the Solo threshold)."""
    return logistic((strength - BID_SOLO_THRESHOLD) / BID_SPREAD)


def dobbm_threshold(turn: int | None = None) -> float:
    """The Dobbm threshold of the ``turn``-th bidder of the round (None: not known)."""
    if turn is None or not 0 <= turn < len(BID_DOBBM_THRESHOLD_BY_TURN):
        return BID_DOBBM_THRESHOLD
    return BID_DOBBM_THRESHOLD_BY_TURN[turn]


def _p_dobbm_up(strength: float, turn: int | None = None) -> float:
    """P(perceived strength reaches the Dobbm threshold)."""
    return logistic((strength - dobbm_threshold(turn)) / BID_SPREAD)


def bid_likelihood(kind: str, strength: float, turn: int | None = None) -> float:
    """The chance of a bid of ``kind`` from a hand of ``strength`` by the ``turn``-th bidder
    (None: not known), lapses included."""
    return (1.0 - BID_LAPSE) * model_likelihood(kind, strength, turn) + BID_LAPSE * BID_BASE_RATE[kind]


def model_likelihood(kind: str, strength: float, turn: int | None = None) -> float:
    """The chance of a bid of ``kind`` from a hand of ``strength`` under the model alone."""
    if kind == KIND_PASS:
        return 1.0 - _p_dobbm_up(strength, turn)
    if kind == KIND_NOT_SOLO:
        return 1.0 - solo_probability(strength)
    if kind == KIND_DOBBM:
        return max(0.0, _p_dobbm_up(strength, turn) - solo_probability(strength))
    if kind == KIND_SOLO:
        return solo_probability(strength)
    raise KeyError(kind)


def bid_probabilities(hand: CardSet, *, dobbm_said: bool = False, must: bool = False,
                      turn: int | None = None) -> dict[str, float]:
    """The bidding model: the probability of each bid for a player holding ``hand`` (8 cards).

    ``dobbm_said``: someone already said Dobbm (only pass or Solo remain).
    ``must``: the must round (only Dobbm or Solo).  ``turn``: how many bid
    before in the round (None: not known).
    """
    s = hand_strength(hand)
    ps = solo_probability(s)
    if must:
        return {"dobbm": 1.0 - ps, "solo": ps}
    if dobbm_said:
        return {"pass": 1.0 - ps, "solo": ps}
    pd = _p_dobbm_up(s, turn)
    return {"pass": 1.0 - pd, "dobbm": max(0.0, pd - ps), "solo": ps}


def model_bid(hand: CardSet, *, dobbm_said: bool = False, must: bool = False, turn: int | None = None) -> str:
    """The noiseless bid of the model: thresholds on ``hand_strength`` (and the turn) alone."""
    s = hand_strength(hand)
    if s >= BID_SOLO_THRESHOLD:
        return "solo"
    if must:
        return "dobbm"
    if s >= dobbm_threshold(turn) and not dobbm_said:
        return "dobbm"
    return "pass"
