"""Tests of dobbm_solver.analyzer: views, the sampler, payment, and the three analyses.

The analyses run on small fixed-seed sample counts (jobs=1, in-process) so
that the file stays fast; the clear cases are chosen so that the right
answer wins by a wide margin even on a few samples.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from helpers import cs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from randdeals import play_random

from dobbm_solver import analyzer as A
from dobbm_solver.analyzer import (
    AnalyzerError,
    View,
    analyze_bid,
    analyze_discard,
    analyze_double,
    bid_probabilities,
    lay_away_classes,
    load_views,
    make_view,
    model_bid,
    payment,
    policy_discard,
    sample_deals,
)
from dobbm_solver.cards import (
    BB_ALL,
    BB_SUITS,
    BB_TRUMPS,
    card_name,
    cardset,
    popcount,
    scan_forward,
    set_names,
)
from dobbm_solver.deal import Deal, validate
from dobbm_solver.handfile import HandFileError, parse_spec, parse_specs
from dobbm_solver.heuristics import hand_strength, heuristic_discard, legal_discards
from dobbm_solver.rules import lay_away_error, units

REPO = Path(__file__).resolve().parents[1]
SEATS = ["Anna", "Bert", "Cora", "Dave"]


def view_of(text: str, command: str) -> View:
    [spec] = parse_specs(text, "t.yaml")
    return make_view(spec, command)


def error_of(text: str, command: str) -> HandFileError:
    with pytest.raises(HandFileError) as info:
        view_of(text, command)
    return info.value


def bid_file(hand: str, bids: str = "", extra: str = "") -> str:
    return (f"seats: [Anna, Bert, Cora, Dave]\ndealer: Dave\nme: Bert\n"
            f"hands:\n  Bert: {hand}\n" + (f"bids:\n{bids}" if bids else "") + extra)


BID_PASSED = bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: pass}\n")

DISCARD = """\
seats: [Anna, Bert, Cora, Dave]
dealer: Cora
me: Dave
hands:
  Dave: H10 HK H8 EK LK LO L9 SU
dobb: EA E10 EU L10
"""

DOUBLE_DEFENDER = """\
seats: [Anna, Bert, Cora, Dave]
dealer: Anna
me: Cora
declarer: Bert
contract: dobbm
hands:
  Cora: HA H10 HK HU E10 EK S9 S7
bids:
  - {Bert: dobbm}
  - {Cora: pass}
  - {Dave: pass}
  - {Anna: pass}
"""

RETOUR = """\
seats: [Anna, Bert, Cora, Dave]
dealer: Anna
me: Bert
declarer: Bert
contract: dobbm
hands:
  Bert: HA H10 HK HO HU EA E10 LA
dobb: HO E10 L7 S6
discard: L7 S6 E7 S8
doublings: 1
"""


# --------------------------------------------------------------------------
# payment and the bidding model


def test_payment() -> None:
    assert payment(60, "dobbm", 0, True) == 0 and payment(60, "solo", 3, False) == 0
    assert payment(61, "dobbm", 0, True) == 3          # 1 unit from each of three defenders
    assert payment(61, "dobbm", 0, False) == -1        # a defender pays their own unit
    assert payment(120, "solo", 0, True) == 3 * 12 * 2
    assert payment(0, "dobbm", 2, True) == -3 * 12 * 4
    assert payment(54, "solo", 1, False) == 2 * 2 * 2  # defender receives 2 units x Solo x Schwacher
    for p in range(121):
        assert payment(p, "dobbm", 1, True) == 3 * units(p, "dobbm", 1)


def test_bidding_model() -> None:
    weak = cs("E9 E8 E7 L9 L8 L7 S9 S8")
    strong = cs("HA H10 HK HO HU H9 E6 L6")
    for hand in (weak, strong, cs("HA H10 HK EA E9 L8 L7 S6")):
        for kw in ({}, {"dobbm_said": True}, {"must": True}):
            p = bid_probabilities(hand, **kw)
            assert abs(sum(p.values()) - 1) < 1e-12 and all(0 <= x <= 1 for x in p.values())
    assert model_bid(weak) == "pass" and model_bid(weak, must=True) == "dobbm"
    assert model_bid(strong) == "solo" and model_bid(strong, dobbm_said=True) == "solo"
    assert bid_probabilities(weak)["pass"] > 0.99
    assert bid_probabilities(strong)["solo"] > 0.95
    assert set(bid_probabilities(weak, dobbm_said=True)) == {"pass", "solo"}


# --------------------------------------------------------------------------
# the lay-away policy and lay-away classes


def test_policy_discard_is_heuristic_discard() -> None:
    rng = random.Random(5)
    for _ in range(60):
        hand12 = cardset(rng.sample(range(36), 12))
        assert policy_discard(hand12) == heuristic_discard(hand12)


def test_policy_discard_exclude() -> None:
    hand12 = cs("HA H10 HK HO HU H9 EA E10 L10 S7 S8 S9")
    d = policy_discard(hand12)
    d2 = policy_discard(hand12, exclude=d & -d)          # one of its cards may not go
    assert d2 is not None and not d2 & (d & -d) and lay_away_error(d2) is None
    assert policy_discard(cs("EA LA SA S6 HA E6 E7 E8 E9 L6 L7 L8"), exclude=cs("E6 E7 E8 E9 L6 L7 L8 HA")) is None


def test_lay_away_classes_cover_and_agree() -> None:
    hand12 = cs("HA H9 H8 H7 EA E9 E8 L10 L6 SK S7 S6")
    classes = lay_away_classes(hand12)
    members = [m for _, ms in classes for m in ms]
    assert sorted(members) == sorted(legal_discards(hand12))
    assert len(classes) < len(members)
    # equivalent lay-aways have the same value in a deal
    from dobbm_solver.solver import Solver
    solver = Solver(8)
    rest = list(scan_forward(BB_ALL & ~hand12))
    random.Random(1).shuffle(rest)
    hands = {"Anna": cardset(rest[:8]), "Bert": cardset(rest[8:16]), "Cora": cardset(rest[16:24])}
    eight = cs("HA H9 H8 H7 EA E9 E8 L10")
    hands["Dave"] = eight
    deal = Deal(tuple(SEATS), "Dave", "dobbm", hands, hand12 & ~eight)
    validate(deal)
    for _, ms in classes:
        if len(ms) > 1:
            values = {solver.solve(deal.with_discard(m)).declarer_points for m in ms[:3]}
            assert len(values) == 1


# --------------------------------------------------------------------------
# views: what is accepted, and bad input failing cleanly


def test_bid_view() -> None:
    v = view_of(BID_PASSED, "bid")
    assert v.role == "bidder" and v.order == ("Anna", "Bert", "Cora", "Dave")
    assert v.auction == (("Anna", "pass"),)
    assert v.bid_options() == ("pass", "dobbm", "solo") and v.later_bidders() == ("Cora", "Dave")
    v = view_of(bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: dobbm}\n"), "bid")
    assert v.bid_options() == ("pass", "solo") and v.auction == (("Anna", "dobbm"),)
    v = view_of(bid_file("HA H10 HK EA E9 L8 L7 S6", extra="must: true\n"), "bid")
    assert v.bid_options() == ("dobbm", "solo")
    v = view_of("seats: [Anna, Bert, Cora, Dave]\nme: Bert\nhands:\n  Bert: HA H10 HK EA E9 L8 L7 S6\n", "bid")
    assert v.order is None and v.later_bidders() == ("Cora", "Dave", "Anna")


def test_five_seats() -> None:
    text = ("seats: [Anna, Bert, Cora, Dave, Eve]\ndealer: Eve\nme: Bert\n"
            "hands:\n  Bert: HA H10 HK EA E9 L8 L7 S6\nbids:\n  - {Anna: pass}\n")
    v = view_of(text, "bid")
    assert v.active == ("Anna", "Bert", "Cora", "Dave") and v.order[0] == "Anna"
    for deal in sample_deals(v, 5, seed=2):
        validate(deal)
        assert "Eve" not in deal.hands
    e = error_of(text.replace("me: Bert", "me: Eve"), "bid")
    assert e.key == "me" and "sits this hand out" in e.message


def test_discard_and_double_views() -> None:
    v = view_of(DISCARD, "discard")
    assert v.role == "declarer" and v.declarer == "Dave" and v.contract == "dobbm"
    # Cora dealt: Dave is forehand, so the others passed after his Dobbm
    assert dict(v.auction) == {"Anna": "not_solo", "Bert": "not_solo", "Cora": "not_solo"}
    v = view_of(DOUBLE_DEFENDER, "double")
    assert v.role == "defender" and dict(v.auction) == {
        "Bert": "dobbm", "Dave": "not_solo", "Anna": "not_solo"}
    v = view_of(RETOUR, "double")
    assert v.role == "declarer"


BAD = [
    # (command, text, key, words in the message)
    ("bid", "hands:\n  Bert: HA H10 HK EA E9 L8 L7 S6\nseats: [Anna, Bert, Cora, Dave]\n", "me", "missing"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7"), "hands.Bert", "holds 7 cards"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6") + "  Anna: HA\n", "hands.Anna", "HA is also in hands.Bert"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Bert: pass}\n"), "bids", "out of turn"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: pass}\n  - {Cora: pass}\n"), "bids", "out of turn"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: solo}\n"), "bids", "ended with a Solo"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: pass}\n", "must: true\n"), "bids", "must round"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6") + "declarer: Bert\n", "declarer", "bidding is not over"),
    ("discard", DISCARD.replace("dobb: EA E10 EU L10\n", ""), "dobb", "missing"),
    ("discard", DISCARD.replace("dobb: EA E10 EU L10", "dobb: EA E10 EU"), "dobb", "must hold 4 cards"),
    ("discard", DISCARD.replace("dobb: EA E10 EU L10", "dobb: EA E10 EU H10"), "dobb", "H10 is also in hands.Dave"),
    ("discard", DISCARD + "contract: solo\n", "contract", "Solo"),
    ("discard", DISCARD + "declarer: Anna\n", "declarer", "not me"),
    ("discard", DISCARD + "discard: EA E10 EU L10\n", "discard", "leave it out"),
    ("double", DOUBLE_DEFENDER.replace("declarer: Bert\n", ""), "declarer", "missing"),
    ("double", DOUBLE_DEFENDER + "doublings: 1\n", "doublings", "declarer's turn"),
    ("double", RETOUR.replace("doublings: 1", "doublings: 0"), "doublings", "must be odd"),
    ("double", RETOUR.replace("discard: L7 S6 E7 S8\n", ""), "discard", "missing"),
    ("double", RETOUR.replace("discard: L7 S6 E7 S8", "discard: EA LA E7 S8"), "discard", "Sau rule"),
    ("double", RETOUR.replace("dobb: HO E10 L7 S6", "dobb: HO E10 L7 S9"), "dobb", "S9 from the Dobb is not in your"),
    ("double", DOUBLE_DEFENDER.replace("  - {Bert: dobbm}", "  - {Bert: solo}"), "bids", "ended with the Solo"),
    ("double", DOUBLE_DEFENDER.split("bids:")[0] + "bids:\n  - {Bert: solo}\n", "bids", "contract is dobbm"),
    ("double", DOUBLE_DEFENDER.split("bids:")[0] + "bids:\n  - {Cora: pass}\n", "bids", "out of turn"),
    ("double", DOUBLE_DEFENDER + "tricks:\n  - HA H6 H7 H8\n", "tricks", "before the first card"),
    ("double", DOUBLE_DEFENDER.replace("contract: dobbm", "contract: dobbm\ndobb: HA E6 E7 E8"), "dobb",
     "HA from the Dobb cannot be with Cora"),
]


@pytest.mark.parametrize("command,text,key,words", BAD)
def test_bad_input_fails_cleanly(command: str, text: str, key: str, words: str) -> None:
    e = error_of(text, command)
    assert e.key == key, str(e)
    assert words in e.message, str(e)
    assert str(e).startswith(f"t.yaml: {key}: ")


def test_bad_arguments() -> None:
    v = view_of(BID_PASSED, "bid")
    with pytest.raises(ValueError):
        analyze_bid(v, samples=1)
    with pytest.raises(ValueError):
        analyze_bid(v, samples=4, jobs=-1)
    with pytest.raises(ValueError):
        analyze_discard(v, samples=4)          # a bid view
    with pytest.raises(ValueError):
        analyze_bid(v, samples=4, target_stderr=0)


def test_improbable_auction_fails_cleanly(monkeypatch) -> None:
    # all three others bid nothing but the model makes Anna's Solo nearly impossible
    text = bid_file("HA H10 HK HO HU H9 H8 H7", "  - {Anna: solo}\n").replace("{Anna: solo}", "{Anna: dobbm}")
    v = view_of(text, "bid")
    monkeypatch.setattr(A, "MAX_TRIES", 5)
    monkeypatch.setattr(A, "BID_SPREAD", 0.01)
    monkeypatch.setattr(A, "BID_LAPSE", 0.0)
    A._SAMPLER_CACHE.clear()
    with pytest.raises(AnalyzerError) as info:
        sample_deals(v, 3, seed=1)
    assert info.value.key == "bids" and "too unlikely" in info.value.message
    A._SAMPLER_CACHE.clear()


# --------------------------------------------------------------------------
# the sampler: property tests


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
    played = A._follow_tricks(view.active, view.declarer, view.tricks)
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


def test_void_dealer_exact() -> None:
    """The count-then-shuffle dealer is uniform: two places, one void in a suit."""
    groups = [([0, 1], (0, 1)), ([9, 10], (1,))]   # cards 0,1 anywhere; 9,10 only in place 1
    dealer = A._Dealer(groups, (1, 3))
    assert dealer.total == 2                       # place 0 takes card 0 or card 1
    rng = random.Random(0)
    seen = {tuple(dealer.draw(rng)) for _ in range(50)}
    assert seen == {(1, 0b11000000010), (2, 0b11000000001)}
    assert A._Dealer(groups, (3, 1)).total == 0


def test_samples_are_reproducible() -> None:
    v = view_of(BID_PASSED, "bid")
    a = sample_deals(v, 5, seed=11)
    A._SAMPLER_CACHE.clear()
    assert sample_deals(v, 5, seed=11) == a
    assert sample_deals(v, 2, seed=11, start=3) == a[3:]
    assert sample_deals(v, 5, seed=12) != a


# --------------------------------------------------------------------------
# statistics


def test_control_variates_reduce_error() -> None:
    rng = random.Random(4)
    draws = [(rng.gauss(0, 1), rng.gauss(0, 1)) for _ in range(4000)]
    cv = A._ControlVariates(draws)
    feats = {i: (rng.gauss(0, 1), rng.gauss(0, 1)) for i in range(200)}
    y = [10 + 5 * f[0] + rng.gauss(0, 1) for f in feats.values()]
    plain = A._Plain().mean(y)
    fitted = cv.fit(list(range(200)), feats).mean(y)
    assert abs(fitted[0] - 10) < 3 * fitted[1]
    assert fitted[1] < plain[1] / 3
    assert isinstance(cv.fit(list(range(5)), feats), A._Plain)     # too few: plain means


# --------------------------------------------------------------------------
# the analyses: clear cases


def test_bid_six_top_trumps_plays_solo() -> None:
    v = view_of(bid_file("HA H10 HK HO HU H9 E6 L6", "  - {Anna: pass}\n"), "bid")
    advice = analyze_bid(v, samples=10, seed=1, jobs=1)
    assert advice.recommendation == "solo"
    solo = next(o for o in advice.options if o.option == "solo")
    assert solo.win_probability > 0.9 and solo.ev_units > 20


def test_bid_no_trump_no_sau_passes() -> None:
    v = view_of(bid_file("E9 E8 E7 L9 L8 L7 S9 SU", "  - {Anna: pass}\n"), "bid")
    advice = analyze_bid(v, samples=10, seed=1, jobs=1)
    assert advice.recommendation == "pass"
    assert all(o.ev_units < 0 for o in advice.options if o.option != "pass")
    assert advice.info["model_bid"] == "pass"


def test_bid_must_round_and_after_a_dobbm() -> None:
    weak = "E9 E8 E7 L9 L8 L7 S9 SU"
    advice = analyze_bid(view_of(bid_file(weak, extra="must: true\n"), "bid"), samples=6, seed=1, jobs=1)
    assert {o.option for o in advice.options} == {"dobbm", "solo"}
    assert advice.recommendation == "dobbm"          # the lesser evil
    advice = analyze_bid(view_of(bid_file(weak, "  - {Anna: dobbm}\n"), "bid"), samples=6, seed=1, jobs=1)
    assert {o.option for o in advice.options} == {"pass", "solo"} and advice.recommendation == "pass"


def test_discard_banks_a_bare_ten_and_keeps_trumps() -> None:
    # Dave: six trumps from the top, the E Sau with its ten, a bare L10 (LA is out)
    # and three small bells.  Laying away L10 banks 10 points that would fall
    # to the Sau; the small bells go too, leaving two voids to trump in.
    text = DISCARD.replace("Dave: H10 HK H8 EK LK LO L9 SU", "Dave: HA H10 HK HO HU H9 S7 S8") \
        .replace("dobb: EA E10 EU L10", "dobb: EA E10 L10 S9")
    v = view_of(text, "discard")
    advice = analyze_discard(v, samples=6, seed=2, jobs=1)
    best = set(advice.recommendation)
    assert "L10" in best and not best & {"HA", "H10", "HK", "HO", "HU", "H9", "EA"}
    assert all(lay_away_error(cs(" ".join(o.option))) is None for o in advice.options)
    assert len(advice.options) == len(legal_discards(v.my_hand | v.dobb))
    # the same ranking whatever the number of worker processes
    assert strip(analyze_discard(v, samples=6, seed=2, jobs=2)) == strip(advice)


def test_discard_never_recommends_laying_away_trumps_for_nothing() -> None:
    v = view_of(DISCARD, "discard")
    advice = analyze_discard(v, samples=8, seed=3, jobs=1)
    best = cs(" ".join(advice.recommendation))
    assert not best & BB_TRUMPS
    top = advice.options[0]
    assert top.samples == 8 and top.stderr is not None
    assert advice.info["lay_aways"] == len(advice.options)
    assert advice.options[-1].samples == 1 and advice.options[-1].stderr is not None   # pooled


def test_double_defender_with_top_trumps_doubles() -> None:
    advice = analyze_double(view_of(DOUBLE_DEFENDER, "double"), samples=12, seed=1, jobs=1)
    assert advice.recommendation == "double"
    assert advice.info["declarer_win_probability"] < 0.3
    dbl, on = advice.options
    assert dbl.ev_units == pytest.approx(2 * on.ev_units)


def test_double_declarer_with_a_monster_retours() -> None:
    advice = analyze_double(view_of(RETOUR, "double"), samples=8, seed=1, jobs=1)
    assert advice.recommendation == "retour" and advice.role == "declarer"
    assert advice.options[0].win_probability == 1.0


# --------------------------------------------------------------------------
# reproducibility, parallelism, convergence, output


def strip(advice) -> dict:
    j = advice.to_json()
    j.pop("seconds")
    j.pop("jobs")
    return j


def test_seed_reproduces_and_jobs_do_not_matter() -> None:
    v = view_of(BID_PASSED, "bid")
    a = analyze_bid(v, samples=6, seed=7, jobs=1)
    b = analyze_bid(v, samples=6, seed=7, jobs=2)
    assert strip(a) == strip(b)
    c = analyze_bid(v, samples=6, seed=8, jobs=1)
    assert strip(c) != strip(a)
    assert a.seed == 7 and analyze_bid(v, samples=2, jobs=1).seed is not None


def test_adaptive_sampling_reaches_the_target() -> None:
    v = view_of(DOUBLE_DEFENDER, "double")
    advice = analyze_double(v, seed=5, jobs=2, target_stderr=3.0)
    assert advice.info["stopped"] in ("target", "max_samples")
    assert advice.options[0].stderr <= 3.0
    again = analyze_double(v, seed=5, jobs=1, target_stderr=3.0)
    assert strip(again) == strip(advice)


def test_estimates_converge() -> None:
    v = view_of(DOUBLE_DEFENDER, "double")
    small = analyze_double(v, samples=10, seed=9, jobs=1).options[1]
    large = analyze_double(v, samples=40, seed=9, jobs=1).options[1]
    assert large.stderr < small.stderr
    assert abs(large.expected_points - small.expected_points) < 3 * small.stderr


def test_progress_and_json() -> None:
    calls = []
    v = view_of(BID_PASSED, "bid")
    advice = analyze_bid(v, samples=4, seed=1, jobs=1, progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] == calls[-1][1] == 8 and all(d <= t for d, t in calls)
    j = advice.to_json()
    assert j["recommendation"] == advice.recommendation
    for o in j["options"]:
        assert set(o) >= {"option", "ev_units", "win_probability", "expected_points", "stderr"}
    dj = analyze_discard(view_of(DISCARD, "discard"), samples=2, seed=1, jobs=1).to_json()
    assert isinstance(dj["recommendation"], list) and len(dj["recommendation"]) == 4
    assert all(isinstance(o["option"], list) for o in dj["options"])
    import json
    json.dumps(dj)


@pytest.mark.parametrize("name,command", [("bid.yaml", "bid"), ("discard.yaml", "discard"),
                                          ("double.yaml", "double"), ("double_retour.yaml", "double")])
def test_example_files(name: str, command: str) -> None:
    [view] = load_views(REPO / "hands" / name, command)
    for deal in sample_deals(view, 3, seed=1):
        validate(deal)
