"""``dobbm solve``: each deal solved with open cards (a Dobbm with no lay-away: every lay-away studied)."""

from __future__ import annotations

import click

from ..pagefile import check_page_file, write_page
from ..report.solve import solve_dict, solve_text
from .boundary import about
from .inputs import read_doc_deals
from .options import CONTEXT, DEAL, FILE, HTML, JOBS, JSON, NO_DIAGRAM, QUIET, TT_MB, open_solver
from .output import Progress, echo, echo_json


@click.command(context_settings=CONTEXT)
@click.argument("files", nargs=-1, metavar="[FILE]...", type=FILE)
@DEAL
@JSON
@click.option("--all", "show_all", is_flag=True, help="Discard study: show every lay-away, not the top 10.")
@JOBS
@TT_MB
@NO_DIAGRAM
@QUIET
@HTML
def solve(files: tuple[str, ...], deal_lines: tuple[str, ...], as_json: bool, show_all: bool, jobs: int | None,
          tt_mb: int, no_diagram: bool, quiet: bool, html_file: str | None) -> None:
    """Solve each deal of the FILEs ('-': standard input) with open cards.

    Prints the declarer's points under best play, the outcome and payment, the value of
    every legal card for the player to move, and the best line trick by trick. A Dobbm
    with a `dobb` and no `discard` is a discard study: every legal lay-away is solved and
    ranked, and the best one analysed (named on the line "lay-away analysed", and as
    `discard` in JSON); its workers are threads, each with a table of its own. Each JSON
    object has the deal's `id` (FILE#N, as `study` writes it). All FILEs are read and
    checked before the first solve.
    """
    if html_file is not None:
        check_page_file(html_file)
    deals = read_doc_deals(files, deal_lines)
    solved = []
    solver = open_solver(tt_mb)
    with Progress("solving", quiet) as bar:
        bar.start(len(deals))
        for n, (doc, deal) in enumerate(deals):
            with about(doc.title, doc.line):
                best = solver.solve_best(deal, analyze=True, jobs=jobs)
            solved.append((best, doc.title))
            if as_json:
                echo_json(solve_dict(best, doc.ident))
            else:
                if n:
                    echo("")
                echo(solve_text(best, doc.title, None if show_all else 10, not no_diagram))
            bar.advance()
    if html_file is not None:
        from ..report.html import solve_page
        write_page(html_file, solve_page(solved))
