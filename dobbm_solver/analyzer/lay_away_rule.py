"""A calibrated lay-away rule: what ``bid`` lays away in each sample (:func:`calibrated_discard`).

``discard`` (:func:`~dobbm_solver.analyzer.analyze_discard`) chooses the
lay-away by a Monte Carlo of its own, far too costly to run in every sample
of ``bid``.  This rule scores each legal lay-away of the declarer's 12
cards by a weighted sum of features (:data:`FEATURES`) of the cards laid
away and the cards kept, as :func:`~dobbm_solver.heuristics.discard_score`
does, but with the weights :data:`WEIGHTS` fitted to the solver's values:
``benchmarks/calibrate_lay_away.py`` solves every lay-away of 600 seeded
12-card Dobbm hands on 8 deals each, drawn from the declarer's own view (the
analyzer's sampler), and fits the weights by least squares on the
declarer's mean points, within each hand, over the rule of thumb's 100 best
lay-aways of the hand, on half the hands.  On the other 300 the rule's
lay-away is worth +1.22 +- 0.24 points a hand more than the rule of thumb's
(paired; they differ on half the hands).  It sees only the 12 cards, never
the other hands.  The rule of thumb :func:`~dobbm_solver.heuristics.heuristic_discard`
is left as it is: it is the arena's ``rule`` strategy and the lay-away the
sampler gives an unseen declarer.

Every feature is a sum of a term per card laid away and a term per kept
plain suit (given the number of hearts kept), so :func:`calibrated_discard`
scores the lay-aways from small tables of the weighted terms, added up by
the compiled scorer (``_lay_away``), as the rule of thumb's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from ..cards import (
    BB_SUITS,
    BB_TRUMPS,
    DOBB_SIZE,
    HAND_SIZE,
    RANK_10,
    RANK_A,
    RANK_K,
    TRUMP,
    Card,
    CardSet,
    card_points,
    card_rank,
    card_suit,
    popcount,
    scan_forward,
)
from ..errors import DobbmError
from ..heuristics import PLAIN_SUITS, lay_away_tables, top_cards

if TYPE_CHECKING:
    from .._lay_away import Tables

__all__ = ["FEATURES", "WEIGHTS", "lay_away_features", "lay_away_score", "calibrated_discard",
           "build_tables"]

#: The features of a lay-away ``d`` of ``hand12`` (kept: ``hand12 - d``; a plain
#: card is *top* if it is in the unbroken run from the Sau down, see
#: :func:`~dobbm_solver.heuristics.top_cards`; ``kh``: hearts kept).
FEATURES: tuple[str, ...] = (
    "points_laid",          # card points laid away (they count for the declarer)
    "hearts_laid",          # hearts laid away
    "heart_rank_laid",      # their rank indices (6 = 0 ... A = 8)
    "saus_laid",            # plain Saus laid away
    "top_tens_laid",        # plain 10s under a held Sau laid away
    "other_tops_laid",      # other plain top cards laid away
    "loose_tens_laid",      # plain 10s laid away that are not top cards
    "loose_kings_laid",     # plain Kings laid away that are not top cards
    "voids_kh0",            # plain voids kept, with no heart kept
    "voids_kh1",            # ... one heart kept
    "voids_kh2",            # ... two hearts kept
    "voids_kh3",            # ... three hearts kept
    "voids_kh4",            # ... four or more hearts kept
    "singletons",           # kept plain singletons that are not top cards
    "doubletons",           # kept plain suits of two cards
    "risk_short",           # points of kept non-top plain cards in suits of <= 2 kept
    "risk_long",            # ... in suits of 3 or more kept
    "bare_tens",            # kept non-top plain 10s in suits of <= 2 kept
    "bare_saus",            # kept plain Saus alone in their suit
    "long_weak",            # kept plain cards in suits of 3 or more kept with no top card
)

#: The fitted weights, one per feature (``benchmarks/calibrate_lay_away.py``).
WEIGHTS: tuple[float, ...] = (
    -0.67, -4.62, 0.18, 1.74, 8.61, 2.34, -0.57, -0.28,
    -1.77, -3.15, -3.26, 3.61, 7.93, -2.24, -1.54, -1.63, -1.29, 0.66, -0.59, -0.77,
)

_N_CARD = 8      # the first eight features are per card laid away, the rest per kept plain suit


def _card_features(c: Card, tops: CardSet) -> list[float]:
    """The per-card features of laying ``c`` away."""
    f = [0.0] * _N_CARD
    f[0] = card_points(c)
    if card_suit(c) == TRUMP:
        f[1] = 1.0
        f[2] = card_rank(c)
    elif (tops >> c) & 1:
        r = card_rank(c)
        f[3 if r == RANK_A else 4 if r == RANK_10 else 5] = 1.0
    elif card_rank(c) in (RANK_10, RANK_K):
        f[6 if card_rank(c) == RANK_10 else 7] = 1.0
    return f


def _suit_features(kept_s: CardSet, top: CardSet, kh: int) -> list[float]:
    """The features of one kept plain suit (``top``: the suit's top cards in the 12)."""
    f = [0.0] * (len(FEATURES) - _N_CARD)
    n = popcount(kept_s)
    if n == 0:
        f[min(kh, 4)] = 1.0
        return f
    loose = kept_s & ~top
    pts = sum(card_points(c) for c in scan_forward(loose))
    if n == 1 and loose:
        f[5] = 1.0
    if n == 2:
        f[6] = 1.0
    if n <= 2:
        f[7] = pts
        f[9] = sum(1.0 for c in scan_forward(loose) if card_rank(c) == RANK_10)
    else:
        f[8] = pts
        if not kept_s & top:
            f[11] = n
    if n == 1 and kept_s & top and card_rank(next(scan_forward(kept_s))) == RANK_A:
        f[10] = 1.0
    return f


def _tops(hand12: CardSet) -> CardSet:
    tops = 0
    for s in PLAIN_SUITS:
        tops |= top_cards(hand12, s)
    return tops


def lay_away_features(hand12: CardSet, discard: CardSet) -> list[float]:
    """The :data:`FEATURES` of laying ``discard`` away from ``hand12``."""
    tops = _tops(hand12)
    kept = hand12 & ~discard
    kh = popcount(kept & BB_TRUMPS)
    out = [0.0] * len(FEATURES)
    for c in scan_forward(discard):
        for j, x in enumerate(_card_features(c, tops)):
            out[j] += x
    for s in PLAIN_SUITS:
        for j, x in enumerate(_suit_features(kept & BB_SUITS[s], tops & BB_SUITS[s], kh)):
            out[_N_CARD + j] += x
    return out


def lay_away_score(hand12: CardSet, discard: CardSet, weights: tuple[float, ...] = WEIGHTS) -> float:
    """The rule's score of laying ``discard`` away from ``hand12`` (higher is better)."""
    return _dot(weights, lay_away_features(hand12, discard))


def calibrated_discard(hand12: CardSet, weights: tuple[float, ...] = WEIGHTS) -> CardSet:
    """The legal lay-away (Sau rule obeyed) of the declarer's 12 cards with the highest
    :func:`lay_away_score`; ties go to the first in
    :func:`~dobbm_solver.heuristics.legal_discards` order.  Sees only ``hand12``.

    Fast: the compiled scorer adds up each lay-away's score from :func:`_tables`, the
    weighted per-card and per-kept-suit features, and keeps the first best: a later
    lay-away wins only by more than :data:`_TIE` (the sums of the terms may differ from
    :func:`lay_away_score`'s in the last bits)."""
    if popcount(hand12) != HAND_SIZE + DOBB_SIZE:
        raise DobbmError(f"need {HAND_SIZE + DOBB_SIZE} cards, not {popcount(hand12)}")
    return _tables(tuple(weights)).first_best(hand12, 0, 0, _TIE)


def build_tables(weights: tuple[float, ...] = WEIGHTS) -> None:
    """Build now what :func:`calibrated_discard` builds on first use for ``weights``
    (kept for the process: threads share it, forked workers inherit it)."""
    _tables(tuple(weights))


#: :func:`calibrated_discard`: a later lay-away beats the best so far by more than this
_TIE = 1e-9


def _dot(weights: Sequence[float], features: Sequence[float]) -> float:
    return sum(w * x for w, x in zip(weights, features))


@lru_cache(maxsize=8)
def _tables(weights: tuple[float, ...]) -> Tables:
    """:func:`calibrated_discard`'s terms for ``weights``, built on first use: a card's
    weighted :func:`_card_features`, a kept plain suit's weighted :func:`_suit_features`
    (which count the hearts kept only for a void)."""
    wc, ws = weights[:_N_CARD], weights[_N_CARD:]
    return lay_away_tables(lambda c, top: _dot(wc, _card_features(c, (1 << c) if top else 0)),
                           lambda kept, top: _dot(ws, _suit_features(kept, top, 0)),
                           lambda kh: _dot(ws, _suit_features(0, 0, kh)))
