"""Random valid deals for round-trip tests: shuffled cards, four or five seats,
random contract and lay-away, random legal play (possibly mid-trick)."""

from __future__ import annotations

import random

from dobbm_solver.cards import cardset, legal_cards, scan_forward, trick_winner
from dobbm_solver.deal import Deal, validate
from dobbm_solver.rules import CONTRACTS, legal_discard


def random_deal(rng: random.Random) -> Deal:
    """A random valid deal: shuffled cards, random lay-away, random legal play."""
    cards = list(range(36))
    rng.shuffle(cards)
    five = rng.random() < 0.3
    seats = rng.sample(["Anna", "Bert", "Cora", "Dave", "Eve", "Jörg", "p1", "o'Neil"], 5 if five else 4)
    dealer = rng.choice(seats) if five or rng.random() < 0.5 else None
    active = [s for s in seats if not (five and s == dealer)]
    hands = {s: cardset(cards[8 * i: 8 * i + 8]) for i, s in enumerate(active)}
    dobb = cardset(cards[32:])
    declarer = rng.choice(active)
    contract = rng.choice(CONTRACTS)
    doublings = rng.choice([0, 0, 1, 2, 5])
    if contract == "dobbm" and rng.random() < 0.2:
        deal = Deal(seats=tuple(seats), declarer=declarer, contract=contract, hands=hands, dobb=dobb, discard=None,
                    tricks=(), doublings=doublings, dealer=dealer)
        validate(deal)
        return deal
    discard = None
    if contract == "dobbm":
        twelve = list(scan_forward(hands[declarer] | dobb))
        while not legal_discard(discard := cardset(rng.sample(twelve, 4))):
            pass
        hands[declarer] = (hands[declarer] | dobb) & ~discard
    tricks = play_random(rng, hands, active, declarer, rng.randint(0, 32))
    deal = Deal(seats=tuple(seats), declarer=declarer, contract=contract, hands=hands, dobb=dobb, discard=discard,
                tricks=tricks, doublings=doublings, dealer=dealer)
    validate(deal)
    return deal


def play_random(rng: random.Random, hands: dict[str, int], active: list[str], declarer: str,
                n_cards: int) -> tuple[tuple[int, ...], ...]:
    """Play ``n_cards`` random legal cards from the declarer's lead; ``hands`` lose them."""
    tricks: list[tuple[int, ...]] = []
    trick: list[int] = []
    leader = declarer
    for _ in range(n_cards):
        seat = active[(active.index(leader) + len(trick)) % 4]
        card = rng.choice(list(scan_forward(legal_cards(hands[seat], trick[0] if trick else None))))
        hands[seat] &= ~(1 << card)
        trick.append(card)
        if len(trick) == 4:
            leader = active[(active.index(leader) + trick_winner(trick)) % 4]
            tricks.append(tuple(trick))
            trick = []
    if trick:
        tricks.append(tuple(trick))
    return tuple(tricks)
