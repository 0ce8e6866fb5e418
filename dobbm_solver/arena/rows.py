"""The arena's result file: JSON lines, a header line then one row per deal.

The first line is ``{"dobbm_arena": SETTINGS}`` (the players, the seed, the
sample counts, whether the per-decision tables are played); every further
line is one deal's row (``deal``: its index).  A rerun with the same
settings skips the deals already in the file and appends the others.  A file
that is not empty and does not start with an arena header is refused and
left as it is; so is an arena file of other settings.  A last line cut short
(the run was killed while writing it) is dropped before appending.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO

from .strategies import ArenaError

HEADER_KEY = "dobbm_arena"


def _refuse(path: Path, why: str) -> ArenaError:
    return ArenaError(f"--output {path}: {why}; refused, left as it is")


def read_rows(path: str | Path, settings: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The rows already in ``path`` by deal index (none if it is missing or empty);
    :class:`ArenaError` if the file is not an arena file of these ``settings``."""
    path = Path(path)
    if path.is_dir():
        raise ArenaError(f"--output {path}: is a directory; give a file name")
    if not path.exists():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise _refuse(path, f"cannot be read as text ({e.__class__.__name__})") from None
    if not text.strip():
        return {}
    lines = text.split("\n")
    complete = lines[:-1]           # the part after the last newline is cut short (or empty)
    if not complete:
        raise _refuse(path, "not an arena result file (no header line)")
    header = _json(complete[0])
    if not isinstance(header, dict) or HEADER_KEY not in header:
        raise _refuse(path, "not an arena result file (its first line is no arena header)")
    if header[HEADER_KEY] != settings:
        raise _refuse(path, f"holds an arena run of other settings ({_differ(header[HEADER_KEY], settings)}); "
                            f"give another file")
    rows: dict[int, dict[str, Any]] = {}
    for n, line in enumerate(complete[1:], 2):
        row = _json(line)
        if not isinstance(row, dict) or not isinstance(row.get("deal"), int):
            raise _refuse(path, f"line {n} is not an arena row")
        rows[row["deal"]] = row
    return rows


def _differ(old: Any, new: dict[str, Any]) -> str:
    if not isinstance(old, dict):
        return "unreadable settings"
    keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return ", ".join(f"{k}: {old.get(k)!r} there, {new.get(k)!r} now" for k in keys)


def _json(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def open_for_rows(path: str | Path, settings: dict[str, Any]) -> TextIO:
    """``path`` opened to append rows: the header written if the file is new or empty,
    a last line cut short dropped.  Call :func:`read_rows` first (it checks the file)."""
    path = Path(path)
    if path.exists():
        data = path.read_bytes()
        cut = data.rfind(b"\n") + 1
        if data.strip() and cut < len(data):
            with open(path, "r+b") as cut_file:
                cut_file.truncate(cut)
        if data.strip():
            return open(path, "a", encoding="utf-8")
    f = open(path, "w", encoding="utf-8")
    write_line(f, {HEADER_KEY: settings})
    return f


def write_line(f: TextIO, obj: dict[str, Any]) -> None:
    """One JSON line, written whole and flushed."""
    f.write(json.dumps(obj, sort_keys=True) + "\n")
    f.flush()
    os.fsync(f.fileno())
