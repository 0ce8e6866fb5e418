"""Hand strength (dobbm_solver.models.strength): the rule of thumb and its fast form."""

from __future__ import annotations

import random
from pathlib import Path

from helpers import cs
from hypothesis import given
from hypothesis import strategies as st

from dobbm_solver.cards import (
    BB_TRUMPS,
    NUM_CARDS,
    cardset,
    scan_forward,
)
from dobbm_solver.dealer import SOLO_THRESHOLD
from dobbm_solver.models.strength import fast_hand_strength, hand_strength

ROOT = Path(__file__).resolve().parent.parent


hands12 = st.lists(st.integers(0, NUM_CARDS - 1), min_size=12, max_size=12, unique=True).map(cardset)



# --- hand_strength -----------------------------------------------------------
def test_strength_top_trumps_beat_no_trumps():
    six_top = cs("HA H10 HK HO HU H9 E6 L6")
    no_trumps = cs("E9 E8 E7 L9 L8 L7 S9 S8")
    assert hand_strength(six_top) > hand_strength(no_trumps)
    assert hand_strength(no_trumps) == 0.0
    assert hand_strength(six_top) >= SOLO_THRESHOLD


def test_strength_orders_obvious_cases():
    # higher trumps beat lower ones, card for card
    assert hand_strength(cs("HA H10 HK E9 E8 L9 L8 S9")) > hand_strength(cs("H8 H7 H6 E9 E8 L9 L8 S9"))
    # a Sau beats a small card of the same suit
    assert hand_strength(cs("HK H9 EA E8 L9 L8 S9 S8")) > hand_strength(cs("HK H9 E9 E8 L9 L8 S9 S8"))
    # a fourth trump beats a small plain card
    assert hand_strength(cs("HO HU H9 H8 E9 L9 L8 S9")) > hand_strength(cs("HO HU H9 E8 E9 L9 L8 S9"))
    # a guarded 10 beats a bare one
    assert hand_strength(cs("H9 E10 E7 L9 L8 S9 S8 S7")) > hand_strength(cs("H9 E10 L7 L9 L8 S9 S8 S7"))


@given(hands12, st.data())
def test_strength_rises_when_a_small_plain_card_becomes_a_heart(h12, data):
    hand = sum(1 << c for c in list(scan_forward(h12))[:8])
    small_plain = [c for c in scan_forward(hand & ~BB_TRUMPS) if c % 9 <= 3]
    free_hearts = [c for c in scan_forward(BB_TRUMPS & ~hand)]
    if not small_plain or not free_hearts:
        return
    out = data.draw(st.sampled_from(small_plain))
    into = data.draw(st.sampled_from(free_hearts))
    assert hand_strength(hand & ~(1 << out) | (1 << into)) > hand_strength(hand)


def test_fast_hand_strength_agrees_with_hand_strength():
    rng = random.Random(36)
    for k in range(6000):
        size = (8, 12, rng.randint(0, 36))[k % 3]
        hand = cardset(rng.sample(range(36), size))
        assert fast_hand_strength(hand) == hand_strength(hand)
    for text in ("HA H10 HK HO HU H9 E6 L6", "E9 E8 E7 L9 L8 L7 S9 S8", "HA H10 HK EA E9 L8 L7 S6"):
        assert fast_hand_strength(cs(text)) == hand_strength(cs(text))
