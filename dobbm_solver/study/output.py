"""The result file of a study: read what is there, fix it up, lock it, append rows whole."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Sequence

from .codecs import csv_header, csv_line, decode_line, format_line, output_format, parse_line
from .collect import StudyDeal
from .errors import StudyError
from .rows import columns

try:  # POSIX: an exclusive lock on the output while a study writes it
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["ResultFile", "read_results"]

#: What :meth:`ResultFile.prepare` found: the keys done, the stale rows dropped,
#: whether a cut-short last line was dropped.
Prepared = tuple[set[tuple[str, str]], int, bool]


class ResultFile:
    """The output file of a study of ``mode`` (see :func:`~.codecs.output_format`).

    :meth:`prepare` opens and locks it (exclusively: a second writer gets a
    :class:`StudyError`) and fixes it up; :meth:`write` appends one row with
    one ``write``; :meth:`close` releases the lock.
    """

    def __init__(self, path: str | os.PathLike[str], mode: str) -> None:
        self.path = Path(path)
        self.name = str(path)
        self.fmt = output_format(path)
        self.mode = mode
        self.columns = columns(mode)
        self.fd: int | None = None
        if self.path.is_dir():
            raise StudyError(f"{self.name}: is a directory")
        parent = self.path.parent
        if not parent.is_dir():
            raise StudyError(f"{self.name}: no such directory {str(parent)!r}")

    # -- open, lock, read ----------------------------------------------------
    def _open(self) -> None:
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
        except OSError as e:
            raise StudyError(f"{self.name}: {e.strerror or e}") from None
        if fcntl is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(self.fd)
                self.fd = None
                raise StudyError(f"{self.name}: another study is writing this file") from None

    def _read(self) -> bytes:
        assert self.fd is not None
        chunks = []
        os.lseek(self.fd, 0, os.SEEK_SET)
        while True:
            b = os.read(self.fd, 1 << 20)
            if not b:
                break
            chunks.append(b)
        return b"".join(chunks)

    def prepare(self, items: Sequence[StudyDeal]) -> Prepared:
        """Open and lock the output; return the keys done, the stale rows dropped and
        whether a cut-short last line was dropped."""
        self._open()
        try:
            return self._prepare(items)
        except BaseException:
            self.close()
            raise

    def _check_header(self, lines: list[str | None]) -> list[str] | None:
        """The CSV header (it must be this mode's), or None for JSON lines or an empty file."""
        if self.fmt != "csv" or not lines:
            return None
        header = csv_header(lines[0] or "")
        if header != list(self.columns):
            raise StudyError(
                f"{self.name}: its columns are not those of a --mode {self.mode} study "
                f"(first: {','.join(header[:3]) or 'nothing'}); use another output file")
        return header

    def _rows(self, lines: list[str | None], header: list[str] | None,
              truncated: bool) -> tuple[list[tuple[str, dict[str, Any]]], bool]:
        """The whole rows of the file's lines (after the header), and whether the last
        line is cut short."""
        body_start = 0 if header is None else 1
        rows: list[tuple[str, dict[str, Any]]] = []
        for n, line in enumerate(lines[body_start:], body_start + 1):
            row = None if line is None else parse_line(self.fmt, line, header)
            if line is None or row is None:
                if n == len(lines) and not truncated:
                    truncated = True   # a whole line but not a whole row: cut short and patched
                    continue
                raise StudyError(f"{self.name}: line {n} is not a result row; not a study output?")
            if row.get("mode", self.mode) != self.mode:
                raise StudyError(f"{self.name}: holds --mode {row.get('mode')} results, this study is "
                                 f"--mode {self.mode}; use another output file")
            rows.append((line, row))
        return rows, truncated

    def _prepare(self, items: Sequence[StudyDeal]) -> Prepared:
        pieces = self._read().split(b"\n")
        # a file written whole ends with a newline: the last piece is empty; anything
        # else there is a line cut short, dropped (and solved again)
        truncated = pieces.pop() != b""
        lines = [decode_line(p) for p in pieces]
        header = self._check_header(lines)
        rows, truncated = self._rows(lines, header, truncated)
        current = {it.id: it.hash for it in items}
        keep: list[str] = []
        done: set[tuple[str, str]] = set()
        stale = 0
        for line, row in rows:
            h = current.get(row["id"])
            if h is not None and h != row["hash"]:
                stale += 1
                continue
            keep.append(line)
            done.add((row["id"], row["hash"]))
        if stale or truncated:
            head = [lines[0] or ""] if header is not None else []
            self._rewrite(head + keep)
        if self.fmt == "csv" and header is None:
            self._write_text(csv_line(self.columns))
        return done, stale, truncated

    def _rewrite(self, lines: list[str]) -> None:
        """Replace the file's contents atomically (temporary file, then rename) and
        lock the new file."""
        text = "".join(line + "\n" for line in lines)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            try:
                os.chmod(tmp, os.stat(self.path).st_mode & 0o777)
            except OSError:
                pass
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        old = self.fd
        self.fd = None
        self._open()
        if old is not None:
            os.close(old)

    # -- writing -------------------------------------------------------------
    def _write_text(self, text: str) -> None:
        assert self.fd is not None
        data = text.encode("utf-8")
        while data:   # one write for a line in practice; loop on a short write
            n = os.write(self.fd, data)
            data = data[n:]

    def write(self, row: dict[str, Any]) -> None:
        """Append one row, whole, with one ``write``."""
        self._write_text(format_line(self.fmt, row, self.columns))

    def close(self) -> None:
        """Close the file (which releases the lock)."""
        if self.fd is not None:
            os.close(self.fd)   # closing releases the lock
            self.fd = None


def read_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The rows of a study output (JSON lines or CSV), in file order; CSV values typed.
    A cut-short last line is ignored."""
    fmt = output_format(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise StudyError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise StudyError(f"{path}: is not UTF-8 text; not a study output?") from None
    lines = text.split("\n")
    lines.pop()   # "" after the final newline, or a cut-short last line
    header = None
    first = 1
    if fmt == "csv" and lines:
        header = csv_header(lines[0])
        lines, first = lines[1:], 2
    out = []
    for n, line in enumerate(lines):
        row = parse_line(fmt, line, header)
        if row is None:
            if n == len(lines) - 1:
                continue
            raise StudyError(f"{path}: line {n + first} is not a result row")
        out.append(row)
    return out
