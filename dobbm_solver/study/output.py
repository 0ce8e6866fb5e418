"""The result file of a study: read what is there, fix it up, lock it, append rows whole.

Ownership: a study rewrites its output (to drop a cut-short last row or the rows
of since-edited deals) only when every line of the file is something a study
writes: the CSV header of its mode, whole rows (JSON objects with exactly the
row keys, CSV records under that header), and at most a cut-short last row
with no newline.  Anything else is a :class:`StudyError` and the file is left
byte for byte as it was; a file holding no row (nor CSV header) is never
rewritten.  A symbolic link is written through (the target is read, locked and
replaced); a path that is not a regular file (a FIFO, a device) is refused.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..resultfile import LockedFile, file_kind, regular_file
from .codecs import (
    csv_header,
    csv_line,
    csv_records,
    decode_line,
    format_line,
    is_cut_row,
    output_format,
    parse_line,
    shown_columns,
)
from .collect import StudyDeal
from .errors import StudyError, StudyRunError
from .rows import ANALYZE_COLUMNS, VALUE_COLUMNS, columns

__all__ = ["ResultFile", "ResultText", "parse_results", "read_results"]

#: What :meth:`ResultFile.prepare` found: the keys done, the stale rows dropped,
#: whether a cut-short last line was dropped.
Prepared = tuple[set[tuple[str, str]], int, bool]

_NOT_OURS = "not a study output? (the file is left as it is)"


@dataclass
class ResultText:
    """A result file's contents as a study reads them: the CSV header line (None for
    JSON lines, or an empty CSV), the rows (their bytes, without the newline, and the
    row), and a cut-short last row (bytes after the last newline; empty if none)."""

    header: bytes | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[tuple[bytes, dict[str, Any]]] = field(default_factory=list)
    tail: bytes = b""


def parse_results(data: bytes, fmt: str, name: str) -> ResultText:
    """The contents of a result file, checked line by line: a :class:`StudyError` names
    the first line that a study did not write (see the module's ownership rule)."""
    if fmt == "csv":
        records, tail = csv_records(data)
    else:
        pieces = data.split(b"\n")
        tail = pieces.pop()
        records = [(n, b) for n, b in enumerate(pieces, 1)]
    out = ResultText(tail=tail)
    if fmt == "csv" and records:
        (_, first), records = records[0], records[1:]
        names = csv_header(decode_line(first) or "")
        if names not in (list(VALUE_COLUMNS), list(ANALYZE_COLUMNS)):
            raise StudyError(f"{name}: line 1 is not the header of a study's CSV "
                             f"(first: {shown_columns(names)}); {_NOT_OURS}")
        out.header, out.columns = first, names
    for n, raw in records:
        text = decode_line(raw)
        row = None if text is None else parse_line(fmt, text, out.columns)
        if row is None:
            raise StudyError(f"{name}: line {n} is not a result row of a study; {_NOT_OURS}")
        out.rows.append((raw, row))
    if tail:
        last = data.count(b"\n") + 1
        if not out.rows and out.header is None:
            raise StudyError(f"{name}: holds no result row of a study, and line {last} has no newline "
                             f"at the end; {_NOT_OURS}")
        if not is_cut_row(fmt, tail):
            raise StudyError(f"{name}: line {last} (no newline at the end) is not a result row cut "
                             f"short (if it is one, delete it and run again); {_NOT_OURS}")
    return out


def _covered(items: Sequence[StudyDeal], rows: Sequence[tuple[str, str]]) -> set[tuple[str, str]]:
    """The keys of the items that ``rows`` (id and hash each) already hold: a row of the
    item's id and hash, else a row of the same deal (its hash) under an id that no item
    of the study has with that hash (the same file named otherwise, moved or copied).
    Each row holds one item: two copies of a deal need two rows."""
    keys = {it.key for it in items}
    done = {key for key in rows if key in keys}
    spare = Counter(h for (ident, h) in rows if (ident, h) not in keys)
    for it in items:
        if it.key not in done and spare[it.hash] > 0:
            spare[it.hash] -= 1
            done.add(it.key)
    return done


class ResultFile:
    """The output file of a study of ``mode`` (see :func:`~.codecs.output_format`).

    :meth:`prepare` opens and locks it (exclusively: a second writer gets a
    :class:`StudyError`) and fixes it up; :meth:`write` appends one row with
    one ``write``; :meth:`close` releases the lock.  A symbolic link is written
    through; anything but a regular file is refused.  A failed write (a full
    disk) takes back its part-row and raises :class:`StudyRunError`.
    """

    def __init__(self, path: str | os.PathLike[str], mode: str) -> None:
        self.name = str(path)
        self.fmt = output_format(path)
        self.mode = mode
        self.columns = columns(mode)
        self.file: LockedFile | None = None
        self.path = regular_file(path, self.name, StudyError)   # through symbolic links

    # -- open, lock, read ----------------------------------------------------
    def _open(self) -> None:
        self.file = LockedFile(self.path, self.name, error=StudyError, write_error=StudyRunError,
                               busy="another study is writing this file")

    def _read(self) -> bytes:
        """The file's contents, read a line at a time (a line too long to be a row is refused)."""
        assert self.file is not None
        lines = [line + b"\n" for _, line in self.file.lines()]
        return b"".join(lines) + self.file.tail

    def prepare(self, items: Sequence[StudyDeal]) -> Prepared:
        """Open and lock the output; return the keys done, the stale rows dropped and
        whether a cut-short last line was dropped."""
        self._open()
        try:
            return self._prepare(items)
        except BaseException:
            self.close()
            raise

    def _check_mode(self, found: ResultText) -> None:
        if found.header is not None and found.columns != list(self.columns):
            raise StudyError(
                f"{self.name}: its columns are not those of a --mode {self.mode} study "
                f"(first: {shown_columns(found.columns)}); use another output file")
        for _, row in found.rows:
            if row["mode"] != self.mode:
                raise StudyError(f"{self.name}: holds --mode {row['mode']} results, this study is "
                                 f"--mode {self.mode}; use another output file")

    def _prepare(self, items: Sequence[StudyDeal]) -> Prepared:
        found = parse_results(self._read(), self.fmt, self.name)
        self._check_mode(found)
        truncated = found.tail != b""
        current = {it.id: it.hash for it in items}
        hashes = set(current.values())
        keep: list[bytes] = []
        kept: list[tuple[str, str]] = []
        stale = 0
        for raw, row in found.rows:
            h = current.get(row["id"])
            if h is not None and h != row["hash"] and row["hash"] not in hashes:
                stale += 1
                continue
            keep.append(raw)
            kept.append((row["id"], row["hash"]))
        done = _covered(items, kept)
        if stale or truncated:
            head = [found.header] if found.header is not None else []
            self._rewrite(head + keep)
        if self.fmt == "csv" and found.header is None:
            self._write_text(csv_line(self.columns))
        return done, stale, truncated

    def _rewrite(self, lines: list[bytes]) -> None:
        """Replace the file's contents atomically and lock the new file.  On failure
        (a full disk) the file is as it was."""
        assert self.file is not None
        self.file.replace(b"".join(line + b"\n" for line in lines))

    # -- writing -------------------------------------------------------------
    def _write_text(self, text: str) -> None:
        """Append ``text`` whole or not at all (see :meth:`LockedFile.append`)."""
        assert self.file is not None
        self.file.append(text.encode("utf-8"))

    def write(self, row: dict[str, Any]) -> None:
        """Append one row, whole, with one ``write``."""
        self._write_text(format_line(self.fmt, row, self.columns))

    def close(self) -> None:
        """Close the file (which releases the lock)."""
        if self.file is not None:
            self.file.close()
            self.file = None


def read_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The rows of a study output (JSON lines or CSV), in file order; CSV values typed.
    A cut-short last row is ignored; a line that a study did not write is a
    :class:`StudyError`."""
    fmt = output_format(path)
    try:
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | getattr(os, "O_NONBLOCK", 0))) as f:
            mode = os.fstat(f.fileno()).st_mode
            if not stat.S_ISREG(mode):
                raise StudyError(f"{path}: is {file_kind(mode)}; not a study output")
            data = f.read()
    except OSError as e:
        raise StudyError(f"{path}: {e.strerror or e}") from None
    try:   # up to the last newline: a row cut short may end inside a character
        data[:data.rfind(b"\n") + 1].decode("utf-8")
    except UnicodeDecodeError:
        raise StudyError(f"{path}: is not UTF-8 text; not a study output?") from None
    return [row for _, row in parse_results(data, fmt, str(path)).rows]
