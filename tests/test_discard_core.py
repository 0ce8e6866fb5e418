"""The compiled lay-away scorer (``_discard``) against the rules' Python definitions.

The references below are the lay-away loops as written in Python before the
scorer was compiled: ``calibrated_discard`` adding each lay-away's weighted
per-card and per-suit features in the same order, ``fast_discard_scores``
adding the same terms in integer tenths of ``discard_score``.  The compiled
scorer must give the same lay-aways, the same choice and the same scores,
to the last bit, on many seeded hands of every shape.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Callable, Iterator

import pytest

from dobbm_solver._discard import Tables
from dobbm_solver.cards import (
    BB_PLAIN_SAUS,
    BB_SUITS,
    BB_TRUMPS,
    CARDS_PER_SUIT,
    DOBB_SIZE,
    NUM_CARDS,
    RANK_10,
    RANK_A,
    TRUMP,
    card_points,
    card_rank,
    card_suit,
    cardset,
    popcount,
    scan_forward,
)
from dobbm_solver.errors import DobbmError
from dobbm_solver.models import discard_rule as h
from dobbm_solver.models import discard_rule as rule
from dobbm_solver.rules import sau_rule_ok

PLAIN = h.PLAIN_SUITS
HEARTS = list(scan_forward(BB_TRUMPS))
PLAIN_CARDS = [c for c in range(NUM_CARDS) if card_suit(c) != TRUMP]


# --- hands of every shape -----------------------------------------------------
def _uniform(rng: random.Random) -> int:
    return cardset(rng.sample(range(NUM_CARDS), 12))


def _many_hearts(rng: random.Random) -> int:
    k = rng.randint(5, 9)
    return cardset(rng.sample(HEARTS, k) + rng.sample(PLAIN_CARDS, 12 - k))


def _saus(rng: random.Random) -> int:
    saus = list(scan_forward(BB_PLAIN_SAUS))
    mine = rng.sample(saus, rng.randint(2, 3))
    rest = [c for c in range(NUM_CARDS) if c not in mine]
    return cardset(mine + rng.sample(rest, 12 - len(mine)))


def _voids(rng: random.Random) -> int:
    """Cards from the hearts and one or two plain suits: one or two plain voids."""
    suits = rng.sample(PLAIN, rng.randint(1, 2))
    pool = HEARTS + [c for s in suits for c in scan_forward(BB_SUITS[s])]
    return cardset(rng.sample(pool, 12))


def _top_runs(rng: random.Random) -> int:
    """Long runs from the Sau down in the plain suits (top cards), a few hearts."""
    cards: set[int] = set()
    for s in rng.sample(PLAIN, rng.randint(1, 3)):
        run = rng.randint(1, 6)
        cards.update(CARDS_PER_SUIT * s + RANK_A - r for r in range(run))
    cards = set(list(cards)[:10])
    rest = [c for c in range(NUM_CARDS) if c not in cards]
    return cardset(list(cards) + rng.sample(rest, 12 - len(cards)))


SHAPES: tuple[Callable[[random.Random], int], ...] = (_uniform, _many_hearts, _saus, _voids, _top_runs)


def _hands(n: int, seed: int) -> Iterator[int]:
    rng = random.Random(seed)
    for i in range(n):
        hand = SHAPES[i % len(SHAPES)](rng)
        assert popcount(hand) == 12
        yield hand


def _masks(hand12: int, rng: random.Random) -> tuple[int, int]:
    """Cards that may not go and cards that must (as the sampler passes them), now and
    then a contradiction or a card outside the hand."""
    cards = list(scan_forward(hand12))
    exclude = cardset(rng.sample(cards, rng.randint(0, 4)))
    free = [c for c in cards if not (exclude >> c) & 1]
    require = cardset(rng.sample(free, rng.randint(0, 3)))
    roll = rng.random()
    if roll < 0.05 and exclude:
        require |= exclude & -exclude
    elif roll < 0.08:
        require |= 1 << rng.choice([c for c in range(NUM_CARDS) if not (hand12 >> c) & 1])
    return exclude, require


# --- the references: the Python loops of the rules --------------------------------
def _tops(hand12: int) -> int:
    tops = 0
    for s in PLAIN:
        tops |= h.top_cards(hand12, s)
    return tops


_CAL_MEMO: dict[tuple, dict[tuple[int, int, int], float]] = {}


def reference_calibrated(hand12: int, weights: tuple[float, ...]) -> tuple[int, list[tuple[int, float]]]:
    """``calibrated_discard``'s Python loop: its choice and every legal lay-away's score."""
    n_card = rule._N_CARD
    tops = _tops(hand12)
    cards = list(scan_forward(hand12))
    wc, ws = weights[:n_card], weights[n_card:]
    base = {c: sum(w * x for w, x in zip(wc, rule._card_features(c, tops))) for c in cards}
    n_hearts = popcount(hand12 & BB_TRUMPS)
    memo = _CAL_MEMO.setdefault(weights, {})

    def suit_term(kept_s: int, top_s: int, kh: int) -> float:
        v = memo.get((kept_s, top_s, kh))
        if v is None:
            v = memo[kept_s, top_s, kh] = sum(w * x for w, x in zip(ws, rule._suit_features(kept_s, top_s, kh)))
        return v

    best, best_score = 0, float("-inf")
    scored = []
    for c0, c1, c2, c3 in combinations(cards, DOBB_SIZE):
        d = (1 << c0) | (1 << c1) | (1 << c2) | (1 << c3)
        if not sau_rule_ok(d):
            continue
        kept = hand12 & ~d
        kh = n_hearts - popcount(d & BB_TRUMPS)
        t1, t2, t3 = (suit_term(kept & BB_SUITS[s], tops & BB_SUITS[s], kh) for s in PLAIN)
        sc = base[c0] + base[c1] + base[c2] + base[c3] + t1 + t2 + t3
        scored.append((d, sc))
        if sc > best_score + 1e-9:
            best, best_score = d, sc
    return best, scored


_TENTHS_MEMO: dict[tuple[int, int, int], int] = {}


def reference_tenths(hand12: int, exclude: int = 0, require: int = 0) -> list[tuple[int, int]]:
    """``fast_discard_scores``' Python loop: every lay-away with ``10 x discard_score`` in integers."""
    cards = list(scan_forward(hand12))
    tops = _tops(hand12)
    base = {}
    for c in cards:
        v = round(10 * h.BANK_WEIGHT) * card_points(c)
        if card_suit(c) == TRUMP:
            v -= round(10 * h.HEART_PENALTY) + 10 * card_rank(c)
        elif (tops >> c) & 1:
            v -= round(10 * h.SAU_PENALTY) if card_rank(c) == RANK_A else round(10 * h.TOP_CARD_PENALTY)
        base[c] = v

    def suit_term(kept_s: int, top: int, kh: int) -> int:
        v = _TENTHS_MEMO.get((kept_s, top, kh))
        if v is None:
            n = popcount(kept_s)
            if n == 0:
                v = round(10 * h.VOID_VALUE[min(kh, 2)])
            else:
                v = round(10 * h.SINGLETON_VALUE) if (n == 1 and not kept_s & top) else 0
                risk = round(10 * h.RISK_SHORT) if n <= 2 else round(10 * h.RISK_LONG)
                v -= risk * sum(card_points(c) for c in scan_forward(kept_s & ~top))
            _TENTHS_MEMO[kept_s, top, kh] = v
        return v

    n_hearts = popcount(hand12 & BB_TRUMPS)
    out = []
    for c0, c1, c2, c3 in combinations(cards, DOBB_SIZE):
        d = (1 << c0) | (1 << c1) | (1 << c2) | (1 << c3)
        if d & exclude or require & ~d or not sau_rule_ok(d):
            continue
        kept = hand12 & ~d
        kh = n_hearts - popcount(d & BB_TRUMPS)
        t1, t2, t3 = (suit_term(kept & BB_SUITS[s], tops & BB_SUITS[s], kh) for s in PLAIN)
        out.append((d, base[c0] + base[c1] + base[c2] + base[c3] + t1 + t2 + t3))
    return out


def reference_heuristic(hand12: int, exclude: int = 0, require: int = 0) -> int | None:
    """``heuristic_discard``'s Python form: the best in tenths, ties re-scored by discard_score."""
    scored = reference_tenths(hand12, exclude, require)
    if not scored:
        return None
    best = max(sc for _, sc in scored)
    tied = [d for d, sc in scored if sc >= best - 1]
    top, top_score = tied[0], float("-inf")
    for d in tied:
        sc = h.discard_score(hand12, d)
        if sc > top_score:
            top, top_score = d, sc
    return top


def _bits(scored: list[tuple[int, float]]) -> list[tuple[int, str]]:
    return [(d, float(sc).hex()) for d, sc in scored]


# --- the calibrated rule ---------------------------------------------------------
def test_calibrated_scores_and_choice_match_the_python_loop() -> None:
    tables = rule._calibrated_tables(rule.WEIGHTS)
    rng = random.Random(41)
    for hand12 in _hands(1500, 40):
        choice, scored = reference_calibrated(hand12, rule.WEIGHTS)
        assert rule.calibrated_discard(hand12) == choice
        if rng.random() < 0.3:        # the whole list: bit for bit, with and without masks
            assert _bits(tables.scores(hand12)) == _bits(scored)
            ex, req = _masks(hand12, rng)
            assert _bits(tables.scores(hand12, ex, req)) == _bits(
                [(d, sc) for d, sc in scored if not d & ex and not req & ~d])


@pytest.mark.parametrize("seed", [1, 2])
def test_calibrated_with_other_weights(seed: int) -> None:
    rng = random.Random(seed)
    weights = tuple(round(rng.uniform(-9, 9), 2) for _ in rule.WEIGHTS)
    for hand12 in _hands(150, 50 + seed):
        choice, scored = reference_calibrated(hand12, weights)
        assert rule.calibrated_discard(hand12, weights) == choice
        assert _bits(rule._calibrated_tables(weights).scores(hand12)) == _bits(scored)


def test_suit_features_count_the_hearts_kept_only_for_a_void() -> None:
    """The scorer asks for a kept suit's term once for every number of hearts kept."""
    rng = random.Random(3)
    for top_len in range(CARDS_PER_SUIT + 1):
        top = sum(1 << (RANK_A - r) for r in range(top_len))
        below = RANK_A - top_len            # a card the holding lacks (the run stops there)
        for kept in range(1, 1 << CARDS_PER_SUIT):
            if below >= 0 and (kept >> below) & 1:
                continue
            f0 = rule._suit_features(kept, top, 0)
            assert rule._suit_features(kept, top, rng.randint(1, 9)) == f0


# --- the rule of thumb -----------------------------------------------------------
def test_tenths_and_choice_match_the_python_loop() -> None:
    rng = random.Random(7)
    for k, hand12 in enumerate(_hands(1500, 8)):
        ex, req = _masks(hand12, rng) if k % 2 else (0, 0)
        assert h.fast_discard_scores(hand12, ex, req) == reference_tenths(hand12, ex, req)
        assert h.heuristic_discard(hand12, ex, req) == reference_heuristic(hand12, ex, req)


def test_tenths_are_discard_score() -> None:
    rng = random.Random(9)
    for hand12 in _hands(150, 10):
        scored = h.fast_discard_scores(hand12)
        for d, sc in rng.sample(scored, 30):
            assert sc == round(10 * h.discard_score(hand12, d))


def test_heuristic_discard_with_a_contradiction_is_none() -> None:
    hand12 = next(_hands(1, 11))
    low = hand12 & -hand12
    assert h.heuristic_discard(hand12, exclude=low, require=low) is None
    assert h.fast_discard_scores(hand12, exclude=hand12) == []


# --- the scorer's own checks --------------------------------------------------------
def test_scorer_needs_twelve_cards() -> None:
    tables = rule._calibrated_tables(rule.WEIGHTS)
    for hand in (0, cardset(range(11)), cardset(range(13)), cardset(range(1, 12)) | 1 << NUM_CARDS):
        with pytest.raises(ValueError):
            tables.scores(hand)
    with pytest.raises(DobbmError):
        h.fast_discard_scores(cardset(range(11)))


def test_scorer_checks_its_tables() -> None:
    def table(top_run: Callable[[int], int], plain: tuple[int, ...] = PLAIN) -> Tables:
        return Tables(top_run, lambda c, top: 0.0, lambda kept, top: 0.0, lambda kh: 0.0,
                      plain, BB_TRUMPS, BB_PLAIN_SAUS)

    table(lambda hold: hold & (1 << RANK_A))
    with pytest.raises(ValueError, match="subset"):
        table(lambda hold: 1 << RANK_10)
    with pytest.raises(ValueError, match="distinct"):
        table(lambda hold: hold)
    with pytest.raises(ValueError, match="plain suits"):
        table(lambda hold: 0, (0, 4))
