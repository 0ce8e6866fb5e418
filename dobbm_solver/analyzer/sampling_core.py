"""The compiled deal sampler: its generator, its self-check, and its tables built from a sampler.

:class:`~dobbm_solver.analyzer.sampling.DealSampler` draws its samples in C
(``dobbm_solver._sampler``) when it can, with exactly the results of its
Python path: the generator is CPython's Mersenne Twister, seeded as
``random.Random(text)`` seeds it (:func:`generator`) and drawing as its
``randrange``, ``shuffle``, ``sample`` and ``random`` do; the allocator's
compositions, the seats' cards and the bidding and doubling models'
constants and tables are taken from the Python objects and modules by
:func:`build_core`, and the compiled models do their floating-point
operations in the Python order.  The core also draws the control variates'
stream a batch at a time, with each sample's
:func:`~dobbm_solver.analyzer.estimate.deal_features` (seeded from
:func:`seed_bytes`; see ``DealSampler.compiled_cv_features``).

The Python path stays the reference, and is used

* when the environment variable ``DOBBM_PURE_SAMPLER`` is set to anything
  but ``""`` or ``0`` (or a sampler is built with ``compiled=False``);
* when the compiled module is missing, or :func:`compiled_agrees` (run
  once per process) finds its generator or its logistic function differ
  from ``random.Random`` and :func:`~dobbm_solver.models.bidding.logistic`
  on this interpreter;
* for a view beyond the compiled core's limits (``_sampler.LIMITS``) or whose
  allocator weights do not fit in 64 bits.
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
from typing import TYPE_CHECKING, Iterable

from ..cards import _HOLDING_POINTS, BB_ALL, BB_PLAIN_SAUS, BB_TRUMPS, CARDS_PER_SUIT, DOBB_SIZE, TRUMP
from ..models import bidding, doubling
from ..models.strength import _PLAIN_TABLE_BY_TRUMPS, _PLAIN_TABLES, _TRUMP_TABLE, PLAIN_SUITS

if TYPE_CHECKING:
    from .sampling import CardAllocator, DealSampler

try:
    from .. import _sampler
except ImportError:      # not built: the Python path
    _sampler = None      # type: ignore[assignment]

__all__ = ["PURE_ENV", "pure_requested", "compiled_agrees", "generator", "seed_bytes", "seed_key", "allocator_states",
           "build_core"]

#: The environment variable that selects the Python path.
PURE_ENV = "DOBBM_PURE_SAMPLER"

#: The bids said over a Dobbm, and the kind whose formula their likelihood has, on the Solo
#: over a Dobbm's threshold and spread (``bidding.model_likelihood``).
_OVER_KINDS = {bidding.KIND_PASS_OVER: bidding.KIND_NOT_SOLO, bidding.KIND_SOLO_OVER: bidding.KIND_SOLO}


def pure_requested() -> bool:
    """``DOBBM_PURE_SAMPLER`` asks for the Python path."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def _seed_material(text: str) -> bytes:
    """The bytes whose big-endian integer ``random.Random(text)`` seeds its generator with
    (``random.Random.seed``, version 2: the text, then its SHA-512)."""
    a = text.encode()
    return a + hashlib.sha512(a).digest()


def seed_key(text: str) -> bytes:
    """The key ``random.Random(text)`` seeds its generator with (:func:`_seed_material`), as
    the little-endian 32-bit words CPython hands ``init_by_array``."""
    n = int.from_bytes(_seed_material(text), "big")
    return n.to_bytes((max(n.bit_length(), 1) + 31) // 32 * 4, "little")


def seed_bytes(prefix: str, indices: Iterable[int]) -> list[bytes]:
    """For each index, the seed bytes of ``random.Random(f"{prefix}{index}")``
    (:func:`_seed_material`), as ``_sampler.SamplerCore.features_batch`` takes them."""
    return [_seed_material(f"{prefix}{i}") for i in indices]


def generator(text: str) -> _sampler.MersenneTwister:
    """The compiled generator in the state of ``random.Random(text)``."""
    return _sampler.MersenneTwister(seed_key(text))


def _generator_agrees(text: str) -> bool:
    r = random.Random(text)
    m = generator(text)
    if r.getstate()[1] != m.getstate():
        return False
    for k in (1, 2, 5, 31, 32, 33, 40, 63, 64):
        if r.getrandbits(k) != m.getrandbits(k):
            return False
    for n in (1, 2, 3, 7, 8, 12, 36, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 1_547_129_616_324, 2 ** 64 - 1):
        if r.randrange(n) != m.randbelow(n):
            return False
    for n in (0, 1, 2, 24, 28):
        x, y = list(range(n)), list(range(n))
        r.shuffle(x)
        m.shuffle(y)
        if x != y:
            return False
    if r.sample(list(range(12)), DOBB_SIZE) != m.sample(list(range(12)), DOBB_SIZE):
        return False
    return r.random() == m.random() and r.getstate()[1] == m.getstate()


@functools.cache
def compiled_agrees() -> bool:
    """The compiled module is there and its generator and logistic function give exactly
    what ``random.Random`` and :func:`~dobbm_solver.models.bidding.logistic` give."""
    if _sampler is None:
        return False
    if not all(_generator_agrees(f"dobbm-sampler-check:{i}") for i in range(3)):
        return False
    xs = [i / 64 for i in range(-64 * 40, 64 * 40 + 1, 7)] + [random.Random(1).uniform(-40, 40) for _ in range(200)]
    return all(_sampler.logistic(x) == bidding.logistic(x) for x in xs)


def allocator_states(alloc: CardAllocator) -> list[list[tuple[tuple[int, ...], int, int]]]:
    """The allocator's compositions from its root, for the core: per state (group, capacities
    left) the options ``(counts per place, weight, next state)`` with weight > 0, state 0 the
    root, next state -1 after the last group."""
    n_groups = len(alloc.groups)
    if not n_groups:
        return []
    ids = {(0, alloc.caps): 0}
    order = [(0, alloc.caps)]
    states = []
    i = 0
    while i < len(order):
        g, caps = order[i]
        i += 1
        comps, weights = alloc._options(g, caps)
        opts = []
        for k, w in zip(comps, weights):
            nid = -1
            if g + 1 < n_groups:
                key = (g + 1, tuple(c - x for c, x in zip(caps, k)))
                nid = ids.get(key, len(order))
                if nid == len(order):
                    ids[key] = nid
                    order.append(key)
            opts.append((k, w, nid))
        states.append(opts)
    return states


def build_core(sampler: DealSampler) -> _sampler.SamplerCore | None:
    """The compiled rejection loop of ``sampler`` (a ``_sampler.SamplerCore``), or None
    where the Python path must serve (see the module doc)."""
    if not compiled_agrees() or sampler.allocator.total == 0:
        return None
    v = sampler.view
    active = list(v.active)
    place_of = {s: i for i, (_, s) in enumerate(sampler.places) if s is not None}
    seat_base = [sampler.known_hand[s] | sampler.played_bits[s] for s in active]
    seat_place = [place_of.get(s, -1) for s in active]
    dobb_place = next((i for i, (kind, _) in enumerate(sampler.places) if kind == "dobb"), -1)
    dobb_const = v.dobb or 0
    twelve_seat, twelve_base, draw_dobb = -1, 0, False
    d = v.declarer
    if v.exchanged:
        assert d is not None
        i = active.index(d)
        if d == v.me:
            # as DealSampler._compose: the lay-away stands in for an unseen Dobb
            assert v.discard is not None
            dobb_const = v.discard if v.dobb is None else v.dobb
            seat_base[i] = (sampler.known_hand[d] | v.discard | sampler.played_bits[d]) & ~dobb_const
            seat_place[i] = -1
        else:
            twelve_seat = i
            if sampler.twelve_policy:
                twelve_base = v.hands.get(d, 0) | (v.dobb or 0) | sampler.played_bits[d]
            else:
                assert v.discard is not None
                twelve_base = sampler.known_hand[d] | v.discard | sampler.played_bits[d]
            draw_dobb = v.dobb is None
    bids = []
    for seat, kind, turn in sampler.auction:
        over = kind in _OVER_KINDS
        bids.append((active.index(seat), _sampler.KIND_CODES[_OVER_KINDS.get(kind, kind)],
                     bidding.dobbm_threshold(turn),
                     bidding.BID_SOLO_OVER_THRESHOLD if over else bidding.BID_SOLO_THRESHOLD,
                     bidding.BID_SOLO_OVER_SPREAD if over else bidding.BID_SOLO_SPREAD,
                     bidding.BID_LAPSE * bidding.BID_BASE_RATE[kind]))
    bid_model = (1.0 - bidding.BID_LAPSE, bidding.BID_SPREAD, bidding.BID_HIGH_TRUMP_WEIGHT,
                 bidding.BID_POINTS_WEIGHT, bidding.BB_HIGH_TRUMPS, bidding.BID_SOLO_SAU_WEIGHT,
                 bidding.BID_SOLO_VOID_WEIGHT, BB_PLAIN_SAUS)
    # estimate.deal_features: the declarer (or me) and the other seats
    features_declarer = active.index(d or v.me)
    features_others = [i for i in range(len(active)) if i != features_declarer]
    doublings = []
    declarer, adds_dobb, defenders = 0, False, []
    if sampler.doubled:
        assert d is not None and v.contract is not None
        declarer = active.index(d)
        adds_dobb = doubling.declarer_cards(v.contract, 0, BB_ALL) != 0
        defenders = [i for i, s in enumerate(active) if s != d]
        for k in range(1, sampler.doubled + 1):
            situation = doubling.situation_of(k)
            a, b, c = doubling.DOUBLING_MODEL[(situation, v.contract)]
            doublings.append((a, b, c, 1.0 - doubling.DOUBLING_LAPSE,
                              doubling.DOUBLING_LAPSE * doubling.DOUBLING_BASE_RATE[(situation, v.contract)],
                              situation == doubling.RETOUR))
    try:
        return _sampler.SamplerCore(
            groups=[cards for cards, _ in sampler.allocator.groups], n_places=len(sampler.places),
            states=allocator_states(sampler.allocator), seat_base=seat_base, seat_place=seat_place,
            dobb_place=dobb_place, dobb_const=dobb_const, twelve_seat=twelve_seat, twelve_base=twelve_base,
            draw_dobb=draw_dobb, dobb_size=DOBB_SIZE, test=bool(sampler.auction or sampler.doubled),
            bids=bids, bid_model=bid_model, plain_suits=list(bidding._PLAIN_SUITS), doublings=doublings,
            declarer=declarer, declarer_adds_dobb=adds_dobb, defenders=defenders, trumps=BB_TRUMPS,
            features_declarer=features_declarer, features_others=features_others,
            trump_table=list(_TRUMP_TABLE), plain_tables=[list(t) for t in _PLAIN_TABLES],
            plain_table_of=list(_PLAIN_TABLE_BY_TRUMPS), trump_shift=CARDS_PER_SUIT * TRUMP,
            plain_shifts=[CARDS_PER_SUIT * s for s in PLAIN_SUITS],
            suit_shifts=[CARDS_PER_SUIT * s for s in range(4)], holding_points=list(_HOLDING_POINTS),
            suit_bits=CARDS_PER_SUIT)
    except (ValueError, OverflowError):      # beyond the core's limits; weights past 64 bits
        return None
