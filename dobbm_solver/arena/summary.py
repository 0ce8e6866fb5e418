"""What an arena's rows say: units a hand with standard errors, paired differences.

Every figure is a mean over deals of a per-deal value (see :mod:`.duplicate`)
with its standard error ``stdev / sqrt(deals)`` over the deals (None with
fewer than two deals).  Units are each seat's own settlement.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any, Sequence

from .duplicate import deal_difference, decision_value, swapped_decisions
from .game import SEATS
from .run import ArenaConfig
from .strategies import DECISIONS


@dataclass(frozen=True)
class Mean:
    """A mean over deals with its standard error (None: fewer than two deals)."""

    units_per_hand: float
    stderr: float | None
    deals: int

    def as_dict(self) -> dict[str, Any]:
        return {"units_per_hand": round(self.units_per_hand, 4),
                "stderr": None if self.stderr is None else round(self.stderr, 4)}


def mean_of(values: Sequence[float]) -> Mean:
    n = len(values)
    if n == 0:
        return Mean(0.0, None, 0)
    m = math.fsum(values) / n
    se = statistics.stdev(values) / math.sqrt(n) if n > 1 else None
    return Mean(m, se, n)


@dataclass(frozen=True)
class ArenaSummary:
    """``a`` and ``b``: each player's units a hand; ``difference``: A - B, paired;
    ``per_decision``: what A's strategy for each decision is worth over B's (None:
    not measured, i.e. no ``per_decision`` tables; 0 exactly when A and B use the
    same strategy for it); ``contracts``: how the base and A tables were declared."""

    config: ArenaConfig
    deals: int
    a: Mean
    b: Mean
    difference: Mean
    per_decision: dict[str, Mean | None]
    contracts: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        c = self.config
        return {
            "a": c.a.name, "b": c.b.name, "seed": c.seed, "deals": self.deals,
            "scheme": "one seat replaced: A in each seat in turn at a table of B's, against the all-B table",
            "units": "each seat's own settlement, units a hand",
            "samples": c.samples.as_dict(),
            "a_units": self.a.as_dict(), "b_units": self.b.as_dict(),
            "difference": self.difference.as_dict(),
            "per_decision": {d: (None if m is None else
                                 {**m.as_dict(), "a": c.a.of(d), "b": c.b.of(d)})
                             for d, m in self.per_decision.items()},
            "contracts": self.contracts,
        }


def summarize(rows: Sequence[dict[str, Any]], config: ArenaConfig) -> ArenaSummary:
    """The summary of ``rows`` (one per deal, as :func:`~.run.run_arena` writes them)."""
    a_units, b_units, diffs = [], [], []
    for row in rows:
        a, b, d = deal_difference(row["tables"], SEATS)
        a_units.append(a)
        b_units.append(b)
        diffs.append(d)
    swapped = swapped_decisions(config.a, config.b)
    per: dict[str, Mean | None] = {}
    for dec in DECISIONS:
        if dec not in swapped:
            per[dec] = Mean(0.0, 0.0 if len(rows) > 1 else None, len(rows))
        elif config.per_decision:
            per[dec] = mean_of([decision_value(r["tables"], SEATS, dec) for r in rows])
        else:
            per[dec] = None
    contracts: dict[str, int] = {}
    for row in rows:
        for name, t in row["tables"].items():
            if name == "base" or name.startswith("A@"):
                key = t["contract"] or "thrown in"
                contracts[key] = contracts.get(key, 0) + 1
    return ArenaSummary(config, len(rows), mean_of(a_units), mean_of(b_units), mean_of(diffs), per, contracts)
