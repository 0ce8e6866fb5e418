"""``dobbm practice``: what the player is asked, what happens at the table, the result,
the review of the player's decisions and the running totals, as text and as JSON.

Each ``*_text`` gives the text and each ``*_dict`` the JSON object of one
thing; the command prints them as they come (one JSON object a line).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..cards import BB_SUITS, BB_TRUMPS, Card, CardSet, card_name, card_points, cards_text, scan_forward, set_names
from ..deal import trick_seats
from ..notation import format_deal_line
from ..practice.game import (
    DOUBLE,
    GOOD,
    RETOUR,
    Ask,
    BidSaid,
    CardPlayed,
    DoublingSaid,
    Event,
    HandPlayed,
    LaidAway,
    ThrownIn,
)
from ..practice.judge import BidJudged, DiscardJudged, DoublingJudged, Judged, PracticeReview
from ..rules import outcome
from .diagram import DISPLAY_SUITS
from .review import discard_dict, doubling_dict, payment_text

__all__ = ["answer_text", "ask_dict", "example_discard", "ask_text", "event_dict", "event_text", "help_text",
           "hand_start_dict", "hand_start_text", "result_dict", "result_text", "review_dict", "review_text",
           "totals_dict", "totals_text", "UNITS_NOTE"]

BID_NAMES = {"pass": "pass", "dobbm": "Dobbm", "solo": "Solo"}
#: The units of the practice review and the totals.
UNITS_NOTE = "units are your own for the hand: a declarer settles with all three defenders"


def hand_text(cs: CardSet) -> str:
    """A hand by suit, trumps first: ``HA H10 | EK E9 | LO | S7``."""
    return " | ".join(cards_text(cs & BB_SUITS[s]) for s in DISPLAY_SUITS if cs & BB_SUITS[s])


def _signed(u: int) -> str:
    return f"{u:+d}"


def _you(seat: str, me: str) -> str:
    return f"{seat} (you)" if seat == me else seat


def _units(u: int) -> str:
    return f"{u} unit{'s' if u != 1 else ''}"


def _forehand(seats: tuple[str, ...], dealer: str) -> str:
    return seats[(seats.index(dealer) + 1) % len(seats)]


# --------------------------------------------------------------------------
# a hand begins

def hand_start_text(number: int, of: int, deal_number: int, seats: tuple[str, ...], dealer: str, me: str,
                    cards: CardSet) -> str:
    return (f"Hand {number} of {of} (deal {deal_number}): {dealer} deals, {_forehand(seats, dealer)} is "
            f"forehand; you are {me}.")


def hand_start_dict(number: int, of: int, deal_number: int, seats: tuple[str, ...], dealer: str, me: str,
                    cards: CardSet) -> dict[str, Any]:
    return {"event": "deal", "hand": number, "hands": of, "deal": deal_number, "seats": list(seats),
            "dealer": dealer, "forehand": _forehand(seats, dealer), "seat": me, "cards": set_names(cards)}


# --------------------------------------------------------------------------
# what happens

def _doubling_word(e: DoublingSaid) -> str:
    if not e.said:
        return GOOD
    return "Schwacher" if e.number == 1 else "Retour"


def event_text(e: Event, me: str) -> str | None:
    """The line of an event (None: shown elsewhere, as another seat's card is in its trick's line)."""
    if isinstance(e, BidSaid):
        return f"  {_you(e.seat, me)}: {BID_NAMES[e.bid]}"
    if isinstance(e, ThrownIn):
        return f"  all four pass: the cards are thrown in, {e.dealer} deals again"
    if isinstance(e, LaidAway):
        if e.cards is not None:
            return f"  you take the Dobb and lay away {cards_text(e.cards)}"
        return f"  {e.seat} takes the Dobb and lays four cards away"
    if isinstance(e, DoublingSaid):
        return f"  {_you(e.seat, me)}: {_doubling_word(e)}"
    if isinstance(e, CardPlayed):
        return f"  you play {card_name(e.card)}" if e.seat == me else None
    cards = "  ".join(f"{s} {card_name(c)}" for s, c in zip(e.order, e.cards))
    return (f"  trick {e.trick}: {cards}; {_you(e.winner, me)} wins {e.points} points "
            f"(in tricks: declarer {e.declarer_points}, defenders {e.defender_points})")


def event_dict(e: Event) -> dict[str, Any]:
    if isinstance(e, BidSaid):
        return {"event": "bid", "seat": e.seat, "bid": e.bid}
    if isinstance(e, ThrownIn):
        return {"event": "thrown_in", "dealer": e.dealer}
    if isinstance(e, LaidAway):
        return {"event": "lay_away", "seat": e.seat, "cards": None if e.cards is None else set_names(e.cards)}
    if isinstance(e, DoublingSaid):
        return {"event": "doubling", "seat": e.seat, "number": e.number, "said": e.said,
                "word": _doubling_word(e).lower()}
    if isinstance(e, CardPlayed):
        return {"event": "card", "seat": e.seat, "card": card_name(e.card), "trick": e.trick}
    return {"event": "trick", "trick": e.trick, "leader": e.order[0], "cards": [card_name(c) for c in e.cards],
            "winner": e.winner, "points": e.points, "declarer_points": e.declarer_points,
            "defender_points": e.defender_points}


# --------------------------------------------------------------------------
# what the player is asked

def _bids_text(bids: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{s} {BID_NAMES[b]}" for s, b in bids) or "none yet"


def _contract_text(ask: Ask[Any]) -> str:
    kind = "Dobbm" if ask.contract == "dobbm" else "Solo"
    d = ask.doublings
    return f"{kind} by {ask.declarer}" + (f", {d} doubling{'s' if d != 1 else ''}" if d else "")


def ask_text(ask: Ask[Any]) -> str:
    """The question, with what the seat sees: its cards, the bids, the trick so far."""
    if ask.kind == "bid":
        options = [BID_NAMES[o] for o in ask.options]
        return (f"Your bid (bids so far: {_bids_text(ask.bids)}): {', '.join(o.lower() for o in options[:-1])} "
                f"or {options[-1].lower()}?\n  your cards: {hand_text(ask.hand)}")
    if ask.kind == "discard":
        assert ask.dobb is not None
        return (f"You play a Dobbm and take the Dobb: {cards_text(ask.dobb)}.\n  your 12 cards: "
                f"{hand_text(ask.hand)}\nLay away four cards (a plain Sau only with a trump), e.g. "
                f"{cards_text(example_discard(ask.hand))}?")
    if ask.kind == "double":
        word = ask.options[0]
        if word == DOUBLE:
            head = f"{_contract_text(ask)}; the declarer says: I lie. Schwacher (double) or good?"
        elif ask.seat == ask.declarer:
            head = f"{_contract_text(ask)}: a defender said Schwacher. Retour or good?"
        else:
            head = f"{_contract_text(ask)}. Retour or good?"
        return f"{head}\n  your cards: {hand_text(ask.hand)}"
    view = ask.view
    assert view is not None
    trick = len(view.tricks) + (0 if view.trick else 1)
    so_far = "  ".join(f"{s} {card_name(c)}" for s, c in zip(trick_seats(view.seats, view.leader), view.trick))
    led = f"so far {so_far}" if view.trick else "you lead"
    return (f"Trick {trick} of {_contract_text(ask)}, you to play ({led}).\n  your cards: {hand_text(ask.hand)}"
            f"\n  you may play: {cards_text(ask.legal)}")


def example_discard(cards: CardSet) -> list[Card]:
    """Four cards to show the form of the answer: the four with the fewest points, plain first."""
    return sorted(scan_forward(cards), key=lambda c: (card_points(c), bool(BB_TRUMPS >> c & 1), c))[:4]


def ask_dict(ask: Ask[Any]) -> dict[str, Any]:
    obj: dict[str, Any] = {"prompt": ask.kind, "seat": ask.seat, "cards": set_names(ask.hand),
                           "bids": [[s, b] for s, b in ask.bids]}
    if ask.kind in ("bid", "double"):
        obj["options"] = list(ask.options)
    if ask.declarer is not None:
        obj.update(declarer=ask.declarer, contract=ask.contract, doublings=ask.doublings)
    if ask.dobb is not None:
        obj["dobb"] = set_names(ask.dobb)
    if ask.view is not None:
        view = ask.view
        obj.update(trick=len(view.tricks) + (0 if view.trick else 1), leader=view.leader,
                   trick_cards=[card_name(c) for c in view.trick], legal=set_names(ask.legal),
                   played=[card_name(c) for t in view.tricks for c in t])
    return obj


def answer_text(ask: Ask[Any], answer: object) -> str:
    """An answer in the words the player types: a bid, four cards, double/retour/good, a card."""
    if ask.kind == "bid":
        return str(answer)
    if ask.kind == "discard":
        assert isinstance(answer, int)
        return cards_text(answer)
    if ask.kind == "double":
        return ask.options[0] if answer else GOOD
    assert isinstance(answer, int)
    return card_name(answer)


def help_text(ask: Ask[Any] | None) -> str:
    """What may be typed now."""
    now = {"bid": "a bid: pass, dobbm or solo (as many as are open)",
           "discard": "four cards to lay away from your 12, e.g. E6 E7 L8 S9",
           "double": f"{DOUBLE} (Schwacher) or {RETOUR} to double, {GOOD} to play on",
           "play": "a card you may play, e.g. EA"}
    lines = ["Commands, one a line:"]
    if ask is not None:
        lines.append(f"  {now[ask.kind]}")
    lines += ["  hint    take the advice's choice (what the computer would do in your seat)",
              "  help    this list", "  quit    end the session (the hands finished stay saved)"]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# after a hand

def result_text(hand: HandPlayed) -> str:
    res = hand.result
    if res.declarer is None:
        return "Result: thrown in, nobody pays."
    assert res.points is not None and res.contract is not None
    kind = "Dobbm" if res.contract == "dobbm" else "Solo"
    per = -res.units[next(s for s in hand.board.seats if s != res.declarer)]
    dbl = f", {res.doublings} doubling{'s' if res.doublings != 1 else ''}" if res.doublings else ""
    pays = ", ".join(f"{_you(s, hand.me)} {_signed(u)}" for s, u in res.units.items())
    return (f"Result: {kind} by {res.declarer}{dbl}: {res.declarer} {res.points} points "
            f"({outcome(res.points).value}); {payment_text(res.declarer, per)}.\n  this hand: {pays}")


def result_dict(hand: HandPlayed, number: int) -> dict[str, Any]:
    res = hand.result
    obj: dict[str, Any] = {"event": "result", "hand": number, "bids": [[s, b] for s, b in res.bids],
                           "declarer": res.declarer, "contract": res.contract, "doublings": res.doublings,
                           "doubled_by": list(res.doubled_by), "points": res.points,
                           "outcome": None if res.points is None else outcome(res.points).value,
                           "payments": dict(res.units)}
    if hand.deal is not None:
        obj["deal"] = format_deal_line(hand.deal)
    return obj


def _judged_text(j: Judged) -> str:
    if isinstance(j, BidJudged):
        values = ", ".join(f"{BID_NAMES[b]} {_signed(v)}" for b, v in j.values.items())
        head = f"bid {BID_NAMES[j.bid]}: " + ("best" if not j.cost_units else f"cost {_units(j.cost_units)}")
        return (f"{head} (with open cards, as the last bid: {values}); "
                f"advice {BID_NAMES[j.advice]}" + (f" (cost {_units(j.advice_cost_units)})"
                                                    if j.advice_cost_units else ""))
    if isinstance(j, DiscardJudged):
        r = j.review
        head = f"lay-away {cards_text(r.cards)}: " + (
            "a best one" if not r.cost else
            f"cost {r.cost} points" + (f", {_units(j.cost_units)}" if j.cost_units else "")
            + f" (best {cards_text(r.best[0])}, {r.best_points} points)")
        adv = f"advice {cards_text(j.advice)}" + (
            f" (cost {j.advice_cost} points" + (f", {_units(j.advice_cost_units)})" if j.advice_cost_units else ")")
            if j.advice_cost else "")
        return f"{head}; {adv}"
    if isinstance(j, DoublingJudged):
        d = j.review
        said = f"{d.name} said" if d.said else f"no {d.name} (good)"
        head = f"{said}: " + ("right" if not j.cost_units else f"cost {_units(j.cost_units)}")
        adv = (d.name if j.advice else GOOD) + (f" (cost {_units(j.advice_cost_units)})"
                                                if j.advice_cost_units else "")
        return f"{head} (with open cards {d.points} points); advice {adv}"
    c = j.review
    head = f"trick {c.trick} {card_name(c.card)}: " + (
        "best" if not c.cost else f"cost {c.cost} points" + (f", {_units(j.cost_units)}" if j.cost_units else "")
        + f" (best {cards_text(c.best)})")
    adv = f"advice {card_name(j.advice)}" + (
        f" (cost {j.advice_cost} points" + (f", {_units(j.advice_cost_units)})" if j.advice_cost_units else ")")
        if j.advice_cost else "")
    return f"{head}; {adv}"


def review_text(review: PracticeReview) -> str:
    """The result, then the player's decisions judged with open cards beside the advice's."""
    lines = [result_text(review.hand)]
    if review.review is not None:
        r = review.review
        lines.append(f"  with open cards from the opening lead: {r.deal.declarer} {r.start_points} points")
    if review.judged:
        lines.append(f"Your decisions with open cards, and the advice from your view ({UNITS_NOTE}):")
        lines += [f"  {_judged_text(j)}" for j in review.judged]
        lines.append(f"  your decisions cost you {_units(review.units_lost)}; the advice's would have cost "
                     f"{_units(review.advice_units_lost)}")
    return "\n".join(lines)


def _judged_dict(j: Judged) -> dict[str, Any]:
    if isinstance(j, BidJudged):
        return {"decision": "bid", "chosen": j.bid, "values": dict(j.values), "best": list(j.best),
                "cost_units": j.cost_units, "advice": j.advice, "advice_cost_units": j.advice_cost_units}
    if isinstance(j, DiscardJudged):
        return {"decision": "lay_away", "chosen": cards_text(j.review.cards), **discard_dict(j.review),
                "cost_units": j.cost_units, "advice": cards_text(j.advice), "advice_cost": j.advice_cost,
                "advice_cost_units": j.advice_cost_units}
    if isinstance(j, DoublingJudged):
        return {"decision": "doubling", "chosen": "double" if j.review.said else GOOD, **doubling_dict(j.review),
                "cost_units": j.cost_units, "advice": "double" if j.advice else GOOD,
                "advice_cost_units": j.advice_cost_units}
    c = j.review
    return {"decision": "card", "trick": c.trick, "chosen": card_name(c.card), "before": c.before,
            "after": c.after, "cost": c.cost, "best": [card_name(b) for b in c.best], "cost_units": j.cost_units,
            "advice": card_name(j.advice), "advice_cost": j.advice_cost, "advice_cost_units": j.advice_cost_units}


def review_dict(review: PracticeReview, number: int) -> dict[str, Any]:
    r = review.review
    return {**result_dict(review.hand, number), "event": "review",
            "start_points": None if r is None else r.start_points,
            "decisions": [_judged_dict(j) for j in review.judged], "units_lost": review.units_lost,
            "advice_units_lost": review.advice_units_lost}


# --------------------------------------------------------------------------
# the session

def totals_text(totals: Mapping[str, int], hands: int, me: str) -> str:
    return (f"Totals after {hands} hand{'s' if hands != 1 else ''}: "
            + ", ".join(f"{_you(s, me)} {_signed(u)}" for s, u in totals.items()))


def totals_dict(totals: Mapping[str, int], hands: int, *, end: str | None = None) -> dict[str, Any]:
    obj: dict[str, Any] = {"event": "end" if end else "totals", "hands": hands, "totals": dict(totals)}
    if end:
        obj["reason"] = end
    return obj
