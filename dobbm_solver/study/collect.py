"""The deals of a study: found in hand files or given in memory, each with an id and a hash."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..deal import Deal
from ..handfile import HandFileError, HandSpec, load_specs, spec_to_deal
from ..notation import format_deal_line
from .errors import StudyError

__all__ = ["HAND_SUFFIXES", "StudyDeal", "deal_hash", "deals_from", "find_hand_files", "collect_deals", "view_note"]

HAND_SUFFIXES: tuple[str, ...] = (".yaml", ".yml")
HASH_DIGITS = 16


@dataclass(frozen=True)
class StudyDeal:
    """One deal to study: a stable ``id``, the ``hash`` of its notation, the notation."""

    id: str
    hash: str
    line: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.id, self.hash)


def deal_hash(line: str) -> str:
    """The content hash of a deal's canonical one-line notation (16 hex digits): one deal
    has one hash, however its file is named or written (YAML or a line, held or dealt form)."""
    return hashlib.sha256(line.encode("utf-8")).hexdigest()[:HASH_DIGITS]


def deals_from(pairs: Iterable[tuple[str, Deal]]) -> list[StudyDeal]:
    """Study items for deals in memory, ``(id, deal)`` each; ids must be unique."""
    out: list[StudyDeal] = []
    seen: set[str] = set()
    for ident, deal in pairs:
        if ident in seen:
            raise StudyError(f"deal id {ident!r} is given twice")
        seen.add(ident)
        line = format_deal_line(deal)
        out.append(StudyDeal(ident, deal_hash(line), line))
    return out


def view_note(spec: HandSpec, path: str) -> str:
    """What a study says of an advice view it leaves out."""
    from ..analyzer.checks import view_command  # the analyzer is loaded only for a view

    where = path if spec.doc is None else f"{path}[{spec.doc}]"
    return (f"{where}: a view for dobbm {view_command(spec)} (one seat's cards), left out: "
            "study solves whole deals")


def _norm(path: Path) -> str:
    return Path(os.path.normpath(path)).as_posix()


def _files_of(p: str | os.PathLike[str]) -> list[str]:
    """The hand files one path names, normalised."""
    path = Path(p)
    if path.is_dir():
        found = sorted(
            (f for f in path.rglob("*")
             if f.suffix.lower() in HAND_SUFFIXES and f.is_file()
             and not any(part.startswith(".") for part in f.relative_to(path).parts)),
            key=lambda f: f.as_posix())
        if not found:
            raise StudyError(f"{p}: no hand files (*.yaml, *.yml) in this directory")
        return [_norm(f) for f in found]
    if path.is_file():
        return [_norm(path)]
    if not path.exists():
        raise StudyError(f"{p}: no such file or directory")
    raise StudyError(f"{p}: not a file or directory")


def find_hand_files(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """The hand files of ``paths``: files as given, directories searched recursively
    for ``*.yaml`` / ``*.yml`` (hidden files and directories skipped), sorted.
    A file named twice is listed once."""
    if not paths:
        raise StudyError("give at least one hand file or directory")
    out: list[str] = []
    seen: set[str] = set()
    for p in paths:
        for f in _files_of(p):
            if f not in seen:
                seen.add(f)
                out.append(f)
    return out


def collect_deals(paths: Sequence[str | os.PathLike[str]],
                  on_invalid: Callable[[ValueError], None] | None = None,
                  on_view: Callable[[str], None] | None = None) -> list[StudyDeal]:
    """Every deal of the hand files of ``paths`` (see :func:`find_hand_files`), validated.

    A file or deal that does not load raises its error (a
    :class:`~dobbm_solver.handfile.HandFileError`: ``FILE[N]: key: what is
    wrong``), unless ``on_invalid`` is given: then it is called with the error
    and the file or deal is left out.  An advice view (a document with ``me``:
    one seat's cards) is no deal to solve: it is left out, and ``on_view`` is
    called with a note that says so.
    """
    out: list[StudyDeal] = []
    for f in find_hand_files(paths):
        try:
            specs = load_specs(f)
        except HandFileError as e:
            if on_invalid is None:
                raise
            on_invalid(e)
            continue
        for n, spec in enumerate(specs, 1):
            if spec.is_view:
                if on_view is not None:
                    on_view(view_note(spec, f))
                continue
            try:
                deal = spec_to_deal(spec)
            except HandFileError as e:
                if on_invalid is None:
                    raise
                on_invalid(e)
                continue
            line = format_deal_line(deal)
            out.append(StudyDeal(f"{f}#{spec.doc or n}", deal_hash(line), line))
    return out
