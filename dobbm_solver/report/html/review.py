"""``dobbm review --html``: a played hand card by card, each card's value and cost."""

from __future__ import annotations

from typing import Sequence

from ...review import Review
from .page import card_html, esc, sections_page
from .play import from_review, play_html
from .words import deal_heading, result_words

__all__ = ["review_section", "review_page"]


def _players(review: Review) -> str:
    rows = []
    for p in review.players:
        costly = " ".join(f"{card_html(r.card)} −{r.cost}" for r in p.cards_with_cost) or "—"
        rows.append(f"<tr><td>{esc(p.seat)}</td><td>{'declarer' if p.declarer_side else 'defender'}</td>"
                    f'<td class="num">{p.points_lost}</td><td class="num">{p.units_lost}</td><td>{costly}</td></tr>')
    return ('<div class="scroll"><table class="grid players"><thead><tr><th>seat</th><th>side</th>'
            "<th>points lost</th><th>units lost</th><th>cards that cost</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></div>")


def review_section(review: Review, title: str) -> str:
    """One hand reviewed: the result at the opening lead and as played, the play to step
    through with every card's value and cost, each player's losses, the first change."""
    deal = review.deal
    now = "as played" if review.finished else "best play from where it stands"
    out = [f'<section class="deal"><h2>{esc(deal_heading(deal, title))}</h2>',
           f"<p>{esc(result_words(deal, review.start_points, 'best play from the opening lead'))}</p>",
           f"<p>{esc(result_words(deal, review.declarer_points, now))}</p>"]
    first = review.first_change
    if first is not None:
        out.append(f"<p>the first card that changed the result: trick {first.trick}, {esc(first.seat)} "
                   f"{card_html(first.card)} (−{first.cost} points, {first.units_cost} units)</p>")
    out.append(play_html(from_review(review)))
    out.append("<h3>each player's losses</h3>" + _players(review) + "</section>")
    return "".join(out)


def review_page(reviews: Sequence[tuple[Review, str]]) -> str:
    """The page of ``dobbm review``: one section a hand."""
    return sections_page("review", "Under each card: the declarer's final points under best play with open "
                         "cards after it; ✓ a best card, − what it cost its side in points (the title tells the "
                         "units of each defender's payment).", [(review_section(r, t), t) for r, t in reviews])
