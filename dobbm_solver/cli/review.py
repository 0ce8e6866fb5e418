"""``dobbm review``: a played hand judged card by card with open cards."""

from __future__ import annotations

import click

from ..pagefile import check_page_file, write_page
from ..report.review import review_dict, review_text
from ..review import review_hand
from .boundary import about
from .inputs import read_deals
from .options import CONTEXT, DEAL, FILE, HTML, JSON, NO_DIAGRAM, TT_MB, open_solver
from .output import echo, echo_json


@click.command(context_settings=CONTEXT)
@click.argument("file", required=False, type=FILE)
@DEAL
@JSON
@TT_MB
@NO_DIAGRAM
@HTML
def review(file: str | None, deal_lines: tuple[str, ...], as_json: bool, tt_mb: int, no_diagram: bool,
           html_file: str | None) -> None:
    """Review a played hand card by card with open cards.

    FILE gives `hands` as held now and `tricks` as played (any number, the last maybe
    unfinished). For every card: the declarer's points under best play before and after it, what it
    cost its side, and the best cards instead. Then each player's losses in points and
    units, and the first card that changed the result. Before the cards, a Dobbm's
    lay-away against every legal one, and each doubling said (and the next one not
    said) against the result with open cards. A hand with no trick played has no card
    to review (it says so); a revoke in the tricks is an error. The diagram shows the
    hands at the opening lead.
    """
    if html_file is not None:
        check_page_file(html_file)
    deals = read_deals(file, deal_lines)
    reviewed = []
    solver = open_solver(tt_mb)
    for n, (title, deal) in enumerate(deals):
        with about(title):   # the deal loaded, but may have no play to review
            result = review_hand(solver, deal)
        reviewed.append((result, title))
        if as_json:
            echo_json(review_dict(result))
        else:
            if n:
                echo("")
            echo(review_text(result, title, not no_diagram))
    if html_file is not None:
        from ..report.html import review_page
        write_page(html_file, review_page(reviewed))
