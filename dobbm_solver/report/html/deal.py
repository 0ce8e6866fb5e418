"""``dobbm deal --solutions --html``: a handout, the deals on one page and their solutions on the next."""

from __future__ import annotations

from typing import Sequence

from ...dealer import DealtDeal
from ...dealt import dealt_hands
from ...explore import card_values
from ...notation import format_deal_line
from ...solver import BestPlay
from .page import card_html, esc, page
from .play import from_line, hands_html, play_html
from .words import deal_heading, result_words

__all__ = ["deal_page"]


def _auction(dd: DealtDeal) -> str:
    return ", ".join(f"{esc(seat)} {esc(bid)}" for seat, bid in dd.bids)


def _deal_section(n: int, dd: DealtDeal) -> str:
    deal = dd.deal
    dealt = dealt_hands(deal)
    return (f'<section class="deal"><h2>{esc(deal_heading(deal, f"Deal {n}"))}</h2>'
            f"<p>auction: {_auction(dd)}</p>"
            f"{hands_html(deal, dealt, label='Dobb', centre=' '.join(card_html(c) for c in _cards(deal.dobb)))}"
            f'<p class="muted mono noprint">{esc(format_deal_line(deal, dealt=True))}</p></section>')


def _cards(cs: int) -> list[int]:
    return [c for c in range(36) if cs >> c & 1]


def _solution_section(n: int, dd: DealtDeal, best: BestPlay) -> str:
    deal = best.deal
    an = best.analysis
    laid = ""
    if deal.contract == "dobbm" and deal.discard is not None:
        laid = f"<p>lay-away (the calibrated rule's): {' '.join(card_html(c) for c in _cards(deal.discard))}</p>"
    shown = from_line(deal, (), an.line, an.declarer_points, card_values(deal, an.cards))
    return (f'<section class="deal play-solution"><h2>{esc(deal_heading(deal, f"Deal {n}"))}: solution</h2>{laid}'
            f"<p>{esc(result_words(deal, an.declarer_points, 'best play'))}</p>{play_html(shown)}</section>")


def deal_page(deals: Sequence[DealtDeal], bests: Sequence[BestPlay] | None) -> str:
    """The handout: every deal as dealt (hands, Dobb, auction); then, on a new page, each
    deal's solution: the lay-away, the result of best play and its best line to step through."""
    body = ["<h1>dobbm deal</h1>",
            f"<p>{len(deals)} deal{'s' if len(deals) != 1 else ''}: the hands as dealt (before the "
            "exchange), the Dobb and the auction of the bidding model.</p>"]
    body += [_deal_section(n, dd) for n, dd in enumerate(deals, 1)]
    if bests is not None:
        body.append('<div class="page-break"></div><h1>Solutions</h1>'
                    '<p class="legend">Under each card of the best line: the declarer\'s final points under best '
                    "play with open cards. Below each deal: every card of the opening lead with its value.</p>")
        body += [_solution_section(n, dd, best) for n, (dd, best) in enumerate(zip(deals, bests), 1)]
    return page("dobbm deal: a handout", "".join(body))
