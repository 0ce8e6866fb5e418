"""Pictures of a deal for the text reports: a heading, the hands by suit and the tricks with running totals.

Shared by ``solve``, ``check``, ``review`` and ``score`` (their ``--no-diagram`` leaves it out):

* :func:`hands_diagram`: one row per seat, one column per suit in the display
  order (trumps H first, then E, L, S; high to low), then the Dobb or the
  lay-away.  ``at_lead=False`` shows the cards held now (the cards already
  played are left out: they are in the trick grid); ``at_lead=True`` the
  hands as they were at the opening lead.  In a Dobbm whose declarer took up
  the Dobb, its cards carry a ``+`` where they are now (hand or lay-away).
* :func:`trick_rows` and :func:`trick_grid`: each trick's number, leader,
  the card of every seat, its points, its winner, and each side's running
  total of trick points; a best line continues the tricks played.
* :func:`heading`: the first line of a report on a deal.
* :func:`result_split`: the declarer's result as trick points plus the
  lay-away (Dobbm) or the Dobb (Solo): ``Bert 76 = 60 in tricks + 16 laid away``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..cards import (
    HAND_SIZE,
    RANKS,
    SUITS,
    TOTAL_POINTS,
    TRUMP,
    Card,
    CardSet,
    card_name,
    card_points,
    card_rank,
    card_suit,
    sorted_cards,
    trick_winner,
)
from ..deal import Deal, cards_played, trick_seats

DISPLAY_SUITS: tuple[int, ...] = (TRUMP, *(s for s in range(len(SUITS)) if s != TRUMP))
"""Suit columns of the diagram: trumps first, then the others as the cards module sorts them."""

DOBB_MARK = "+"
"""After a card the declarer took up from the Dobb (a Dobbm with its lay-away made)."""

Cell = Callable[[int, str, Card], str]
"""Text of one card in the trick grid: ``cell(trick_number, seat, card)``."""


def _rank_text(card: Card, marked: CardSet) -> str:
    return RANKS[card_rank(card)] + (DOBB_MARK if marked >> card & 1 else "")


def _card_text(card: Card, marked: CardSet) -> str:
    return card_name(card) + (DOBB_MARK if marked >> card & 1 else "")


def _dobb_marked(deal: Deal) -> CardSet:
    """The Dobb's cards when the declarer took it up (they are to be marked), else none."""
    return deal.dobb if deal.contract == "dobbm" and deal.discard is not None else 0


def shown_hands(deal: Deal, *, at_lead: bool) -> dict[str, CardSet]:
    """The cards each active seat shows in the diagram: held now, or at the opening lead."""
    if not at_lead:
        return {s: deal.hands[s] for s in deal.active_seats}
    played = cards_played(deal)
    return {s: deal.hands[s] | played[s] for s in deal.active_seats}


def _seat_label(deal: Deal, seat: str) -> str:
    return f"{seat} (declarer)" if seat == deal.declarer else seat


def _beside(deal: Deal, marked: CardSet) -> list[str]:
    """The Dobb or the lay-away, and a dealer who sits out."""
    decl = deal.declarer
    out = []
    if deal.contract == "solo":
        names = " ".join(card_name(c) for c in sorted_cards(deal.dobb))
        out.append(f"    Dobb: {names}  ({deal.bonus_points} points, {decl}'s if {decl} takes a trick)")
    elif deal.discard is None:
        names = " ".join(card_name(c) for c in sorted_cards(deal.dobb))
        out.append(f"    Dobb: {names}  (for {decl} to take up and lay 4 cards away)")
    else:
        names = " ".join(_card_text(c, marked) for c in sorted_cards(deal.discard))
        out.append(f"    lay-away: {names}  ({deal.bonus_points} points, {decl}'s if {decl} takes a trick)")
    if deal.dealer is not None and deal.dealer not in deal.active_seats:
        out.append(f"    {deal.dealer} dealt and sits this hand out")
    return out


def hands_diagram(deal: Deal, *, at_lead: bool) -> list[str]:
    """The hands as a grid (a seat a row, a suit a column), then the Dobb or the lay-away."""
    hands = shown_hands(deal, at_lead=at_lead)
    marked = _dobb_marked(deal)
    header = ["seat"] + [SUITS[s] + (" trumps" if s == TRUMP else "") for s in DISPLAY_SUITS]
    rows = [header]
    for seat in deal.active_seats:
        cards = sorted_cards(hands[seat])
        cols = [" ".join(_rank_text(c, marked) for c in cards if card_suit(c) == s) or "-"
                for s in DISPLAY_SUITS]
        rows.append([_seat_label(deal, seat), *cols])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    when = ("as dealt" if deal.needs_discard else "at the opening lead") if at_lead or not deal.tricks else "now"
    notes = ["trumps first, high to low"]
    if marked:
        notes.append(f"{DOBB_MARK}: taken up from the Dobb")
    if not at_lead and deal.tricks:
        notes.append("the cards played are in the tricks below")
    out = [f"  hands {when} ({'; '.join(notes)}):"]
    out += ["    " + "  ".join(t.ljust(w) for t, w in zip(r, widths)).rstrip() for r in rows]
    return out + _beside(deal, marked)


@dataclass(frozen=True)
class TrickRow:
    """One trick: played, from a best line, or both (the unfinished trick a line completes).

    ``plays`` are ``(seat, card)`` in play order; the cards from ``line_from`` on
    are the best line's.  ``winner`` is None for an unfinished trick.  The totals
    are each side's trick points after this trick (finished tricks only).
    """

    number: int
    leader: str
    plays: tuple[tuple[str, Card], ...]
    winner: str | None
    points: int
    declarer_total: int
    defender_total: int
    line_from: int


def trick_rows(deal: Deal, line: Sequence[Card] = ()) -> list[TrickRow]:
    """The tricks of ``deal.tricks`` continued by the best ``line`` (from the position now)."""
    active = deal.active_seats
    played = [c for t in deal.tricks for c in t]
    cards = played + list(line)
    rows = []
    leader = deal.declarer
    dtotal = ftotal = 0
    for k in range(0, len(cards), 4):
        trick = cards[k:k + 4]
        order = trick_seats(active, leader)
        pts = sum(card_points(c) for c in trick)
        winner = None
        if len(trick) == 4:
            winner = order[trick_winner(trick)]
            if winner == deal.declarer:
                dtotal += pts
            else:
                ftotal += pts
        line_from = min(len(trick), max(0, len(played) - k))
        rows.append(TrickRow(k // 4 + 1, leader, tuple(zip(order, trick)), winner, pts,
                             dtotal, ftotal, line_from))
        if winner is not None:
            leader = winner
    return rows


def _line_note(row: TrickRow) -> str:
    if not row.line_from:
        return "  -- best line from here --"
    done = " ".join(card_name(c) for _, c in row.plays[:row.line_from])
    return f"  -- best line from here (trick {row.number}: {done} played) --"


def trick_grid(deal: Deal, rows: Sequence[TrickRow], cell: Cell | None = None) -> list[str]:
    """The tricks as a grid: number, leader, each seat's card, points, winner, running totals.

    ``cell`` gives the text of a card (default: its name).  A row that holds
    cards of a best line is preceded, the first time, by a ``best line`` note.
    """
    seats = deal.active_seats
    show = cell or (lambda n, seat, c: card_name(c))
    texts = [{seat: show(r.number, seat, c) for seat, c in r.plays} for r in rows]
    width = max([len(s) for s in seats] + [len(t) for ts in texts for t in ts.values()]) + 2
    lead_w = max(len(s) for s in seats) + 2
    win_w = max(len("won by"), *(len(s) for s in seats)) + 2
    decl = deal.declarer
    out = [f"  trick  {'lead':<{lead_w}}" + "".join(f"{s:<{width}}" for s in seats)
           + f"pts  {'won by':<{win_w}}|  {decl:>{max(len(decl), 3)}}  defenders"]
    in_line = False
    for r, ts in zip(rows, texts):
        if not in_line and r.line_from < len(r.plays):
            out.append(_line_note(r))
            in_line = True
        cells = "".join(f"{ts.get(s, ''):<{width}}" for s in seats)
        if r.winner is None:
            out.append(f"  {r.number:>5}  {r.leader:<{lead_w}}{cells}{'':>3}  {'-':<{win_w}}|")
        else:
            out.append(f"  {r.number:>5}  {r.leader:<{lead_w}}{cells}{r.points:>3}  {r.winner:<{win_w}}|  "
                       f"{r.declarer_total:>{max(len(decl), 3)}}  {r.defender_total:>9}")
    out.append("  (right of |: each side's points in tricks so far)")
    return [line.rstrip() for line in out]


def finished(rows: Sequence[TrickRow]) -> bool:
    """True when ``rows`` hold all eight tricks, each complete."""
    return len(rows) == HAND_SIZE and all(r.winner is not None for r in rows)


def split_points(deal: Deal, rows: Sequence[TrickRow]) -> tuple[int, int, int]:
    """``(final, in_tricks, bonus)``: the declarer's final points of the finished ``rows``,
    the points of their tricks, and the lay-away or Dobb (0 in the final if they took no trick)."""
    in_tricks = rows[-1].declarer_total if rows else 0
    took = any(r.winner == deal.declarer for r in rows)
    bonus = deal.bonus_points
    return (in_tricks + bonus if took else 0), in_tricks, bonus


def result_split(deal: Deal, rows: Sequence[TrickRow]) -> str:
    """The declarer's result as trick points plus the lay-away or the Dobb (finished ``rows``)."""
    final, in_tricks, bonus = split_points(deal, rows)
    decl = deal.declarer
    word = "laid away" if deal.contract == "dobbm" else "in the Dobb"
    if not any(r.winner == decl for r in rows):
        return (f"  {decl} 0: no trick taken, so the {bonus} {word} do not count; "
                f"defenders {TOTAL_POINTS}")
    return f"  {decl} {final} = {in_tricks} in tricks + {bonus} {word}; defenders {TOTAL_POINTS - final}"


def deal_diagram(deal: Deal, line: Sequence[Card] = (), *, at_lead: bool,
                 cell: Cell | None = None) -> list[str]:
    """The hands, then the tricks played and the best ``line`` with running totals, then
    (when the hand is played out) the declarer's result split into tricks and bonus."""
    out = hands_diagram(deal, at_lead=at_lead)
    rows = trick_rows(deal, line)
    if rows:
        out += trick_grid(deal, rows, cell)
    if finished(rows):
        out.append(result_split(deal, rows))
    return out



def heading(deal: Deal, title: str) -> str:
    """The first line of a report on a deal: ``TITLE: Dobbm by Anna, 1 doubling``."""
    kind = "Dobbm" if deal.contract == "dobbm" else "Solo"
    d = deal.doublings
    return f"{title}: {kind} by {deal.declarer}" + (f", {d} doubling{'s' if d != 1 else ''}" if d else "")


__all__ = ["heading", "DISPLAY_SUITS", "DOBB_MARK", "Cell", "TrickRow", "deal_diagram", "finished", "hands_diagram",
           "result_split", "shown_hands", "split_points", "trick_rows", "trick_grid"]
