"""``dobbm check``: the deals (or advice views) of a file validated and printed back normalised."""

from __future__ import annotations

import click

from ..report.check import check_dict, check_line, check_text, check_view_dict, check_view_line, check_view_text
from .inputs import deal_of, read_docs, view_of
from .options import CONTEXT, DEAL, FILE, JSON, NO_DIAGRAM
from .output import echo, echo_json


@click.command(context_settings=CONTEXT)
@click.argument("file", required=False, type=FILE)
@DEAL
@JSON
@click.option("--line", "line_only", is_flag=True, help="Only the one-line notation of each deal.")
@NO_DIAGRAM
def check(file: str | None, deal_lines: tuple[str, ...], as_json: bool, line_only: bool, no_diagram: bool) -> None:
    """Validate the deals of FILE and print them back normalised.

    Cards are sorted trumps first, high to low; each deal is printed as YAML and in the
    one-line notation, then in the dealt form (`dealt:`, the 8 cards each seat was dealt)
    as a comment, then the diagram as YAML comments (not for views). A document with
    `me` is an advice view: it is checked as a view for the command it fits (bid, discard
    or double; see docs/formats.md) and printed back the same way.
    """
    docs = read_docs(() if file is None else (file,), deal_lines)
    for n, doc in enumerate(docs):
        if doc.spec.is_view:
            from ..analyzer.checks import view_command

            command = view_command(doc.spec)
            spec = view_of(doc, command).spec()
            if as_json:
                echo_json(check_view_dict(spec, command))
            elif line_only:
                echo(check_view_line(spec))
            else:
                if n:
                    echo("---")
                echo(check_view_text(spec, command, doc.title))
            continue
        deal = deal_of(doc)
        if as_json:
            echo_json(check_dict(deal))
        elif line_only:
            echo(check_line(deal))
        else:
            if n:
                echo("---")
            echo(check_text(deal, doc.title, not no_diagram))
