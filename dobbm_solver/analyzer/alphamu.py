"""The declarer's card by alpha-mu search: one strategy for every world, not one per world.

Perfect-information Monte Carlo (:mod:`.play`) values each card on each
sampled deal (a *world*) as if every card were open from then on: in one
world the declarer finesses, in another drops, though at the table the same
card must be played in both (strategy fusion).  The alpha-mu search
(Cazenave and Ventos, 2019-2021) searches a few worlds together: the
declarer (Max) must choose the same card in every world it cannot tell
apart, the defenders (Min) are assumed to know the world.  A node's value is
a *front*: the Pareto-maximal vectors of the declarer's points, one entry
per world, each vector what one strategy of the declarer gets in every world.

Adapted to Dobbm's points:

* the declarer makes ``depth`` moves under one strategy for all worlds
  consistent with what it has seen (its first, then its next turn after the
  defenders' cards in between, ...); after its last such move every world is
  valued by the open-card solver (``solve_all_cards``: every card at once);
* at a defender's turn each world keeps only that defender's open-card best
  cards there (all of them on ties), so the search stays small; the front
  of such a node combines its cards' fronts by the pointwise minimum over
  the cards open in each world (the defenders choose per world);
* cards that play alike (same suit, same points, no card between them still
  out) are searched once;
* the root's cards are ranked by the best vector of each card's front under
  the mean payment to the declarer (units, as the advice ranks), ties by the
  open-card mean.

With ``depth`` 1 this is perfect-information Monte Carlo.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from ..cards import Card, CardSet, card_points, card_rank, card_suit, cardset, legal_cards, make_card, scan_forward
from ..deal import Deal, replay
from ..solver import Solver
from .payment import payment

__all__ = ["ALPHAMU_DEPTH", "ALPHAMU_TRICKS", "ALPHAMU_WORLDS", "AlphaMuResult", "alphamu", "pareto"]

#: The declarer's moves searched under one strategy for all worlds (1: perfect-information MC).
ALPHAMU_DEPTH = 2
#: The search decides the declarer's cards in tricks 1 to this (later tricks: Monte Carlo).
ALPHAMU_TRICKS = 3
#: The worlds searched by default (``play --method alphamu`` without ``--samples``).
ALPHAMU_WORLDS = 8

#: A vector's entry for a world not at the node (above every point count: the minimum
#: over the cards open in a world ignores it).
ABSENT = 1 << 20

Vector = tuple[int, ...]
Front = list[Vector]


def pareto(vectors: Sequence[Vector]) -> Front:
    """The vectors no other vector dominates (at least as high everywhere, higher somewhere),
    once each, in the order first given."""
    uniq = list(dict.fromkeys(vectors))
    out: Front = []
    for i, v in enumerate(uniq):
        if not any(j != i and all(a >= b for a, b in zip(u, v)) for j, u in enumerate(uniq)):
            out.append(v)
    return out


def _min_combine(a: Front, b: Front) -> Front:
    """Each pair's pointwise minimum, Pareto-reduced (the defenders choose per world)."""
    return pareto([tuple(min(x, y) for x, y in zip(u, v)) for u in a for v in b])


@dataclass(frozen=True)
class AlphaMuResult:
    """The search's answer: each root card's best vector (declarer's points per world) and
    its score (mean payment to the declarer), the open-card values of every card per world,
    and the solves made."""

    best: Mapping[Card, Vector]
    score: Mapping[Card, float]
    open_values: Mapping[Card, Vector]
    alike: Mapping[Card, tuple[Card, ...]]
    solves: int


def _classes(cards: CardSet, out: CardSet) -> dict[Card, tuple[Card, ...]]:
    """``cards`` grouped into cards that play alike: the same suit and points, and every
    card ranked between them in ``cards`` or gone (not in ``out``, the cards still out
    elsewhere).  Keyed by each class's lowest card."""
    classes: dict[Card, tuple[Card, ...]] = {}
    last: Card | None = None
    for c in scan_forward(cards):          # low to high within a suit, suit by suit
        if last is not None and card_suit(last) == card_suit(c) and card_points(last) == card_points(c) \
                and not any(out >> make_card(card_suit(c), r) & 1 for r in range(card_rank(last) + 1, card_rank(c))):
            head = next(k for k, v in classes.items() if last in v)
            classes[head] = classes[head] + (c,)
        else:
            classes[c] = (c,)
        last = c
    return classes


class _Search:
    def __init__(self, solver: Solver, worlds: Sequence[Deal], depth: int) -> None:
        self.solver = solver
        self.worlds = list(worlds)
        self.depth = depth
        self.declarer = worlds[0].declarer
        self.active = worlds[0].active_seats
        self.solves = 0

    def values(self, deal: Deal) -> dict[Card, int]:
        self.solves += 1
        return self.solver.solve_all_cards(deal)

    def out_cards(self, deals: Mapping[int, Deal], seat: str) -> CardSet:
        """The cards any world at the node holds outside ``seat``'s hand."""
        held: CardSet = 0
        for d in deals.values():
            for s in self.active:
                if s != seat:
                    held |= d.hands[s]
        return held

    def front(self, deals: dict[int, Deal], moves: int) -> Front:
        """The front of the node whose worlds are ``deals`` (index -> deal at the node), the
        declarer having made ``moves`` moves under one strategy so far."""
        any_deal = next(iter(deals.values()))
        state = replay(any_deal, check=False)
        seat = state.to_move
        assert seat is not None, "the search ends before the hand does"
        led = state.trick[0] if state.trick else None
        if seat == self.declarer:
            hand = legal_cards(any_deal.hands[seat], led)      # the same in every world
            classes = _classes(hand, self.out_cards(deals, seat))
            if moves + 1 >= self.depth:
                vals = {w: self.values(d) for w, d in deals.items()}
                return pareto([self._vector({w: vals[w][c] for w in deals}) for c in classes])
            vectors: list[Vector] = []
            for c in classes:
                vectors.extend(self.front({w: _play(d, seat, c) for w, d in deals.items()}, moves + 1))
            return pareto(vectors)
        # a defender: in each world its open-card best cards (one of each alike class)
        by_card: dict[Card, dict[int, Deal]] = {}
        for w, d in deals.items():
            card_vals = self.values(d)
            low = min(card_vals.values())
            best = cardset(c for c, v in card_vals.items() if v == low)
            for c in _classes(best, self.out_cards({w: d}, seat)):
                by_card.setdefault(c, {})[w] = _play(d, seat, c)
        result: Front = [self._vector({})]
        for c in sorted(by_card):
            result = _min_combine(result, self.front(by_card[c], moves))
        return result

    def _vector(self, values: Mapping[int, int]) -> Vector:
        return tuple(values.get(w, ABSENT) for w in range(len(self.worlds)))


def _play(deal: Deal, seat: str, card: Card) -> Deal:
    """``deal`` after ``seat`` plays ``card`` (its hand loses it; the trick in play gets it,
    or a new trick starts)."""
    tricks = deal.tricks
    if tricks and len(tricks[-1]) < 4:
        tricks = tricks[:-1] + (tricks[-1] + (card,),)
    else:
        tricks = tricks + ((card,),)
    hands = dict(deal.hands)
    hands[seat] = hands[seat] & ~(1 << card)
    return replace(deal, hands=hands, tricks=tricks)


def alphamu(solver: Solver, worlds: Sequence[Deal], contract: str, doublings: int,
            depth: int = ALPHAMU_DEPTH) -> AlphaMuResult:
    """The declarer's legal cards in ``worlds`` (deals at the same position, the declarer to
    move, differing only in the cards the declarer cannot see) valued by alpha-mu search of
    ``depth`` declarer moves: each card's best vector and its mean payment to the declarer."""
    if not worlds:
        raise ValueError("alpha-mu needs at least one world")
    search = _Search(solver, worlds, depth)
    deals = dict(enumerate(worlds))
    state = replay(worlds[0], check=False)
    seat = state.to_move
    if seat != search.declarer:
        raise ValueError("alpha-mu decides the declarer's cards: the declarer is not to move")
    led = state.trick[0] if state.trick else None
    hand = legal_cards(worlds[0].hands[seat], led)
    classes = _classes(hand, search.out_cards(deals, seat))
    open_vals = [search.values(d) for d in worlds]
    open_values = {c: tuple(v[c] for v in open_vals) for c in scan_forward(hand)}
    best: dict[Card, Vector] = {}
    score: dict[Card, float] = {}
    for c in classes:
        if depth <= 1:
            front = [open_values[c]]
        else:
            front = search.front({w: _play(d, seat, c) for w, d in deals.items()}, 1)
        scored = [(sum(payment(p, contract, doublings, True) for p in v) / len(v), sum(v), v) for v in front]
        top = max(scored)
        best[c], score[c] = top[2], top[0]
    return AlphaMuResult(best=best, score=score, open_values=open_values, alike=classes, solves=search.solves)

