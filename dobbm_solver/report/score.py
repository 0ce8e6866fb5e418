"""``dobbm score``: a finished hand scored (:class:`~dobbm_solver.scoring.Score`) as JSON and as text."""

from __future__ import annotations

from typing import Any

from ..cards import card_name, cards_text, set_names
from ..deal import Deal
from ..scoring import Score
from .diagram import deal_diagram, heading

__all__ = ["score_dict", "score_text"]


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
    if diagram:
        lines += deal_diagram(deal, at_lead=True)
    return "\n".join(lines)
