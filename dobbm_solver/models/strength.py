"""Hand strength: how a player rates a hand for bidding (:func:`hand_strength`).

Nothing here looks at the other hands or calls the solver: this is the rule
of thumb a Tyrolean player at the table uses, written down so that it is
deterministic and can be tested.  The bidding and doubling models
(:mod:`.bidding`, :mod:`.doubling`) and the random dealer
(:mod:`dobbm_solver.dealer`) build on it.

Hearts are always trumps, so trumps count most.  The score of a hand is the
sum of

* every heart: ``TRUMP_VALUE[rank]`` -- 2 for 6 7 8 9, 3 for U, 3.5 for O,
  4 for K, 4.5 for 10, 5 for A (a small trump still takes a trick when a
  plain suit runs out; high trumps also carry points);
* trump length: +1 for every heart beyond the third (long trumps draw the
  defenders' trumps and keep control);
* in each plain suit (E, L, S):

  - the Sau (A): +3, a sure trick worth 11;
  - the 10: +2 with the Sau of its suit (it is the second top trick), +1 with
    at least one other card of its suit (guarded), +0 bare (it falls to the
    Sau: a liability);
  - the K: +0.5 with the Sau or the 10 of its suit;
  - length: +0.5 for every card beyond the third;
  - shortness, only with three hearts or more: +1.5 for a void, +0.5 for a
    singleton other than the Sau (a short suit lets the declarer trump in).

``E9 E8 E7 L9 L8 L7 S9 S8`` (no trumps, no honours, no long suit) scores 0;
``HA H10 HK HO HU H9 E6 L6`` scores 27.5; the strongest of four random hands
has a median near 14.5.

The analyzer's sampler rates thousands of hands per analysis:
:func:`fast_hand_strength` gives :func:`hand_strength` from per-suit tables,
exactly (``tests/test_strength.py`` checks this on many random hands).
"""

from __future__ import annotations

from ..cards import (
    BB_SUITS,
    BB_TRUMPS,
    CARDS_PER_SUIT,
    RANK_10,
    RANK_A,
    RANK_K,
    TRUMP,
    CardSet,
    E,
    L,
    S,
    card_rank,
    popcount,
    scan_forward,
)

__all__ = ["PLAIN_SUITS", "TRUMP_VALUE", "hand_strength", "fast_hand_strength"]

#: The plain suits, in the order their terms are added.
PLAIN_SUITS: tuple[int, ...] = (E, L, S)

#: Strength of one heart by rank index (6 7 8 9 U O K 10 A).
TRUMP_VALUE: tuple[float, ...] = (2.0, 2.0, 2.0, 2.0, 3.0, 3.5, 4.0, 4.5, 5.0)
TRUMP_LENGTH_BONUS = 1.0      # per heart beyond the third
SAU_VALUE = 3.0
TEN_WITH_SAU = 2.0
TEN_GUARDED = 1.0
KING_WITH_HONOUR = 0.5
LONG_SUIT_BONUS = 0.5         # per plain card beyond the third
VOID_BONUS = 1.5              # only with >= 3 hearts
SINGLETON_BONUS = 0.5         # only with >= 3 hearts, not for a bare Sau


def _ranks(cs: CardSet) -> set[int]:
    return {card_rank(c) for c in scan_forward(cs)}


def hand_strength(hand: CardSet) -> float:
    """Bidding strength of a hand (8 cards, or 12 with the Dobb); see the module doc.

    >>> from dobbm_solver.cards import cardset, parse_cards
    >>> hand_strength(cardset(parse_cards("HA H10 HK HO HU H9 E6 L6")))
    27.5
    >>> hand_strength(cardset(parse_cards("E9 E8 E7 L9 L8 L7 S9 S8")))
    0.0
    """
    score = 0.0
    trumps = hand & BB_TRUMPS
    n_trumps = popcount(trumps)
    for c in scan_forward(trumps):
        score += TRUMP_VALUE[card_rank(c)]
    score += TRUMP_LENGTH_BONUS * max(0, n_trumps - 3)
    for suit in PLAIN_SUITS:
        cs = hand & BB_SUITS[suit]
        n = popcount(cs)
        ranks = _ranks(cs)
        sau = RANK_A in ranks
        if sau:
            score += SAU_VALUE
        if RANK_10 in ranks:
            score += TEN_WITH_SAU if sau else (TEN_GUARDED if n >= 2 else 0.0)
        if RANK_K in ranks and (sau or RANK_10 in ranks):
            score += KING_WITH_HONOUR
        score += LONG_SUIT_BONUS * max(0, n - 3)
        if n_trumps >= 3:
            if n == 0:
                score += VOID_BONUS
            elif n == 1 and not sau:
                score += SINGLETON_BONUS
    return score


# --- fast: from per-suit tables ---------------------------------------------
def _strength_tables() -> tuple[list[float], list[list[float]]]:
    """Per-suit tables of :func:`hand_strength`'s terms (see the module doc).

    The score is a sum of a trump term (by the trump holding) and one term per
    plain suit (by that holding, and whether the hand has three trumps or
    more), so a table of 512 entries for the trumps and two for a plain suit
    give it exactly.  Bit ``r`` of a holding is the card of rank index ``r``.
    """
    trump = [sum(TRUMP_VALUE[r] for r in range(CARDS_PER_SUIT) if (m >> r) & 1)
             + TRUMP_LENGTH_BONUS * max(0, bin(m).count("1") - 3) for m in range(_SUIT_MASKS)]
    plain: list[list[float]] = [[], []]
    for flag in (0, 1):
        for m in range(_SUIT_MASKS):
            n = bin(m).count("1")
            sau, ten, king = (m >> RANK_A) & 1, (m >> RANK_10) & 1, (m >> RANK_K) & 1
            v = SAU_VALUE if sau else 0.0
            if ten:
                v += TEN_WITH_SAU if sau else (TEN_GUARDED if n >= 2 else 0.0)
            if king and (sau or ten):
                v += KING_WITH_HONOUR
            v += LONG_SUIT_BONUS * max(0, n - 3)
            if flag:
                if n == 0:
                    v += VOID_BONUS
                elif n == 1 and not sau:
                    v += SINGLETON_BONUS
            plain[flag].append(v)
    return trump, plain


_SUIT_MASKS = 1 << CARDS_PER_SUIT
_TRUMP_TABLE, _PLAIN_TABLES = _strength_tables()
#: which of ``_PLAIN_TABLES`` rates the plain suits, by the trump holding (1: three trumps or more)
_PLAIN_TABLE_BY_TRUMPS = tuple(1 if bin(m).count("1") >= 3 else 0 for m in range(_SUIT_MASKS))


def fast_hand_strength(hand: CardSet) -> float:
    """:func:`hand_strength` from tables: the same value, many times faster (the trump
    term, then the plain suits' in the order of ``PLAIN_SUITS``; the compiled sampler,
    :mod:`dobbm_solver.analyzer.sampling_core`, adds them from the same tables in the same order)."""
    tm = (hand >> (CARDS_PER_SUIT * TRUMP)) & (_SUIT_MASKS - 1)
    p = _PLAIN_TABLES[_PLAIN_TABLE_BY_TRUMPS[tm]]
    score = _TRUMP_TABLE[tm]
    for suit in PLAIN_SUITS:
        score += p[(hand >> (CARDS_PER_SUIT * suit)) & (_SUIT_MASKS - 1)]
    return score

