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
:data:`ANALYZE_COLUMNS` (``mode="analyze"``: also the best card of the
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
hash).  On resuming, a last row cut short (no newline at the end; it begins
with a row's id, hash and mode) is dropped and solved again; rows of deals
that were since edited (same id, other hash) are removed (the file is
rewritten through a temporary file and an atomic rename).  Rows of deals not
in this study are kept.  Only a file that a study wrote is read or rewritten:
every line must be the CSV header of the mode or a whole row as a study writes
it (exactly the row's keys), else a :class:`StudyError` names the line and the
file is left byte for byte as it was; a file with no whole row (nor CSV
header) is never rewritten.  CSV values holding a comma, quote, newline or
carriage return are quoted (such a record spans lines) and read back as
written.  A symbolic link as output is written through (its target is read,
locked and replaced); a FIFO, device or directory is refused.  A write that
fails (a full disk, a file size limit) is taken back, so the file holds whole
rows only, and raises :class:`StudyRunError`: run again to resume.  While a
study runs it holds an exclusive lock on the output, so two studies cannot
write the same file.

Order: rows are written as results come in, in chunks of consecutive deals
(each chunk in deal order); with one worker (``jobs=1``, solved in this process) that is deal order.  Sort by
``id`` (or join on it) when the order matters.

Runners
-------
Local (default): the package's worker pool (``dobbm_solver._pool``) of
``jobs`` forked processes (``None`` or 0: every core this process may use; at
most 256; with 1 the deals are solved in this process), each with its own
:class:`~dobbm_solver.solver.Solver` made once when the worker starts.
Dask (``scheduler="tcp://host:8786"``): the chunks are mapped over an
existing ``distributed`` cluster and collected with ``as_completed``; the
workers must have ``dobbm_solver`` installed.  Dask is imported only then
(``pip install 'dobbm-solver[dask]'``).  The address must read
``[tcp|tls|ws|wss://]HOST:PORT`` (or ``inproc://`` / ``ucx://``); its port is
tried first, so a malformed address, an unknown host or a refused connection is
a :class:`StudyError` at once, a port that does not answer in 5 s a
:class:`StudyRunError`.

Interrupting (Ctrl-C) raises :class:`StudyInterrupted` (a
``KeyboardInterrupt``) carrying the partial :class:`StudySummary`: the local
workers are terminated and joined (they ignore SIGINT themselves and exit on
their own if the parent process disappears), Dask futures are cancelled;
every row written so far stays in the output.

Modules: :mod:`.collect` (deals and ids), :mod:`.rows` (a deal solved into its
row), :mod:`.codecs` (a row as a JSON or CSV line), :mod:`.output` (the result
file), :mod:`.local` and :mod:`.dask_runner` (the runners), :mod:`.run` (the run).
"""

from __future__ import annotations

from .collect import StudyDeal, collect_deals, deals_from
from .errors import StudyError, StudyRunError
from .output import read_results
from .rows import ANALYZE_COLUMNS, TIMING_FIELDS, VALUE_COLUMNS
from .run import StudyInterrupted, StudySummary, run_study

__all__ = [
    "collect_deals", "deals_from", "StudyDeal", "run_study", "StudySummary", "StudyInterrupted",
    "read_results", "VALUE_COLUMNS", "ANALYZE_COLUMNS", "TIMING_FIELDS", "StudyError", "StudyRunError",
]
