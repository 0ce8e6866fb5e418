"""``dobbm arena --html``: the table of results and each deal's play at every table, to step through."""

from __future__ import annotations

from typing import Mapping, Sequence

from ...arena import ArenaRun, ArenaSummary
from ...arena.results import DealRow, TableKey
from ...arena.strategies import DECISIONS
from ...notation import format_deal_line
from ...review import Review
from .page import esc, page
from .play import from_review, play_html
from .words import deal_heading, result_words

__all__ = ["arena_page"]


def _pm(units: float, stderr: float | None) -> str:
    return f"{units:+.3f} ± {stderr:.3f}" if stderr is not None else f"{units:+.3f} ± n/a"


def _summary(summary: ArenaSummary) -> str:
    c = summary.config
    rows = [("A " + c.a.name, _pm(summary.a.units_per_hand, summary.a.stderr)),
            ("B " + c.b.name, _pm(summary.b.units_per_hand, summary.b.stderr)),
            ("A − B (paired)", _pm(summary.difference.units_per_hand, summary.difference.stderr))]
    out = ['<div class="scroll"><table class="grid results"><thead><tr><th>player</th><th>units a hand</th>'
           "</tr></thead><tbody>"]
    out += [f'<tr><td>{esc(name)}</td><td class="num">{esc(v)}</td></tr>' for name, v in rows]
    out.append("</tbody></table></div>")
    out.append('<div class="scroll"><table class="grid"><thead><tr><th>decision</th><th>A</th><th>B</th>'
               "<th>A − A with B's (units a hand)</th></tr></thead><tbody>")
    for d in DECISIONS:
        m = summary.per_decision[d]
        value = "not measured (--per-decision)" if m is None else _pm(m.units_per_hand, m.stderr)
        out.append(f"<tr><td>{esc(d)}</td><td>{esc(c.a.of(d))}</td><td>{esc(c.b.of(d))}</td>"
                   f'<td class="num">{esc(value)}</td></tr>')
    out.append("</tbody></table></div>")
    return "".join(out)


def _table_name(key: TableKey) -> str:
    if key.seat is None:
        return "B in every seat"
    if key.swapped is None:
        return f"A in seat {key.seat + 1}"
    return f"A with B's {key.swapped} in seat {key.seat + 1}"


def _deal_section(row: DealRow, reviews: Mapping[tuple[int, TableKey], Review]) -> str:
    out = [f'<section class="deal"><h2>Deal {row.deal}</h2>']
    for key in sorted(row.tables, key=lambda k: (k.seat is not None, k.seat or 0, k.swapped or "")):
        table = row.tables[key]
        bids = ", ".join(f"{esc(s)} {esc(b)}" for s, b in table.bids)
        out.append(f"<h3>{esc(_table_name(key))}</h3><p>auction: {bids}</p>")
        review = reviews.get((row.deal, key))
        if review is None or table.points is None:
            out.append("<p>all passed: the hand counts 0</p>")
            continue
        deal = review.deal
        out.append(f"<p>{esc(deal_heading(deal, 'played'))}; "
                   f"{esc(result_words(deal, table.points, 'as played'))}; "
                   f"{esc(result_words(deal, review.start_points, 'open-card best play from the opening lead'))}</p>")
        out.append(play_html(from_review(review)))
        out.append(f'<p class="muted">replay it: <span class="mono">{esc(format_deal_line(deal))}</span></p>')
    out.append("</section>")
    return "".join(out)


def arena_page(summary: ArenaSummary, run: ArenaRun, rows: Sequence[DealRow],
               reviews: Mapping[tuple[int, TableKey], Review]) -> str:
    """The arena's page: the results, then each deal played now at every table, to step through,
    each card with its open-card value and cost (``reviews``: each table's play reviewed, by
    deal and table)."""
    c = summary.config
    body = [f"<h1>dobbm arena: A = {esc(c.a.name)} vs B = {esc(c.b.name)}</h1>",
            f"<p>{summary.deals} deal{'s' if summary.deals != 1 else ''}, seed {c.seed}; A in each seat in "
            "turn at a table of B's, paired with the all-B table (units: each seat's own settlement, "
            "a hand).</p>", _summary(summary)]
    if rows:
        body.append(f"<h2>The deals played now ({len(rows)})</h2>"
                    '<p class="legend">Each table\'s play as it went, to step through: under each card the '
                    "declarer's final points under best play with open cards after it, ✓ a best card, − what "
                    "it cost its side. Each table's line reads into <code>dobbm review</code> and "
                    "<code>dobbm explore</code>.</p>")
        body += [_deal_section(row, reviews) for row in sorted(rows, key=lambda r: r.deal)]
    if run.resumed:
        body.append(f'<p class="muted">{run.resumed} deals came from the result file: their plays are not '
                    "on this page.</p>")
    return page(f"dobbm arena: {c.a.name} vs {c.b.name}", "".join(body))
