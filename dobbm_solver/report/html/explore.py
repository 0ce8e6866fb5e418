"""``dobbm explore --html``: the position reached, the cards played with their costs, the best line."""

from __future__ import annotations

from ...explore import Explorer
from .page import esc, page
from .play import from_line, play_html
from .words import deal_heading, result_words

__all__ = ["explore_page"]


def explore_page(explorer: Explorer, title: str) -> str:
    """The position an exploration reached: the cards played from the opening lead with what
    each cost, every legal card's value now, and the rest of a best line."""
    pos = explorer.position()
    deal = pos.deal
    where = "the hand is over" if pos.finished else "best play from here"
    shown = from_line(explorer.start, explorer.played_values(), explorer.line(), pos.value, pos.cards)
    body = ("<h1>dobbm explore</h1>"
            '<p class="legend">Under each card: the declarer\'s final points under best play with open cards '
            "after it; ✓ a best card, − what it cost its side. Cards of the best line from the position "
            "reached are in italics.</p>"
            f'<section class="deal"><h2>{esc(deal_heading(deal, title))}</h2>'
            f"<p>{esc(result_words(deal, pos.value, where))}</p>{play_html(shown)}</section>")
    return page(f"dobbm explore: {title}", body)
