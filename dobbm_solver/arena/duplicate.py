"""Duplicate play: one deal replayed at several tables, so that every comparison is paired.

The scheme (*one seat replaced*): for players A and B,

* the **base** table seats B in all four seats;
* table ``A@k`` (k = 0..3, each seat in turn) seats A at seat k and B in the
  other three.

A's units a hand on a deal are the mean over k of seat k's own units at
table ``A@k``; B's are the mean over k of seat k's units at the base table,
which is always 0 (the four seats' units sum to 0).  So the difference A - B
of a deal is what A wins in B's place at a table of B's, the same cards
held, the same opponents, averaged over the four seats (forehand to dealer);
only one seat's strategy differs between the two tables compared.  For the
other way round (B in place of one A) run ``A`` and ``B`` swapped.

Per decision (``per_decision``): for each decision d whose strategy differs
between A and B, table ``A-d@k`` seats at seat k the hybrid "A with B's
strategy for d" (B elsewhere).  What A's d is worth on a deal is the mean
over k of seat k's units at ``A@k`` minus those at ``A-d@k``: A against A
with that one decision swapped, on the same deal.

Tables seating the same players are played once (the result is shared), so
``rule`` against ``rule`` plays only the base table and every difference is
exactly 0.
"""

from __future__ import annotations

from typing import Mapping

from .decisions import Board, Env
from .game import SEATS, Asked, play_table
from .results import BASE, TableKey, TableResult
from .strategies import DECISIONS, Player, method

Tables = Mapping[TableKey, TableResult]


def table_plan(a: Player, b: Player, per_decision: bool) -> dict[TableKey, tuple[Player, ...]]:
    """The tables of one deal: which table -> the player in each of the four seats."""
    plan: dict[TableKey, tuple[Player, ...]] = {BASE: (b,) * 4}
    for k in range(4):
        plan[TableKey(k)] = tuple(a if i == k else b for i in range(4))
    if per_decision:
        for d in swapped_decisions(a, b):
            hybrid = a.with_decision(d, b.of(d))
            for k in range(4):
                plan[TableKey(k, d)] = tuple(hybrid if i == k else b for i in range(4))
    return plan


def swapped_decisions(a: Player, b: Player) -> tuple[str, ...]:
    """The decisions whose method differs between A and B (the others are worth 0;
    ``pimc`` and ``advice`` are one method where they decide alike:
    :func:`~.strategies.method`)."""
    return tuple(d for d in DECISIONS if method(d, a.of(d)) != method(d, b.of(d)))


def play_deal(board: Board, env: Env, a: Player, b: Player, per_decision: bool,
              shortcut: bool = True) -> dict[TableKey, TableResult]:
    """Every table of :func:`table_plan` on ``board``, in plan order, with its result.

    With ``shortcut`` a per-decision table ``A-d@k`` (d the bid, the lay-away or the
    doubling) is not played when it must play out as ``A@k`` does: seat k was never
    asked d there, or B's strategy for d gives the same answer at that point (each is
    asked at most once a table, and everything else is the same and deterministic)."""
    played: dict[tuple[str, ...], tuple[TableResult, Asked]] = {}
    out: dict[TableKey, TableResult] = {}
    for key, seats in table_plan(a, b, per_decision).items():
        players = tuple(p.name for p in seats)
        if players not in played:
            same = _same_as_played(key, seats, played, a, b) if shortcut else None
            if same is not None:
                played[players] = same
            else:
                asked = Asked()
                played[players] = (play_table(board, env, seats, asked), asked)
        out[key] = played[players][0]
    return out


def _same_as_played(key: TableKey, seats: tuple[Player, ...],
                    played: dict[tuple[str, ...], tuple[TableResult, Asked]],
                    a: Player, b: Player) -> tuple[TableResult, Asked] | None:
    """The result of ``A@k`` when table ``key`` = ``A-d@k`` must play out the same."""
    decision, k = key.swapped, key.seat
    if decision is None or k is None or decision == "play":
        return None
    ref = played.get(tuple(p.name for p in table_plan(a, b, False)[TableKey(k)]))
    if ref is None:
        return None
    record = ref[1].record.get((SEATS[k], decision))
    if record is None or record[1](seats[k].of(decision)) == record[0]:
        return ref
    return None


def seat_units(tables: Tables, seats: tuple[str, ...], swapped: str | None = None) -> float:
    """The mean over k of seat k's own units at tables ``A@k`` (``swapped`` d: ``A-d@k``)."""
    return sum(tables[TableKey(k, swapped)].units[s] for k, s in enumerate(seats)) / len(seats)


def deal_difference(tables: Tables, seats: tuple[str, ...]) -> tuple[float, float, float]:
    """A's units a hand, B's, and A - B, on one deal."""
    a = seat_units(tables, seats)
    b = sum(tables[BASE].units[s] for s in seats) / len(seats)
    return a, b, a - b


def decision_value(tables: Tables, seats: tuple[str, ...], decision: str) -> float:
    """What A's strategy for ``decision`` is worth over B's on one deal (A minus A with B's)."""
    return seat_units(tables, seats) - seat_units(tables, seats, decision)
