"""Renderers of an arena's summary: a small text grid and a JSON object."""

from __future__ import annotations

from typing import Any

from ..arena import ArenaRun, ArenaSummary
from ..arena.strategies import DECISIONS


def arena_dict(summary: ArenaSummary, run: ArenaRun | None = None) -> dict[str, Any]:
    """The summary as one JSON-able object (``deals``, ``difference``, ``per_decision`` ...)."""
    out = summary.as_dict()
    if run is not None:
        out.update(resumed=run.resumed, played=len(run.played), interrupted=run.interrupted,
                   seconds=round(run.seconds, 2), jobs=run.jobs,
                   scheduler=run.scheduler)
    return out


def _pm(units: float, stderr: float | None) -> str:
    return f"{units:+7.3f} ± {stderr:.3f}" if stderr is not None else f"{units:+7.3f} ±   n/a"


def arena_text(summary: ArenaSummary, run: ArenaRun | None = None) -> str:
    """A small grid: each player's units a hand, the paired difference, per decision."""
    c = summary.config
    lines = [f"arena: A = {c.a.name}  vs  B = {c.b.name}, {summary.deals} deal"
             f"{'s' if summary.deals != 1 else ''}, seed {c.seed}",
             "scheme: A in each seat in turn at a table of B's, paired with the all-B table "
             "(units: each seat's own settlement)",
             (f"advice samples (fixed, per analysis): {c.samples.text()}" if c.budget_ms is None else
              f"advice budget: {c.budget_ms} ms per analysis, samples at most {c.samples.text()}"),
             "",
             f"{'':24}{'units a hand':>17}",
             f"{'A ' + c.a.name:24}{_pm(summary.a.units_per_hand, summary.a.stderr):>17}",
             f"{'B ' + c.b.name:24}{_pm(summary.b.units_per_hand, summary.b.stderr):>17}",
             f"{'A - B (paired)':24}{_pm(summary.difference.units_per_hand, summary.difference.stderr):>17}",
             "(B's units at its own table are 0: the four seats' units sum to 0)",
             "",
             f"{'per decision (A - A with B' + chr(39) + 's)':34}{'A':>8}{'B':>8}{'units a hand':>17}"]
    for d in DECISIONS:
        m = summary.per_decision[d]
        value = "  not measured (give --per-decision)" if m is None else f"{_pm(m.units_per_hand, m.stderr):>17}"
        lines.append(f"{'  ' + d:34}{c.a.of(d):>8}{c.b.of(d):>8}{value}")
    if c.budget_ms is not None:
        for who, player in (("a", c.a), ("b", c.b)):
            got = summary.samples_used.get(who)
            if got:
                lines.append(f"samples used per analysis (mean), {who.upper()} {player.name}: "
                             + ", ".join(f"{d} {n:g}" for d, n in got.items()))
    if summary.contracts:
        shown = ", ".join(f"{k} {v}" for k, v in sorted(summary.contracts.items()))
        lines += ["", f"contracts at the compared tables: {shown}"]
    if run is not None:
        lines.append(f"deals played now {len(run.played)}, from the file {run.resumed}; "
                     f"{run.seconds:.1f} s on {run.where}"
                     + ("; INTERRUPTED" if run.interrupted else ""))
    return "\n".join(lines)
