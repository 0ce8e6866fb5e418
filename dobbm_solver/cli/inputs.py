"""What the commands read: hand files, standard input ('-') or ``--deal`` lines, as documents.

A FILE or standard input holds YAML documents or deal lines in the one-line
notation, one a line (:func:`~dobbm_solver.handfile.parse_specs` tells them apart).

Every document of every source is read and type-checked before any is worked
on; an error names its document first (see :func:`~.boundary.about`).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple, Sequence

import click

from ..deal import Deal
from ..dealt import seat_order_reading
from ..errors import DobbmError
from ..handfile import HandFileError, HandSpec, load_specs, load_stream_specs, spec_to_deal
from ..notation import NotationError, parse_spec_line
from .boundary import DEAL_TITLE, BadInput, about

if TYPE_CHECKING:   # the analyzer is loaded only when a view is read
    from ..analyzer.view import View

__all__ = ["Doc", "read_docs", "deal_of", "view_of", "read_doc_deals", "read_deals"]


class Doc(NamedTuple):
    """One document read: its title in reports (``FILE``, ``FILE[N]``, ``<stdin>``, ``--deal``,
    ``--deal[N]``), its id as ``study`` writes it (``FILE#N``, ``--deal``, ``--deal#N``), its spec,
    and whether it is written in the one-line notation (a ``--deal`` line, or a line of a FILE
    or of standard input: its errors are told in the notation's words)."""

    title: str
    ident: str
    spec: HandSpec
    line: bool = False


def _specs(source: str) -> tuple[str, list[HandSpec]]:
    """The name a source goes by in reports and its documents."""
    if source == "-":
        return "<stdin>", load_stream_specs(sys.stdin, "<stdin>")
    return source, load_specs(source)


def read_docs(sources: Sequence[str], deal_lines: Sequence[str]) -> list[Doc]:
    """The documents of the FILEs (standard input: '-') or of the --deal lines (each one
    given, in order), all read and type-checked before any is worked on."""
    if deal_lines:
        if sources:
            raise BadInput("give a FILE or --deal, not both")
        return [_line_doc(line, n, len(deal_lines)) for n, line in enumerate(deal_lines, 1)]
    if not sources:
        raise BadInput("give a hand FILE, '-' for standard input, or --deal \"...\"")
    if list(sources).count("-") > 1:
        raise BadInput("standard input ('-') can be read only once")
    docs = []
    for source in sources:
        name, specs = _specs(source)
        for n, spec in enumerate(specs, 1):
            title = name if len(specs) == 1 else f"{name}[{spec.doc}]"
            docs.append(Doc(title, f"{name}#{spec.doc or n}", spec, line=spec.line))
    return docs


def _line_doc(line: str, n: int, count: int) -> Doc:
    """The document of the ``n``-th of ``count`` --deal lines (``--deal`` if it is the only one)."""
    title, ident = (DEAL_TITLE, DEAL_TITLE) if count == 1 else (f"{DEAL_TITLE}[{n}]", f"{DEAL_TITLE}#{n}")
    try:
        spec = parse_spec_line(line)
    except DobbmError as e:
        raise BadInput(f"{title}: {e}") from None
    return Doc(title, ident, spec, line=True)


def _command_name(command: str | None) -> str:
    """The command that reads the deals: ``command``, else the one running."""
    if command is not None:
        return command
    ctx = click.get_current_context(silent=True)
    return ctx.info_name if ctx is not None and ctx.info_name else "this command"


def deal_of(doc: Doc, allow_revokes: bool = False, command: str | None = None) -> Deal:
    """The validated deal of a document (a deal line checked in the notation's words).

    An advice view (a document with ``me``) is no deal: the error says which advice
    command reads it and that ``command`` (default: the one running) needs every hand.
    """
    if doc.spec.is_view:
        from ..analyzer.checks import view_command

        raise BadInput(f"{doc.title}: a view for dobbm {view_command(doc.spec)} (one seat's cards); "
                       f"{_command_name(command)} needs all hands")
    with about(doc.title, doc.line):
        if doc.line and (doc.spec.declarer is None or doc.spec.contract is None):
            raise NotationError("head", "missing: a deal line begins with CONTRACT DECLARER "
                                        "like 'dobbm Anna |'")
        return spec_to_deal(doc.spec, allow_revokes=allow_revokes)


def view_of(doc: Doc, command: str) -> View:
    """The checked view of a document for the advice ``command`` (a view whose tricks are
    consistent only read in seat order gets the error that says each trick starts with its
    leader)."""
    from ..analyzer import make_view

    with about(doc.title, doc.line):
        try:
            return make_view(doc.spec, command)
        except HandFileError:
            reading = seat_order_reading(doc.spec)
            if reading is not None:
                try:
                    make_view(replace(doc.spec, tricks=reading.tricks), command)
                except DobbmError:
                    pass
                else:
                    raise HandFileError(doc.spec.path, "tricks", reading.message(), doc.spec.doc) from None
            raise


def read_doc_deals(sources: Sequence[str], deal_lines: Sequence[str],
                   allow_revokes: bool = False, command: str | None = None) -> list[tuple[Doc, Deal]]:
    """The validated deals of the FILEs, standard input ('-') or the --deal lines
    (``command``: see :func:`deal_of`)."""
    return [(doc, deal_of(doc, allow_revokes, command)) for doc in read_docs(sources, deal_lines)]


def read_deals(source: str | None, deal_lines: Sequence[str],
               allow_revokes: bool = False, command: str | None = None) -> list[tuple[str, Deal]]:
    """The validated deals of FILE, standard input ('-') or the --deal lines, with their titles."""
    return [(doc.title, deal) for doc, deal in
            read_doc_deals(() if source is None else (source,), deal_lines, allow_revokes, command)]
