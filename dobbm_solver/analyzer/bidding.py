"""The bidding model: how likely each bid is for a player holding given cards.

A player rates the 8 dealt cards with the *bid score* ``b`` (:func:`bid_score`):
:func:`dobbm_solver.heuristics.hand_strength` plus :data:`BID_HIGH_TRUMP_WEIGHT`
per high trump (the heart A, 10 and K) plus :data:`BID_POINTS_WEIGHT` per card
point held, and perceives it with a little noise.  The player bids Solo when
``b`` plus logistic noise of scale :data:`BID_SOLO_SPREAD` reaches
:data:`BID_SOLO_THRESHOLD`, Dobbm when ``b`` plus logistic noise of scale
:data:`BID_SPREAD` reaches the Dobbm threshold (and no Dobbm was said before;
after a Dobbm only Solo can follow), else passes.  The Dobbm threshold
depends on the bidder's turn in the round (:data:`BID_DOBBM_THRESHOLD_BY_TURN`):
later bidders bid lighter.  So with ``sig(x) = 1 / (1 + exp(-x))``::

    P(solo)  = sig((b - T_solo) / solo_spread)
    P(dobbm) = max(0, sig((b - T_dobbm) / spread) - P(solo))   (no Dobbm said yet)
    P(pass)  = 1 - P(solo) - P(dobbm)                          (no Dobbm said yet)
    P(pass)  = 1 - P(solo)                                     (after a Dobbm)

:func:`bid_probabilities` gives these, :func:`model_bid` the noiseless bid
(the baseline shown next to the Monte Carlo recommendation, and the arena's
``rule`` bidder).  The constants are fitted to the arena's own bidders (see
:data:`BID_DOBBM_THRESHOLD_BY_TURN`).  For sampling, a bid also has a small
chance :data:`BID_LAPSE` of ignoring the model, so that no auction is
impossible: :func:`bid_likelihood` is the chance of what a seat is known to
have bid (a *kind*: :data:`KIND_PASS`, :data:`KIND_NOT_SOLO`,
:data:`KIND_DOBBM`, :data:`KIND_SOLO`) given the seat's bid score.

A lapsing player says each bid as often as players say it at all (its
:data:`BID_BASE_RATE` over random hands), not one bid in three: so however
rare a bid is (Solo: 1.7% of hands), only :data:`BID_LAPSE` of the hands
that say it are lapses.  A flat floor of ``BID_LAPSE / 3`` made more than
half of the sampled Solo declarers random hands, and the doubling advice
took strong Solo bidders for weak ones.
"""

from __future__ import annotations

import math

from ..cards import BB_TRUMPS, CARDS_PER_SUIT, RANK_10, RANK_A, RANK_K, TRUMP, CardSet, popcount, set_points
from ..heuristics import fast_hand_strength

#: What the bid score adds to ``hand_strength`` per high trump (heart A, 10, K)
#: and per card point in the hand.  The arena's advice bidders (``analyze_bid``)
#: bid Dobbm on more than the strength score sees: at equal strength, on hands
#: with more points and more high trumps (a Dobbm is won on points).  Fitted by
#: maximum likelihood, with every other constant of the model, to 7,838 advice
#: bids on 2,000 arena deals (``benchmarks/measure_inference.py --deals 2000
#: --seed 2 --save FILE``, then ``--fit FILE``); of the one- and two-term
#: extensions tried (trumps, high trumps, plain Saus, voids, points) this pair
#: fitted best, and on 1,557 held-out bids (seed 1, 400 deals) it raises the
#: log-likelihood from -0.2119 to -0.1906 a bid.
BID_HIGH_TRUMP_WEIGHT = 1.0
BID_POINTS_WEIGHT = 0.1
#: The Dobbm threshold (on the bid score) of the bidder who speaks ``turn``-th
#: in the round (0: forehand).  A later bidder has heard passes (weak hands)
#: and fears fewer overcalls, so bids lighter.
BID_DOBBM_THRESHOLD_BY_TURN = (16.7, 16.2, 15.1, 13.3)
#: The Dobbm threshold of a bid whose turn is not known (the same bids, one
#: threshold for all turns).
BID_DOBBM_THRESHOLD = 15.7
#: A hand whose bid score, plus noise of scale :data:`BID_SOLO_SPREAD`, reaches
#: this bids Solo.
BID_SOLO_THRESHOLD = 27.5
#: Scale of the logistic noise on the Dobbm decision (players differ, and the
#: score is only a rule of thumb).
BID_SPREAD = 1.34
#: Scale of the noise on the Solo decision: the advice bidders' Solo is less
#: sharp a function of the score than their Dobbm.
BID_SOLO_SPREAD = 1.8
#: The chance that a player's bid ignores the model (a lapse, or something in
#: the hand the score misses): the bid is then drawn at the bids' base rates,
#: so each bid has likelihood at least ``BID_LAPSE`` times its
#: :data:`BID_BASE_RATE` and no auction is impossible for any hand.  The
#: advice bids alone would have it near 0.001; 1% keeps rare auctions samplable.
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
BID_BASE_RATE = {KIND_PASS: 0.6899, KIND_NOT_SOLO: 0.9832, KIND_DOBBM: 0.2933, KIND_SOLO: 0.0168}


def logistic(x: float) -> float:
    """``1 / (1 + exp(-x))``, without overflow for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


_HIGH_TRUMPS = sum(1 << (CARDS_PER_SUIT * TRUMP + r) for r in (RANK_A, RANK_10, RANK_K)) & BB_TRUMPS


def bid_score(hand: CardSet) -> float:
    """The bid score of 8 dealt cards: ``hand_strength`` + :data:`BID_HIGH_TRUMP_WEIGHT` per
    high trump + :data:`BID_POINTS_WEIGHT` per card point (from tables: the sampler rates
    every speaker of every candidate deal).

    >>> from dobbm_solver.cards import cardset, parse_cards
    >>> bid_score(cardset(parse_cards("HA H10 HK EA E9 L8 L7 S6")))   # 17 + 3 + 3.6
    23.6
    """
    return (fast_hand_strength(hand) + BID_HIGH_TRUMP_WEIGHT * popcount(hand & _HIGH_TRUMPS)
            + BID_POINTS_WEIGHT * set_points(hand))


def solo_probability(score: float) -> float:
    """P(the perceived bid score reaches the Solo threshold)."""
    return logistic((score - BID_SOLO_THRESHOLD) / BID_SOLO_SPREAD)


def dobbm_threshold(turn: int | None = None) -> float:
    """The Dobbm threshold of the ``turn``-th bidder of the round (None: not known)."""
    if turn is None or not 0 <= turn < len(BID_DOBBM_THRESHOLD_BY_TURN):
        return BID_DOBBM_THRESHOLD
    return BID_DOBBM_THRESHOLD_BY_TURN[turn]


def _p_dobbm_up(score: float, turn: int | None = None) -> float:
    """P(the perceived bid score reaches the Dobbm threshold)."""
    return logistic((score - dobbm_threshold(turn)) / BID_SPREAD)


def bid_likelihood(kind: str, score: float, turn: int | None = None) -> float:
    """The chance of a bid of ``kind`` from a hand of bid score ``score`` (:func:`bid_score`)
    by the ``turn``-th bidder (None: not known), lapses included."""
    return (1.0 - BID_LAPSE) * model_likelihood(kind, score, turn) + BID_LAPSE * BID_BASE_RATE[kind]


def model_likelihood(kind: str, score: float, turn: int | None = None) -> float:
    """The chance of a bid of ``kind`` from a hand of bid score ``score`` under the model alone."""
    if kind == KIND_NOT_SOLO:
        return 1.0 - solo_probability(score)
    if kind == KIND_SOLO:
        return solo_probability(score)
    up, ps = _p_dobbm_up(score, turn), solo_probability(score)
    if kind == KIND_PASS:
        return 1.0 - max(up, ps)
    if kind == KIND_DOBBM:
        return max(0.0, up - ps)
    raise KeyError(kind)


def bid_probabilities(hand: CardSet, *, dobbm_said: bool = False, must: bool = False,
                      turn: int | None = None) -> dict[str, float]:
    """The bidding model: the probability of each bid for a player holding ``hand`` (8 cards).

    ``dobbm_said``: someone already said Dobbm (only pass or Solo remain).
    ``must``: the must round (only Dobbm or Solo).  ``turn``: how many bid
    before in the round (None: not known).
    """
    b = bid_score(hand)
    ps = solo_probability(b)
    if must:
        return {"dobbm": 1.0 - ps, "solo": ps}
    if dobbm_said:
        return {"pass": 1.0 - ps, "solo": ps}
    return {"pass": model_likelihood(KIND_PASS, b, turn), "dobbm": model_likelihood(KIND_DOBBM, b, turn),
            "solo": ps}


def model_bid(hand: CardSet, *, dobbm_said: bool = False, must: bool = False, turn: int | None = None) -> str:
    """The noiseless bid of the model: thresholds on :func:`bid_score` (and the turn)."""
    b = bid_score(hand)
    if b >= BID_SOLO_THRESHOLD:
        return "solo"
    if must:
        return "dobbm"
    if b >= dobbm_threshold(turn) and not dobbm_said:
        return "dobbm"
    return "pass"
