"""The bidding model: how likely each bid is for a player holding given cards.

A model of the other players, not an analysis: ``dobbm bid``'s analysis is
:mod:`dobbm_solver.analyzer.bid`.

A player rates the 8 dealt cards twice.  The *bid score* ``b``
(:func:`bid_score`) is :func:`~dobbm_solver.models.strength.hand_strength` plus
:data:`BID_HIGH_TRUMP_WEIGHT` per high trump (the heart A, 10 and K) plus
:data:`BID_POINTS_WEIGHT` per card point held: a Dobbm is won on points.
The *Solo score* ``s`` (:func:`solo_score`) is ``hand_strength`` plus
:data:`BID_SOLO_SAU_WEIGHT` per plain Sau and :data:`BID_SOLO_VOID_WEIGHT`
per plain void: alone and without the Dobb, the declarer needs tricks
outside the trumps, and ruffs.  Each is perceived with a little
noise.  The player bids Solo when ``s`` plus logistic noise of scale
:data:`BID_SOLO_SPREAD` reaches :data:`BID_SOLO_THRESHOLD` (after a Dobbm:
:data:`BID_SOLO_OVER_SPREAD` and :data:`BID_SOLO_OVER_THRESHOLD`, lower: the
choice is then Solo or defending, not Solo or an own Dobbm), Dobbm when ``b``
plus logistic noise of scale :data:`BID_SPREAD` reaches the Dobbm threshold
(and no Dobbm was said before; after a Dobbm only Solo can follow), else
passes.  The Dobbm threshold depends on the bidder's turn in the round
(:data:`BID_DOBBM_THRESHOLD_BY_TURN`): later bidders bid lighter.  So with
``sig(x) = 1 / (1 + exp(-x))``::

    P(solo)  = sig((s - T_solo) / solo_spread)                 (no Dobbm said yet)
    P(dobbm) = max(0, sig((b - T_dobbm) / spread) - P(solo))   (no Dobbm said yet)
    P(pass)  = 1 - max(sig((b - T_dobbm) / spread), P(solo))   (no Dobbm said yet)
    P(solo)  = sig((s - T_over) / over_spread)                 (after a Dobbm)
    P(pass)  = 1 - P(solo)                                     (after a Dobbm)

:func:`bid_probabilities` gives these, :func:`model_bid` the noiseless bid
(the baseline shown next to the Monte Carlo recommendation, and the arena's
``rule`` bidder).  The constants are fitted to the arena's own bidders (see
:data:`BID_DOBBM_THRESHOLD_BY_TURN` and :data:`BID_SOLO_SAU_WEIGHT`).  For
sampling, a bid also has a small chance :data:`BID_LAPSE` of ignoring the
model, so that no auction is impossible: :func:`bid_likelihood` is the
chance of what a seat is known to have bid (a *kind*: :data:`KIND_PASS`,
:data:`KIND_NOT_SOLO`, :data:`KIND_DOBBM`, :data:`KIND_SOLO`,
:data:`KIND_PASS_OVER`, :data:`KIND_SOLO_OVER`) given the seat's 8 cards.

A lapsing player says each bid as often as players say it at all (its
:data:`BID_BASE_RATE` over random hands), not one bid in three: so however
rare a bid is (Solo: 1.2% of hands), only :data:`BID_LAPSE` of the hands
that say it are lapses.
"""

from __future__ import annotations

import math
from typing import Literal

from ..cards import (
    BB_PLAIN_SAUS,
    BB_SUITS,
    BB_TRUMPS,
    CARDS_PER_SUIT,
    RANK_10,
    RANK_A,
    RANK_K,
    TRUMP,
    CardSet,
    popcount,
    set_points,
)
from .strength import PLAIN_SUITS, fast_hand_strength

#: What the bid score adds to ``hand_strength`` per high trump (heart A, 10, K)
#: and per card point in the hand.  The arena's advice bidders (``analyze_bid``)
#: bid Dobbm on more than the strength score sees: at equal strength, on hands
#: with more points and more high trumps (a Dobbm is won on points).  Fitted by
#: maximum likelihood, with every other constant of the model, to 7,838 advice
#: bids on 2,000 arena deals (``benchmarks/measure_inference.py --deals 2000
#: --seed 2 --save FILE``, then ``--fit FILE``).
BID_HIGH_TRUMP_WEIGHT = 1.0
BID_POINTS_WEIGHT = 0.1
#: The Dobbm threshold (on the bid score) of the bidder who speaks ``turn``-th
#: in the round (0: forehand).  A later bidder has heard passes (weak hands)
#: and fears fewer overcalls, so bids lighter.
BID_DOBBM_THRESHOLD_BY_TURN = (16.7, 16.2, 15.1, 13.3)
#: The Dobbm threshold of a bid whose turn is not known (the same bids, one
#: threshold for all turns).
BID_DOBBM_THRESHOLD = 15.7
#: Scale of the logistic noise on the Dobbm decision (players differ, and the
#: score is only a rule of thumb).
BID_SPREAD = 1.34
#: What the Solo score adds to ``hand_strength`` per plain Sau and per plain
#: void, and the Solo thresholds and noise scales on that score: of a Solo
#: where no Dobbm was said, and of one over a Dobbm (``OVER``).  At equal
#: strength the advice bidders bid Solo on hands with more plain Saus and
#: voids, and not on more of the high trumps or points that make them bid
#: Dobbm; over a Dobbm they bid it on hands 2.5 points weaker.  Fitted by
#: maximum likelihood to the advice bids of 4,000 arena deals (15,688 bids,
#: 245 of them Solo; ``benchmarks/measure_inference.py --deals 2000 --seed S
#: --save FILE`` for seeds 1 and 2, then ``--fit FILE FILE --fit-solo``), with
#: the Dobbm part of the model held fixed.
BID_SOLO_SAU_WEIGHT = 2.57
BID_SOLO_VOID_WEIGHT = 2.23
BID_SOLO_THRESHOLD = 26.56
BID_SOLO_SPREAD = 1.27
BID_SOLO_OVER_THRESHOLD = 24.08
BID_SOLO_OVER_SPREAD = 1.24
#: The chance that a player's bid ignores the model (a lapse, or something in
#: the hand the score misses): the bid is then drawn at the bids' base rates,
#: so each bid has likelihood at least ``BID_LAPSE`` times its
#: :data:`BID_BASE_RATE` and no auction is impossible for any hand.  The
#: advice bids alone would have it near 0.001; 1% keeps rare auctions samplable.
BID_LAPSE = 0.01

#: A bid: what a player says in the bidding.
Bid = Literal["pass", "dobbm", "solo"]

# what the auction says about one seat's 8 dealt cards
# (a Solo or a pass "over" a Dobbm: after one was said; the rest: with none said before)
KIND_PASS = "pass"              # passed
KIND_NOT_SOLO = "not_solo"      # passed or said Dobbm (the must round's Dobbm; bids not given)
KIND_DOBBM = "dobbm"
KIND_SOLO = "solo"
KIND_PASS_OVER = "pass_over"    # passed after a Dobbm
KIND_SOLO_OVER = "solo_over"    # Solo over a Dobbm

#: How often a random 8-card hand makes each bid under the model (the model's
#: likelihood averaged over 400,000 random hands, two seeds agreeing to
#: 0.002: ``benchmarks/measure_inference.py --base-rates 400000``;
#: ``tests/test_bidding.py`` checks these against a fresh draw).
BID_BASE_RATE = {KIND_PASS: 0.6899, KIND_NOT_SOLO: 0.9878, KIND_DOBBM: 0.2979, KIND_SOLO: 0.0122,
                 KIND_PASS_OVER: 0.9711, KIND_SOLO_OVER: 0.0289}


def logistic(x: float) -> float:
    """``1 / (1 + exp(-x))``, without overflow for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


#: The high trumps the bid score counts: the heart A, 10 and K.
BB_HIGH_TRUMPS: CardSet = sum(1 << (CARDS_PER_SUIT * TRUMP + r) for r in (RANK_A, RANK_10, RANK_K)) & BB_TRUMPS
# the plain suits' cards, for the Solo score's voids
_PLAIN_SUITS = tuple(BB_SUITS[s] for s in PLAIN_SUITS)


def bid_score(hand: CardSet) -> float:
    """The bid score of 8 dealt cards: ``hand_strength`` + :data:`BID_HIGH_TRUMP_WEIGHT` per
    high trump + :data:`BID_POINTS_WEIGHT` per card point (from tables: the sampler rates
    every speaker of every candidate deal).

    >>> from dobbm_solver.cards import cardset, parse_cards
    >>> bid_score(cardset(parse_cards("HA H10 HK EA E9 L8 L7 S6")))   # 17 + 3 + 3.6
    23.6
    """
    return _bid_score(hand, fast_hand_strength(hand))


def _bid_score(hand: CardSet, strength: float) -> float:
    """:func:`bid_score` of ``hand`` whose ``fast_hand_strength`` is ``strength``."""
    return strength + BID_HIGH_TRUMP_WEIGHT * popcount(hand & BB_HIGH_TRUMPS) + BID_POINTS_WEIGHT * set_points(hand)


def solo_score(hand: CardSet) -> float:
    """The Solo score of 8 dealt cards: ``hand_strength`` + :data:`BID_SOLO_SAU_WEIGHT` per
    plain Sau + :data:`BID_SOLO_VOID_WEIGHT` per plain void.

    >>> from dobbm_solver.cards import cardset, parse_cards
    >>> round(solo_score(cardset(parse_cards("HA H10 HK HO EA E9 L7 L6"))), 2)   # 22.5 + 2.57 + 2.23
    27.3
    """
    return _solo_score(hand, fast_hand_strength(hand))


def _solo_score(hand: CardSet, strength: float) -> float:
    """:func:`solo_score` of ``hand`` whose ``fast_hand_strength`` is ``strength``."""
    voids = (not hand & _PLAIN_SUITS[0]) + (not hand & _PLAIN_SUITS[1]) + (not hand & _PLAIN_SUITS[2])
    return strength + BID_SOLO_SAU_WEIGHT * popcount(hand & BB_PLAIN_SAUS) + BID_SOLO_VOID_WEIGHT * voids


def solo_probability(hand: CardSet, over: bool = False) -> float:
    """P(the perceived Solo score of the 8 cards ``hand`` reaches the Solo threshold);
    ``over``: that of a Solo over a Dobbm."""
    return _p_solo(solo_score(hand), over)


def _p_solo(solo: float, over: bool) -> float:
    if over:
        return logistic((solo - BID_SOLO_OVER_THRESHOLD) / BID_SOLO_OVER_SPREAD)
    return logistic((solo - BID_SOLO_THRESHOLD) / BID_SOLO_SPREAD)


def dobbm_threshold(turn: int | None = None) -> float:
    """The Dobbm threshold of the ``turn``-th bidder of the round (None: not known)."""
    if turn is None or not 0 <= turn < len(BID_DOBBM_THRESHOLD_BY_TURN):
        return BID_DOBBM_THRESHOLD
    return BID_DOBBM_THRESHOLD_BY_TURN[turn]


def _p_dobbm_up(score: float, turn: int | None) -> float:
    """P(the perceived bid score ``score`` reaches the Dobbm threshold)."""
    return logistic((score - dobbm_threshold(turn)) / BID_SPREAD)


def _first_round(hand: CardSet, turn: int | None) -> tuple[float, float]:
    """``(P(perceived bid score reaches the Dobbm threshold), P(Solo))`` of a bidder with
    no Dobbm said before (the hand's strength worked out once for both scores)."""
    strength = fast_hand_strength(hand)
    return _p_dobbm_up(_bid_score(hand, strength), turn), _p_solo(_solo_score(hand, strength), False)


def bid_likelihood(kind: str, hand: CardSet, turn: int | None = None) -> float:
    """The chance of a bid of ``kind`` from the 8 cards ``hand`` by the ``turn``-th bidder
    (None: not known), lapses included."""
    return (1.0 - BID_LAPSE) * model_likelihood(kind, hand, turn) + BID_LAPSE * BID_BASE_RATE[kind]


def model_likelihood(kind: str, hand: CardSet, turn: int | None = None) -> float:
    """The chance of a bid of ``kind`` from the 8 cards ``hand`` under the model alone."""
    if kind == KIND_PASS_OVER:
        return 1.0 - solo_probability(hand, over=True)
    if kind == KIND_SOLO_OVER:
        return solo_probability(hand, over=True)
    if kind == KIND_NOT_SOLO:
        return 1.0 - solo_probability(hand)
    if kind == KIND_SOLO:
        return solo_probability(hand)
    if kind not in (KIND_PASS, KIND_DOBBM):
        raise KeyError(kind)
    up, ps = _first_round(hand, turn)
    return 1.0 - max(up, ps) if kind == KIND_PASS else max(0.0, up - ps)


def bid_probabilities(hand: CardSet, *, dobbm_said: bool = False, must: bool = False,
                      turn: int | None = None) -> dict[str, float]:
    """The bidding model: the probability of each bid for a player holding ``hand`` (8 cards).

    ``dobbm_said``: someone already said Dobbm (only pass or Solo remain).
    ``must``: the must round (only Dobbm or Solo).  ``turn``: how many bid
    before in the round (None: not known).
    """
    if dobbm_said and not must:
        ps = solo_probability(hand, over=True)
        return {"pass": 1.0 - ps, "solo": ps}
    if must:
        ps = solo_probability(hand)
        return {"dobbm": 1.0 - ps, "solo": ps}
    up, ps = _first_round(hand, turn)
    return {"pass": 1.0 - max(up, ps), "dobbm": max(0.0, up - ps), "solo": ps}


def model_bid(hand: CardSet, *, dobbm_said: bool = False, must: bool = False, turn: int | None = None) -> Bid:
    """The noiseless bid of the model: thresholds on :func:`solo_score` and :func:`bid_score`
    (and the turn)."""
    over = dobbm_said and not must
    if solo_score(hand) >= (BID_SOLO_OVER_THRESHOLD if over else BID_SOLO_THRESHOLD):
        return "solo"
    if must:
        return "dobbm"
    if bid_score(hand) >= dobbm_threshold(turn) and not dobbm_said:
        return "dobbm"
    return "pass"
