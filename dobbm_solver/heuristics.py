"""Table heuristics: how a player rates a hand, lays away, and random deals.

Nothing here looks at the other hands or calls the solver: these are the rules
of thumb a Tyrolean player at the table uses, written down so that they are
deterministic and can be tested.  They serve to generate realistic deals
(:func:`random_deal`, the benchmark hand files) and as a baseline to compare
the solver's best lay-away with.

Bidding strength (:func:`hand_strength`)
----------------------------------------
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

Solo or Dobbm (:data:`SOLO_THRESHOLD`)
--------------------------------------
:func:`random_deal` makes the strongest hand the declarer and has it play a
Solo when its strength is at least ``SOLO_THRESHOLD`` = 16.5, else a Dobbm.
Hands just above it: ``HA H10 HK EA E9 L8 L7 S6`` (17), ``HU H9 H8 H7 H6 EA
L9 S8`` (17), ``HA H10 HK H9 E9 E8 L7 L6`` (18).  Over random deals about
30% are then Solos (30.5% of 100 000 deals; the benchmark set,
``hands/benchmark.yaml``, states its own share).

Lay-away (:func:`heuristic_discard`)
------------------------------------
Of all legal four-card lay-aways (:func:`legal_discards`, the Sau rule
``rules.lay_away_error`` obeyed) the one with the highest
:func:`discard_score` is chosen; ties go to the first in the order of
:func:`legal_discards`, so the choice is deterministic.  The score weighs
what the declarer sees in their own 12 cards, see :func:`discard_score`.

Fast forms
----------
The analyzer's sampler rates and lays away thousands of hands per analysis:
:func:`fast_hand_strength` gives :func:`hand_strength` from per-suit tables,
and :func:`heuristic_discard` scores the lay-aways in integers
(:func:`fast_discard_scores`, tenths of :func:`discard_score`: a term per
card laid away and per plain suit kept, added up by the compiled scorer
``_lay_away``), re-scoring only the few tied at the top.  Both give exactly
the plain definitions' results (``tests/test_heuristics.py`` and
``tests/test_lay_away_core.py`` check this on many random hands).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations
from typing import Callable, Sequence, overload

from .cards import (
    BB_ALL,
    BB_PLAIN_SAUS,
    BB_SUITS,
    BB_TRUMPS,
    CARDS_PER_SUIT,
    DOBB_SIZE,
    HAND_SIZE,
    NUM_CARDS,
    RANK_10,
    RANK_A,
    RANK_K,
    TRUMP,
    Card,
    CardSet,
    E,
    L,
    S,
    card_points,
    card_rank,
    card_suit,
    popcount,
    scan_forward,
)
from .deal import Deal, validate
from .errors import DobbmError
from .rules import sau_rule_ok

try:
    from ._lay_away import Tables
except ImportError as exc:  # pragma: no cover - a broken install, not a code path
    raise ImportError(
        "dobbm_solver's compiled lay-away scorer (_lay_away) is missing: build it in this source folder "
        "with 'pip install -e .' or 'python setup.py build_ext --inplace'"
    ) from exc

__all__ = [
    "TRUMP_VALUE", "SOLO_THRESHOLD", "DEFAULT_SEATS",
    "hand_strength", "fast_hand_strength", "legal_discards", "top_cards", "discard_score",
    "fast_discard_scores", "heuristic_discard", "build_discard_tables",
    "deal_cards", "random_deal",
]

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

#: A hand at least this strong plays Solo in :func:`random_deal` (about 30% of deals).
SOLO_THRESHOLD = 16.5

DEFAULT_SEATS: tuple[str, ...] = ("Anna", "Bert", "Cora", "Dave")


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
        if sau_rule_ok(d):       # four cards: the Sau rule is all of lay_away_error
            out.append(d)
    return out


# --- lay-away scoring -------------------------------------------------------
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
    scorer (``_lay_away``); order as :func:`legal_discards`.
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


def lay_away_tables(card_term: Callable[[Card, bool], float], suit_term: Callable[[CardSet, CardSet], float],
                    void_term: Callable[[int], float]) -> Tables:
    """The compiled scorer of a lay-away rule made of terms (see ``_lay_away``): a term per
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
    return lay_away_tables(_card_tenths, _kept_suit_tenths, _void_tenths)


def build_discard_tables() -> None:
    """Build now what :func:`heuristic_discard` and :func:`fast_discard_scores` build on
    first use (kept for the process: threads share it, forked workers inherit it)."""
    _tenths_tables()


# --- hand_strength, fast: the analyzer's sampler rates thousands of hands ----
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


# --- random deals -----------------------------------------------------------
def deal_cards(order: Sequence[int], n_seats: int = 4) -> tuple[list[CardSet], CardSet]:
    """Deal a shuffled deck as the rule book says: packets of four, clockwise,
    until each seat has 8; the last four cards are the Dobb."""
    if sorted(order) != list(range(NUM_CARDS)):
        raise ValueError("order must be a permutation of the 36 cards")
    hands = [0] * n_seats
    pos = 0
    for _ in range(HAND_SIZE // 4):
        for seat in range(n_seats):
            for c in order[pos:pos + 4]:
                hands[seat] |= 1 << c
            pos += 4
    dobb = 0
    for c in order[pos:pos + DOBB_SIZE]:
        dobb |= 1 << c
    assert sum(hands) | dobb == BB_ALL
    return hands, dobb


def random_deal(rng: random.Random, seats: Sequence[str] = DEFAULT_SEATS,
                contract: str | None = None, *, lay_away: bool = True) -> Deal:
    """A random deal at the opening lead, declarer and contract as at the table.

    The deck is shuffled with ``rng`` (one ``rng.shuffle`` of the 36 cards)
    and dealt by :func:`deal_cards` to the four ``seats`` in order.  The
    declarer is the seat with the highest :func:`hand_strength` (the first
    such seat on a tie).  With ``contract`` None the declarer plays Solo if
    that strength is at least :data:`SOLO_THRESHOLD`, else Dobbm.  In a Dobbm
    the declarer takes the Dobb and lays away :func:`heuristic_discard`; with
    ``lay_away=False`` the Dobb is left untaken (``discard`` None, the
    declarer holding the 8 dealt cards) for a lay-away study.  The result is
    checked with :func:`dobbm_solver.deal.validate`.
    """
    seats = tuple(seats)
    if len(seats) != 4:
        raise ValueError(f"need four seats, not {len(seats)}")
    if contract not in (None, "dobbm", "solo"):
        raise ValueError(f"contract must be None, 'dobbm' or 'solo', not {contract!r}")
    order = list(range(NUM_CARDS))
    rng.shuffle(order)
    hands, dobb = deal_cards(order, len(seats))
    strengths = [hand_strength(h) for h in hands]
    i = max(range(len(seats)), key=lambda k: (strengths[k], -k))
    declarer = seats[i]
    if contract is None:
        contract = "solo" if strengths[i] >= SOLO_THRESHOLD else "dobbm"
    deal = Deal(seats=seats, declarer=declarer, contract=contract,
                hands=dict(zip(seats, hands)), dobb=dobb)
    if contract == "dobbm" and lay_away:
        deal = deal.with_discard(heuristic_discard(hands[i] | dobb))
    validate(deal)
    return deal
