"""A result row as a line of text: JSON lines or CSV, written and read back typed."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path
from typing import Any, Sequence

from .errors import StudyError
from .rows import INT_FIELDS, MODES, columns

__all__ = ["JSON_SUFFIXES", "CSV_SUFFIXES", "output_format", "shown_columns", "csv_line", "csv_header",
           "csv_records", "decode_line", "format_line", "parse_line", "is_study_row", "is_cut_row"]

JSON_SUFFIXES: tuple[str, ...] = (".jsonl", ".json", ".ndjson")
CSV_SUFFIXES: tuple[str, ...] = (".csv",)


def output_format(path: str | os.PathLike[str]) -> str:
    """``"jsonl"`` or ``"csv"`` by the file's suffix."""
    suffix = Path(path).suffix.lower()
    if suffix in JSON_SUFFIXES:
        return "jsonl"
    if suffix in CSV_SUFFIXES:
        return "csv"
    raise StudyError(f"{path}: output must end in .jsonl or .json (JSON lines) or .csv, "
                     f"not {suffix or 'no suffix'!r}")


_MODE = b"(?:" + b"|".join(m.encode() for m in MODES) + b")"
_HASH = b"[0-9a-f]{16}"
#: How every row a study writes begins: its id, the 16 hex digits of its hash, its mode.
_CUT_ROW = {
    "jsonl": re.compile(rb'\{"id": "(?:[^"\\]|\\.)*", "hash": "' + _HASH + b'", "mode": "' + _MODE + b'"'),
    "csv": re.compile(rb'(?:"(?:[^"]|"")*"|[^",\r\n]*),' + _HASH + b"," + _MODE + b"(?:,|$)"),
}


def csv_line(values: Sequence[Any]) -> str:
    """One CSV record, with its newline.  A value holding a newline, carriage return,
    comma or quote is quoted (the record then spans lines)."""
    buf = io.StringIO()
    # with "\r\n" as terminator the writer quotes values holding either character
    # ("\n" alone would leave a bare "\r" unquoted); the record ends in "\n" all the same
    csv.writer(buf, lineterminator="\r\n").writerow(values)
    return buf.getvalue()[:-2] + "\n"


def csv_records(data: bytes) -> tuple[list[tuple[int, bytes]], bytes]:
    """The whole CSV records of ``data`` (each with the line it starts on, without its
    newline) and what follows the last newline that ends a record: a cut-short tail,
    empty if the data ends with a whole record.  A newline inside quotes is part of
    the record; the quote and newline bytes never occur inside a UTF-8 sequence."""
    records: list[tuple[int, bytes]] = []
    start, line, quoted = 0, 1, False
    first_line = 1
    for i, b in enumerate(data):
        if b == 0x22:      # '"'
            quoted = not quoted
        elif b == 0x0A:    # '\n'
            line += 1
            if not quoted:
                records.append((first_line, data[start:i]))
                start, first_line = i + 1, line
    return records, data[start:]


def shown_columns(names: Sequence[str], most: int = 60) -> str:
    """The first column names of a header, for a message: at most ``most`` characters,
    on one line (a quoted CSV field may hold a line break: shown escaped)."""
    text = ",".join(names[:3]) or "nothing"
    text = text if len(text) <= most else text[:most] + "..."
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def csv_header(line: str) -> list[str]:
    """The column names of a CSV header line ([] if it is not one)."""
    try:
        return next(csv.reader([line]), [])
    except csv.Error:
        return []


def decode_line(b: bytes) -> str | None:
    """A line of the file as text, or None if it is not UTF-8."""
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _csv_value(v: Any) -> Any:
    if isinstance(v, bool):
        return "true" if v else "false"
    return v


def is_study_row(obj: object) -> bool:
    """Whether a parsed JSON value is a row as a study writes it: an object with
    exactly the keys of its mode's columns, each of its type (whole numbers, the
    seconds a number, ``studied`` true or false, text otherwise)."""
    if not isinstance(obj, dict) or obj.get("mode") not in MODES:
        return False
    if set(obj) != set(columns(obj["mode"])):
        return False
    for k, v in obj.items():
        if k in INT_FIELDS:
            ok = isinstance(v, int) and not isinstance(v, bool)
        elif k == "seconds":
            ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        elif k == "studied":
            ok = isinstance(v, bool)
        else:
            ok = isinstance(v, str)
        if not ok:
            return False
    return True


def is_cut_row(fmt: str, tail: bytes) -> bool:
    """Whether ``tail`` (the end of a file, after its last newline) is a row a study
    wrote, cut short: it begins with a row's id, hash and mode as a study writes them."""
    return _CUT_ROW[fmt].match(tail) is not None


def format_line(fmt: str, row: dict[str, Any], columns: Sequence[str]) -> str:
    """The row as one line of ``fmt`` (``columns`` give the CSV order), with its newline."""
    if fmt == "jsonl":
        return json.dumps(row, ensure_ascii=False) + "\n"
    return csv_line([_csv_value(row.get(k, "")) for k in columns])


def parse_line(fmt: str, text: str, header: list[str] | None) -> dict[str, Any] | None:
    """One stored row as a study writes it (see :func:`is_study_row`), or None if the
    line (a CSV record: the lines of one record, without the last newline) is not one."""
    if fmt == "jsonl":
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):   # RecursionError: a foreign line nested deep
            return None
        return obj if is_study_row(obj) else None
    assert header is not None
    try:
        records = list(csv.reader(io.StringIO(text, newline="")))
    except (csv.Error, ValueError):
        return None
    if len(records) != 1 or len(records[0]) != len(header):
        return None
    row = _typed(dict(zip(header, records[0])))
    return row if is_study_row(row) else None


def _typed(row: dict[str, Any]) -> dict[str, Any]:
    """A CSV row with numbers and flags as in the JSON form."""
    out: dict[str, Any] = {}
    for k, v in row.items():
        if k in INT_FIELDS and isinstance(v, str) and v.lstrip("-").isdigit():
            out[k] = int(v)
        elif k == "seconds" and isinstance(v, str):
            try:
                out[k] = float(v)
            except ValueError:
                out[k] = v
        elif k == "studied" and v in ("true", "false"):
            out[k] = v == "true"
        else:
            out[k] = v
    return out
