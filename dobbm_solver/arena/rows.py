"""The arena's result file: JSON lines, a header line then one row per deal.

The first line is ``{"dobbm_arena": SETTINGS}`` (the players, the seed, the
sample counts, whether the per-decision tables are played); every further
line is one deal's row (:meth:`~.results.DealRow.to_json`).  A rerun with the
same settings skips the deals already in the file and appends the others.

The file follows the shared policy of :mod:`dobbm_solver.resultfile`: only a
regular file, locked against a second arena, read a line at a time, each row
appended whole.  Every row read back is checked (:meth:`ArenaFile.rows`): its
fields, and against the run (the seed, the cards of its deal, the tables of
the players, a deal number of the run given once); anything else is refused
with its line number and the file is left as it is, as is a file that does
not start with an arena header or holds a run of other settings.  A last
line cut short (the run was killed while writing it) is dropped before
appending, if it begins as a row does.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterator

from ..errors import DobbmRuntimeError
from ..resultfile import LockedFile
from .results import DealRow, RowError, TableKey
from .strategies import DECISIONS, ArenaError

HEADER_KEY = "dobbm_arena"
# how every row starts (its keys are written sorted): what a row cut short must begin with
_CUT_ROW = re.compile(rb'\{"deal": \d')


class ArenaWriteError(DobbmRuntimeError):
    """A row that could not be written (a full disk, say): the rows before it stay."""


def _json(line: bytes) -> Any:
    try:
        return json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):   # UnicodeDecodeError is a ValueError
        return None


def _differ(old: Any, new: dict[str, Any]) -> str:
    if not isinstance(old, dict):
        return "unreadable settings"
    keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return ", ".join(f"{k}: {old.get(k)!r} there, {new.get(k)!r} now" for k in keys)


def row_line(row: DealRow) -> bytes:
    """One row as its line of the file, newline included."""
    return (json.dumps(row.to_json(), sort_keys=True) + "\n").encode("utf-8")


def describe_table(key: TableKey, a: str, b: str, seats: tuple[str, ...]) -> str:
    """Who sat where at table ``key``, for people (``a``, ``b``: the players' names)."""
    if key.seat is None:
        return f"B ({b}) in every seat"
    who = f"A ({a})" if key.swapped is None else f"A ({a}) with B's {key.swapped}"
    return f"{who} in {seats[key.seat]}'s seat, B ({b}) elsewhere"


def _plan_order(key: TableKey) -> tuple[int, int, int]:
    """base, then A@0..A@3, then each decision's A-d@0..A-d@3 (the order of the plan)."""
    if key.seat is None:
        return (0, 0, 0)
    if key.swapped is None:
        return (1, 0, key.seat)
    return (2, DECISIONS.index(key.swapped), key.seat)


def row_lines(row: DealRow, a: str, b: str) -> list[str]:
    """A deal's tables in the one-line notation, each after a ``#`` comment that names the
    deal, the table and who sat where (a table thrown in: the comment alone)."""
    seats = tuple(row.hands)
    out = []
    for key in sorted(row.tables, key=_plan_order):
        line = row.line(key)
        table = row.tables[key]
        said = ("thrown in (all passed)" if line is None else
                f"{table.declarer} {table.points} points, units " + " ".join(
                    f"{s} {u:+d}" for s, u in table.units.items()))
        out.append(f"# deal {row.deal}, table {key.name}: {describe_table(key, a, b, seats)}; {said}")
        if line is not None:
            out.append(line)
    return out


class LinesFile:
    """``--lines FILE``: every table's play of every deal done, one deal line each after a
    comment line (see :func:`row_lines`), which ``review``, ``explore`` and ``score``
    read.  Written anew by each run, a row at a time as it is done."""

    def __init__(self, path: str, a: str, b: str, seed: int) -> None:
        self.a, self.b = a, b
        try:
            self.file = open(path, "w", encoding="utf-8")
        except OSError as e:
            raise ArenaError(f"--lines {path}: {e.strerror or 'cannot be written'}") from None
        self.path = path
        self._write([f"# dobbm arena {a} {b}, seed {seed}: each table's play in the one-line notation "
                     f"(A = {a}, B = {b})"])

    def _write(self, lines: list[str]) -> None:
        try:
            self.file.write("".join(line + "\n" for line in lines))
            self.file.flush()
        except OSError as e:
            raise ArenaWriteError(f"--lines {self.path}: {e.strerror or 'cannot be written'}") from None

    def write(self, row: DealRow) -> None:
        self._write(row_lines(row, self.a, self.b))

    def close(self) -> None:
        self.file.close()


class ArenaFile:
    """The result file ``output`` of a run of ``settings``, open and locked (see the module).

    Read :meth:`rows` to the end first (it checks the whole file); then
    :meth:`start` makes it ready to append and :meth:`write` appends one row.
    """

    def __init__(self, output: str, settings: dict[str, Any], seats: tuple[str, ...]) -> None:
        self.output = output
        self.settings = settings
        self.seats = seats
        self.file = LockedFile(output, f"--output {output}", error=ArenaError, write_error=ArenaWriteError,
                               busy="another arena is writing this file; refused, left as it is", sync=True)
        self.has_header = False

    def _refuse(self, why: str) -> ArenaError:
        return ArenaError(f"--output {self.output}: {why}; refused, left as it is")

    def rows(self, check: Callable[[DealRow], str | None]) -> Iterator[DealRow]:
        """Every row of the file, in file order, each read back and then ``check``-ed (its
        message, if any, refuses the file at that line).  A file that is empty is new."""
        lines = self.file.lines()
        for n, line in lines:
            if n == 1:
                self._check_header(line)
                continue
            obj = _json(line)
            if not isinstance(obj, dict):
                raise self._refuse(f"line {n} is not an arena row")
            try:
                row = DealRow.from_json(obj, self.seats)
            except RowError as e:
                raise self._refuse(f"line {n}: {e}") from None
            why = check(row)
            if why:
                raise self._refuse(f"line {n}: {why}")
            if row.to_json() != obj:
                raise self._refuse(f"line {n} is not a row as the arena writes it")
            yield row
        tail = self.file.tail
        if tail and not self.has_header:
            raise self._refuse("not an arena result file (no header line)")
        if tail and not _CUT_ROW.match(tail):
            raise self._refuse(f"line {self.file.last_line} (no newline at the end) is not a row cut short "
                               f"(if it is one, delete it and run again)")

    def _check_header(self, line: bytes) -> None:
        header = _json(line)
        if not isinstance(header, dict) or HEADER_KEY not in header:
            raise self._refuse("not an arena result file (its first line is no arena header)")
        if header[HEADER_KEY] != self.settings:
            raise self._refuse(f"holds an arena run of other settings "
                               f"({_differ(header[HEADER_KEY], self.settings)}); give another file")
        self.has_header = True

    def start(self) -> None:
        """Ready to append: a row cut short dropped, the header written to a new file."""
        self.file.cut_tail()
        if not self.has_header:
            self.file.append((json.dumps({HEADER_KEY: self.settings}, sort_keys=True) + "\n").encode("utf-8"))
            self.has_header = True

    def write(self, row: DealRow) -> None:
        """One row appended whole (one write, synced to the disk)."""
        self.file.append(row_line(row))

    def close(self) -> None:
        self.file.close()
