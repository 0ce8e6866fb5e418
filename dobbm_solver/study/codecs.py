"""A result row as a line of text: JSON lines or CSV, written and read back typed."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any, Sequence

from .errors import StudyError
from .rows import INT_FIELDS

__all__ = ["JSON_SUFFIXES", "CSV_SUFFIXES", "output_format", "csv_line", "csv_header",
           "decode_line", "format_line", "parse_line"]

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


def csv_line(values: Sequence[Any]) -> str:
    """One CSV record, with its newline."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(values)
    return buf.getvalue()


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


def format_line(fmt: str, row: dict[str, Any], columns: Sequence[str]) -> str:
    """The row as one line of ``fmt`` (``columns`` give the CSV order), with its newline."""
    if fmt == "jsonl":
        return json.dumps(row, ensure_ascii=False) + "\n"
    return csv_line([_csv_value(row.get(k, "")) for k in columns])


def parse_line(fmt: str, text: str, header: list[str] | None) -> dict[str, Any] | None:
    """One stored row, or None if the line is not a whole row."""
    if fmt == "jsonl":
        try:
            obj = json.loads(text)
        except ValueError:
            return None
        if not isinstance(obj, dict) or not isinstance(obj.get("id"), str) or not isinstance(obj.get("hash"), str):
            return None
        return obj
    assert header is not None
    try:
        (values,) = list(csv.reader([text]))
    except (csv.Error, ValueError):
        return None
    if len(values) != len(header):
        return None
    return _typed(dict(zip(header, values)))


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
