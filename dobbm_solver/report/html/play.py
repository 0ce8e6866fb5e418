"""A deal's play on a page: the hands around the table, the tricks with each card's
value or cost, the values of the position's cards, and a control to step through.

:class:`PlayShown` is what a page shows of one play, built from the typed results
(a review, an analysis's best line, an explorer's cards played): the deal at the
opening lead, the cards from there in order (as played, then maybe a best line),
which of them is the position now, and that position's card values.  Without
scripts the hands show the position now and every trick is shown; the script
(``step.js``) steps card by card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ...cards import CARDS_PER_SUIT, Card, CardSet, card_name, sorted_cards
from ...deal import Deal
from ...explore import CardValue
from ...review import Review
from ..diagram import DISPLAY_SUITS, trick_rows
from .page import card_html, esc, suit_icon

__all__ = ["CardShown", "PlayShown", "from_review", "from_line", "from_values", "play_html",
           "hands_html", "choices_html", "value_html", "cost_words"]

CARDS_PER_TRICK = 4


@dataclass(frozen=True, kw_only=True)
class CardShown:
    """One card of the play: who played it, and when known the declarer's final points under
    best play after it (``points``) and what it cost its side (``cost`` points, ``units_cost``
    units of one payment).  ``line``: a card of a best line, not one played."""

    seat: str
    card: Card
    points: int | None = None
    cost: int | None = None
    units_cost: int | None = None
    line: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayShown:
    """One play on a page: ``start`` the deal at the opening lead, ``cards`` in order from
    there, ``now`` how many of them lead to the position now (the rest: a best line or the
    play still to step through), ``choices`` the position's card values, best first."""

    start: Deal
    cards: tuple[CardShown, ...]
    now: int = 0
    choices: tuple[CardValue, ...] = ()


def _seats_in_order(deal: Deal, cards: Sequence[Card]) -> list[str]:
    rows = trick_rows(deal, cards)
    return [seat for row in rows for seat, _ in row.plays]


def from_review(review: Review) -> PlayShown:
    """A reviewed hand: every card with its value and cost, stepped from the opening lead."""
    cards = tuple(CardShown(seat=r.seat, card=r.card, points=r.after, cost=r.cost, units_cost=r.units_cost)
                  for r in review.cards)
    return PlayShown(start=review.start, cards=cards, now=0)


def from_line(start: Deal, played: Sequence[CardValue | Card], line: Sequence[Card], value: int,
              choices: Sequence[CardValue] = ()) -> PlayShown:
    """The cards ``played`` from the opening lead of ``start`` (valued, or bare cards), then a
    best ``line`` from the position now, every card of which keeps ``value``."""
    cards = [v.card if isinstance(v, CardValue) else v for v in played]
    seats = _seats_in_order(start, [*cards, *line])
    shown = []
    for n, v in enumerate(played):
        if isinstance(v, CardValue):
            shown.append(CardShown(seat=seats[n], card=v.card, points=v.points, cost=v.cost,
                                   units_cost=v.units_cost))
        else:
            shown.append(CardShown(seat=seats[n], card=v))
    for n, c in enumerate(line, len(cards)):
        shown.append(CardShown(seat=seats[n], card=c, points=value, cost=0, units_cost=0, line=True))
    return PlayShown(start=start, cards=tuple(shown), now=len(cards), choices=tuple(choices))


def from_values(start: Deal, played: Sequence[CardValue]) -> PlayShown:
    """Cards played with their values, stepped from the opening lead (a hand explored)."""
    return from_line(start, played, (), 0)


def cost_words(cost: int | None, units_cost: int | None) -> str:
    """``best`` or ``costs N (M units)``; empty when unknown."""
    if cost is None:
        return ""
    if cost == 0:
        return "best"
    u = units_cost or 0
    return f"costs {cost} ({u} unit{'s' if u != 1 else ''})"


def value_html(points: int | None, cost: int | None, units_cost: int | None) -> str:
    """A card's value under it: the declarer's final points after it and its cost."""
    if points is None:
        return ""
    if cost is None:
        mark = ""
    elif cost == 0:
        mark = ' <span class="best" title="a best card">✓</span>'
    else:
        mark = f' <span class="cost" title="{esc(cost_words(cost, units_cost))}">−{cost}</span>'
    return f'<span class="v"><span class="pts">{points}</span>{mark}</span>'


def _hand_html(cards: CardSet, played_at: dict[Card, int], now: int) -> str:
    rows = []
    for suit in DISPLAY_SUITS:
        held = [c for c in sorted_cards(cards) if c // CARDS_PER_SUIT == suit]
        if not held:
            rows.append(f'<div class="suit">{suit_icon(suit)}<span class="muted">—</span></div>')
            continue
        spans = []
        for c in held:
            step = played_at.get(c)
            attrs = f' data-step="{step}"' if step is not None else ""
            gone = " gone" if step is not None and step < now else ""
            spans.append(f'<span class="hc{gone}"{attrs}>{card_html(c, rank_only=True)}</span>')
        rows.append(f'<div class="suit">{suit_icon(suit)}{"".join(spans)}</div>')
    return "".join(rows)


def _role(deal: Deal, seat: str) -> str:
    if seat == deal.declarer:
        return "declarer"
    return "sits out" if seat not in deal.active_seats else "defender"


def seats_around(deal: Deal) -> list[str]:
    """The active seats clockwise with the declarer at the bottom (top, right, bottom, left)."""
    active = list(deal.active_seats)
    k = active.index(deal.declarer)
    return [active[(k + 2 + i) % 4] for i in range(4)]


def hands_html(deal: Deal, hands: dict[str, CardSet], *, played_at: dict[Card, int] | None = None,
               now: int = 0, to_play: str | None = None, centre: str = "", label: str = "trick in play") -> str:
    """The four hands around the table (``hands``: the cards shown, e.g. at the opening lead;
    a card whose step in ``played_at`` is before ``now`` is shown played), the trick in play
    in the middle."""
    out = ['<div class="table">']
    for k, seat in enumerate(seats_around(deal)):
        cls = " to-play" if seat == to_play else ""
        out.append(f'<section class="seat p{k}{cls}" data-seat="{esc(seat)}"><h3>{esc(seat)} '
                   f'<span class="role">{_role(deal, seat)}</span></h3>'
                   f'{_hand_html(hands.get(seat, 0), played_at or {}, now)}</section>')
    out.append(f'<div class="center"><span class="muted">{esc(label)}</span>'
               f'<span class="now-trick">{centre or "&nbsp;"}</span></div></div>')
    return "".join(out)


def _extra_html(deal: Deal) -> str:
    parts = []
    if deal.dealer is not None and deal.dealer not in deal.active_seats:
        parts.append(f"{esc(deal.dealer)} dealt and sits this hand out")
    if deal.contract == "dobbm":
        parts.append(f"Dobb: {_cards(deal.dobb)}")
        if deal.discard is not None:
            parts.append(f"laid away: {_cards(deal.discard)}")
    else:
        parts.append(f"Dobb (counts for {esc(deal.declarer)}, unseen in play): {_cards(deal.dobb)}")
    return f'<p class="extra">{" · ".join(parts)}</p>'


def _cards(cs: CardSet | Sequence[Card]) -> str:
    return " ".join(card_html(c) for c in sorted_cards(cs)) or "—"


def choices_html(deal: Deal, choices: Sequence[CardValue], seat: str | None) -> str:
    """The card values of a position: each legal card with the declarer's final points after it,
    best first, and what it costs."""
    if not choices or seat is None:
        return ""
    role = "declarer" if seat == deal.declarer else "defender"
    items = []
    for v in choices:
        cls = ' class="isbest"' if v.best else ""
        items.append(f'<li{cls} data-card="{card_name(v.card)}" data-points="{v.points}" data-cost="{v.cost}">'
                     f'{card_html(v.card)} <b>{v.points}</b> <span class="{"best" if v.best else "cost"}">'
                     f'{esc(cost_words(v.cost, v.units_cost))}</span></li>')
    return (f'<h3>{esc(seat)} ({role}) to play: each card with the declarer\'s final points after it</h3>'
            f'<ul class="choices">{"".join(items)}</ul>')


def _tricks_html(shown: PlayShown) -> str:
    deal = shown.start
    cards = [c.card for c in shown.cards]
    rows = trick_rows(deal, cards)
    out = ['<div class="scroll"><table class="tricks"><thead><tr><th>#</th><th>lead</th>'
           '<th colspan="4">cards in play order (declarer\'s final points after each; − cost)</th>'
           f'<th>won by</th><th class="num pts-col">{esc(deal.declarer)}</th>'
           '<th class="num pts-col">def.</th></tr></thead><tbody>']
    step = 0
    for row in rows:
        cells = []
        for seat, card in row.plays:
            c = shown.cards[step]
            cls = "tc line" if c.line else "tc"
            note = f"{seat} {card_name(card)}"
            words = cost_words(c.cost, c.units_cost)
            if c.points is not None:
                note += f", {c.points}" + (f", {words}" if words else "")
            if c.line:
                note += " (best line)"
            cells.append(f'<td class="{cls}" data-step="{step}" data-seat="{esc(seat)}" data-card="{card_name(card)}"'
                         f' data-note="{esc(note)}"><span class="who">{esc(seat)}</span>{card_html(card)}'
                         f'{value_html(c.points, c.cost, c.units_cost)}</td>')
            step += 1
        cells += ["<td></td>"] * (CARDS_PER_TRICK - len(row.plays))
        done = f' data-done="{step - 1}"'   # shown once the trick's last card is
        winner = esc(row.winner) if row.winner else "…"
        out.append(f"<tr><td>{row.number}</td><td>{esc(row.leader)}</td>{''.join(cells)}"
                   f'<td class="tw"{done}>{winner}</td><td class="num pts-col tw"{done}>{row.declarer_total}</td>'
                   f'<td class="num pts-col tw"{done}>{row.defender_total}</td></tr>')
    out.append("</tbody></table></div>")
    return "".join(out)


def play_html(shown: PlayShown, *, hands: dict[str, CardSet] | None = None) -> str:
    """One play: the step control (shown by the script), the hands at the position now (the
    cards played before it shown played), the tricks, and the position's card values.
    ``hands``: the cards to show (default: the hands at the opening lead)."""
    deal = shown.start
    played_at = {c.card: n for n, c in enumerate(shown.cards)}
    held = hands if hands is not None else {s: deal.hands[s] for s in deal.active_seats}
    to_play = shown.cards[shown.now].seat if shown.now < len(shown.cards) else None
    if shown.choices:
        to_play = _seat_of_choices(shown) or to_play
    stepper = ('<div class="stepper" hidden><button type="button" data-go="first" title="the opening lead">«</button>'
               '<button type="button" data-go="prev" title="one card back">◀</button>'
               '<button type="button" data-go="next" title="the next card">▶</button>'
               '<button type="button" data-go="last" title="the last card">»</button>'
               '<input type="range" min="0" value="0" aria-label="card"><span class="where"></span></div>')
    body = [f'<div class="play" tabindex="0" data-now="{shown.now}">', stepper if shown.cards else "",
            hands_html(deal, held, played_at=played_at, now=shown.now, to_play=to_play), _extra_html(deal)]
    if shown.cards:
        body.append(_tricks_html(shown))
    body.append(choices_html(deal, shown.choices, to_play))
    body.append("</div>")
    return "".join(body)


def _seat_of_choices(shown: PlayShown) -> str | None:
    seats = _seats_in_order(shown.start, [c.card for c in shown.cards[:shown.now]] + [shown.choices[0].card])
    return seats[-1] if seats else None
