"""One result row per deal: its columns, and solving a deal into its row (in the workers)."""

from __future__ import annotations

import time
from typing import Any, Sequence

from .._pool import worker_solver
from ..cards import BB_TRUMPS, TOTAL_POINTS, card_name, cards_text, popcount
from ..deal import Deal, cards_played
from ..errors import DobbmError
from ..notation import parse_deal_line
from ..rules import outcome, units
from ..solver import DEFAULT_TT_MB, Solver
from .collect import StudyDeal
from .errors import StudyError

__all__ = ["MODES", "VALUE_COLUMNS", "ANALYZE_COLUMNS", "TIMING_FIELDS", "INT_FIELDS",
           "check_mode", "columns", "starting_trumps", "solve_row", "solve_chunk"]

MODES: tuple[str, ...] = ("value", "analyze")

_HEAD = ("id", "hash", "mode", "deal", "declarer", "contract", "doublings", "trumps",
         "discard", "studied", "declarer_points", "defender_points", "outcome", "units")
#: Keys of a value-only row, in CSV column order.
VALUE_COLUMNS: tuple[str, ...] = _HEAD + ("nodes", "seconds")
#: Keys of an ``analyze`` row: also who is to move, their best card and a best line
#: (space-separated card names; empty when the hand is finished).
ANALYZE_COLUMNS: tuple[str, ...] = _HEAD + ("to_move", "best_card", "line", "nodes", "seconds")
#: Fields that differ from run to run (everything else is deterministic).
TIMING_FIELDS: tuple[str, ...] = ("seconds",)
#: Fields that hold whole numbers (typed back when a CSV row is read).
INT_FIELDS: frozenset[str] = frozenset({"doublings", "trumps", "declarer_points", "defender_points",
                                        "units", "nodes"})


def check_mode(mode: str) -> None:
    """A :class:`StudyError` unless ``mode`` is one of :data:`MODES`."""
    if mode not in MODES:
        raise StudyError(f"mode must be one of {' | '.join(MODES)}, not {mode!r}")


def columns(mode: str) -> tuple[str, ...]:
    """The keys of a row of ``mode``, in CSV column order."""
    return ANALYZE_COLUMNS if mode == "analyze" else VALUE_COLUMNS


def starting_trumps(deal: Deal) -> int:
    """Hearts in the declarer's 8 cards at the start of play (held now + played)."""
    held = deal.hands.get(deal.declarer, 0) | cards_played(deal)[deal.declarer]
    return popcount(held & BB_TRUMPS)


def solve_row(solver: Solver, item: StudyDeal, mode: str = "value") -> dict[str, Any]:
    """The result row of one deal (keys :data:`VALUE_COLUMNS` or :data:`ANALYZE_COLUMNS`)."""
    check_mode(mode)
    t0 = time.perf_counter()
    try:
        deal = parse_deal_line(item.line)
    except DobbmError as e:
        raise StudyError(f"{item.id}: {e}") from None
    # a lay-away study runs in this worker alone: the batch is parallel over deals
    best = solver.solve_best(deal, analyze=mode == "analyze", jobs=1)
    deal, points = best.deal, best.value.declarer_points
    row: dict[str, Any] = {
        "id": item.id, "hash": item.hash, "mode": mode, "deal": item.line,
        "declarer": deal.declarer, "contract": deal.contract, "doublings": deal.doublings,
        "trumps": starting_trumps(deal),
        "discard": cards_text(deal.discard) if deal.discard is not None else "",
        "studied": best.studied is not None,
        "declarer_points": points, "defender_points": TOTAL_POINTS - points,
        "outcome": outcome(points).value, "units": units(points, deal.contract, deal.doublings),
    }
    if mode == "analyze":
        line = best.analysis.line
        row.update({"to_move": best.analysis.to_move or "",
                    "best_card": card_name(line[0]) if line else "",
                    "line": " ".join(card_name(c) for c in line)})
    row["nodes"] = best.nodes
    row["seconds"] = round(time.perf_counter() - t0, 4)
    return row


def solve_chunk(items: Sequence[StudyDeal], mode: str = "value",
                tt_mb: int = DEFAULT_TT_MB) -> list[dict[str, Any]]:
    """Rows of consecutive deals, in order (the task run by local and Dask workers)."""
    solver = worker_solver(tt_mb)
    return [solve_row(solver, it, mode) for it in items]
