"""Hand-file texts and helpers shared by the analyzer's tests (views, sampling, analyses)."""

from __future__ import annotations

import random

import pytest
import yaml
from randdeals import play_random

from dobbm_solver.analyzer import View, make_view
from dobbm_solver.cards import card_name, cards_text, cardset, scan_forward, set_names
from dobbm_solver.deal import Deal, validate
from dobbm_solver.handfile import HandFileError, parse_spec, parse_specs
from dobbm_solver.models.bidding import model_bid
from dobbm_solver.models.discard_rule import heuristic_discard, legal_discards
from dobbm_solver.models.strength import hand_strength

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
    deal = Deal(seats=tuple(SEATS), declarer=declarer, contract=contract, hands=dict(hands), dobb=dobb,
                discard=discard, tricks=tricks, doublings=0, dealer=dealer)
    validate(deal)
    me = rng.choice(SEATS)
    seen = {me: hands[me]}
    doc: dict = {"seats": SEATS, "dealer": dealer, "me": me, "declarer": declarer, "contract": contract,
                 "hands": {s: cards_text(c) for s, c in seen.items()},
                 "tricks": [" ".join(card_name(c) for c in t) for t in tricks]}
    if contract == "dobbm" and (me == declarer or rng.random() < 0.3):
        doc["dobb"] = cards_text(dobb)
    if contract == "dobbm" and (me == declarer or rng.random() < 0.3):
        doc["discard"] = cards_text(discard)
    if me != declarer and rng.random() < 0.3:
        # a card of another hand seen by chance
        other = rng.choice([s for s in SEATS if s != me and hands[s]] or [me])
        if other != me:
            c = rng.choice(list(scan_forward(hands[other])))
            doc["hands"][other] = set_names(1 << c)[0]
    spec = parse_spec(yaml.safe_load(yaml.safe_dump(doc)), "p.yaml")
    return make_view(spec, "play"), deal
