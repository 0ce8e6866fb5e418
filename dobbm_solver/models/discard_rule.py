"""The lay-away rules: which four cards a declarer lays away, from the 12 cards alone.

Two rules, neither looking at the other hands nor calling the solver:

* the rule of thumb :func:`heuristic_discard` -- a Tyrolean player's habits
  written down (:func:`discard_score`): the arena's ``rule`` strategy, the
  lay-away the random dealer makes, and the one the analyzer's sampler
  gives an unseen Dobbm declarer;
* the calibrated rule :func:`calibrated_discard` -- what ``bid`` lays away
  in each sample, a weighted sum of features with weights fitted to the
  solver's values.

Of all legal four-card lay-aways (:func:`legal_discards`, the Sau rule
``rules.discard_error`` obeyed) each rule takes the one it scores highest;
ties go to the first in the order of :func:`legal_discards`, so the choice is
deterministic.  Both rules are sums of a term per card laid away and a term
per plain suit kept, so the compiled scorer (``_discard``) adds up every
lay-away's score from small tables of the terms (:func:`discard_tables`);
the sums are the plain definitions' to the last bit
(``tests/test_discard_core.py`` checks this on many random hands).

The calibrated rule
-------------------
``discard`` (:func:`~dobbm_solver.analyzer.analyze_discard`) chooses the
lay-away by a Monte Carlo of its own, far too costly to run in every sample
of ``bid``.  :func:`calibrated_score` scores each legal lay-away of the
declarer's 12 cards by a weighted sum of features (:data:`FEATURES`) of the
cards laid away and the cards kept, as :func:`discard_score` does, but with
the weights :data:`WEIGHTS` fitted to the solver's values:
``benchmarks/calibrate_discard.py`` solves every lay-away of 600 seeded
12-card Dobbm hands on 8 deals each, drawn from the declarer's own view (the
analyzer's sampler), and fits the weights by least squares on the
declarer's mean points, within each hand, over the rule of thumb's 100 best
lay-aways of the hand, on half the hands.  On the other 300 the rule's
lay-away is worth +1.22 +- 0.24 points a hand more than the rule of thumb's
(paired; they differ on half the hands).
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from typing import Callable, Sequence, overload

from ..cards import (
    BB_PLAIN_SAUS,
    BB_SUITS,
    BB_TRUMPS,
    CARDS_PER_SUIT,
    DOBB_SIZE,
    HAND_SIZE,
    RANK_10,
    RANK_A,
    RANK_K,
    TRUMP,
    Card,
    CardSet,
    E,
    card_points,
    card_rank,
    card_suit,
    popcount,
    scan_forward,
)
from ..errors import DobbmError
from ..rules import sau_rule_ok
from .strength import PLAIN_SUITS

try:
    from .._discard import Tables
except ImportError as exc:  # pragma: no cover - a broken install, not a code path
    raise ImportError(
        "dobbm_solver's compiled lay-away scorer (_discard) is missing: build it in this source folder "
        "with 'pip install -e .' or 'python setup.py build_ext --inplace'"
    ) from exc

__all__ = [
    "legal_discards", "top_cards", "discard_score", "heuristic_discard", "fast_discard_scores",
    "FEATURES", "WEIGHTS", "discard_features", "calibrated_score", "calibrated_discard",
    "discard_tables", "build_tables",
]


def legal_discards(hand12: CardSet) -> list[CardSet]:
    """Every four-card lay-away from ``hand12`` that the Sau rule allows.

    Order: :func:`itertools.combinations` over the cards by ascending card
    number (E6 first), so the list is the same on every run.  For 12 cards
    that is C(12, 4) = 495 sets less those laying away more plain Saus than
    hearts.
    """
    cards = list(scan_forward(hand12))
    out: list[CardSet] = []
    for combo in combinations(cards, DOBB_SIZE):
        d = (1 << combo[0]) | (1 << combo[1]) | (1 << combo[2]) | (1 << combo[3])
        if sau_rule_ok(d):       # four cards: the Sau rule is all of discard_error
            out.append(d)
    return out


# --- the rule of thumb ------------------------------------------------------
BANK_WEIGHT = 0.5         # per point laid away: it counts for the declarer for sure
HEART_PENALTY = 12.0      # per heart laid away, plus its rank index (H6 cheapest)
SAU_PENALTY = 10.0        # per plain Sau laid away: it is a trick of its own
TOP_CARD_PENALTY = 8.0    # per other plain "top" card laid away (see below)
VOID_VALUE = (0.0, 3.0, 6.0)   # per plain void kept, by kept hearts 0 / 1 / 2+
SINGLETON_VALUE = 2.0     # per kept plain singleton that is not a top card
RISK_SHORT = 0.6          # share of an unguarded point card's points at risk, suit of <= 2 kept
RISK_LONG = 0.3           # ... suit of 3 or more kept


def top_cards(hand12: CardSet, suit: int) -> CardSet:
    """The unbroken run from the Sau down that the declarer holds in ``suit``.

    These cards win tricks by rank (A, then 10 if the A is held, ...): the
    opponents hold nothing higher.
    """
    top = 0
    for rank in range(RANK_A, -1, -1):
        c = suit * 9 + rank
        if not (hand12 >> c) & 1:
            break
        top |= 1 << c
    return top


def discard_score(hand12: CardSet, discard: CardSet) -> float:
    """How good laying ``discard`` away from ``hand12`` looks to the declarer.

    Higher is better.  With ``kept = hand12 - discard`` the score is the sum of

    * ``+0.5`` per card point laid away (they count for the declarer for sure);
    * ``-(12 + rank index)`` per heart laid away (keep trumps; if one must go,
      the lowest);
    * ``-10`` per plain Sau laid away and ``-8`` per other plain top card
      laid away (a card of the unbroken run from the Sau down, e.g. the 10
      under a held Sau): they win tricks in hand;
    * per plain suit void in ``kept``: ``+6`` with two or more hearts kept,
      ``+3`` with one, 0 with none (a void lets the declarer trump);
    * ``+2`` per kept plain singleton that is not a top card (soon a void);
    * per kept plain card with points that is not a top card (an unguarded
      10, K, O or U): ``-0.6 x points`` if its suit has at most two cards
      kept, ``-0.3 x points`` if longer -- the points the opponents are likely
      to take; laying it away instead turns the risk into a sure gain.
    """
    kept = hand12 & ~discard
    score = BANK_WEIGHT * sum(card_points(c) for c in scan_forward(discard))
    for c in scan_forward(discard & BB_TRUMPS):
        score -= HEART_PENALTY + card_rank(c)
    kept_hearts = popcount(kept & BB_TRUMPS)
    void_value = VOID_VALUE[min(kept_hearts, 2)]
    for suit in PLAIN_SUITS:
        top = top_cards(hand12, suit)
        thrown = discard & BB_SUITS[suit]
        for c in scan_forward(thrown & top):
            score -= SAU_PENALTY if card_rank(c) == RANK_A else TOP_CARD_PENALTY
        ks = kept & BB_SUITS[suit]
        n = popcount(ks)
        if n == 0:
            score += void_value
            continue
        if n == 1 and not ks & top:
            score += SINGLETON_VALUE
        risk = RISK_SHORT if n <= 2 else RISK_LONG
        for c in scan_forward(ks & ~top):
            score -= risk * card_points(c)
    return score


@overload
def heuristic_discard(hand12: CardSet) -> CardSet: ...


@overload
def heuristic_discard(hand12: CardSet, exclude: CardSet = 0, require: CardSet = 0) -> CardSet | None: ...


def heuristic_discard(hand12: CardSet, exclude: CardSet = 0, require: CardSet = 0) -> CardSet | None:
    """The four cards a player would lay away from the declarer's 12 cards.

    The legal lay-away (Sau rule obeyed) with the highest
    :func:`discard_score`; ties go to the first in :func:`legal_discards`
    order.  Deterministic, and sees only the declarer's own cards.

    ``exclude``: cards that may not be laid away, ``require``: cards that
    must be (a defender's view in mid-play: the declarer played or showed
    the first, and showed a void in the suits of the second); the choice is
    then the favourite among the lay-aways that fit, None if none fits
    (without them there is always one).

    Fast: the lay-aways are scored in integers (:func:`fast_discard_scores`)
    and the few within a tenth of the best integer score re-scored with
    :func:`discard_score`, the first best in :func:`legal_discards` order
    winning -- the same choice as the highest :func:`discard_score` itself.
    """
    _check_twelve(hand12)
    tied = _tenths_tables().near_best(hand12, exclude, require, 1.0)
    if len(tied) <= 1:
        return tied[0] if tied else None
    top, top_score = tied[0], float("-inf")
    for d in tied:
        sc = discard_score(hand12, d)
        if sc > top_score:
            top, top_score = d, sc
    return top


def fast_discard_scores(hand12: CardSet, exclude: CardSet = 0,
                        require: CardSet = 0) -> list[tuple[CardSet, int]]:
    """Every legal lay-away of the 12 cards avoiding ``exclude`` and holding ``require``,
    with an exact integer score (tenths).

    The score is ``10 x`` :func:`discard_score` computed in integers (all
    weights there are multiples of 0.1), as the sum of the terms
    :func:`_card_tenths` of the cards laid away and :func:`_kept_suit_tenths`
    or :func:`_void_tenths` of the plain suits kept, added up by the compiled
    scorer (``_discard``); order as :func:`legal_discards`.
    """
    _check_twelve(hand12)
    return [(d, int(sc)) for d, sc in _tenths_tables().scores(hand12, exclude, require)]


def _check_twelve(hand12: CardSet) -> None:
    if popcount(hand12) != HAND_SIZE + DOBB_SIZE:
        raise DobbmError(f"need {HAND_SIZE + DOBB_SIZE} cards, not {popcount(hand12)}")


def _card_tenths(c: Card, top: bool) -> int:
    """:func:`discard_score`'s term of laying ``c`` away, in tenths (``top``: a top card)."""
    v = round(10 * BANK_WEIGHT) * card_points(c)
    if card_suit(c) == TRUMP:
        v -= round(10 * HEART_PENALTY) + 10 * card_rank(c)
    elif top:
        v -= round(10 * SAU_PENALTY) if card_rank(c) == RANK_A else round(10 * TOP_CARD_PENALTY)
    return v


def _kept_suit_tenths(kept_s: CardSet, top: CardSet) -> int:
    """:func:`discard_score`'s term of a plain suit kept, in tenths: ``kept_s`` the cards
    kept in it (not none), ``top`` its :func:`top_cards`."""
    n = popcount(kept_s)
    v = round(10 * SINGLETON_VALUE) if n == 1 and not kept_s & top else 0
    risk = round(10 * RISK_SHORT) if n <= 2 else round(10 * RISK_LONG)
    return v - risk * sum(card_points(c) for c in scan_forward(kept_s & ~top))


def _void_tenths(kept_hearts: int) -> int:
    """:func:`discard_score`'s term of a plain suit kept void, in tenths."""
    return round(10 * VOID_VALUE[min(kept_hearts, 2)])


def discard_tables(card_term: Callable[[Card, bool], float], suit_term: Callable[[CardSet, CardSet], float],
                    void_term: Callable[[int], float]) -> Tables:
    """The compiled scorer of a lay-away rule made of terms (see ``_discard``): a term per
    card laid away (``card_term(card, top)``), per plain suit kept (``suit_term(kept, top)``,
    both holdings of the suit's cards, as cards of E) and per plain suit kept void
    (``void_term(hearts kept)``); the top cards are :func:`top_cards`, the suits'
    terms are added in :data:`PLAIN_SUITS` order, the Sau rule is obeyed."""
    shift = CARDS_PER_SUIT * E
    return Tables(lambda h: top_cards(h << shift, E) >> shift, card_term,
                  lambda kept, top: suit_term(kept << shift, top << shift), void_term,
                  PLAIN_SUITS, BB_TRUMPS, BB_PLAIN_SAUS)


@cache
def _tenths_tables() -> Tables:
    """:func:`fast_discard_scores`' terms, built on first use."""
    return discard_tables(_card_tenths, _kept_suit_tenths, _void_tenths)


# --- the calibrated rule ----------------------------------------------------
#: The features of a lay-away ``d`` of ``hand12`` (kept: ``hand12 - d``; a plain
#: card is *top* if it is in the unbroken run from the Sau down, see
#: :func:`top_cards`; ``kh``: hearts kept).
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

#: The fitted weights, one per feature (``benchmarks/calibrate_discard.py``).
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


def discard_features(hand12: CardSet, discard: CardSet) -> list[float]:
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


def calibrated_score(hand12: CardSet, discard: CardSet, weights: tuple[float, ...] = WEIGHTS) -> float:
    """The rule's score of laying ``discard`` away from ``hand12`` (higher is better)."""
    return _dot(weights, discard_features(hand12, discard))


def calibrated_discard(hand12: CardSet, weights: tuple[float, ...] = WEIGHTS) -> CardSet:
    """The legal lay-away (Sau rule obeyed) of the declarer's 12 cards with the highest
    :func:`calibrated_score`; ties go to the first in
    :func:`legal_discards` order.  Sees only ``hand12``.

    Fast: the compiled scorer adds up each lay-away's score from :func:`_calibrated_tables`, the
    weighted per-card and per-kept-suit features, and keeps the first best: a later
    lay-away wins only by more than :data:`_TIE` (the sums of the terms may differ from
    :func:`calibrated_score`'s in the last bits)."""
    if popcount(hand12) != HAND_SIZE + DOBB_SIZE:
        raise DobbmError(f"need {HAND_SIZE + DOBB_SIZE} cards, not {popcount(hand12)}")
    return _calibrated_tables(tuple(weights)).first_best(hand12, 0, 0, _TIE)


def build_tables(weights: tuple[float, ...] = WEIGHTS) -> None:
    """Build now what both rules build on first use: :func:`heuristic_discard`'s and
    :func:`fast_discard_scores`' tables, and :func:`calibrated_discard`'s for ``weights``
    (kept for the process: threads share them, forked workers inherit them)."""
    _tenths_tables()
    _calibrated_tables(tuple(weights))


#: :func:`calibrated_discard`: a later lay-away beats the best so far by more than this
_TIE = 1e-9


def _dot(weights: Sequence[float], features: Sequence[float]) -> float:
    return sum(w * x for w, x in zip(weights, features))


@lru_cache(maxsize=8)
def _calibrated_tables(weights: tuple[float, ...]) -> Tables:
    """:func:`calibrated_discard`'s terms for ``weights``, built on first use: a card's
    weighted :func:`_card_features`, a kept plain suit's weighted :func:`_suit_features`
    (which count the hearts kept only for a void)."""
    wc, ws = weights[:_N_CARD], weights[_N_CARD:]
    return discard_tables(lambda c, top: _dot(wc, _card_features(c, (1 << c) if top else 0)),
                           lambda kept, top: _dot(ws, _suit_features(kept, top, 0)),
                           lambda kh: _dot(ws, _suit_features(0, 0, kh)))
