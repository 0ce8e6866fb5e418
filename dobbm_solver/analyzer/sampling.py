"""Dealing the unseen cards consistent with a view: the allocator, the sampler and its cache.

The unseen cards are dealt uniformly among the unseen places (the other
hands, the Dobb, an unseen Dobbm declarer's 12 cards), respecting hand
sizes, cards played and voids shown by earlier tricks: the number of cards
of each suit per place is drawn first, in exact proportion to the number of
deals with those counts (:class:`CardAllocator`), then each suit's cards are
shuffled into the places.  The auction is imposed by **rejection**: a deal
is kept with probability equal to the bidding model's likelihood of the bids
said (each speaker's bid given their sampled 8 cards), which gives exact
samples of the posterior.  In a ``double`` view the doublings already said
(a Schwacher, a Retour) are imposed the same way, by the doubling model's
likelihood of them (:func:`~dobbm_solver.models.doubling.doubling_likelihood`):
a Schwacher tells of a defender who would double.  A Dobbm declarer whose cards are unseen lays away
what :func:`dobbm_solver.models.discard_rule.heuristic_discard` picks from the 12
cards -- a player's own rule of thumb, never a peek at the other hands (in
mid-play: its favourite among the lay-aways that fit the cards seen and the
voids shown).

Every sample ``i`` is drawn from its own generator seeded with
``(seed, i)``, so results are identical whatever the number of worker
processes, and all options are scored on the same samples (common random
numbers).

The draws and the rejection test run in C where they can
(:mod:`dobbm_solver.analyzer.sampling_core`, ``dobbm_solver._sampler``), with
the same generator and the same floating-point operations, so every sample is
exactly the one of the Python path here, which stays the reference:
``DOBBM_PURE_SAMPLER=1`` in the environment (or ``DealSampler(view,
compiled=False)``) selects it, and it serves by itself where the compiled
module is missing or fails its self-check (see that module).  The compiled
path reads the models' constants when the sampler is built: after changing
one, :func:`clear_sampler_cache`.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Iterator, Mapping

from ..cards import BB_ALL, DOBB_SIZE, HAND_SIZE, Card, CardSet, card_suit, popcount, scan_forward
from ..deal import Deal
from ..models.bidding import bid_likelihood
from ..models.discard_rule import heuristic_discard
from ..models.doubling import declarer_cards, doubling_likelihood
from . import sampling_core
from .auction import bidding_order
from .view import AnalyzerError, PlayedCards, View, follow_tricks

__all__ = ["MAX_TRIES", "CardAllocator", "DealSampler", "sampler_for", "clear_sampler_cache", "sample_deals"]

#: Attempts per sample before the auction is declared too unlikely.
MAX_TRIES = 100000

Groups = list[tuple[list[Card], tuple[int, ...]]]


class CardAllocator:
    """Uniform deals of card groups into places with capacities (a multinomial card allocator).

    ``groups``: lists of cards, each with the places allowed to take them (a
    suit shown void by a seat is not allowed in that seat's place).  The
    number of cards of each group per place is drawn in proportion to the
    number of deals with those counts (a multinomial count over the
    remaining capacities, memoised), then each group is shuffled into its
    places: every deal consistent with the constraints is equally likely.
    ``total`` is the number of such deals (0: none fits).
    """

    def __init__(self, groups: Groups, caps: tuple[int, ...]) -> None:
        self.groups = groups
        self.caps = caps
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]] = {}
        fits = min(caps, default=0) >= 0 and sum(caps) == sum(len(g) for g, _ in groups)
        self.total = self._count(0, caps) if fits else 0

    @staticmethod
    def _compositions(n: int, allowed: tuple[int, ...], caps: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every way to split ``n`` cards over the ``allowed`` places within their capacities."""
        out: list[tuple[int, ...]] = []
        places = list(allowed)
        k = [0] * len(caps)

        def rec(i: int, left: int) -> None:
            if i == len(places) - 1:
                p = places[i]
                if left <= caps[p]:
                    k[p] = left
                    out.append(tuple(k))
                    k[p] = 0
                return
            p = places[i]
            for x in range(min(left, caps[p]) + 1):
                k[p] = x
                rec(i + 1, left - x)
            k[p] = 0

        if not places:
            return [tuple(k)] if n == 0 else []
        rec(0, n)
        return out

    def _options(self, g: int, caps: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        key = (g, caps)
        got = self._choices.get(key)
        if got is None:
            cards, allowed = self.groups[g]
            n = len(cards)
            comps, weights = [], []
            for k in self._compositions(n, allowed, caps):
                rest = tuple(c - x for c, x in zip(caps, k))
                w = self._count(g + 1, rest)
                if w:
                    ways = math.factorial(n)
                    for x in k:
                        ways //= math.factorial(x)
                    comps.append(k)
                    weights.append(ways * w)
            got = (comps, weights)
            self._choices[key] = got
        return got

    def _count(self, g: int, caps: tuple[int, ...]) -> int:
        if g == len(self.groups):
            return 1 if not any(caps) else 0
        key = (g, caps)
        v = self._memo.get(key)
        if v is None:
            v = sum(self._options(g, caps)[1])
            self._memo[key] = v
        return v

    def draw(self, rng: random.Random) -> list[CardSet]:
        """One deal: the cards of each place."""
        out = [0] * len(self.caps)
        caps = self.caps
        for g, (cards, _) in enumerate(self.groups):
            comps, weights = self._options(g, caps)
            if len(comps) == 1:
                k = comps[0]
            else:
                r = rng.randrange(sum(weights))
                for k, w in zip(comps, weights):
                    if r < w:
                        break
                    r -= w
            shuffled = cards[:]
            rng.shuffle(shuffled)
            pos = 0
            for p, x in enumerate(k):
                for c in shuffled[pos:pos + x]:
                    out[p] |= 1 << c
                pos += x
            caps = tuple(c - x for c, x in zip(caps, k))
        return out


def _seen_cards(v: View) -> CardSet:
    """Every card the view shows: hands, tricks, Dobb, lay-away."""
    known = 0
    for cs in v.hands.values():
        known |= cs
    for t in v.tricks:
        for c in t:
            known |= 1 << c
    return known | (v.dobb or 0) | (v.discard or 0)


class DealSampler:
    """Draws complete deals consistent with a view (see the module doc).

    ``compiled``: draw in C (True), in Python (False), or in C unless
    ``DOBBM_PURE_SAMPLER`` asks otherwise (None); in C only where the compiled
    core can serve (:attr:`compiled` tells).
    """

    def __init__(self, view: View, compiled: bool | None = None) -> None:
        self.view = view
        v = view
        self.played = (follow_tricks(v.active, v.declarer, v.tricks) if v.declarer
                       else PlayedCards({s: () for s in v.active}, {s: 0 for s in v.active}))
        self.played_bits = {s: self.played.cards(s) for s in v.active}
        self.unseen = BB_ALL & ~_seen_cards(v)
        # cards known to be in each hand now: those seen, and in a Dobbm whose Dobb and
        # lay-away are both known, the Dobb cards the declarer kept and has not played
        self.known_hand = {s: v.hands.get(s, 0) for s in v.active}
        d = v.declarer
        if v.exchanged and d is not None and d != v.me and v.dobb is not None and v.discard is not None:
            self.known_hand[d] |= v.dobb & ~v.discard & ~self.played_bits[d]
        caps, forbid = self._places()
        # group the unseen cards by the set of places allowed to take them
        by_allowed: dict[tuple[int, ...], list[Card]] = {}
        for c in scan_forward(self.unseen):
            allowed = tuple(i for i in range(len(caps)) if not (forbid[i] >> card_suit(c)) & 1)
            by_allowed.setdefault(allowed, []).append(c)
        groups = [(cards, allowed) for allowed, cards in sorted(by_allowed.items())]
        self.allocator = CardAllocator(groups, tuple(caps))
        # each speaker's turn in the round (the Dobbm threshold depends on it)
        order = None if v.must else bidding_order(v.seats, v.dealer, v.bids, v.active)
        self.auction = tuple((seat, kind, order.index(seat) if order and seat in order else None)
                             for seat, kind in v.auction)
        #: doublings the sampler conditions on (a ``double`` view's; 0 for other commands)
        self.doubled = v.doublings if v.command == "double" else 0
        use_core = not sampling_core.pure_requested() if compiled is None else compiled
        self._core = sampling_core.build_core(self) if use_core else None

    @property
    def compiled(self) -> bool:
        """The samples are drawn by the compiled core."""
        return self._core is not None

    def _places(self) -> tuple[list[int], list[int]]:
        """Set ``places`` (kind, seat) where unseen cards go; return their capacities and the
        suits each may not take (a 4-bit mask)."""
        v = self.view
        self.places: list[tuple[str, str | None]] = []
        caps: list[int] = []
        forbid: list[int] = []
        self.twelve_policy = False
        for s in v.active:
            if s == v.me:
                continue
            have = popcount(self.known_hand[s])
            size = HAND_SIZE - len(self.played.by_seat.get(s, ()))
            if v.exchanged and s == v.declarer and v.discard is None:
                twelve_known = v.hands.get(s, 0) | (v.dobb or 0) | self.played_bits[s]
                self.places.append(("twelve", s))
                caps.append(HAND_SIZE + DOBB_SIZE - popcount(twelve_known))
                forbid.append(0)
                self.twelve_policy = True
            else:
                self.places.append(("hand", s))
                caps.append(size - have)
                forbid.append(self.played.voids.get(s, 0))
        if v.dobb is None and not v.exchanged:
            self.places.append(("dobb", None))
            caps.append(DOBB_SIZE)
            forbid.append(0)
        return caps, forbid

    def draw(self, rng: random.Random) -> tuple[dict[str, CardSet], CardSet, dict[str, CardSet], CardSet]:
        """The uniform part: hands (seen and dealt), the Dobb, each seat's 8 dealt cards, and an
        unseen Dobbm declarer's 12 cards (0 if none).  The lay-away is not chosen yet."""
        parts = self.allocator.draw(rng)
        return self._compose(parts, lambda twelve: sum(1 << c for c in rng.sample(list(scan_forward(twelve)),
                                                                                  DOBB_SIZE)))

    def _compose(self, parts: list[CardSet] | tuple[CardSet, ...], draw_dobb: Callable[[CardSet], CardSet]
                 ) -> tuple[dict[str, CardSet], CardSet, dict[str, CardSet], CardSet]:
        """:meth:`draw` from the cards of each place, ``draw_dobb(twelve)`` drawing an unseen
        Dobb from the Dobbm declarer's 12 cards."""
        v = self.view
        hands = dict(self.known_hand)
        dobb = v.dobb
        twelve = 0
        for (kind, s), cs in zip(self.places, parts):
            if kind == "hand":
                assert s is not None
                hands[s] |= cs
            elif kind == "dobb":
                dobb = cs
            else:
                assert s is not None
                twelve = cs | v.hands.get(s, 0) | (v.dobb or 0) | self.played_bits[s]
        dealt = {s: hands[s] | self.played_bits[s] for s in v.active}
        if v.exchanged:
            d = v.declarer
            assert d is not None
            if d == v.me:
                assert v.discard is not None
                if dobb is None:
                    dobb = v.discard     # a stand-in: only the declarer's own 12 cards hold it
                dealt[d] = (hands[d] | v.discard | self.played_bits[d]) & ~dobb
            else:
                if not self.twelve_policy:
                    assert v.discard is not None
                    twelve = hands[d] | v.discard | self.played_bits[d]
                if dobb is None:
                    dobb = draw_dobb(twelve)
                dealt[d] = twelve & ~dobb
        assert dobb is not None
        return hands, dobb, dealt, twelve

    def resolve(self, hands: dict[str, CardSet], dobb: CardSet, twelve: CardSet) -> Deal | None:
        """The deal, with an unseen Dobbm declarer's lay-away chosen by the policy; None if
        that lay-away contradicts what was seen (cards shown, voids)."""
        v = self.view
        discard = v.discard
        if v.exchanged and self.twelve_policy:
            d = v.declarer
            assert d is not None
            shown = v.hands.get(d, 0) | self.played_bits[d]
            discard = heuristic_discard(twelve, shown, twelve & self.played.void_cards(d) & ~shown)
            if discard is None:
                return None
            hands = {**hands, d: twelve & ~discard & ~self.played_bits[d]}
        return Deal(seats=v.seats, declarer=v.declarer or v.me, contract=v.contract or "dobbm",
                    hands=hands, dobb=dobb, discard=discard if v.exchanged else None,
                    tricks=v.tricks, doublings=v.doublings, dealer=v.dealer)

    def accepts(self, dealt: Mapping[str, CardSet], u: float, dobb: CardSet = 0) -> bool:
        """``u <`` the bidding model's probability of the bids said, given each speaker's
        8 cards, times (in a ``double`` view) the doubling model's probability of the
        doublings said; the product stops as soon as it falls to ``u``."""
        p = 1.0
        for seat, kind, turn in self.auction:
            p *= bid_likelihood(kind, dealt[seat], turn)
            if p <= u:
                return False
        if self.doubled:
            v = self.view
            assert v.declarer is not None and v.contract is not None
            decl = declarer_cards(v.contract, dealt[v.declarer], dobb)
            p *= doubling_likelihood(self.doubled, v.contract, decl,
                                     [dealt[s] for s in v.active if s != v.declarer])
        return p > u

    def sample(self, seed: int, index: int, stream: str = "deal"
               ) -> tuple[Deal | None, dict[str, CardSet], CardSet]:
        """Sample ``index`` of ``seed``: ``(deal, dealt, dobb)``, accepted by the auction.

        ``dealt``: each seat's 8 dealt cards (the Dobbm declarer's before the
        exchange).  ``stream`` ``"cv"``: the independent stream of cheap draws
        whose features calibrate the control variates; there the lay-away is
        not chosen and the deal is None (unless tricks make it matter).
        """
        resolve = stream != "cv" or bool(self.view.tricks)
        for hands, dobb, dealt, twelve in self._accepted(f"{_seed_prefix(stream, seed)}{index}"):
            if not resolve:
                return None, dealt, dobb
            deal = self.resolve(hands, dobb, twelve)
            if deal is not None:
                return deal, dealt, dobb
        raise self._too_unlikely()

    def compiled_cv_features(self, seed: int, start: int, count: int) -> list[tuple[float, ...]] | None:
        """:func:`~dobbm_solver.analyzer.estimate.deal_features` of the ``"cv"`` stream's
        samples ``start .. start+count-1`` of ``seed``, drawn and computed by the compiled
        core in one call: the same values as :meth:`sample` and ``deal_features`` give.
        None where the core cannot serve: no core, or tricks in the view (the stream then
        chooses the lay-away, see :meth:`sample`)."""
        core = self._core
        if core is None or self.view.tricks:
            return None
        keys = sampling_core.seed_bytes(_seed_prefix("cv", seed), range(start, start + count))
        got = core.features_batch(keys, MAX_TRIES)
        if got is None:
            raise self._too_unlikely()
        return got

    def _accepted(self, text: str) -> Iterator[tuple[dict[str, CardSet], CardSet, dict[str, CardSet], CardSet]]:
        """The draws (as :meth:`draw`) the auction accepts, from the generator of
        ``random.Random(text)``, in at most :data:`MAX_TRIES` draws: by the compiled core
        if there is one (the same draws from the same generator states), else here."""
        core = self._core
        if core is not None:
            crng = sampling_core.generator(text)
            tries = MAX_TRIES
            while tries > 0:
                got = core.run(crng, tries)
                if got is None:
                    return
                made, parts, drawn = got
                tries -= made
                yield self._compose(parts, lambda _: drawn)
            return
        rng = random.Random(text)
        test = bool(self.auction or self.doubled)
        for _ in range(MAX_TRIES):
            hands, dobb, dealt, twelve = self.draw(rng)
            if not test or self.accepts(dealt, rng.random(), dobb):
                yield hands, dobb, dealt, twelve

    def _too_unlikely(self) -> AnalyzerError:
        v = self.view
        return AnalyzerError(v.path, "bids" if self.auction else "hands",
                             f"no deal consistent with what is known was found in {MAX_TRIES} tries: "
                             f"the auction is too unlikely under the bidding model given your cards",
                             v.doc)


def _seed_prefix(stream: str, seed: int) -> str:
    """What the text sample ``index`` of ``seed`` in ``stream`` seeds its generator with
    (``random.Random(text)``) has before the index."""
    return f"dobbm-analyzer:{stream}:{seed}:"


_CACHE: dict[tuple[Any, ...], DealSampler] = {}


def _view_key(v: View) -> tuple[Any, ...]:
    return (v.command, v.seats, v.me, tuple(sorted(v.hands.items())), v.declarer, v.contract,
            v.dobb, v.discard, v.tricks, v.doublings, v.dealer, v.bids, v.must, v.auction)


def sampler_for(view: View) -> DealSampler:
    """The sampler of ``view``, built once per process for the last few views."""
    key = _view_key(view)
    got = _CACHE.get(key)
    if got is None:
        if len(_CACHE) > 32:
            _CACHE.clear()
        got = _CACHE[key] = DealSampler(view)
    return got


def clear_sampler_cache() -> None:
    """Forget every sampler built (the next :func:`sampler_for` builds afresh)."""
    _CACHE.clear()


def sample_deals(view: View, samples: int, seed: int = 0, start: int = 0) -> list[Deal]:
    """Samples ``start .. start+samples-1`` of a view: complete deals consistent with it.

    For ``bid`` and ``discard`` views the deal is the one before the exchange:
    ``me`` is its declarer of a Dobbm with the lay-away not yet chosen.
    """
    s = sampler_for(view)
    out = []
    for i in range(start, start + samples):
        deal = s.sample(seed, i)[0]
        assert deal is not None
        out.append(deal)
    return out
