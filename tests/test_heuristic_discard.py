"""The rule of thumb's lay-away (dobbm_solver.models.discard_rule): legal lay-aways, scores, choice."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb
from pathlib import Path

import pytest
from helpers import cs
from hypothesis import given, settings
from hypothesis import strategies as st

from dobbm_solver.cards import (
    BB_PLAIN_SAUS,
    BB_SUITS,
    BB_TRUMPS,
    NUM_CARDS,
    card_name,
    cardset,
    popcount,
    scan_forward,
)
from dobbm_solver.errors import DobbmError
from dobbm_solver.models.discard_rule import (
    discard_score,
    fast_discard_scores,
    heuristic_discard,
    legal_discards,
    top_cards,
)
from dobbm_solver.rules import discard_error

ROOT = Path(__file__).resolve().parent.parent


hands12 = st.lists(st.integers(0, NUM_CARDS - 1), min_size=12, max_size=12, unique=True).map(cardset)



# --- legal_discards ----------------------------------------------------------
def _sau_rule_allows(names: tuple[str, ...]) -> bool:
    """RULES.md, by card names: no more plain Saus (EA, LA, SA) laid away than hearts."""
    return sum(n in ("EA", "LA", "SA") for n in names) <= sum(n.startswith("H") for n in names)


def _expected_legal_count(hand12: int) -> int:
    names = [card_name(c) for c in scan_forward(hand12)]
    return sum(1 for four in combinations(names, 4) if _sau_rule_allows(four))


@pytest.mark.parametrize("text,expected", [
    ("E6 E7 E8 E9 L6 L7 L8 L9 S6 S7 S8 S9", 495),     # no Saus: everything goes
    # three plain Saus, one heart: 495 minus sets with more Saus than hearts.
    # Saus>hearts: 1 Sau 0 hearts: 3*C(8,3)=168; 2 Saus 0-1 hearts: 3*(C(8,2)+C(8,1)) = 108;
    # 3 Saus: 1*(C(9,1)) = 9 (with or without the heart, 3 > 1)
    ("EA LA SA H6 E6 E7 E8 L6 L7 L8 S6 S7", 495 - 168 - 108 - 9),
])
def test_legal_discards_count(text, expected):
    h = cs(text)
    ds = legal_discards(h)
    assert len(ds) == expected == _expected_legal_count(h)


@given(hands12)
@settings(max_examples=60, deadline=None)
def test_legal_discards_complete_and_legal(h12):
    ds = legal_discards(h12)
    assert len(ds) == len(set(ds)) == _expected_legal_count(h12)
    n_plain_saus = popcount(h12 & BB_PLAIN_SAUS)
    if n_plain_saus == 0:
        assert len(ds) == comb(12, 4)
    for d in ds:
        assert popcount(d) == 4 and d & ~h12 == 0
        assert discard_error(d) is None
    assert ds == legal_discards(h12)   # deterministic order


# --- heuristic_discard -------------------------------------------------------
@given(hands12)
@settings(max_examples=200, deadline=None)
def test_heuristic_discard_always_legal(h12):
    d = heuristic_discard(h12)
    assert popcount(d) == 4
    assert d & ~h12 == 0
    assert discard_error(d) is None
    assert heuristic_discard(h12) == d
    assert discard_score(h12, d) == max(discard_score(h12, x) for x in legal_discards(h12))


def test_heuristic_discard_needs_twelve_cards():
    with pytest.raises(DobbmError):
        heuristic_discard(cs("HA H10 HK HO HU H9 E6 L6"))


def test_heuristic_discard_keeps_trumps_and_saus_and_voids_short_suits():
    h = cs("HA H10 HK HO HU EA E9 LA L7 L6 S10 S7")
    d = heuristic_discard(h)
    kept = h & ~d
    assert kept & BB_TRUMPS == h & BB_TRUMPS           # every trump kept
    assert kept & BB_PLAIN_SAUS == h & BB_PLAIN_SAUS    # every Sau kept
    assert kept & BB_SUITS[3] == 0                      # bells voided, S10 banked
    assert d & cs("S10")


def test_heuristic_discard_banks_an_unguarded_ten():
    # E10 bare (no EA) is likely lost to the Sau: lay it away where it counts for the declarer
    h = cs("HA HK HO H9 H8 E10 LA LK L9 SA S9 S8")
    d = heuristic_discard(h)
    assert d & cs("E10")
    assert h & BB_TRUMPS & ~d == h & BB_TRUMPS


def test_heuristic_discard_sau_needs_a_heart():
    # only Saus and small cards: the best lay-away may not contain a Sau without a heart
    h = cs("EA E6 E7 LA L6 L7 SA S6 S7 H6 H7 H8")
    d = heuristic_discard(h)
    assert popcount(d & BB_PLAIN_SAUS) <= popcount(d & BB_TRUMPS)


def _plain_heuristic_discard(hand12: int) -> int:
    """The definition: the first lay-away in legal_discards order with the highest discard_score."""
    best, best_score = 0, float("-inf")
    for d in legal_discards(hand12):
        sc = discard_score(hand12, d)
        if sc > best_score:
            best, best_score = d, sc
    return best


def test_heuristic_discard_is_the_first_best_by_discard_score():
    rng = random.Random(5)
    for _ in range(100):
        hand12 = cardset(rng.sample(range(36), 12))
        assert heuristic_discard(hand12) == _plain_heuristic_discard(hand12)


def test_fast_discard_scores_agree_with_discard_score():
    rng = random.Random(6)
    for _ in range(40):
        hand12 = cardset(rng.sample(range(36), 12))
        scored = fast_discard_scores(hand12)
        assert [d for d, _ in scored] == legal_discards(hand12)
        for d, sc in scored:
            assert sc == round(10 * discard_score(hand12, d))
        # exclude and require filter the same list
        some = list(scan_forward(hand12))
        ex, req = 1 << some[0], 1 << some[-1]
        assert fast_discard_scores(hand12, ex, req) == [(d, sc) for d, sc in scored
                                                        if not d & ex and d & req == req]


def test_heuristic_discard_exclude():
    hand12 = cs("HA H10 HK HO HU H9 EA E10 L10 S7 S8 S9")
    d = heuristic_discard(hand12)
    d2 = heuristic_discard(hand12, exclude=d & -d)          # one of its cards may not go
    assert d2 is not None and not d2 & (d & -d) and discard_error(d2) is None
    assert heuristic_discard(cs("EA LA SA S6 HA E6 E7 E8 E9 L6 L7 L8"),
                             exclude=cs("E6 E7 E8 E9 L6 L7 L8 HA")) is None
    # require: the favourite among the lay-aways holding those cards
    hand12 = cs("HA H10 HK HO HU H9 EA E10 L10 S7 S8 S9")
    d3 = heuristic_discard(hand12, require=cs("HA"))
    assert d3 is not None and d3 & cs("HA")
    assert d3 == max((x for x in legal_discards(hand12) if x & cs("HA")),
                     key=lambda x: (discard_score(hand12, x), -legal_discards(hand12).index(x)))


def test_top_cards():
    h = cs("EA E10 EO LA LK S10 SK")
    assert top_cards(h, 0) == cs("EA E10")      # the K is missing: the run stops
    assert top_cards(h, 1) == cs("LA")
    assert top_cards(h, 3) == 0                 # no Sau: no top cards
