"""Tests of dobbm_solver.analyzer.sampling: the card allocator, the sampler, its cache."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from views import BID_PASSED, bid_file, random_play_view, view_of

from dobbm_solver.analyzer import AnalyzerError, View, load_views, sample_deals, sampling
from dobbm_solver.analyzer.sampling import CardAllocator, clear_sampler_cache
from dobbm_solver.analyzer.view import follow_tricks
from dobbm_solver.cards import BB_SUITS, cardset, popcount, set_names
from dobbm_solver.deal import Deal, validate
from dobbm_solver.models import bidding
from dobbm_solver.models.strength import hand_strength

REPO = Path(__file__).resolve().parents[1]


def test_improbable_auction_fails_cleanly(monkeypatch) -> None:
    # all three others bid nothing but the model makes Anna's Solo nearly impossible
    text = bid_file("HA H10 HK HO HU H9 H8 H7", "  - {Anna: solo}\n").replace("{Anna: solo}", "{Anna: dobbm}")
    v = view_of(text, "bid")
    # patched where they are read: the sampler's tries, the bidding model's noise and lapses
    monkeypatch.setattr(sampling, "MAX_TRIES", 5)
    monkeypatch.setattr(bidding, "BID_SPREAD", 0.01)
    monkeypatch.setattr(bidding, "BID_LAPSE", 0.0)
    assert bidding.bid_likelihood("dobbm", 0) < 1e-9     # the patches are the ones read
    clear_sampler_cache()
    with pytest.raises(AnalyzerError) as info:
        sample_deals(v, 3, seed=1)
    assert info.value.key == "bids" and "too unlikely" in info.value.message
    clear_sampler_cache()


def check_sample(view: View, deal: Deal) -> None:
    validate(deal)                        # every card once, counts, no revoke in the tricks
    assert deal.tricks == view.tricks and deal.declarer == view.declarer
    assert deal.contract == view.contract
    for s, seen in view.hands.items():
        assert deal.hands[s] & seen == seen
    assert deal.hands[view.me] == view.my_hand
    if view.dobb is not None:
        assert deal.dobb == view.dobb
    if view.discard is not None:
        assert deal.discard == view.discard
    # voids shown stay voids (validate's revoke check needs the held cards; check directly too)
    played = follow_tricks(view.active, view.declarer, view.tricks)
    for s in view.active:
        for suit in range(4):
            if (played.voids[s] >> suit) & 1:
                assert not deal.hands[s] & BB_SUITS[suit]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 9))
def test_sampler_respects_everything_known(seed: int) -> None:
    view, real = random_play_view(seed)
    for deal in sample_deals(view, 4, seed=seed):
        check_sample(view, deal)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 9), st.sampled_from(["pass", "dobbm"]))
def test_bid_samples_respect_counts_and_bids(seed: int, first: str) -> None:
    rng = random.Random(seed)
    hand = cardset(rng.sample(range(36), 8))
    text = bid_file(" ".join(set_names(hand)), f"  - {{Anna: {first}}}\n")
    v = view_of(text, "bid")
    for deal in sample_deals(v, 3, seed=seed):
        validate(deal)
        assert deal.hands["Bert"] == hand and deal.needs_discard
        assert all(popcount(h) == 8 for h in deal.hands.values())


def test_sampler_follows_the_auction() -> None:
    """Passing hands are weaker than Solo bidders' hands."""
    base = bid_file("E9 E8 E7 L9 L8 L7 S9 S8", "  - {Anna: %s}\n")
    mean = {}
    for bid in ("pass", "dobbm"):
        v = view_of(base % bid, "bid")
        mean[bid] = sum(hand_strength(d.hands["Anna"]) for d in sample_deals(v, 150, seed=3)) / 150
    assert mean["pass"] + 3 < mean["dobbm"]


def test_void_allocator_exact() -> None:
    """The count-then-shuffle allocator is uniform: two places, one void in a suit."""
    groups = [([0, 1], (0, 1)), ([9, 10], (1,))]   # cards 0,1 anywhere; 9,10 only in place 1
    allocator = CardAllocator(groups, (1, 3))
    assert allocator.total == 2                       # place 0 takes card 0 or card 1
    rng = random.Random(0)
    seen = {tuple(allocator.draw(rng)) for _ in range(50)}
    assert seen == {(1, 0b11000000010), (2, 0b11000000001)}
    assert CardAllocator(groups, (3, 1)).total == 0


def test_samples_are_reproducible() -> None:
    v = view_of(BID_PASSED, "bid")
    a = sample_deals(v, 5, seed=11)
    clear_sampler_cache()
    assert sample_deals(v, 5, seed=11) == a
    assert sample_deals(v, 2, seed=11, start=3) == a[3:]
    assert sample_deals(v, 5, seed=12) != a


@pytest.mark.parametrize("name,command", [("bid.yaml", "bid"), ("discard.yaml", "discard"),
                                          ("double.yaml", "double"), ("double_retour.yaml", "double")])
def test_example_files(name: str, command: str) -> None:
    [view] = load_views(REPO / "hands" / name, command)
    for deal in sample_deals(view, 3, seed=1):
        validate(deal)
