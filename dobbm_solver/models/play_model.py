"""A model of the card play, for reading what the cards played say about the hidden hands.

A seat to play is modelled as choosing each legal card with a chance that
rises with the card's open-card value for that seat (a softmax): the
declarer's final points after the card with every hand open
(:meth:`~dobbm_solver.solver.Solver.solve_all_cards`), counted for the
declarer and against it for a defender, divided by the temperature
:data:`PLAY_TEMPERATURE` (points).  A low temperature is a player who almost
always plays an open-card best card, a high one a player whose cards say
little.  The temperature is fitted by maximum likelihood to the arena's own
Monte Carlo card players by ``benchmarks/fit_play_model.py``.

:func:`play_log_likelihood` gives the log-chance of every card already
played in a deal by the seats named (not by the one reading the play: your
own cards were chosen on what you knew, and tell nothing of the hidden
hands), each at the position it was played in.  Weighting each sampled
deal by it (importance weights) turns the sampler's prior into the
posterior given the play (as the bidding model's likelihood does for the
auction by rejection).  A card with no alternative (a single legal card)
says nothing and costs no solve.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable, Collection, Mapping

from ..cards import Card, CardSet
from ..deal import Deal, replay, trick_seats

#: The open-card value of each legal card of a position (a solver's ``solve_all_cards``).
SolveAll = Callable[[Deal], Mapping[Card, int]]

#: The softmax temperature in the declarer's points (fitted: ``benchmarks/fit_play_model.py``).
PLAY_TEMPERATURE = 6.7


def card_chances(values: Mapping[Card, int], declarer: bool, temperature: float = PLAY_TEMPERATURE
                 ) -> dict[Card, float]:
    """Each legal card's chance under the model: ``exp(±value / temperature)`` normalised,
    ``values`` the declarer's final points after each card (counted for the declarer,
    against it for a defender)."""
    sign = 1.0 if declarer else -1.0
    top = max(sign * v for v in values.values())
    weights = {c: math.exp((sign * v - top) / temperature) for c, v in values.items()}
    total = math.fsum(weights.values())
    return {c: w / total for c, w in weights.items()}


def positions(deal: Deal) -> list[tuple[Deal, str, Card]]:
    """Each card of ``deal.tricks`` in play order with the deal as it stood before it
    (every hand holding the cards it played later) and the seat that played it."""
    state = replay(deal, check=False)
    active = deal.active_seats
    plays: list[tuple[str, Card]] = []
    for leader, trick in zip(state.leaders, deal.tricks):
        order = trick_seats(active, leader)
        plays.extend((order[i], c) for i, c in enumerate(trick))
    out = []
    later: dict[str, CardSet] = dict.fromkeys(active, 0)
    flat = [c for t in deal.tricks for c in t]
    for k in range(len(plays) - 1, -1, -1):
        seat, card = plays[k]
        later[seat] |= 1 << card
        before = flat[:k]
        tricks = tuple(tuple(before[i:i + 4]) for i in range(0, len(before), 4))
        hands = {s: deal.hands[s] | later[s] for s in deal.hands}
        out.append((replace(deal, hands=hands, tricks=tricks), seat, card))
    out.reverse()
    return out


def play_log_likelihood(solve_all_cards: SolveAll, deal: Deal, seats: Collection[str],
                        temperature: float = PLAY_TEMPERATURE) -> float:
    """The log-chance, under the model, of every card of ``deal.tricks`` that one of ``seats``
    played (``solve_all_cards``: the solver's, on each position before such a card)."""
    total = 0.0
    for position, seat, card in positions(deal):
        if seat not in seats:
            continue
        values = solve_all_cards(position)
        if len(values) < 2:
            continue
        total += math.log(card_chances(values, seat == deal.declarer, temperature)[card])
    return total

