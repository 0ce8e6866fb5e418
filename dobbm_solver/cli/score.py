"""``dobbm score``: finished hands scored, revokes charged."""

from __future__ import annotations

import click

from ..report.score import score_dict, score_text, session_dict, session_text
from ..scoring import SessionError, score_hand, score_session
from .boundary import about
from .inputs import read_doc_deals
from .options import CONTEXT, DEAL, FILE, JSON, NO_DIAGRAM, FiniteFloat
from .output import echo, echo_json

#: The most a match may cost (--match-cost): every payment in money stays a finite number.
MAX_MATCH_COST = 1e12


@click.command(context_settings=CONTEXT)
@click.argument("file", required=False, type=FILE)
@DEAL
@JSON
@click.option("--match-cost", type=FiniteFloat(min=0, max=MAX_MATCH_COST), metavar="MONEY",
              help="Also show payments in money, a match (12 units) costing MONEY (0 to 1e12).")
@NO_DIAGRAM
def score(file: str | None, deal_lines: tuple[str, ...], as_json: bool, match_cost: float | None,
          no_diagram: bool) -> None:
    """Score finished hands: all 8 tricks in `tricks`, hands empty.

    Prints each side's points, the outcome and every player's payment in units (and in
    money with --match-cost). Revokes are found and charged as the rule book says: the
    hand is void and the offending side pays half a match times the multipliers to each
    opponent. The diagram shows the hands at the opening lead. Several hands (the
    documents of FILE, or --deal lines) are a session, in order: then each player's
    running total after each hand, and the totals (with --json one more line,
    {"session": ...}); the declarer of a hand deals the next, so a hand naming another
    dealer is an error.
    """
    deals = read_doc_deals(() if file is None else (file,), deal_lines, allow_revokes=True)
    scores = []
    for doc, deal in deals:   # all, before printing
        with about(doc.title, doc.line):
            scores.append(score_hand(deal))
    session = None
    if len(deals) > 1:
        try:
            session = score_session([d for _, d in deals], scores)
        except SessionError as e:
            with about(deals[e.hand - 1][0].title, deals[e.hand - 1][0].line):
                raise
    for n, ((doc, deal), sc) in enumerate(zip(deals, scores)):
        if as_json:
            echo_json(score_dict(deal, sc, match_cost))
        else:
            if n:
                echo("")
            echo(score_text(deal, sc, doc.title, match_cost, not no_diagram))
    if session is not None:
        titles = [doc.title for doc, _ in deals]
        if as_json:
            echo_json(session_dict(session, titles, match_cost))
        else:
            echo("\n" + session_text(session, match_cost))
