"""Tests of dobbm_solver.analyzer.sampling: the card allocator, the sampler, its cache."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from randdeals import play_random
from views import BID_PASSED, SEATS, bid_file, view_of

from dobbm_solver.analyzer import AnalyzerError, View, bidding, load_views, make_view, model_bid, sample_deals, sampling
from dobbm_solver.analyzer.sampling import CardAllocator, clear_sampler_cache
from dobbm_solver.analyzer.view import follow_tricks
from dobbm_solver.cards import BB_SUITS, card_name, cardset, popcount, scan_forward, set_names
from dobbm_solver.deal import Deal, validate
from dobbm_solver.handfile import parse_spec
from dobbm_solver.heuristics import hand_strength, heuristic_discard, legal_discards

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


def random_play_view(seed: int) -> tuple[View, Deal]:
    """A random real deal in mid-play and one player's view of it."""
    rng = random.Random(seed)
    cards = list(range(36))
    rng.shuffle(cards)
    hands = {s: cardset(cards[8 * i:8 * i + 8]) for i, s in enumerate(SEATS)}
    dobb = cardset(cards[32:])
    # the strongest hand declares, as the bidding model would have it (so the
    # auction the view implies is a plausible one)
    declarer = max(SEATS, key=lambda s: hand_strength(hands[s]))
    contract = model_bid(hands[declarer], must=True)
    discard = None
    if contract == "dobbm":
        twelve = hands[declarer] | dobb
        discard = heuristic_discard(twelve) if rng.random() < 0.6 else \
            rng.choice(legal_discards(twelve))
        hands[declarer] = twelve & ~discard
    tricks = play_random(rng, hands, SEATS, declarer, rng.randint(0, 31))
    dealer = rng.choice(SEATS + [None])
    deal = Deal(tuple(SEATS), declarer, contract, dict(hands), dobb, discard, tricks, 0, dealer)
    validate(deal)
    me = rng.choice(SEATS)
    seen = {me: hands[me]}
    doc: dict = {"seats": SEATS, "dealer": dealer, "me": me, "declarer": declarer, "contract": contract,
                 "hands": {s: " ".join(set_names(c)) for s, c in seen.items()},
                 "tricks": [" ".join(card_name(c) for c in t) for t in tricks]}
    if contract == "dobbm" and (me == declarer or rng.random() < 0.3):
        doc["dobb"] = " ".join(set_names(dobb))
    if contract == "dobbm" and (me == declarer or rng.random() < 0.3):
        doc["discard"] = " ".join(set_names(discard))
    if me != declarer and rng.random() < 0.3:
        # a card of another hand seen by chance
        other = rng.choice([s for s in SEATS if s != me and hands[s]] or [me])
        if other != me:
            c = rng.choice(list(scan_forward(hands[other])))
            doc["hands"][other] = set_names(1 << c)[0]
    spec = parse_spec(yaml.safe_load(yaml.safe_dump(doc)), "p.yaml")
    return make_view(spec, "play"), deal


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
