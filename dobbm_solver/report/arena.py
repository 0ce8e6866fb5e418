"""Renderers of an arena's summary: a small text grid and a JSON object."""

from __future__ import annotations

from typing import Any

from ..arena import ArenaRun, ArenaSummary
from ..arena.strategies import DECISIONS
from ..arena.summary import SIGNIFICANT_Z, Mean


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


def _mark(m: Mean) -> str:
    """A difference's mark: ``significant`` beyond two standard errors, else ``not significant``."""
    if m.significant is None:
        return "  (one deal: no error)"
    return "  significant" if m.significant else "  not significant"


def arena_text(summary: ArenaSummary, run: ArenaRun | None = None) -> str:
    """A small grid: each player's units a hand, the paired difference, per decision;
    then a legend that says what each column and count means."""
    c = summary.config
    lines = [f"arena: A = {c.a.name}  vs  B = {c.b.name}, {summary.deals} deal"
             f"{'s' if summary.deals != 1 else ''}, seed {c.seed}",
             "scheme: A in each seat in turn at a table of B's, paired with the all-B table",
             (f"advice samples (fixed, per analysis): {c.samples.text()}" if c.budget_ms is None else
              f"advice budget: {c.budget_ms} ms per analysis, samples at most {c.samples.text()}"),
             "",
             f"{'':24}{'units a hand':>17}",
             f"{'A ' + c.a.name:24}{_pm(summary.a.units_per_hand, summary.a.stderr):>17}",
             f"{'B ' + c.b.name:24}{_pm(summary.b.units_per_hand, summary.b.stderr):>17}",
             f"{'A - B (paired)':24}{_pm(summary.difference.units_per_hand, summary.difference.stderr):>17}"
             + _mark(summary.difference),
             "",
             f"{'per decision (A - A with B' + chr(39) + 's)':34}{'A':>8}{'B':>8}{'units a hand':>17}"]
    for d in DECISIONS:
        m = summary.per_decision[d]
        if m is None:
            value = "  not measured (give --per-decision)"
        elif c.a.of(d) == c.b.of(d):
            value = f"{_pm(m.units_per_hand, m.stderr):>17}  (same strategy)"
        else:
            value = f"{_pm(m.units_per_hand, m.stderr):>17}{_mark(m)}"
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
    compared = 5 * summary.deals   # per deal the all-B one and four with A
    lines += [
        "",
        "what the columns say:",
        "  A, B: the players compared; each has a strategy for every decision (bid, discard, double, play)",
        "  units a hand: a seat's net units in one hand (the declarer's three payments added, a defender's",
        "    own one), the mean over the four seats and the deals, ± its standard error over the deals",
        "  A: A in one seat at a table of three B's; B: B in that seat at the all-B table, 0 always",
        "    (the four seats' units add up to 0)",
        "  A - B (paired): what A wins in B's place, the same cards against the same opponents",
        "  per decision (A - A with B's): what A's strategy for one decision is worth: A's units minus",
        "    those of A with B's strategy for that decision; the A and B columns name the two strategies",
        f"  significant: more than {SIGNIFICANT_Z:g} standard errors from 0; not significant: within "
        f"{SIGNIFICANT_Z:g} (more deals may tell)",
        f"  contracts: how the {compared} compared tables were played (per deal the all-B table and A's four)",
    ]
    return "\n".join(lines)
