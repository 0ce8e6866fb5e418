"""Batch study: solve many deals, one result row per deal, into a JSON-lines or CSV file.

What ``dobbm study`` runs (no click here)::

    from dobbm_solver.study import collect_deals, run_study, read_results

    items = collect_deals(["hands/"])              # every deal of every *.yaml / *.yml, sorted
    summary = run_study(items, "out.jsonl")         # all local cores; resumable
    rows = read_results("out.jsonl")                # list of dicts, one per deal

Deals and ids
-------------
:func:`collect_deals` takes files and directories (searched recursively for
``*.yaml`` / ``*.yml``, hidden entries skipped, sorted by path) and returns
one :class:`StudyDeal` per document: its ``id`` is ``PATH#N`` (the path as
given, normalised, and the 1-based document number), its ``hash`` the first
16 hex digits of the SHA-256 of the deal's one-line notation, so an edited
deal is solved again.  :func:`deals_from` does the same for deals made in
memory (ids of your choosing).

Rows
----
One JSON object (or CSV record) per deal with the keys of
:data:`VALUE_COLUMNS` (``mode="value"``, a value-only solve) or
:data:`ANALYSE_COLUMNS` (``mode="analyse"``: also the best card of the
player to move and a best line).  ``trumps`` counts the hearts the declarer
plays the hand with: the 8 cards held at the start of play (after the
lay-away in a Dobbm).  A Dobbm with no ``discard`` is a lay-away study: every
legal lay-away is solved, the best is in ``discard``, ``studied`` is true and
``nodes`` the total.  ``seconds`` (:data:`TIMING_FIELDS`) is the only field
that differs between runs.

Output files and resuming
-------------------------
The format follows the suffix: ``.jsonl`` / ``.json`` / ``.ndjson`` JSON
lines, ``.csv`` CSV (header written once).  Each row is written whole with
one ``write`` to the unbuffered file, so a stopped run leaves whole lines and
a later run with the same output skips the deals already in it (same id and
hash).  On resuming, a last line cut short (no newline, or not a whole row)
is dropped and solved again; rows of deals that were since edited (same id,
other hash) are removed (the file is rewritten through a temporary file and
an atomic rename).  Rows of deals not in this study are kept.  While a study
runs it holds an exclusive lock on the output, so two studies cannot write
the same file.

Order: rows are written as results come in, in chunks of consecutive deals
(each chunk in deal order); with one worker that is deal order.  Sort by
``id`` (or join on it) when the order matters.

Runners
-------
Local (default): a :class:`concurrent.futures.ProcessPoolExecutor` of
``jobs`` processes (default ``os.cpu_count()``), each with its own
:class:`~dobbm_solver.solver.Solver` made once by the pool initializer.
Dask (``scheduler="tcp://host:8786"``): the chunks are mapped over an
existing ``distributed`` cluster and collected with ``as_completed``; the
workers must have ``dobbm_solver`` installed.  Dask is imported only then
(``pip install 'dobbm-solver[dask]'``).

Interrupting (Ctrl-C) raises :class:`StudyInterrupted` (a
``KeyboardInterrupt``) carrying the partial :class:`StudySummary`: the local
workers are terminated and joined (they ignore SIGINT themselves and exit on
their own if the parent process disappears), Dask futures are cancelled;
every row written so far stays in the output.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import signal
import tempfile
import threading
import time
import uuid
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ._interrupt import CtrlC
from .cards import BB_TRUMPS, TOTAL_POINTS, card_name, popcount, set_names
from .deal import Deal, cards_played
from .errors import DobbmError, DobbmRuntimeError
from .handfile import HandFileError, load_specs, spec_to_deal
from .notation import format_deal_line, parse_deal_line
from .rules import outcome, units
from .solver import DEFAULT_TT_MB, Solver

try:  # POSIX: an exclusive lock on the output while a study writes it
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "MODES", "VALUE_COLUMNS", "ANALYSE_COLUMNS", "TIMING_FIELDS", "HAND_SUFFIXES",
    "StudyError", "StudyRunError", "StudyInterrupted", "StudyDeal", "StudySummary",
    "deal_hash", "deals_from", "find_hand_files", "collect_deals", "output_format",
    "solve_row", "solve_chunk", "run_study", "read_results",
]

MODES: tuple[str, ...] = ("value", "analyse")
HAND_SUFFIXES: tuple[str, ...] = (".yaml", ".yml")
JSON_SUFFIXES: tuple[str, ...] = (".jsonl", ".json", ".ndjson")
CSV_SUFFIXES: tuple[str, ...] = (".csv",)

_HEAD = ("id", "hash", "mode", "deal", "declarer", "contract", "doublings", "trumps",
         "discard", "studied", "declarer_points", "defender_points", "outcome", "units")
#: Keys of a value-only row, in CSV column order.
VALUE_COLUMNS: tuple[str, ...] = _HEAD + ("nodes", "seconds")
#: Keys of an ``analyse`` row: also who is to move, their best card and a best line
#: (space-separated card names; empty when the hand is finished).
ANALYSE_COLUMNS: tuple[str, ...] = _HEAD + ("to_move", "best_card", "line", "nodes", "seconds")
#: Fields that differ from run to run (everything else is deterministic).
TIMING_FIELDS: tuple[str, ...] = ("seconds",)

_INT_FIELDS = {"doublings", "trumps", "declarer_points", "defender_points", "units", "nodes"}
_HASH_DIGITS = 16
_WATCHDOG_SECONDS = 1.0


class StudyError(DobbmError):
    """Bad input to a study: paths, output file, options.  The text is one line."""


class StudyRunError(DobbmRuntimeError):
    """The workers failed: a local worker process died (e.g. out of memory), the Dask
    scheduler cannot be reached or its workers cannot run the study."""


@dataclass(frozen=True)
class StudyDeal:
    """One deal to study: a stable ``id``, the ``hash`` of its notation, the notation."""

    id: str
    hash: str
    line: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.id, self.hash)


@dataclass
class StudySummary:
    """What a study did.  ``solved`` counts rows written by this run."""

    output: str
    total: int = 0                  # deals in the study
    skipped: int = 0                # already in the output (same id and hash)
    todo: int = 0                   # to solve in this run (after --limit)
    solved: int = 0                 # rows written by this run
    stale_dropped: int = 0          # rows of since-edited deals removed from the output
    truncated_dropped: bool = False  # a cut-short last line was dropped
    workers: int = 0
    where: str = "local"            # "local" or the scheduler address
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def in_output(self) -> int:
        """Rows of this study's deals now in the output."""
        return self.skipped + self.solved

    def text(self) -> str:
        """One line for a person."""
        runner = (f"{self.workers} worker{'s' if self.workers != 1 else ''}"
                  + ("" if self.where == "local" else f" on {self.where}"))
        parts = [f"{self.total} deal{'s' if self.total != 1 else ''}"]
        if self.skipped:
            parts.append(f"{self.skipped} already in {self.output}")
        if self.todo or self.interrupted:
            parts.append(f"{self.solved} solved in {self.seconds:.1f} s ({runner})")
        else:
            parts.append("nothing left to solve")
        if self.stale_dropped:
            parts.append(f"{self.stale_dropped} stale row{'s' if self.stale_dropped != 1 else ''} replaced")
        if self.truncated_dropped:
            parts.append("a cut-short last line dropped")
        left = self.total - self.in_output
        if self.interrupted:
            return (f"interrupted: {', '.join(parts)}; {self.in_output} of {self.total} in "
                    f"{self.output}, {left} left: run the same command again to resume")
        tail = f"; {left} left (--limit)" if left else ""
        return f"study: {', '.join(parts)} -> {self.output}{tail}"


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C during a study; ``summary`` says how far it got (all its rows are written)."""

    def __init__(self, summary: StudySummary) -> None:
        super().__init__(summary.text())
        self.summary = summary


# --------------------------------------------------------------------------
# deals


def deal_hash(line: str) -> str:
    """The content hash of a deal's one-line notation (16 hex digits)."""
    return hashlib.sha256(line.encode("utf-8")).hexdigest()[:_HASH_DIGITS]


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


def _norm(path: Path) -> str:
    return Path(os.path.normpath(path)).as_posix()


def find_hand_files(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """The hand files of ``paths``: files as given, directories searched recursively
    for ``*.yaml`` / ``*.yml`` (hidden files and directories skipped), sorted.
    A file named twice is listed once."""
    if not paths:
        raise StudyError("give at least one hand file or directory")
    out: list[str] = []
    seen: set[str] = set()
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(
                (f for f in path.rglob("*")
                 if f.suffix.lower() in HAND_SUFFIXES and f.is_file()
                 and not any(part.startswith(".") for part in f.relative_to(path).parts)),
                key=lambda f: f.as_posix())
            if not found:
                raise StudyError(f"{p}: no hand files (*.yaml, *.yml) in this directory")
            files = [_norm(f) for f in found]
        elif path.is_file():
            files = [_norm(path)]
        elif not path.exists():
            raise StudyError(f"{p}: no such file or directory")
        else:
            raise StudyError(f"{p}: not a file or directory")
        for f in files:
            if f not in seen:
                seen.add(f)
                out.append(f)
    return out


def collect_deals(paths: Sequence[str | os.PathLike[str]],
                  on_invalid: Callable[[ValueError], None] | None = None) -> list[StudyDeal]:
    """Every deal of the hand files of ``paths`` (see :func:`find_hand_files`), validated.

    A file or deal that does not load raises its error (a ``ValueError``:
    ``FILE[N]: key: what is wrong``), unless ``on_invalid`` is given: then it
    is called with the error and the file or deal is left out.
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


# --------------------------------------------------------------------------
# solving one deal (runs in the workers)


def _starting_trumps(deal: Deal) -> int:
    """Hearts in the declarer's 8 cards at the start of play (held now + played)."""
    held = deal.hands.get(deal.declarer, 0) | cards_played(deal)[deal.declarer]
    return popcount(held & BB_TRUMPS)


def solve_row(solver: Solver, item: StudyDeal, mode: str = "value") -> dict[str, Any]:
    """The result row of one deal (keys :data:`VALUE_COLUMNS` or :data:`ANALYSE_COLUMNS`)."""
    if mode not in MODES:
        raise StudyError(f"mode must be one of {' | '.join(MODES)}, not {mode!r}")
    t0 = time.perf_counter()
    deal = parse_deal_line(item.line)
    studied = deal.needs_discard
    nodes = 0
    if studied:
        ranked = solver.study_discards(deal, jobs=1)   # the batch is parallel over deals
        nodes = sum(r.nodes for r in ranked)
        deal = deal.with_discard(ranked[0].cards)
    row: dict[str, Any] = {
        "id": item.id, "hash": item.hash, "mode": mode, "deal": item.line,
        "declarer": deal.declarer, "contract": deal.contract, "doublings": deal.doublings,
        "trumps": _starting_trumps(deal),
        "discard": " ".join(set_names(deal.discard)) if deal.discard is not None else "",
        "studied": studied,
    }
    if mode == "analyse":
        an = solver.analyse(deal)
        points = an.declarer_points
        nodes += an.nodes
        extra = {"to_move": an.to_move or "",
                 "best_card": card_name(an.line[0]) if an.line else "",
                 "line": " ".join(card_name(c) for c in an.line)}
    else:
        if studied:   # the best lay-away's value is known from the study
            points = ranked[0].declarer_points
        else:
            sol = solver.solve(deal)
            points = sol.declarer_points
            nodes += sol.nodes
        extra = {}
    row.update({
        "declarer_points": points, "defender_points": TOTAL_POINTS - points,
        "outcome": outcome(points).value, "units": units(points, deal.contract, deal.doublings),
    })
    row.update(extra)
    row["nodes"] = nodes
    row["seconds"] = round(time.perf_counter() - t0, 4)
    return row


_local = threading.local()


def _worker_solver(tt_mb: int) -> Solver:
    """This thread's solver (made once per worker thread and table size)."""
    s = getattr(_local, "solver", None)
    if s is None or s.tt_mb != tt_mb:
        s = _local.solver = Solver(tt_mb)
    return s


def solve_chunk(items: Sequence[StudyDeal], mode: str = "value",
                tt_mb: int = DEFAULT_TT_MB) -> list[dict[str, Any]]:
    """Rows of consecutive deals, in order (the task run by local and Dask workers)."""
    solver = _worker_solver(tt_mb)
    return [solve_row(solver, it, mode) for it in items]


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(_WATCHDOG_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def _init_worker(tt_mb: int, parent: int) -> None:
    """Local pool initializer: ignore Ctrl-C (the parent decides), die with the parent,
    make the solver once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="dobbm-study-watchdog").start()
    _worker_solver(tt_mb)


# --------------------------------------------------------------------------
# the output file


def output_format(path: str | os.PathLike[str]) -> str:
    """``"jsonl"`` or ``"csv"`` by the file's suffix."""
    suffix = Path(path).suffix.lower()
    if suffix in JSON_SUFFIXES:
        return "jsonl"
    if suffix in CSV_SUFFIXES:
        return "csv"
    raise StudyError(f"{path}: output must end in .jsonl or .json (JSON lines) or .csv, "
                     f"not {suffix or 'no suffix'!r}")


def _csv_line(values: Sequence[Any]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(values)
    return buf.getvalue()


def _decode(b: bytes) -> str | None:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _csv_value(v: Any) -> Any:
    if isinstance(v, bool):
        return "true" if v else "false"
    return v


def _parse_line(fmt: str, text: str, header: list[str] | None) -> dict[str, Any] | None:
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
        if k in _INT_FIELDS and isinstance(v, str) and v.lstrip("-").isdigit():
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


class _Output:
    """The output file of a study: read what is there, fix it up, append rows whole."""

    def __init__(self, path: str | os.PathLike[str], mode: str) -> None:
        self.path = Path(path)
        self.name = str(path)
        self.fmt = output_format(path)
        self.mode = mode
        self.columns = ANALYSE_COLUMNS if mode == "analyse" else VALUE_COLUMNS
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

    def prepare(self, items: Sequence[StudyDeal]) -> tuple[set[tuple[str, str]], int, bool]:
        """Open and lock the output; return the keys done, the stale rows dropped and
        whether a cut-short last line was dropped."""
        self._open()
        try:
            return self._prepare(items)
        except BaseException:
            self.close()
            raise

    def _prepare(self, items: Sequence[StudyDeal]) -> tuple[set[tuple[str, str]], int, bool]:
        pieces = self._read().split(b"\n")
        # a file written whole ends with a newline: the last piece is empty; anything
        # else there is a line cut short, dropped (and solved again)
        truncated = pieces.pop() != b""
        lines = [_decode(p) for p in pieces]
        header: list[str] | None = None
        body_start = 0
        if self.fmt == "csv" and lines:
            header = next(csv.reader([lines[0] or ""]), [])
            if header != list(self.columns):
                raise StudyError(
                    f"{self.name}: its columns are not those of a --mode {self.mode} study "
                    f"(first: {','.join(header[:3]) or 'nothing'}); use another output file")
            body_start = 1
        rows: list[tuple[str, dict[str, Any]]] = []
        for n, line in enumerate(lines[body_start:], body_start + 1):
            row = None if line is None else _parse_line(self.fmt, line, header)
            if row is None:
                if n == len(lines) and not truncated:
                    truncated = True   # a whole line but not a whole row: cut short and patched
                    continue
                raise StudyError(f"{self.name}: line {n} is not a result row; not a study output?")
            if row.get("mode", self.mode) != self.mode:
                raise StudyError(f"{self.name}: holds --mode {row.get('mode')} results, this study is "
                                 f"--mode {self.mode}; use another output file")
            rows.append((line, row))  # type: ignore[arg-type]
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
            head = [lines[0]] if header is not None else []
            self._rewrite(head + keep)  # type: ignore[list-item]
        if self.fmt == "csv" and header is None:
            self._write_text(_csv_line(self.columns))
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
        if self.fmt == "jsonl":
            self._write_text(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            self._write_text(_csv_line([_csv_value(row.get(k, "")) for k in self.columns]))

    def close(self) -> None:
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
    lines = text.split("\n")
    lines.pop()   # "" after the final newline, or a cut-short last line
    header = None
    first = 1
    if fmt == "csv" and lines:
        header = next(csv.reader([lines[0]]), [])
        lines, first = lines[1:], 2
    out = []
    for n, line in enumerate(lines):
        row = _parse_line(fmt, line, header)
        if row is None:
            if n == len(lines) - 1:
                continue
            raise StudyError(f"{path}: line {n + first} is not a result row")
        out.append(row)
    return out


# --------------------------------------------------------------------------
# runners


def _chunks(items: Sequence[StudyDeal], size: int) -> list[list[StudyDeal]]:
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def _auto_chunk(n: int, workers: int) -> int:
    """About 16 chunks per worker, 1..16 deals each: even load, frequent progress."""
    return max(1, min(16, n // max(1, workers * 16)))


def _kill_pool(ex: ProcessPoolExecutor) -> None:
    """Stop a process pool now: cancel what is queued, terminate and join the workers."""
    terminate = getattr(ex, "terminate_workers", None)   # Python 3.14+
    if terminate is not None:
        terminate()
        return
    procs = list((getattr(ex, "_processes", None) or {}).values())
    ex.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=5)
        if p.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
            p.kill()
            p.join()
    try:
        ex.shutdown(wait=True)
    except Exception:  # pragma: no cover - a broken pool has nothing left to join
        pass


def _run_local(chunks: list[list[StudyDeal]], mode: str, tt_mb: int, workers: int,
               sink: Callable[[list[dict[str, Any]]], None]) -> None:
    ex = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                             initargs=(tt_mb, os.getpid()))
    todo = iter(enumerate(chunks))
    order: dict[Future, int] = {}

    def submit() -> None:
        nxt = next(todo, None)
        if nxt is not None:
            order[ex.submit(solve_chunk, nxt[1], mode, tt_mb)] = nxt[0]

    try:
        # Ctrl-C as a flag polled here (see CtrlC); a few chunks per worker in flight
        with CtrlC() as ctrl_c:
            for _ in range(workers * 4):
                submit()
            while order and not ctrl_c.caught:
                finished, _ = wait(order, timeout=0.2, return_when=FIRST_COMPLETED)
                for fut in sorted(finished, key=order.__getitem__):
                    del order[fut]
                    try:
                        rows = fut.result()
                    except BrokenProcessPool:
                        raise StudyRunError(
                            f"a worker process died (out of memory? each holds a {tt_mb} MiB table: "
                            "try fewer --jobs or a smaller --tt-mb)") from None
                    sink(rows)
                    submit()
        if ctrl_c.caught:
            raise KeyboardInterrupt
    except BaseException:
        _kill_pool(ex)
        raise
    ex.shutdown(wait=True)


def _dask_client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise StudyError("--scheduler needs Dask: pip install 'dobbm-solver[dask]' "
                         "(or pip install 'dask[distributed]')") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as e:
        raise StudyRunError(f"cannot reach the Dask scheduler at {address}: {e}") from None


def _run_dask(client: Any, chunks: list[list[StudyDeal]], mode: str, tt_mb: int,
              sink: Callable[[list[dict[str, Any]]], None]) -> None:
    from distributed import as_completed
    run = uuid.uuid4().hex[:12]
    futures = client.map(solve_chunk, chunks, mode=mode, tt_mb=tt_mb, pure=False,
                         key=[f"dobbm-study-{run}-{i}" for i in range(len(chunks))])
    try:
        for fut in as_completed(futures):
            try:
                rows = fut.result()
            except (ImportError, AttributeError) as e:
                raise StudyRunError(f"the Dask workers cannot run the study ({e}); "
                                    "install dobbm_solver on every worker") from None
            except ValueError:   # a deal the solver rejects: the caller's input error
                raise
            except Exception as e:   # e.g. distributed.KilledWorker
                raise StudyRunError(f"a Dask task failed: {type(e).__name__}: {e}") from None
            sink(rows)
    except BaseException:
        try:
            client.cancel(futures)
        except Exception:  # pragma: no cover - the connection is already gone
            pass
        raise


def run_study(items: Sequence[StudyDeal], output: str | os.PathLike[str], *,
              mode: str = "value", jobs: int | None = None, scheduler: str | None = None,
              tt_mb: int = DEFAULT_TT_MB, limit: int | None = None,
              chunk_size: int | None = None,
              on_start: Callable[[StudySummary], None] | None = None,
              on_rows: Callable[[list[dict[str, Any]]], None] | None = None) -> StudySummary:
    """Solve the deals of ``items`` not yet in ``output`` and append their rows.

    ``jobs`` local worker processes (default ``os.cpu_count()``), or the Dask
    cluster at ``scheduler``; ``limit`` solves at most that many new deals.
    ``on_start(summary)`` is called once the output is read (``summary.todo``
    deals to solve), ``on_rows(rows)`` after each chunk is written.  Raises
    :class:`StudyError` for bad options or output, :class:`StudyRunError`
    when Dask fails, :class:`StudyInterrupted` on Ctrl-C.
    """
    if mode not in MODES:
        raise StudyError(f"mode must be one of {' | '.join(MODES)}, not {mode!r}")
    if jobs is not None and scheduler is not None:
        raise StudyError("give --jobs (local processes) or --scheduler (Dask), not both")
    if jobs is not None and jobs < 1:
        raise StudyError(f"jobs must be at least 1, not {jobs}")
    if limit is not None and limit < 0:
        raise StudyError(f"limit must be 0 or more, not {limit}")
    if not isinstance(tt_mb, int) or tt_mb < 1:
        raise StudyError(f"table size must be a whole number of MiB, at least 1, not {tt_mb!r}")
    ids: set[str] = set()
    unique: list[StudyDeal] = []
    for it in items:
        if it.id not in ids:
            ids.add(it.id)
            unique.append(it)

    t0 = time.perf_counter()
    out = _Output(output, mode)
    summary = StudySummary(output=str(output), total=len(unique),
                           where="local" if scheduler is None else scheduler)
    client = None
    try:
        if scheduler is not None:   # connect first: a bad address leaves the output alone
            client = _dask_client(scheduler)
        done, summary.stale_dropped, summary.truncated_dropped = out.prepare(unique)
        todo = [it for it in unique if it.key not in done]
        summary.skipped = len(unique) - len(todo)
        if limit is not None:
            todo = todo[:limit]
        summary.todo = len(todo)

        if client is not None:
            summary.workers = max(1, sum(client.nthreads().values()))
        else:
            summary.workers = max(1, min(jobs or os.cpu_count() or 1, len(todo) or 1))
        if on_start is not None:
            on_start(summary)
        if todo:
            size = chunk_size or _auto_chunk(len(todo), summary.workers)
            chunks = _chunks(todo, size)

            def sink(rows: list[dict[str, Any]]) -> None:
                for row in rows:
                    out.write(row)
                    summary.solved += 1
                if on_rows is not None:
                    on_rows(rows)

            if client is not None:
                _run_dask(client, chunks, mode, tt_mb, sink)
            else:
                _run_local(chunks, mode, tt_mb, summary.workers, sink)
    except KeyboardInterrupt:
        summary.interrupted = True
        summary.seconds = time.perf_counter() - t0
        raise StudyInterrupted(summary) from None
    finally:
        out.close()
        if client is not None:
            try:
                client.close()
            except Exception:  # pragma: no cover
                pass
    summary.seconds = time.perf_counter() - t0
    return summary
