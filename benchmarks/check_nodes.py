"""Guard the solver's search effort: node counts on fixed deals against committed figures.

Node counts are deterministic (unlike seconds), so a change that makes the search
explore more nodes shows here on any machine.  Run from the repository root:

    python benchmarks/check_nodes.py            # compare; exit 1 on more nodes or a changed value
    python benchmarks/check_nodes.py --update   # after an intended change: rewrite the figures

The figures live in ``dobbm_solver/data/bench_nodes.json``, shipped in the
package with its deals (``dobbm_solver/data/bench.yaml``, the deals of
``hands/benchmark.yaml``), so that ``dobbm bench`` checks the same signature:
for every deal, measured by :func:`dobbm_solver.bench.run_bench` from the
opening lead with the 64 MiB table, the value and the nodes of a value-only
solve (``solve``), and every legal card's value and the nodes of the analysis
(``analyze``: every card's value and a best line).  The check fails when a deal is missing or extra, when any value
differs, when the total of either kind of nodes grows at all, or when one
deal's nodes grow by more than ``DEAL_GROWTH`` and ``DEAL_SLACK`` nodes (so
growth on one deal cannot hide behind savings on others).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))   # this tree's package, not whichever one is installed

from dobbm_solver import bench  # noqa: E402

FIGURES = ROOT / "dobbm_solver" / "data" / bench.FIGURES_FILE
DEALS = ROOT / "dobbm_solver" / "data" / bench.DEALS_FILE
KINDS = ("value_nodes", "analysis_nodes")
TOTAL_GROWTH = 1.0   # the totals may not grow at all
DEAL_GROWTH = 1.10   # one deal's nodes: at most 10% more ...
DEAL_SLACK = 1000    # ... or 1000 more, whichever is larger

Record = dict[str, Any]


def measure() -> list[Record]:
    """The figures of every benchmark deal, in file order (those of ``dobbm bench``)."""
    return [asdict(f) for f in bench.run_bench().figures]


def totals(records: list[Record]) -> dict[str, int]:
    return {k: sum(int(r[k]) for r in records) for k in KINDS}


def deal_limit(committed: int) -> int:
    """The most nodes a deal committed with ``committed`` nodes may take."""
    return max(int(committed * DEAL_GROWTH), committed + DEAL_SLACK)


def compare(now: list[Record], ref: dict) -> list[str]:
    """The reasons the figures ``now`` fail against the committed ``ref`` (none: they pass)."""
    committed: list[Record] = ref["results"]
    if len(now) != len(committed) or ref.get("deals") != len(committed):
        return [f"{len(now)} deals measured, {len(committed)} committed (the file says {ref.get('deals')})"]
    bad = []
    for i, (r, c) in enumerate(zip(now, committed), 1):
        for key in ("declarer_points", "cards"):
            if r[key] != c.get(key):
                bad.append(f"deal {i}: {key} {r[key]}, committed {c.get(key)}")
        for key in KINDS:
            if int(r[key]) > deal_limit(int(c[key])):
                bad.append(f"deal {i}: {key} {r[key]}, committed {c[key]} (limit {deal_limit(int(c[key]))})")
    for key, total in totals(now).items():
        if total > ref["total"][key] * TOTAL_GROWTH:
            bad.append(f"total {key} {total}, committed {ref['total'][key]} "
                       f"(+{100 * (total / ref['total'][key] - 1):.1f}%)")
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="rewrite dobbm_solver/data/bench_nodes.json")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    now = measure()
    secs = time.perf_counter() - t
    total = totals(now)
    summary = ", ".join(f"{total[k]} {k.replace('_', ' ')}" for k in KINDS)
    if args.update:
        FIGURES.write_text(json.dumps({"deals": len(now), "total": total, "results": now}, indent=1) + "\n")
        print(f"node guard: wrote {FIGURES.name}: {len(now)} deals, {summary} ({secs:.2f} s)")
        return 0
    ref = json.loads(FIGURES.read_text())
    bad = compare(now, ref)
    if bad:
        print("node guard: FAILED:\n  " + "\n  ".join(bad)
              + "\n  if the change is intended, refresh with: python benchmarks/check_nodes.py --update")
        return 1
    print(f"node guard: ok: {len(now)} deals, {summary} "
          f"(committed {', '.join(str(ref['total'][k]) for k in KINDS)}), {secs:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
