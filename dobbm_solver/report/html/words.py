"""Sentences shared by the pages and the app: a deal's heading and a result in words (plain text)."""

from __future__ import annotations

from ...deal import Deal
from ...rules import outcome, units

__all__ = ["deal_heading", "result_words"]


def deal_heading(deal: Deal, title: str) -> str:
    """``TITLE: Dobbm by Anna, 1 doubling`` ."""
    kind = "Dobbm" if deal.contract == "dobbm" else "Solo"
    d = deal.doublings
    more = f", {d} doubling{'s' if d != 1 else ''}" if d else ""
    dealer = f", dealer {deal.dealer}" if deal.dealer else ""
    return f"{title}: {kind} by {deal.declarer}{more}{dealer}"


def result_words(deal: Deal, points: int, where: str) -> str:
    """``WHERE: Anna wins with 76 points, defenders 44; each defender pays Anna 4 units`` ."""
    decl = deal.declarer
    word = outcome(points).value
    u = units(points, deal.contract, deal.doublings)
    if u > 0:
        pay = f"each defender pays {decl} {u} unit{'s' if u != 1 else ''}"
    elif u < 0:
        pay = f"{decl} pays each defender {-u} unit{'s' if u != -1 else ''}"
    else:
        pay = "nobody pays"
    verb = {"win": "wins with", "loss": "loses with"}.get(word, "has, a standoff,")
    return f"{where}: {decl} {verb} {points} points, defenders {120 - points}; {pay}"
