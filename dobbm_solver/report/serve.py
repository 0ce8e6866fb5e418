"""``dobbm serve``: the app's page and the state documents its script renders.

:func:`app_page` is the page (the shared style sheet, the suit symbols, the
app's own script); :func:`state_dict` is what the page shows of a tab's
position after each request, as JSON: the hands, the trick in play, the
tricks with each card's value and cost, every legal card's value, the cards
ahead and, when asked, the rest of a best line.
"""

from __future__ import annotations

from typing import Any

from ..analyzer.advice import Advice
from ..cards import Card, CardSet, card_name, sorted_cards
from ..deal import Deal
from ..explore import Explorer
from ..rules import outcome
from .advice import advice_dict
from .diagram import trick_rows
from .explore import card_value_dict
from .html.page import asset, page
from .html.play import seats_around
from .html.words import result_words
from .practice import ask_text as practice_ask_text

__all__ = ["app_page", "state_dict", "advice_state", "error_dict", "practice_dict", "practice_start_text"]


def _names(cs: CardSet) -> list[str]:
    return [card_name(c) for c in sorted_cards(cs)]


def _role(deal: Deal, seat: str) -> str:
    return "declarer" if seat == deal.declarer else "defender"


def state_dict(explorer: Explorer | None, title: str, *, show_line: bool = False) -> dict[str, Any]:
    """The tab's position as the page shows it (``{"empty": true}`` before a deal is loaded)."""
    if explorer is None:
        return {"empty": True}
    pos = explorer.position()
    deal = pos.deal
    start = explorer.start
    values = explorer.played_values()
    rows = []
    k = 0
    for row in trick_rows(start, pos.played):
        cards = []
        for seat, card in row.plays:
            v = values[k]
            cards.append({"seat": seat, "card": card_name(card), "points": v.points, "cost": v.cost,
                          "units_cost": v.units_cost, "best": v.best})
            k += 1
        rows.append({"number": row.number, "leader": row.leader, "cards": cards, "winner": row.winner,
                     "declarer_total": row.declarer_total, "defender_total": row.defender_total})
    line: list[dict[str, str]] | None = None
    if show_line:
        full = trick_rows(start, [*pos.played, *explorer.line()])
        seats = [s for r in full for s, _ in r.plays][len(pos.played):]
        line = [{"seat": s, "card": card_name(c)} for s, c in zip(seats, explorer.line())]
    declarer, defenders = pos.points_taken
    current = [{"seat": s, "card": card_name(c)} for s, c in
               (trick_rows(start, pos.played)[-1].plays if pos.state.trick else ())]
    where = "the hand is over" if pos.finished else "best play from here"
    return {
        "title": title,
        "contract": deal.contract, "declarer": deal.declarer, "dealer": deal.dealer,
        "doublings": deal.doublings,
        "positions": seats_around(deal),
        "roles": {s: _role(deal, s) for s in deal.active_seats},
        "hands": {s: _names(deal.hands[s]) for s in deal.active_seats},
        "dobb": _names(deal.dobb), "discard": None if deal.discard is None else _names(deal.discard),
        "trick": pos.trick, "to_play": pos.to_play, "current": current, "tricks": rows,
        "choices": [card_value_dict(v) for v in pos.cards],
        "value": pos.value, "outcome": outcome(pos.value).value, "units": pos.units,
        "result": result_words(deal, pos.value, where),
        "points_taken": {"declarer": declarer, "defenders": defenders},
        "played": [card_name(c) for c in pos.played],
        "ahead": len(pos.ahead), "next": card_name(pos.ahead[0]) if pos.ahead else None,
        "recorded": explorer.ahead_recorded,
        "last": None if pos.last is None else {"seat": pos.last_seat, **card_value_dict(pos.last)},
        "line": line,
    }


def advice_state(seat: str, advice: Advice[Card]) -> dict[str, Any]:
    """The advice for the seat to play from its own view, as ``dobbm play --json`` gives it."""
    return {"seat": seat, **advice_dict(advice)}


def error_dict(message: str) -> dict[str, Any]:
    """What a refused request answers: the reason, one line."""
    return {"error": message}


def practice_start_text(number: int, deal_number: int, dealer: str, me: str) -> str:
    """The line a practice hand begins with."""
    return f"Hand {number} (deal {deal_number}): {dealer} deals; you are {me}."


def practice_dict(practice: Any) -> dict[str, Any]:
    """A tab's practice (a PracticeTable of web/practice.py) as the page shows it: what happened, in lines;
    the question open now with what the seat sees (its cards, the cards it may play, the
    words it may say); whether a hand is being played; the totals."""
    if practice is None:
        return {"active": False}
    ask = practice.ask
    question = None
    if ask is not None:
        question = {"kind": ask.kind, "text": practice_ask_text(ask), "options": list(ask.options),
                    "hand": [card_name(c) for c in sorted_cards(ask.hand)],
                    "legal": [card_name(c) for c in sorted_cards(ask.legal)],
                    "dobb": None if ask.dobb is None else [card_name(c) for c in sorted_cards(ask.dobb)]}
    s = practice.session
    return {"active": True, "seat": practice.me, "seed": practice.seed, "lines": list(practice.lines),
            "ask": question, "playing": practice.playing, "failed": practice.failed, "hands": len(s.reviews),
            "totals": dict(s.totals)}


def app_page() -> str:
    """The app's page: its layout; the script fills it from the state documents."""
    body = asset("app.html")
    return page("dobbm: explore a deal", body, script="app.js",
                extra_head=f"<style>{asset('app.css')}</style>")
