"""``dobbm solve``: a deal solved (:class:`~dobbm_solver.solver.BestPlay`) as JSON and as text."""

from __future__ import annotations

from typing import Any, Sequence

from ..cards import Card, card_name, cards_text, display_key, set_names, trick_winner
from ..deal import Deal, replay, trick_seats
from ..notation import format_deal_line
from ..rules import units
from ..solver import Analysis, BestPlay, DiscardResult
from .diagram import deal_diagram, heading

__all__ = ["solve_dict", "solve_text", "analysis_dict", "analysis_text", "discards_dict", "discards_text",
           "line_tricks", "cards_best_first"]


def line_tricks(deal: Deal, line: tuple[Card, ...]) -> list[tuple[str, list[Card], str]]:
    """Group a line of play into tricks: ``(leader, cards, winner)``, the first maybe begun."""
    active = deal.active_seats
    state = replay(deal, check=False)
    leader = state.leader
    cards = list(state.trick)
    out = []
    for c in line:
        cards.append(c)
        if len(cards) == 4:
            winner = trick_seats(active, leader)[trick_winner(cards)]
            out.append((leader, cards, winner))
            leader, cards = winner, []
    return out


def cards_best_first(deal: Deal, an: Analysis) -> list[tuple[Card, int, int, int]]:
    """Every legal card of the seat to move, best first for that seat's side (the
    declarer's: the most final points; a defender's: the fewest), ties in the hand's
    order: ``(card, declarer's final points, cost in points, cost in units)``, the costs
    what the card loses the mover's side against the best card (units: of one payment)."""
    if an.to_move is None or not an.cards:
        return []
    sign = -1 if an.to_move == deal.declarer else 1
    cards = sorted(an.cards.items(), key=lambda kv: (sign * kv[1], display_key(kv[0])))
    best = cards[0][1]

    def pay(points: int) -> int:
        return units(points, deal.contract, deal.doublings)

    return [(c, v, abs(v - best), abs(pay(v) - pay(best))) for c, v in cards]


def analysis_dict(deal: Deal, an: Analysis) -> dict[str, Any]:
    """The JSON object of one solved deal: ``cards`` each legal card's value (the
    declarer's final points), ``best`` the best cards for the seat to move, ``finished``
    whether every card is played (then the points are the result as played)."""
    return {
        "deal": format_deal_line(deal),
        "declarer": deal.declarer,
        "contract": deal.contract,
        "doublings": deal.doublings,
        "declarer_points": an.declarer_points,
        "defender_points": an.defender_points,
        "outcome": an.outcome.value,
        "units": an.units,
        "to_move": an.to_move,
        "cards": {card_name(c): v for c, v in sorted(an.cards.items(), key=lambda kv: display_key(kv[0]))},
        "best": [card_name(c) for c, _, cost, _ in cards_best_first(deal, an) if cost == 0],
        "finished": an.to_move is None,
        "line": [card_name(c) for c in an.line],
        "nodes": an.nodes,
    }


def discards_dict(results: Sequence[DiscardResult]) -> list[dict[str, Any]]:
    return [{"cards": set_names(r.cards), "declarer_points": r.declarer_points} for r in results]


def _payment_text(an: Analysis, deal: Deal) -> str:
    """Who pays whom, in units of one payment (the declarer settles with each defender)."""
    u = an.units
    if u > 0:
        return f"each defender pays {deal.declarer} {u} unit{'s' if u != 1 else ''}"
    if u < 0:
        return f"{deal.declarer} pays each defender {-u} unit{'s' if u != -1 else ''}"
    return "nobody pays"


def _points_word(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _cards_lines(deal: Deal, an: Analysis) -> list[str]:
    """The seat to move's cards best first, equal ones on one line, each marked best or
    with what it costs the mover's side; then whose costs they are."""
    seat = an.to_move
    assert seat is not None
    decl = deal.declarer
    declarer = seat == decl
    better = f"higher is better for {decl}" if declarer else "lower is better for the defenders"
    out = [f"  {seat} ({'declarer' if declarer else 'defender'}) to play; the declarer's final points "
           f"after each card, best first ({better}):"]
    groups: list[tuple[list[Card], int, int, int]] = []
    for c, v, cost, ucost in cards_best_first(deal, an):
        if groups and groups[-1][1] == v:
            groups[-1][0].append(c)
        else:
            groups.append(([c], v, cost, ucost))
    names = [" ".join(card_name(c) for c in g[0]) for g in groups]
    width = max(len(n) for n in names)
    for name, (_, v, cost, ucost) in zip(names, groups):
        said = "best" if cost == 0 else f"costs {_points_word(cost)} ({ucost} unit{'s' if ucost != 1 else ''})"
        out.append(f"    {name:<{width}}  {v:>3}  {said}")
    who = decl if declarer else "the defenders"
    out.append(f"  (cost: what the card loses {who} against the best card, in points and in units "
               f"of one payment)")
    return out


def analysis_text(deal: Deal, an: Analysis, title: str, diagram: bool = False) -> str:
    """A readable report of one solved deal; with ``diagram``, the hands and the tricks
    (played, then the best line) with running totals in place of the plain best line.

    The seat to move's cards come best first for its side, marked best or with their cost;
    a finished hand (every card played) is the result as played, not a best play."""
    outcome = {"win": "wins", "standoff": "stands off (60)", "loss": "loses"}[an.outcome.value]
    finished = an.to_move is None
    what = "result as played" if finished else "best play"
    lines = [
        heading(deal, title),
        f"  {what}: {deal.declarer} {outcome} with {an.declarer_points} points, "
        f"defenders {an.defender_points}; {_payment_text(an, deal)}",
    ]
    if finished:
        lines.append("  (every card is played: `dobbm review` tells what each card cost)")
    else:
        lines += _cards_lines(deal, an)
    if diagram:
        lines += deal_diagram(deal, an.line, at_lead=an.to_move is None)
    elif an.to_move is not None:
        lines.append("  best line:")
        state = replay(deal, check=False)
        first = state.declarer_tricks + state.defender_tricks + 1
        for n, (leader, cards_, winner) in enumerate(line_tricks(deal, an.line), first):
            lines.append(f"    {n}. {leader:>6} leads  " + " ".join(f"{card_name(c):>3}" for c in cards_)
                         + f"   won by {winner}")
    lines.append(f"  nodes searched: {an.nodes}")
    return "\n".join(lines)


def discards_text(results: Sequence[DiscardResult], limit: int | None = 10) -> str:
    shown = results if limit is None else results[:limit]
    out = [f"  lay-aways, best first ({len(results)} legal"
           + (f", top {len(shown)} shown" if len(shown) < len(results) else "") + "):"]
    for r in shown:
        out.append(f"    {cards_text(r.cards):<16} {r.declarer_points:>3}")
    return "\n".join(out)


def solve_dict(best: BestPlay, ident: str | None = None) -> dict[str, Any]:
    """The JSON object of one deal solved (``dobbm solve --json``): ``id`` (``FILE#N``, as
    ``study`` writes it) first, ``discard`` the lay-away played (None in a Solo), and
    every lay-away ranked if studied."""
    obj: dict[str, Any] = {} if ident is None else {"id": ident}
    obj.update(analysis_dict(best.deal, best.analysis))
    obj["discard"] = None if best.deal.discard is None else set_names(best.deal.discard)
    if best.studied is not None:
        obj["discards"] = discards_dict(best.studied)
    return obj


def solve_text(best: BestPlay, title: str, limit: int | None = 10, diagram: bool = False) -> str:
    """The report of one deal solved (``dobbm solve``): the lay-away analysed and the best
    ``limit`` lay-aways if studied; ``diagram``: see :func:`analysis_text`."""
    text = analysis_text(best.deal, best.analysis, title, diagram)
    if best.studied is not None:
        assert best.deal.discard is not None
        lines = text.split("\n")
        laid = cards_text(best.deal.discard)
        lines.insert(2, f"  lay-away analysed: {laid} (the best of {len(best.studied)} legal)")
        text = "\n".join(lines) + "\n" + discards_text(best.studied, limit)
    return text
