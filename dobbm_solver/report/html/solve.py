"""``dobbm solve --html``: each deal's position, every legal card's value and the best line."""

from __future__ import annotations

from typing import Sequence

from ...cards import card_name, cards_text
from ...deal import Deal
from ...explore import card_values
from ...review import deal_before_play
from ...solver import BestPlay
from .page import esc, sections_page
from .play import from_line, play_html
from .words import deal_heading, result_words

__all__ = ["solve_section", "solve_page"]


def solve_section(best: BestPlay, title: str) -> str:
    """One deal solved: the result of best play, the lay-away studied, the hands, the tricks
    played and the best line from the position, and each legal card's value there."""
    deal: Deal = best.deal
    an = best.analysis
    out = [f'<section class="deal"><h2>{esc(deal_heading(deal, title))}</h2>',
           f"<p>{esc(result_words(deal, an.declarer_points, 'best play'))}</p>"]
    if best.studied is not None:
        out.append(f"<p>lay-away analysed: {esc(cards_text(deal.discard or 0))} "
                   f"(the best of {len(best.studied)} legal)</p>")
    played = [c for t in deal.tricks for c in t]
    choices = card_values(deal, an.cards)
    out.append(play_html(from_line(deal_before_play(deal), played, an.line, an.declarer_points, choices)))
    if an.line:
        out.append(f'<p class="muted">best line from here: <span class="mono">'
                   f'{esc(" ".join(card_name(c) for c in an.line))}</span> (in italics in the tricks)</p>')
    out.append("</section>")
    return "".join(out)


def solve_page(solved: Sequence[tuple[BestPlay, str]]) -> str:
    """The page of ``dobbm solve``: one section a deal."""
    return sections_page("solve", "Every number is the declarer's final points (0 to 120) under best play "
                         "with open cards after that card; − is what a card costs its side against the best "
                         "card, in points. Cards of the best line are in italics.",
                         [(solve_section(best, t), t) for best, t in solved])
