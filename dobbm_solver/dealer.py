"""Random deals: the deck shuffled and dealt as at the table (:func:`random_deal`).

:func:`deal_cards` deals a shuffled deck as the rule book says (packets of
four, clockwise; the last four cards are the Dobb).  :func:`random_deal`
shuffles with a seeded ``random.Random`` and seats the declarer as players
would: the strongest hand by
:func:`~dobbm_solver.models.strength.hand_strength` declares, a Solo when
its strength is at least :data:`SOLO_THRESHOLD` = 16.5, else a Dobbm, laying
away the rule of thumb's choice
(:func:`~dobbm_solver.models.discard_rule.heuristic_discard`).  Hands just
above the threshold: ``HA H10 HK EA E9 L8 L7 S6`` (17), ``HU H9 H8 H7 H6 EA
L9 S8`` (17), ``HA H10 HK H9 E9 E8 L7 L6`` (18).  Over random deals about 30%
are then Solos (the benchmark set, ``hands/benchmark.yaml``, states its own
share).  The benchmark hand files and the seeded tests are made with it.
"""

from __future__ import annotations

import random
from typing import Sequence

from .cards import BB_ALL, DOBB_SIZE, HAND_SIZE, NUM_CARDS, CardSet
from .deal import Deal, validate
from .models.discard_rule import heuristic_discard
from .models.strength import hand_strength

__all__ = ["SOLO_THRESHOLD", "DEFAULT_SEATS", "deal_cards", "random_deal"]

#: A hand at least this strong plays Solo in :func:`random_deal` (about 30% of deals).
SOLO_THRESHOLD = 16.5

#: The seats :func:`random_deal` deals to unless told.
DEFAULT_SEATS: tuple[str, ...] = ("Anna", "Bert", "Cora", "Dave")


def deal_cards(order: Sequence[int], n_seats: int = 4) -> tuple[list[CardSet], CardSet]:
    """Deal a shuffled deck as the rule book says: packets of four, clockwise,
    until each seat has 8; the last four cards are the Dobb."""
    if sorted(order) != list(range(NUM_CARDS)):
        raise ValueError("order must be a permutation of the 36 cards")
    hands = [0] * n_seats
    pos = 0
    for _ in range(HAND_SIZE // 4):
        for seat in range(n_seats):
            for c in order[pos:pos + 4]:
                hands[seat] |= 1 << c
            pos += 4
    dobb = 0
    for c in order[pos:pos + DOBB_SIZE]:
        dobb |= 1 << c
    assert sum(hands) | dobb == BB_ALL
    return hands, dobb


def random_deal(rng: random.Random, seats: Sequence[str] = DEFAULT_SEATS,
                contract: str | None = None, *, discard: bool = True) -> Deal:
    """A random deal at the opening lead, declarer and contract as at the table.

    The deck is shuffled with ``rng`` (one ``rng.shuffle`` of the 36 cards)
    and dealt by :func:`deal_cards` to the four ``seats`` in order.  The
    declarer is the seat with the highest
    :func:`~dobbm_solver.models.strength.hand_strength` (the first
    such seat on a tie).  With ``contract`` None the declarer plays Solo if
    that strength is at least :data:`SOLO_THRESHOLD`, else Dobbm.  In a Dobbm
    the declarer takes the Dobb and lays away
    :func:`~dobbm_solver.models.discard_rule.heuristic_discard`; with
    ``discard=False`` the Dobb is left untaken (``discard`` None, the
    declarer holding the 8 dealt cards) for a lay-away study.  The result is
    checked with :func:`dobbm_solver.deal.validate`.
    """
    seats = tuple(seats)
    if len(seats) != 4:
        raise ValueError(f"need four seats, not {len(seats)}")
    if contract not in (None, "dobbm", "solo"):
        raise ValueError(f"contract must be None, 'dobbm' or 'solo', not {contract!r}")
    order = list(range(NUM_CARDS))
    rng.shuffle(order)
    hands, dobb = deal_cards(order, len(seats))
    strengths = [hand_strength(h) for h in hands]
    i = max(range(len(seats)), key=lambda k: (strengths[k], -k))
    declarer = seats[i]
    if contract is None:
        contract = "solo" if strengths[i] >= SOLO_THRESHOLD else "dobbm"
    deal = Deal(seats=seats, declarer=declarer, contract=contract,
                hands=dict(zip(seats, hands)), dobb=dobb)
    if contract == "dobbm" and discard:
        deal = deal.with_discard(heuristic_discard(hands[i] | dobb))
    validate(deal)
    return deal
