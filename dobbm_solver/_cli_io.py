"""The command line's shared pieces (click code, private to :mod:`dobbm_solver.cli`).

Reading hand files, standard input and ``--deal`` lines into documents; the one
boundary where library errors become clean command-line errors (bad input:
exit 2; other failures: exit 1); whole-document output; progress bars.
"""

from __future__ import annotations

import sys
from typing import Callable, Iterable, NamedTuple, Sequence, TypeVar

import click

from ._interrupt import write_whole
from .deal import Deal
from .errors import DobbmError, DobbmRuntimeError
from .handfile import HandFileError, HandSpec, load_specs, load_stream_specs, spec_to_deal
from .notation import NotationError, in_notation_words, parse_spec_line

T = TypeVar("T")

__all__ = ["BadInput", "Doc", "DEAL_TITLE", "clean_error", "guard", "guard_doc", "read_docs", "deal_of",
           "read_doc_deals", "read_deals", "echo", "progress"]


class BadInput(click.ClickException):
    """Bad input: one line on stderr, exit code 2."""

    exit_code = 2


def clean_error(e: DobbmError | DobbmRuntimeError) -> click.ClickException:
    """Bad input (:class:`DobbmError`): one line and exit code 2; a failure that is not
    the input's fault (:class:`DobbmRuntimeError`): one line and exit code 1."""
    return BadInput(str(e)) if isinstance(e, DobbmError) else click.ClickException(str(e))


def guard(fn: Callable[[], T]) -> T:
    """Run library code; its errors become one clean line (see :func:`clean_error`).

    Any other exception, a ``ValueError`` too, is a bug and keeps its traceback.
    """
    try:
        return fn()
    except (DobbmError, DobbmRuntimeError) as e:
        raise clean_error(e) from None


class Doc(NamedTuple):
    """One document read: its title in reports (``FILE``, ``FILE[N]``, ``<stdin>``, ``--deal``),
    its id as ``study`` writes it (``FILE#N``) and its spec."""

    title: str
    ident: str
    spec: HandSpec


DEAL_TITLE = "--deal"


def guard_doc(doc: Doc, fn: Callable[[], T]) -> T:
    """:func:`guard` for work on one document: every error names the document first
    (``FILE[N]: ...``, ``--deal: segment 'Anna': ...``)."""
    try:
        return fn()
    except HandFileError as e:
        if doc.title == DEAL_TITLE:
            raise BadInput(f"{DEAL_TITLE}: {in_notation_words(e)}") from None
        raise clean_error(e) from None
    except DobbmError as e:
        prefix = "" if str(e).startswith(f"{doc.title}:") else f"{doc.title}: "
        raise BadInput(f"{prefix}{e}") from None
    except DobbmRuntimeError as e:   # not the input's fault: no document to blame
        raise clean_error(e) from None


def read_docs(sources: Sequence[str], deal_line: str | None) -> list[Doc]:
    """The documents of the FILEs (standard input: '-') or of one --deal line, all read
    and type-checked before any is worked on."""
    if deal_line is not None:
        if sources:
            raise BadInput("give a FILE or --deal, not both")
        try:
            spec = parse_spec_line(deal_line)
        except DobbmError as e:
            raise BadInput(f"{DEAL_TITLE}: {e}") from None
        return [Doc(DEAL_TITLE, DEAL_TITLE, spec)]
    if not sources:
        raise BadInput("give a hand FILE, '-' for standard input, or --deal \"...\"")
    if list(sources).count("-") > 1:
        raise BadInput("standard input ('-') can be read only once")
    docs = []
    for source in sources:
        if source == "-":
            name = "<stdin>"
            specs = guard(lambda: load_stream_specs(sys.stdin, name))
        else:
            name = source
            specs = guard(lambda: load_specs(source))
        for n, spec in enumerate(specs, 1):
            title = name if len(specs) == 1 else f"{name}[{spec.doc}]"
            docs.append(Doc(title, f"{name}#{spec.doc or n}", spec))
    return docs


def deal_of(doc: Doc, allow_revokes: bool = False) -> Deal:
    """The validated deal of a document (a --deal line checked in the notation's words)."""
    def build() -> Deal:
        if doc.title == DEAL_TITLE and (doc.spec.declarer is None or doc.spec.contract is None):
            raise NotationError("head", "missing: a deal line begins with CONTRACT DECLARER "
                                        "like 'dobbm Anna |'")
        return spec_to_deal(doc.spec, allow_revokes=allow_revokes)

    return guard_doc(doc, build)


def read_doc_deals(sources: Sequence[str], deal_line: str | None,
                    allow_revokes: bool = False) -> list[tuple[Doc, Deal]]:
    """The validated deals of the FILEs, standard input ('-') or one --deal line."""
    return [(doc, deal_of(doc, allow_revokes)) for doc in read_docs(sources, deal_line)]


def read_deals(source: str | None, deal_line: str | None,
                allow_revokes: bool = False) -> list[tuple[str, Deal]]:
    """The validated deals of FILE, standard input ('-') or one --deal line, with their titles."""
    return [(doc.title, deal) for doc, deal in
            read_doc_deals(() if source is None else (source,), deal_line, allow_revokes)]


def echo(text: str) -> None:
    """Print one document (a JSON line, a report) whole: Ctrl-C while it is written,
    the output blocked by a slow reader say, stops the command after it (at most
    ``_interrupt.FINISH_SECONDS`` later), so a reader gets a whole document or none."""
    if write_whole(text + "\n", sys.stdout):   # where click.echo writes (click.get_text_stream is deprecated)
        raise KeyboardInterrupt


def progress(items: list[T], quiet: bool, label: str) -> Iterable[T]:
    """A progress bar on stderr for several items, silent when stderr is no terminal."""
    if quiet or len(items) < 2 or not sys.stderr.isatty():
        return items
    return click.progressbar(items, label=label, file=sys.stderr)
