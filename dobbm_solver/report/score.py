"""``dobbm score``: a finished hand scored (:class:`~dobbm_solver.scoring.Score`) as JSON and as text."""

from __future__ import annotations

from typing import Any

from ..cards import card_name, cards_text, set_names
from ..deal import Deal
from ..scoring import Score, SessionScore
from .diagram import deal_diagram, heading

__all__ = ["score_dict", "score_text", "session_dict", "session_text"]


def score_dict(deal: Deal, sc: Score, match_cost: float | None = None) -> dict[str, Any]:
    """The JSON object of a scored hand; ``money`` too when a match costs ``match_cost``."""
    pay = sc.payments(deal.active_seats)
    obj: dict[str, Any] = {
        "declarer": sc.declarer,
        "contract": sc.contract,
        "doublings": sc.doublings,
        "declarer_points": sc.declarer_points,
        "defender_points": sc.defender_points,
        "declarer_tricks": sc.declarer_tricks,
        "outcome": sc.outcome.value if sc.outcome else "void",
        "units": sc.units,
        "payments": pay,
        "revokes": [{"trick": r.trick, "seat": r.seat, "card": card_name(r.card),
                     "could_play": set_names(r.legal)} for r in sc.revokes],
    }
    if match_cost is not None:
        obj["money"] = {s: round(u * match_cost / 12, 2) for s, u in pay.items()}
    return obj


def score_text(deal: Deal, sc: Score, title: str, match_cost: float | None = None,
               diagram: bool = False) -> str:
    """A scored hand: points, outcome, revokes, and every seat's payment; with ``diagram``,
    then the hands at the opening lead, the tricks with running totals and the result split."""
    obj = score_dict(deal, sc, match_cost)
    lines = [heading(deal, title)]
    lines.append(f"  {sc.declarer} {sc.declarer_points} points ({sc.declarer_tricks} tricks), "
                 f"defenders {sc.defender_points}: " + (obj["outcome"] if not sc.void else "void by revoke"))
    for r in sc.revokes:
        lines.append(f"  revoke: trick {r.trick}, {r.seat} played {card_name(r.card)} "
                     f"(could play {cards_text(r.legal)})")
    for seat, u in obj["payments"].items():
        money = f"  ({obj['money'][seat]:+.2f})" if match_cost is not None else ""
        lines.append(f"  {seat:>8} {u:+d} units{money}")
    lines.append(f"  (units: each seat's net units for the hand; {sc.declarer}'s are the three defenders' "
                 f"payments added)")
    if diagram:
        lines += deal_diagram(deal, at_lead=True)
    return "\n".join(lines)


def _money(u: int, match_cost: float) -> float:
    return round(u * match_cost / 12, 2)


def session_dict(session: SessionScore, titles: list[str], match_cost: float | None = None) -> dict[str, Any]:
    """The JSON object of a session (the line after its hands' own): each hand's dealer
    (``dealer_given`` false: by the rule book), payments and running totals; the totals."""
    hands = []
    for h, title in zip(session.hands, titles):
        hands.append({"hand": h.number, "title": title, "dealer": h.dealer, "dealer_given": h.dealer_given,
                      "declarer": h.score.declarer, "contract": h.score.contract, "doublings": h.score.doublings,
                      "declarer_points": h.score.declarer_points,
                      "outcome": h.score.outcome.value if h.score.outcome else "void",
                      "payments": dict(h.payments), "totals": dict(h.totals)})
    obj: dict[str, Any] = {"session": {"hands": hands, "players": list(session.players),
                                       "totals": dict(session.totals)}}
    if match_cost is not None:
        obj["session"]["money"] = {s: _money(u, match_cost) for s, u in session.totals.items()}
    return obj


def session_text(session: SessionScore, match_cost: float | None = None) -> str:
    """The session: one row a hand (its dealer, declarer and contract, each player's
    running total after it), then the totals."""
    players = session.players
    n = len(session.hands)
    lines = [f"Session of {n} hands: each player's running total in units (a declarer's are all its payments)"]
    if any(not h.dealer_given and h.dealer is not None for h in session.hands):
        lines.append("  (dealer*: not given, the declarer of the hand before, as the rule book has it)")
    dw = max([len("dealer")] + [len(h.dealer or "-") + 1 for h in session.hands])
    cw = max([len("declarer")] + [len(h.score.declarer) for h in session.hands])
    width = max([6] + [len(p) + 1 for p in players])
    lines.append(f"  {'hand':>4}  {'dealer':<{dw}}  {'declarer':<{cw}}  {'contract':<14}"
                 + "".join(f"{p:>{width}}" for p in players))
    for h in session.hands:
        sc = h.score
        dealer = (h.dealer or "-") + ("" if h.dealer_given or h.dealer is None else "*")
        contract = ("Dobbm" if sc.contract == "dobbm" else "Solo") + (f" x{2 ** sc.doublings}" if sc.doublings
                                                                      else "") + (" void" if sc.void else "")
        lines.append(f"  {h.number:>4}  {dealer:<{dw}}  {sc.declarer:<{cw}}  {contract:<14}"
                     + "".join(f"{h.totals.get(p, 0):>+{width}d}" for p in players))
    total = ", ".join(f"{p} {session.totals[p]:+d}" + (f" ({_money(session.totals[p], match_cost):+.2f})"
                                                      if match_cost is not None else "") for p in players)
    lines.append(f"  totals: {total}")
    return "\n".join(lines)
