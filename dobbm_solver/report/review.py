"""``dobbm review``: a reviewed hand (:class:`~dobbm_solver.review.Review`) as JSON and as text.

No click here: the ``review`` command echoes what :func:`review_dict` and :func:`review_text` return.
"""

from __future__ import annotations

from typing import Any

from ..cards import card_name, card_points, cards_text
from ..notation import format_deal_line
from ..review import CardReview, DiscardReview, DoublingReview, Review, trick_rows
from .diagram import finished, hands_diagram, heading, result_split, trick_grid
from .diagram import trick_rows as diagram_rows

MARKS = {"outcome": "!", "units": "*", "": ""}
"""The sign after a costly card: ``!`` it changed the outcome, ``*`` only the units."""


def card_dict(r: CardReview) -> dict[str, Any]:
    return {"trick": r.trick, "seat": r.seat, "card": card_name(r.card), "before": r.before,
            "after": r.after, "cost": r.cost, "best": [card_name(c) for c in r.best], "mark": r.mark,
            "units_cost": r.units_cost}


def discard_dict(d: DiscardReview) -> dict[str, Any]:
    """The JSON object of a lay-away judged with open cards (points are the declarer's)."""
    return {"cards": cards_text(d.cards), "points": d.points, "best": [cards_text(b) for b in d.best],
            "best_points": d.best_points, "cost": d.cost, "units_cost": d.units_cost, "rank": d.rank,
            "legal": d.count}


def doubling_dict(d: DoublingReview) -> dict[str, Any]:
    """The JSON object of a doubling, said or not, judged at the open-card result."""
    return {"number": d.number, "name": d.name, "side": "declarer" if d.by_declarer else "defenders",
            "said": d.said, "points": d.points, "stake": d.stake, "worth": d.worth, "cost": d.cost}


def _units(u: int) -> str:
    return f"{u} unit{'s' if u != 1 else ''}"


def discard_line(d: DiscardReview, declarer: str) -> str:
    """One line on a lay-away: its points with open cards against the best."""
    text = f"lay-away {cards_text(d.cards)}: {declarer} {d.points} points with open cards"
    if not d.cost:
        others = len(d.best) - 1
        return text + (f", a best one (with {others} other{'s' if others != 1 else ''} as good)"
                       if others else ", the best one") + f" of {d.count}"
    more = f", {len(d.best) - 1} more as good" if len(d.best) > 1 else ""
    cost = f"cost {d.cost} points" + (f", {_units(d.units_cost)}" if d.units_cost else "")
    return (text + f"; best {cards_text(d.best[0])}, {d.best_points} points{more}; "
            f"this one ranks {d.rank} of {d.count}: {cost}")


def doubling_line(d: DoublingReview) -> str:
    """One line on a doubling said or not: right or what it cost, in units of one payment."""
    side = "the declarer" if d.by_declarer else "the defenders"
    if d.said:
        if d.worth > 0:
            return f"{d.name} said: right, it won {side} {_units(d.worth)}"
        if d.worth < 0:
            return f"{d.name} said: it cost {side} {_units(-d.worth)}"
        return f"{d.name} said: no difference at a standoff"
    if d.worth > 0:
        return f"no {d.name}: it would have won {side} {_units(d.worth)}"
    return f"no {d.name}: right" + (f", it would have cost {side} {_units(-d.worth)}"
                                    if d.worth < 0 else " (no difference at a standoff)")


def review_dict(review: Review) -> dict[str, Any]:
    """The JSON object of one reviewed deal (``dobbm review --json``).

    ``cards`` in play order, ``players`` by seat; points are the declarer's
    final points, except ``cost``/``points_lost``/``units_lost``, which are
    what the seat's own side lost.  ``lay_away`` judges a Dobbm's lay-away
    (null for a Solo), ``doubling`` each doubling said and the next not said,
    at ``start_points``.
    """
    deal = review.deal
    first = review.first_change
    return {
        "deal": format_deal_line(deal),
        "declarer": deal.declarer,
        "contract": deal.contract,
        "doublings": deal.doublings,
        "finished": review.finished,
        "start_points": review.start_points,
        "declarer_points": review.declarer_points,
        "outcome": review.outcome.value,
        "units": review.units,
        "cards": [card_dict(r) for r in review.cards],
        "players": {p.seat: {"role": "declarer" if p.declarer_side else "defender",
                             "cards_with_cost": [card_name(r.card) for r in p.cards_with_cost],
                             "points_lost": p.points_lost, "units_lost": p.units_lost}
                    for p in review.players},
        "first_change": None if first is None else {"trick": first.trick, "seat": first.seat,
                                                    "card": card_name(first.card)},
        "lay_away": None if review.discard is None else discard_dict(review.discard),
        "doubling": [doubling_dict(d) for d in review.doublings],
    }


def _cell(r: CardReview | None) -> str:
    if r is None:
        return ""
    return card_name(r.card) + (f" -{r.cost}{MARKS[r.mark]}" if r.cost else "")


def payment_text(declarer: str, u: int) -> str:
    """Who pays whom ``u`` units (what each defender pays the declarer)."""
    if u > 0:
        return f"each defender pays {declarer} {u} unit{'s' if u != 1 else ''}"
    if u < 0:
        return f"{declarer} pays each defender {-u} unit{'s' if u != -1 else ''}"
    return "nobody pays"


def _outcome_word(points: int) -> str:
    return "win" if points >= 61 else "standoff" if points == 60 else "loss"


def _change(r: CardReview) -> str:
    text = f"{r.before} -> {r.after}"
    if r.changes_outcome:
        text += f", {r.outcome_before.value} -> {r.outcome_after.value}"
    if r.units_cost:
        text += f", {r.units_cost} unit{'s' if r.units_cost != 1 else ''}"
    return text


def _grid(review: Review) -> list[str]:
    seats = review.deal.active_seats
    rows = trick_rows(review)
    width = max([len(s) for s in seats] + [len(_cell(r)) for r in review.cards]) + 2
    lead_w = max(len(s) for s in seats) + 2
    out = [f"  trick  {'lead':<{lead_w}}" + "".join(f"{s:<{width}}" for s in seats) + "pts  won by"]
    for n, leader, cards, winner in rows:
        by_seat = {r.seat: r for r in cards}
        pts = sum(card_points(r.card) for r in cards)
        out.append(f"  {n:>5}  {leader:<{lead_w}}" + "".join(f"{_cell(by_seat.get(s)):<{width}}" for s in seats)
                   + f"{pts:>3}  {winner or '-'}")
    return out


def _diagram_grid(review: Review) -> list[str]:
    """The hands at the opening lead, then the tricks with each card's cost and the running
    totals, then the result split into tricks and bonus (a finished hand)."""
    deal = review.deal
    by_card = {(r.trick, r.seat): r for r in review.cards}
    rows = diagram_rows(deal)
    out = hands_diagram(deal, at_lead=True)
    out += trick_grid(deal, rows, lambda n, seat, c: _cell(by_card.get((n, seat))))
    if finished(rows):
        out.append(result_split(deal, rows))
    return out


def review_text(review: Review, title: str, diagram: bool = False) -> str:
    """The report of one reviewed deal: the tricks with each card's cost, the costly
    cards with the best cards instead, the players' losses, the first change.  With
    ``diagram``, the hands at the opening lead first, and running totals in the grid."""
    deal = review.deal
    decl = deal.declarer
    lines = [heading(deal, title + ": review"),
             f"  best play from the opening lead: {decl} {review.start_points} points "
             f"({_outcome_word(review.start_points)})"]
    where = "as played" if review.finished else "now, best play from here"
    lines.append(f"  {where}: {decl} {review.declarer_points} points ({review.outcome.value}); "
                 + payment_text(decl, review.units))
    if review.discard is not None:
        lines.append("  " + discard_line(review.discard, decl))
    if review.doublings:
        lines.append(f"  doubling, judged at {review.start_points} points with open cards "
                     "(units of one payment):")
        lines += [f"    {doubling_line(d)}" for d in review.doublings]
    if not review.cards:
        lines.append("  no card played yet: nothing to review")
        if diagram:
            lines += hands_diagram(deal, at_lead=True)
        return "\n".join(lines)
    lines += _diagram_grid(review) if diagram else _grid(review)
    lines.append("  (-N: the card cost its side N points; ! it changed the outcome, "
                 "* the units; points are the declarer's)")
    costly = [r for r in review.cards if r.cost]
    if costly:
        lines.append("  costly cards, best instead:")
        for r in costly:
            lines.append(f"    trick {r.trick}  {r.seat}  {card_name(r.card):<3}  cost {r.cost:>2}  "
                         f"({_change(r)})  best: {' '.join(card_name(c) for c in r.best)}")
    else:
        lines.append("  every card was a best card")
    lines.append("  per player (lost to the own side; units: of one payment):")
    sw = max(len(s) for s in deal.active_seats)
    for p in review.players:
        role = "declarer" if p.declarer_side else "defender"
        n = len(p.cards_with_cost)
        lines.append(f"    {p.seat:<{sw}}  {role}  {n} costly card{'s' if n != 1 else ' '}  "
                     f"{p.points_lost:>3} points  {p.units_lost:>2} units")
    first = review.first_change
    if first is None:
        lines.append("  no card changed the result")
    else:
        lines.append(f"  first card that changed the result: trick {first.trick}, {first.seat} "
                     f"{card_name(first.card)} ({_change(first)})")
    return "\n".join(lines)
