"""Tests of the compiled deal sampler (dobbm_solver._sampler, built by analyzer.sampling_core).

Its generator against ``random.Random``, its models against the Python
ones, and every sample against the Python path on many kinds of views:
the shipped advice views, bids of every kind and turn, Solo and Dobbm
double views with doublings, mid-play views with voids shown, unseen
Dobbm declarers' 12 cards.  And the control variates' batch (the features of
the ``cv`` stream's samples, drawn in one call) against the Python path's
samples and ``deal_features``.
"""

from __future__ import annotations

import functools
import random
import zlib
from pathlib import Path

import pytest
from views import DISCARD, SEATS, random_play_view, view_of

from dobbm_solver import _sampler
from dobbm_solver.analyzer import View, load_views, sampling, sampling_core
from dobbm_solver.analyzer.estimate import deal_features
from dobbm_solver.analyzer.runner import draw_features
from dobbm_solver.analyzer.sampling import CardAllocator, DealSampler, clear_sampler_cache
from dobbm_solver.analyzer.view import AnalyzerError
from dobbm_solver.cards import cardset
from dobbm_solver.handfile import HandFileError
from dobbm_solver.models import bidding, doubling

REPO = Path(__file__).resolve().parents[1]
TEXTS = ["", "x", "dobbm-analyzer:deal:1:0", "dobbm-analyzer:cv:7:123", "ünïcode ✓", "a" * 300]
INTS = [0, 1, -1, 2 ** 32 - 1, 2 ** 32, 2 ** 64 + 5, -(3 ** 80), 123456789]


def pair(text: str) -> tuple[random.Random, _sampler.MersenneTwister]:
    return random.Random(text), sampling_core.generator(text)


# --- the generator ------------------------------------------------------------
def test_seeding_gives_random_states() -> None:
    for text in TEXTS + [f"dobbm-analyzer:deal:{s}:{i}" for s in range(20) for i in range(5)]:
        r, m = pair(text)
        assert r.getstate()[1] == m.getstate(), text
    for n in INTS:
        key = abs(n).to_bytes((max(abs(n).bit_length(), 1) + 31) // 32 * 4, "little")
        assert random.Random(n).getstate()[1] == _sampler.MersenneTwister(key).getstate(), n
    m = _sampler.MersenneTwister()
    m.setstate(random.Random(5).getstate()[1])
    assert m.getstate() == random.Random(5).getstate()[1]


def test_draws_are_randoms() -> None:
    """getrandbits, randrange, shuffle, random, sample: draw for draw, across the state
    refills (many draws per seed)."""
    bigs = [2 ** k + d for k in range(64) for d in (-1, 0, 1) if 1 <= 2 ** k + d < 2 ** 64]
    for text in TEXTS[:4]:
        r, m = pair(text)
        rs = random.Random(text + "sizes")
        for _ in range(3):
            for k in list(range(71)) + [96, 100, 129]:
                assert r.getrandbits(k) == m.getrandbits(k), k
            for n in list(range(1, 70)) + bigs + [rs.randrange(1, 2 ** 64) for _ in range(50)]:
                assert r.randrange(n) == m.randbelow(n), n
            for n in range(41):
                x, y = list(range(n)), list(range(100, 100 + n))
                r.shuffle(x)
                m.shuffle(y)
                assert [c + 100 for c in x] == y, n
            for _ in range(20):
                assert r.random() == m.random()
            for n in range(65):
                for k in range(min(n, 12) + 1):
                    pop = rs.sample(range(64), n)
                    assert r.sample(pop, k) == m.sample(pop, k), (n, k)
            assert r.getstate()[1] == m.getstate()


def test_logistic_is_the_models() -> None:
    rs = random.Random(3)
    xs = [i / 16 for i in range(-16 * 50, 16 * 50)] + [rs.uniform(-60, 60) for _ in range(2000)] + [0.0, -0.0]
    for x in xs:
        assert _sampler.logistic(x) == bidding.logistic(x), x


# --- views --------------------------------------------------------------------
def bid_text(dealer: str | None, me: str, hand: str, bids: list[tuple[str, str]], must: bool = False,
             seats: list[str] = SEATS) -> str:
    return (f"seats: [{', '.join(seats)}]\n" + (f"dealer: {dealer}\n" if dealer else "") + f"me: {me}\n"
            f"hands:\n  {me}: {hand}\n"
            + ("bids:\n" + "".join(f"  - {{{w}: {b}}}\n" for w, b in bids) if bids else "")
            + ("must: true\n" if must else ""))


def double_text(me: str, declarer: str, contract: str, doublings: int, bids: list[tuple[str, str]] | None,
                dobb: bool = False, discard: bool = False, dealer: str | None = "Anna") -> str:
    """A double view of one fixed deal (Anna deals, so Bert is forehand); a Dobbm declarer
    sees the Dobb and the lay-away, a defender those asked for."""
    hands = {"Anna": "H9 H6 EK EO E8 L9 L6 S8", "Bert": "HA HK HO H8 EA E10 LA SK",
             "Cora": "H10 H7 E9 E7 LK LO S10 S7", "Dave": "HU EU E6 L10 LU L8 SA SO"}
    dobb_cards, discard_cards = "L7 S9 S6 SU", "L7 S9 S6 SK"
    if contract == "dobbm" and me == declarer:
        dobb = discard = True
        hands[me] = "HA HK HO H8 EA E10 LA SU"
    lines = ["seats: [Anna, Bert, Cora, Dave]", *([f"dealer: {dealer}"] if dealer else []), f"me: {me}",
             f"declarer: {declarer}", f"contract: {contract}", "hands:", f"  {me}: {hands[me]}"]
    if contract == "dobbm" and dobb:
        lines.append(f"dobb: {dobb_cards}")
    if contract == "dobbm" and discard:
        lines.append(f"discard: {discard_cards}")
    if bids:
        lines.append("bids:\n" + "".join(f"  - {{{w}: {b}}}\n" for w, b in bids).rstrip("\n"))
    lines.append(f"doublings: {doublings}")
    return "\n".join(lines) + "\n"


def _try_view(text: str, command: str) -> View | None:
    try:
        return view_of(text, command)
    except HandFileError:
        return None


def _bid_views() -> list[tuple[str, View]]:
    out = []
    hands = ["HA H10 HK EA E9 L8 L7 S6", "E9 E8 E7 L9 L8 L7 S9 S8", "HU H9 H8 H7 H6 EA L9 S8"]
    words = ["pass", "dobbm", "solo"]
    for dealer in (*SEATS, None):
        first = SEATS[(SEATS.index(dealer) + 1) % 4] if dealer else "Anna"
        order = [SEATS[(SEATS.index(first) + k) % 4] for k in range(4)]
        for n in range(4):
            for code in range(3 ** n):
                said = [words[(code // 3 ** i) % 3] for i in range(n)]
                if dealer not in ("Dave", None) and code % 2:
                    continue              # every sequence with one dealer; some with the others
                bids = list(zip(order, said))
                view = _try_view(bid_text(dealer, order[n], hands[(code + n) % 3], bids), "bid")
                if view is not None:
                    out.append((f"bid {dealer} {said}", view))
    for text in (bid_text("Dave", "Anna", hands[0], [], must=True),
                 bid_text("Eve", "Bert", hands[2], [("Anna", "pass")], seats=[*SEATS, "Eve"]),
                 bid_text("Anna", "Dave", hands[0], [("Bert", "pass"), ("Cora", "dobbm")],
                          seats=[*SEATS, "Eve"])):
        view = _try_view(text, "bid")
        assert view is not None, text
        out.append((f"bid {text.splitlines()[0]}", view))
    return out


def _double_views() -> list[tuple[str, View]]:
    out = []
    full = {"dobbm": [("Bert", "dobbm"), ("Cora", "pass"), ("Dave", "pass"), ("Anna", "pass")],
            "solo": [("Bert", "solo")]}
    # (a fourth doubling of this Solo is so unlikely that the Python path takes seconds a sample)
    cases = [(contract, me, doublings, full[contract], False, False)
             for contract in ("dobbm", "solo")
             for me, levels in (("Cora", (0, 2, 4) if contract == "dobbm" else (0, 2)), ("Bert", (1, 3, 5)))
             for doublings in levels]
    cases += [(contract, me, doublings, None, False, False)       # the bids implied by the contract
              for contract in ("dobbm", "solo") for me, doublings in (("Cora", 2), ("Bert", 1))]
    cases += [("dobbm", "Cora", 2, full["dobbm"][:2], False, False)]
    cases += [("dobbm", "Cora", doublings, full["dobbm"], dobb, discard)      # what the defender saw
              for doublings in (0, 2) for dobb, discard in ((True, False), (False, True), (True, True))]
    for contract, me, doublings, bids, dobb, discard in cases:
        text = double_text(me, "Bert", contract, doublings, bids, dobb, discard)
        out.append((f"double {contract} {me} x{doublings} bids={None if bids is None else len(bids)} "
                    f"dobb={dobb} discard={discard}", view_of(text, "double")))
    # a declarer who is not forehand
    view = view_of(double_text("Cora", "Dave", "dobbm", 2,
                               [("Bert", "pass"), ("Cora", "pass"), ("Dave", "dobbm"), ("Anna", "pass")]),
                   "double")
    out.append(("double dobbm Dave declares", view))
    # a Solo over a Dobbm, said or implied
    for bids in ([("Bert", "dobbm"), ("Cora", "solo")], [("Bert", "dobbm")]):
        for me in ("Bert", "Dave"):
            view = view_of(double_text(me, "Cora", "solo", 0 if me != "Cora" else 1, bids), "double")
            out.append((f"double solo over a Dobbm {me} bids={len(bids)}", view))
    # neither the dealer nor any bid known: no turns
    for contract in ("dobbm", "solo"):
        for me, doublings in (("Cora", 2), ("Bert", 1)):
            view = view_of(double_text(me, "Bert", contract, doublings, None, dealer=None), "double")
            out.append((f"double {contract} {me} x{doublings} no dealer", view))
    return out


def _play_views() -> list[tuple[str, View]]:
    out = []
    kinds: set[tuple] = set()
    for seed in range(400):
        view, _ = random_play_view(seed)
        s = DealSampler(view, compiled=False)
        kind = (view.contract, view.me == view.declarer, s.twelve_policy, view.dobb is None,
                view.discard is None, len(s.allocator.groups) > 1)
        if kind not in kinds or seed < 6:
            kinds.add(kind)
            out.append((f"play seed {seed}", view))
    return out


@functools.cache
def all_views() -> list[tuple[str, View]]:
    out = []
    for name, commands in (("bid.yaml", ("bid",)), ("discard.yaml", ("bid", "discard")),
                           ("double.yaml", ("double", "play")), ("double_retour.yaml", ("double", "play")),
                           ("play.yaml", ("play",))):
        for command in commands:
            [view] = load_views(REPO / "hands" / name, command)
            out.append((f"{name} {command}", view))
    out.append(("discard", view_of(DISCARD, "discard")))
    out.append(("discard after bids", view_of(
        DISCARD + "bids:\n  - {Dave: dobbm}\n  - {Anna: pass}\n  - {Bert: pass}\n  - {Cora: pass}\n", "discard")))
    return out + _bid_views() + _double_views() + _play_views()


def test_the_views_cover_the_cases() -> None:
    """Every auction kind and turn, 1 to 5 doublings of both contracts, voids shown (more than one
    card group), unseen Dobbm declarers' 12 cards with the Dobb drawn and not, five players."""
    samplers = [DealSampler(v, compiled=False) for _, v in all_views()]
    said = {(kind, turn) for s in samplers for _, kind, turn in s.auction}
    assert said >= {(k, t) for k in ("pass", "dobbm") for t in (0, 1, 2)} | {
        ("pass_over", t) for t in (1, 2, 3)} | {
        ("dobbm", 3), ("solo", 0), ("solo_over", 1), ("dobbm", None), ("solo", None), ("not_solo", None)}
    assert {kind for kind, _ in said} == set(bidding.BID_BASE_RATE)
    assert {(s.view.contract, s.doubled) for s in samplers} >= {
        (c, d) for c in ("dobbm", "solo") for d in range(1, 6)} - {("solo", 4)}
    assert any(len(s.allocator.groups) > 1 for s in samplers)
    assert any(s.twelve_policy and s.view.dobb is None for s in samplers)
    assert any(s.twelve_policy and s.view.dobb is not None for s in samplers)
    assert any(s.twelve_policy and s.view.tricks for s in samplers)
    assert any(not s.twelve_policy and s.view.exchanged and s.view.dobb is None
               and s.view.me != s.view.declarer for s in samplers)
    assert any(len(s.view.seats) == 5 for s in samplers)
    assert all(DealSampler(v).compiled for _, v in all_views())


def python_acceptance(s: DealSampler, dealt: dict[str, int], dobb: int) -> float:
    """The product DealSampler.accepts compares with the uniform draw, in full."""
    p = 1.0
    for seat, kind, turn in s.auction:
        p *= bidding.bid_likelihood(kind, dealt[seat], turn)
    if s.doubled:
        v = s.view
        assert v.declarer is not None and v.contract is not None
        p *= doubling.doubling_likelihood(s.doubled, v.contract,
                                          doubling.declarer_cards(v.contract, dealt[v.declarer], dobb),
                                          [dealt[x] for x in v.active if x != v.declarer])
    return p


def test_models_are_the_pythons() -> None:
    """The bid score and the acceptance product, bit for bit, on random hands."""
    rs = random.Random(8)
    for _, view in all_views():
        s = DealSampler(view)
        if not (s.auction or s.doubled):
            continue
        for _ in range(40):
            cards = rs.sample(range(36), 36)
            dealt = {seat: cardset(cards[8 * i:8 * i + 8]) for i, seat in enumerate(view.active)}
            dobb = cardset(cards[32:])
            assert s._core.acceptance([dealt[x] for x in view.active], dobb) == python_acceptance(s, dealt, dobb)
        for _ in range(50):
            hand = cardset(rs.sample(range(36), rs.choice((8, 12))))
            assert s._core.bid_score_of(hand) == bidding.bid_score(hand)
            assert s._core.solo_score_of(hand) == bidding.solo_score(hand)


# --- samples ------------------------------------------------------------------
def same_samples(view: View, pairs: list[tuple[int, int]], streams: tuple[str, ...] = ("deal", "cv"),
                 budget: int | None = None) -> int:
    """Sample ``(seed, index)`` of each pair is the same on both paths (or both raise the same
    error).  ``budget``: stop once the Python path has made that many draws (its lay-aways
    count 30); returns the pairs compared."""
    a, b = DealSampler(view, compiled=False), DealSampler(view, compiled=True)
    assert b.compiled and not a.compiled
    cost = 0
    draw, resolve = a.draw, a.resolve

    def counting_draw(rng: random.Random):
        nonlocal cost
        cost += 1
        return draw(rng)

    def counting_resolve(*args):
        nonlocal cost
        cost += 30 if a.twelve_policy else 1
        return resolve(*args)

    a.draw, a.resolve = counting_draw, counting_resolve      # type: ignore[method-assign]
    done = 0
    for stream in streams:
        cost = 0
        for seed, index in pairs:
            if budget is not None and cost >= budget:
                break
            done += 1
            try:
                want = a.sample(seed, index, stream)
            except AnalyzerError as e:
                with pytest.raises(AnalyzerError) as info:
                    b.sample(seed, index, stream)
                assert (info.value.key, info.value.message) == (e.key, e.message)
                continue
            assert b.sample(seed, index, stream) == want, (seed, index, stream)
    return done


def pairs_of(n: int, salt: int = 0) -> list[tuple[int, int]]:
    rs = random.Random(salt)
    return [(rs.choice((0, 1, 2, 7, 2 ** 31, 10 ** 12)), rs.randrange(10 ** rs.randrange(1, 7))) for _ in range(n)]


@pytest.mark.parametrize("name,view", all_views(), ids=[n for n, _ in all_views()])
def test_samples_are_the_pythons(name: str, view: View) -> None:
    """Up to 300 pairs of each stream, fewer where the Python path's draws pass 1500 (a bid
    view draws one or two a sample, a double view about 20, one with 3 to 5 doublings hundreds)."""
    salt = zlib.crc32(name.encode())
    assert same_samples(view, pairs_of(300, salt), ("cv", "deal"), budget=1500) >= 2


def test_a_rejected_discard_goes_on_with_the_same_draws(monkeypatch) -> None:
    """An unseen declarer's lay-away that contradicts the tricks rejects the draw: the compiled
    loop goes on from the same generator state, and counts the draw against MAX_TRIES."""
    rejected = 0
    real = DealSampler.resolve

    def counting(self, *args):
        nonlocal rejected
        got = real(self, *args)
        rejected += got is None
        return got

    monkeypatch.setattr(DealSampler, "resolve", counting)
    views = [v for name, v in all_views() if name.startswith("play") and DealSampler(v).twelve_policy and v.tricks]
    for view in views:
        same_samples(view, pairs_of(40, 5), ("deal",))
    assert rejected > 10
    for tries in (1, 2, 3, 5):
        monkeypatch.setattr(sampling, "MAX_TRIES", tries)
        for view in views:
            same_samples(view, pairs_of(20, tries), ("deal",))


def test_too_unlikely_an_auction_fails_the_same(monkeypatch) -> None:
    view = _try_view(bid_text("Dave", "Bert", "HA H10 HK HO HU H9 H8 H7", [("Anna", "dobbm")]), "bid")
    assert view is not None
    for tries in (0, 1, 2, 4):
        monkeypatch.setattr(sampling, "MAX_TRIES", tries)
        same_samples(view, pairs_of(30, tries))


def test_weights_past_32_bits() -> None:
    """A big allocation (the weights far past 2**32) draws as CardAllocator.draw; past 2**64
    the core is refused."""
    def core_of(alloc: CardAllocator) -> _sampler.SamplerCore:
        places = len(alloc.caps)
        return _sampler.SamplerCore(
            groups=[cards for cards, _ in alloc.groups], n_places=places, states=sampling_core.allocator_states(alloc),
            seat_base=[0] * places, seat_place=list(range(places)), dobb_place=-1, dobb_const=0, twelve_seat=-1,
            twelve_base=0, draw_dobb=False, dobb_size=4, test=False, bids=[],
            bid_model=(0.0, 1.0, 0.0, 0.0, 0, 0.0, 0.0, 0), plain_suits=[0, 0, 0],
            doublings=[], declarer=0, declarer_adds_dobb=False, defenders=[], trumps=0,
            features_declarer=0, features_others=[1, 2],
            trump_table=[0.0] * 512, plain_tables=[[0.0] * 512] * 2, plain_table_of=[0] * 512, trump_shift=0,
            plain_shifts=[0, 0, 0], suit_shifts=[0, 0, 0, 0], holding_points=[0] * 512, suit_bits=9)

    groups = [(list(range(0, 14)), (0, 1, 2)), (list(range(14, 22)), (1, 2)), (list(range(22, 34)), (0, 2)),
              (list(range(34, 40)), (0, 1))]
    alloc = CardAllocator(groups, (13, 13, 14))
    assert 2 ** 40 < alloc.total < 2 ** 64
    core = core_of(alloc)
    for i in range(300):
        r, m = pair(f"big:{i}")
        made, parts, _ = core.run(m, 1)
        assert (made, list(parts)) == (1, alloc.draw(r))
        assert r.getstate()[1] == m.getstate()
    huge = CardAllocator([(list(range(60)), (0, 1, 2, 3))], (15, 15, 15, 15))
    assert huge.total >= 2 ** 64
    with pytest.raises(OverflowError):
        core_of(huge)


def test_the_python_path_is_selectable(monkeypatch) -> None:
    [view] = load_views(REPO / "hands" / "double.yaml", "double")
    assert DealSampler(view).compiled
    monkeypatch.setenv(sampling_core.PURE_ENV, "1")
    assert not DealSampler(view).compiled
    assert DealSampler(view, compiled=True).compiled
    monkeypatch.setenv(sampling_core.PURE_ENV, "0")
    assert DealSampler(view).compiled
    # a compiled generator that disagreed with random.Random would not be used
    monkeypatch.setattr(sampling_core, "compiled_agrees", lambda: False)
    assert not DealSampler(view).compiled and not DealSampler(view, compiled=True).compiled
    monkeypatch.undo()
    assert sampling_core.compiled_agrees()


# --- the control variates' batch -------------------------------------------------
def bits(rows: list[tuple[float, ...]] | None) -> list[list[str]] | None:
    """Each float's exact bits (``-0.0`` apart from ``0.0``)."""
    return None if rows is None else [[x.hex() for x in row] for row in rows]


def python_features(s: DealSampler, seed: int, indices: range) -> list[tuple[float, ...]]:
    """The ``cv`` stream's features sample by sample, as ``draw_features`` has them without the batch."""
    out = []
    for i in indices:
        _, dealt, dobb = s.sample(seed, i, "cv")
        out.append(deal_features(s.view, dealt, dobb))
    return out


@pytest.mark.parametrize("name,view", all_views(), ids=[n for n, _ in all_views()])
def test_batch_features_are_the_pythons(name: str, view: View) -> None:
    """The batch's features are those of each sample and ``deal_features``, bit for bit: of the
    compiled samples over many seeds and starts, of the Python path's up to 1500 of its draws;
    with tricks in the view the stream chooses lay-aways, and the batch does not serve."""
    b = DealSampler(view, compiled=True)
    if view.tricks:
        assert b.compiled_cv_features(1, 0, 8) is None
        return
    rs = random.Random(zlib.crc32(name.encode()))
    for seed, start, count in [(1, 0, 40), (0, 0, 1), (7, 3, 0)] + [
            (rs.choice((2, 2 ** 31, 10 ** 12)), rs.randrange(10 ** rs.randrange(1, 7)), rs.randrange(1, 12))
            for _ in range(6)]:
        indices = range(start, start + count)
        assert bits(b.compiled_cv_features(seed, start, count)) == bits(python_features(b, seed, indices))
    a = DealSampler(view, compiled=False)
    draws = 0
    real_draw = a.draw

    def counting_draw(rng: random.Random):
        nonlocal draws
        draws += 1
        return real_draw(rng)

    a.draw = counting_draw      # type: ignore[method-assign]
    n = 0
    while draws < 1500 and n < 200:
        n += 1
        want = python_features(a, 1, range(n - 1, n))
        assert bits(b.compiled_cv_features(1, n - 1, 1)) == bits(want), n - 1
    assert bits(b.compiled_cv_features(1, 0, n)) == bits(python_features(b, 1, range(n)))


def test_batch_features_of_random_deals() -> None:
    """The compiled features are ``deal_features`` on random deals, for every view's declarer."""
    rs = random.Random(11)
    for _, view in all_views():
        core = DealSampler(view)._core
        assert core is not None
        for _ in range(30):
            cards = rs.sample(range(36), 36)
            dealt = {seat: cardset(cards[8 * i:8 * i + 8]) for i, seat in enumerate(view.active)}
            dobb = cardset(cards[32:])
            assert bits([core.features_of([dealt[x] for x in view.active], dobb)]) == \
                bits([deal_features(view, dealt, dobb)])


def test_batch_seeds_as_random() -> None:
    """Each sample's generator is seeded from its bytes read as a big-endian integer, as
    ``random.Random`` seeds from an int: any length, leading zero bytes, zero itself."""
    [view] = load_views(REPO / "hands" / "double_retour.yaml", "double")
    s = DealSampler(view)
    assert s._core is not None
    keys = [b"", b"\0", b"\0" * 9, b"\1", b"\0\0\0\0\0\1", bytes(range(1, 200))]
    keys += [t.encode() + bytes(k) for t in TEXTS for k in range(6)]
    keys += sampling_core.seed_bytes("dobbm-analyzer:cv:5:", [0, 9, 10, 99, 100, 10 ** 9])

    def one(key: bytes) -> tuple[float, ...]:
        n = int.from_bytes(key, "big")
        rng = _sampler.MersenneTwister(n.to_bytes((max(n.bit_length(), 1) + 31) // 32 * 4, "little"))
        assert rng.getstate() == random.Random(n).getstate()[1]
        got = s._core.run(rng, sampling.MAX_TRIES)
        assert got is not None
        _, parts, dobb = got
        return deal_features(view, s._compose(parts, lambda _: dobb)[2], dobb)

    assert bits(s._core.features_batch(keys, sampling.MAX_TRIES)) == bits([one(k) for k in keys])
    assert s._core.features_batch([], sampling.MAX_TRIES) == []
    for prefix, i in (("dobbm-analyzer:cv:5:", 0), ("x", 10 ** 9)):
        [a] = sampling_core.seed_bytes(prefix, [i])
        assert int.from_bytes(sampling_core.seed_key(f"{prefix}{i}"), "little") == int.from_bytes(a, "big")


def test_batch_fails_as_the_pythons(monkeypatch) -> None:
    """An auction too unlikely for ``MAX_TRIES`` draws fails the batch as it fails the Python
    path, at the first sample that finds no deal, whichever samples before it found one."""
    view = _try_view(bid_text("Dave", "Bert", "HA H10 HK HO HU H9 H8 H7", [("Anna", "dobbm")]), "bid")
    assert view is not None
    a, b = DealSampler(view, compiled=False), DealSampler(view, compiled=True)
    outcomes = set()
    for tries in (0, 1, 2, 20, 500):          # (samples 1 and 2 take 1 and 20 draws, 3 takes 36)
        monkeypatch.setattr(sampling, "MAX_TRIES", tries)
        for start, count in ((0, 1), (1, 1), (1, 2), (1, 6), (3, 20)):
            try:
                want = python_features(a, 1, range(start, start + count))
            except AnalyzerError as e:
                with pytest.raises(AnalyzerError) as info:
                    b.compiled_cv_features(1, start, count)
                assert (info.value.key, info.value.message) == (e.key, e.message)
                outcomes.add("fails")
                continue
            assert bits(b.compiled_cv_features(1, start, count)) == bits(want)
            outcomes.add("found")
    assert outcomes == {"fails", "found"}


def test_draw_features_takes_the_batch_where_it_serves(monkeypatch) -> None:
    """``draw_features`` is the batch's where the compiled core serves; with tricks, or with
    ``DOBBM_PURE_SAMPLER=1``, sample by sample: the same features every way."""
    views = [v for name, v in all_views() if name.startswith(("bid.yaml", "discard.yaml", "double_retour.yaml"))]
    views += [v for name, v in all_views() if name.startswith("play")][:3]
    assert any(v.tricks for v in views) and any(not v.tricks for v in views)
    compiled = [draw_features(v, 3, 5, 30) for v in views]
    calls = 0
    real = DealSampler.compiled_cv_features

    def counting(self, *args):
        nonlocal calls
        got = real(self, *args)
        calls += got is not None
        return got

    monkeypatch.setattr(DealSampler, "compiled_cv_features", counting)
    assert [draw_features(v, 3, 5, 30) for v in views] == compiled
    assert calls == sum(1 for v in views if not v.tricks)
    monkeypatch.setenv(sampling_core.PURE_ENV, "1")
    clear_sampler_cache()
    try:
        calls = 0
        assert bits([f for v in views for f in draw_features(v, 3, 5, 30)]) == bits([f for c in compiled for f in c])
        assert calls == 0
    finally:
        monkeypatch.delenv(sampling_core.PURE_ENV)
        clear_sampler_cache()
