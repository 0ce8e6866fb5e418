"""``dobbm explore``: a position explored (:class:`~dobbm_solver.explore.Position`) as JSON and as text.

No click here: the ``explore`` command echoes what these renderers return.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cards import Card, card_name, cards_text
from ..deal import Deal
from ..explore import CardValue, Position
from ..rules import outcome
from .diagram import finished, hands_diagram, heading, result_split, trick_grid, trick_rows
from .review import payment_text
from .solve import line_tricks

__all__ = ["COMMANDS", "position_dict", "position_text", "line_dict", "line_text", "help_text",
           "card_value_dict", "cost_text"]

COMMANDS: tuple[tuple[str, str], ...] = (
    ("CARD", "play a card of the seat to play, e.g. EA or h10 (another card than the next one "
             "ahead branches off)"),
    ("next", "play the next card ahead: the card played there, or the one undo took back "
             "(Enter alone does the same)"),
    ("undo", "take the last card back"),
    ("redo", "play again the card undo took back (as next)"),
    ("goto N", "go to the start of trick N (1 to 8) along the cards played and ahead"),
    ("best", "play a best card (the first card of the best line)"),
    ("line", "show the rest of a best line from here"),
    ("html", "write the page of --html FILE now (it is written at the end too)"),
    ("help", "show these commands"),
    ("quit", "end (as does the end of the input, Ctrl-D)"),
)
"""The commands ``explore`` reads, one a line, and what each does."""


def _in_play_order(cards: Sequence[Card]) -> str:
    """Card names in the order played (a set's names, in display order, are ``cards_text``'s)."""
    return " ".join(card_name(c) for c in cards)


def _points_word(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def cost_text(value: CardValue) -> str:
    """``best`` or ``costs N points (M units)``: what the card loses its side against the best."""
    if value.best:
        return "best"
    u = value.units_cost
    return f"costs {_points_word(value.cost)} ({u} unit{'s' if u != 1 else ''})"


def card_value_dict(value: CardValue) -> dict[str, Any]:
    """One card's value: ``points`` the declarer's final points under best play after it,
    ``units`` what each defender then pays the declarer, ``cost`` and ``units_cost`` what it
    loses its own side against the best card."""
    return {"card": card_name(value.card), "points": value.points, "units": value.units,
            "best": value.best, "cost": value.cost, "units_cost": value.units_cost}


def position_dict(pos: Position) -> dict[str, Any]:
    """The JSON object of a position (one line of ``dobbm explore --json``).

    ``to_play`` (None when the hand is over), ``cards`` every legal card best first,
    ``played`` the cards played from the opening lead in order, ``points_taken`` each
    side's card points in the finished tricks, ``declarer_points`` and ``units`` the
    result under best play from here, ``next`` the next card ahead (None: none),
    ``last`` the last card played and what it cost.
    """
    declarer, defenders = pos.points_taken
    last = None
    if pos.last is not None:
        last = {"seat": pos.last_seat, **card_value_dict(pos.last)}
    return {
        "trick": pos.trick,
        "to_play": pos.to_play,
        "cards": [card_value_dict(v) for v in pos.cards],
        "played": [card_name(c) for c in pos.played],
        "points_taken": {"declarer": declarer, "defenders": defenders},
        "declarer_points": pos.value,
        "outcome": outcome(pos.value).value,
        "units": pos.units,
        "next": card_name(pos.ahead[0]) if pos.ahead else None,
        "last": last,
    }


def _legend(deal: Deal, seat: str) -> str:
    decl = deal.declarer
    if seat == decl:
        return f"  (costs are {decl}'s: points, and units of each defender's payment to {decl}, paid three times)"
    return f"  (costs are the defenders': points, and units: how much more each defender pays {decl})"


def _values_lines(pos: Position) -> list[str]:
    seat = pos.to_play
    assert seat is not None
    role = "declarer" if seat == pos.deal.declarer else "defender"
    out = [f"  {seat} ({role}) to play; each card with the declarer's final points under best play "
           f"after it, best first:"]
    groups = [(cards_text([v.card for v in g]), g[0]) for g in pos.groups]
    width = max(len(names) for names, _ in groups)
    for names, value in groups:
        out.append(f"    {names:<{width}}  {value.points:>3}  {cost_text(value)}")
    out.append(_legend(pos.deal, seat))
    return out


def _result_line(pos: Position) -> str:
    decl = pos.deal.declarer
    word = outcome(pos.value).value
    where = "the hand is over" if pos.finished else "best play from here"
    return (f"  {where}: {decl} ends with {_points_word(pos.value)} ({word}); "
            f"{payment_text(decl, pos.units)}")


def _trick_so_far(pos: Position) -> str | None:
    """The unfinished trick in words (the text without the diagram)."""
    if not pos.state.trick:
        return None
    return f"  trick {pos.trick} so far: {pos.state.leader} led; {_in_play_order(pos.state.trick)}"


def position_text(pos: Position, title: str, *, diagram: bool, recorded: bool = False) -> str:
    """The report of a position: the heading, the diagram (hands now, the tricks with each
    side's points), the result under best play from here, the last card and its cost, each
    legal card's value and the next card ahead.  ``recorded``: the cards ahead are the play
    as it happened."""
    deal = pos.deal
    where = "the hand is over" if pos.finished else f"trick {pos.trick}, {pos.to_play} to play"
    lines = [f"{heading(deal, title)}: {where}"]
    if diagram:
        lines += hands_diagram(deal, at_lead=False)
        rows = trick_rows(deal)
        if rows:
            lines += trick_grid(deal, rows)
        if pos.finished:
            lines.append(result_split(deal, rows))
    else:
        so_far = _trick_so_far(pos)
        if so_far:
            lines.append(so_far)
    declarer, defenders = pos.points_taken
    lines.append(f"  in tricks so far: {deal.declarer} {declarer}, defenders {defenders}")
    lines.append(_result_line(pos))
    if pos.last is not None:
        lines.append(f"  {pos.last_seat} played {card_name(pos.last.card)}: {cost_text(pos.last)}")
    if not pos.finished:
        lines += _values_lines(pos)
    if pos.ahead:
        after = pos.state.to_move
        how = "as played" if recorded else "taken back"
        lines.append(f"  next (or Enter): {after} {card_name(pos.ahead[0])}, {how} "
                     f"({len(pos.ahead)} card{'s' if len(pos.ahead) != 1 else ''} ahead)")
    return "\n".join(lines)


def line_dict(pos: Position, line: Sequence[Card]) -> dict[str, Any]:
    """The JSON object after ``line``: the position, and ``line`` the rest of a best line."""
    return {**position_dict(pos), "line": [card_name(c) for c in line]}


def line_text(pos: Position, line: Sequence[Card], *, diagram: bool) -> str:
    """The rest of a best line from the position, trick by trick, and where it ends."""
    deal = pos.deal
    if not line:
        return _result_line(pos)
    lines = [f"  best line from here (trick {pos.trick}, {pos.to_play} to play): {_in_play_order(line)}"]
    if diagram:
        rows = trick_rows(deal, line)
        lines += trick_grid(deal, rows)
        if finished(rows):
            lines.append(result_split(deal, rows))
    else:
        for n, (leader, cards, winner) in enumerate(line_tricks(deal, tuple(line)), pos.trick):
            lines.append(f"    {n}. {leader} leads  {_in_play_order(cards)}   won by {winner}")
    lines.append(_result_line(pos))
    return "\n".join(lines)


def help_text() -> str:
    """The commands, one a line."""
    width = max(len(name) for name, _ in COMMANDS)
    return "\n".join(["  commands, one a line:"]
                     + [f"    {name:<{width}}  {what}" for name, what in COMMANDS])
