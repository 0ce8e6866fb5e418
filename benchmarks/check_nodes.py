"""Guard the solver's search effort: node counts on fixed deals against committed figures.

Node counts are deterministic (unlike seconds), so a change that makes the search
explore more nodes shows here on any machine.  Run from the repository root:

    python benchmarks/check_nodes.py            # compare; exit 1 on more nodes or a changed value
    python benchmarks/check_nodes.py --update   # after an intended change: rewrite the figures

The figures live in ``benchmarks/nodes.json``: for the first ``COUNT`` deals of
``hands/benchmark.yaml``, the value and the nodes of a value-only solve from the
opening lead with the default 64 MiB table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from dobbm_solver.handfile import load_hand_file
from dobbm_solver.solver import Solver

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "benchmarks" / "nodes.json"
DEALS = ROOT / "hands" / "benchmark.yaml"
COUNT = 40
TOLERANCE = 1.0   # total nodes may not grow at all


def measure() -> list[dict[str, int]]:
    solver = Solver()
    out = []
    for deal in load_hand_file(DEALS)[:COUNT]:
        sol = solver.solve(deal)
        out.append({"declarer_points": sol.declarer_points, "nodes": sol.nodes})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="rewrite benchmarks/nodes.json")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    now = measure()
    secs = time.perf_counter() - t
    total = sum(r["nodes"] for r in now)
    if args.update:
        FIGURES.write_text(json.dumps({"deals": COUNT, "total_nodes": total, "results": now}, indent=1) + "\n")
        print(f"node guard: wrote {FIGURES.name}: {COUNT} deals, {total} nodes ({secs:.2f} s)")
        return 0
    ref = json.loads(FIGURES.read_text())
    bad = [f"deal {i + 1}: value {r['declarer_points']}, committed {c['declarer_points']}"
           for i, (r, c) in enumerate(zip(now, ref["results"])) if r["declarer_points"] != c["declarer_points"]]
    if bad:
        print("node guard: VALUES CHANGED:\n  " + "\n  ".join(bad))
        return 1
    if total > ref["total_nodes"] * TOLERANCE:
        growth = [(r["nodes"] - c["nodes"], i) for i, (r, c) in enumerate(zip(now, ref["results"]))]
        worse = sorted(growth, reverse=True)[:5]
        print(f"node guard: FAILED: {total} nodes on {COUNT} deals, committed {ref['total_nodes']} "
              f"(+{100 * (total / ref['total_nodes'] - 1):.1f}%); most grown: "
              + ", ".join(f"deal {i + 1} +{d}" for d, i in worse)
              + "\n  if the growth is intended, refresh with: python benchmarks/check_nodes.py --update")
        return 1
    print(f"node guard: ok: {total} nodes on {COUNT} deals (committed {ref['total_nodes']}), {secs:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
