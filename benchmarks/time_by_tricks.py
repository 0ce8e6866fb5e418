#!/usr/bin/env python
"""How a solve's time grows with the tricks left (8 down to 1), with four seats and with five.

    python benchmarks/time_by_tricks.py --deals 100 --seed 1
    python benchmarks/time_by_tricks.py --deals 100 --seed 1 --reps 9 --json

Each of ``--deals`` random deals (:func:`dobbm_solver.dealer.random_deal`,
``random.Random(seed)``) is played along a best line (``Solver.analyze``), and
the positions at the start of each trick, 8 tricks left down to 1, are
solved: the value (``Solver.solve``) and every legal card's value
(``Solver.solve_all_cards``), on thread time (``time.thread_time_ns``), each
call repeated ``--reps`` times and its fastest kept (the call's own cost,
least disturbed by the load of a shared machine).  Every position is also
solved as a five-seat deal, the dealer sitting the hand out (the same four
hands: only the wrapper differs), the two alternating position by position
so that load hits both alike.  Printed per tricks left: the median and the
mean of the positions' times in microseconds and their median nodes.  With
3 tricks or fewer left the time is the call's fixed cost: the search itself
takes a few dozen nodes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
try:
    import dobbm_solver  # noqa: F401
except ImportError:  # run as a script from a checkout without an install
    sys.path.insert(0, str(ROOT))

from dobbm_solver.cards import cardset  # noqa: E402
from dobbm_solver.deal import Deal  # noqa: E402
from dobbm_solver.dealer import DEFAULT_SEATS, random_deal  # noqa: E402
from dobbm_solver.solver import Solver  # noqa: E402

FIFTH = "Fifth"


def positions(seed: int, count: int, solver: Solver) -> dict[int, list[Deal]]:
    """By tricks left (8..1): each deal at the start of that trick, along a best line."""
    rng = random.Random(seed)
    out: dict[int, list[Deal]] = {k: [] for k in range(8, 0, -1)}
    for _ in range(count):
        deal = random_deal(rng, DEFAULT_SEATS)
        line = solver.analyze(deal).line
        for k in out:
            played = line[:4 * (8 - k)]
            out[k].append(replace(deal, hands={s: h & ~cardset(played) for s, h in deal.hands.items()},
                                  tricks=tuple(tuple(played[i:i + 4]) for i in range(0, len(played), 4))))
    return out


def five_seats(deal: Deal) -> Deal:
    """The same deal at a table of five, the dealer sitting out."""
    return replace(deal, seats=(*deal.seats, FIFTH), dealer=FIFTH)


def fastest(call: Callable[[Deal], Any], deal: Deal, reps: int) -> int:
    best = None
    for _ in range(reps):
        t0 = time.thread_time_ns()
        call(deal)
        t = time.thread_time_ns() - t0
        best = t if best is None or t < best else best
    assert best is not None
    return best


def measure(by_left: dict[int, list[Deal]], solver: Solver, reps: int) -> list[dict[str, Any]]:
    rows = []
    calls = {"value": solver.solve, "every_card": solver.solve_all_cards}
    for k, deals in by_left.items():
        times: dict[str, list[int]] = {f"{name}{tag}": [] for name in calls for tag in ("", "_5")}
        nodes = []
        for deal in deals:
            five = five_seats(deal)
            for name, call in calls.items():
                times[name].append(fastest(call, deal, reps))
                times[name + "_5"].append(fastest(call, five, reps))
            nodes.append(solver.solve(deal).nodes)
        row: dict[str, Any] = {"tricks_left": k, "positions": len(deals),
                               "value_nodes_median": statistics.median(nodes)}
        for name, ts in times.items():
            row[f"{name}_us_median"] = round(statistics.median(ts) / 1000, 2)
            row[f"{name}_us_mean"] = round(statistics.fmean(ts) / 1000, 2)
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="random deals (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--reps", type=int, default=5, help="calls per position, the fastest kept (default 5)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.reps < 1:
        parser.error("--deals and --reps must be at least 1")
    solver = Solver()
    rows = measure(positions(args.seed, args.deals, solver), solver, args.reps)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{args.deals} deals, seed {args.seed}, fastest of {args.reps} calls, thread time, microseconds")
    print("tricks left | value median / mean | every card median / mean | 5 seats: value, every card"
          " (medians) | value nodes (median)")
    for r in rows:
        print(f"{r['tricks_left']:>11} | {r['value_us_median']:>9.1f} / {r['value_us_mean']:<8.1f}"
              f"| {r['every_card_us_median']:>10.1f} / {r['every_card_us_mean']:<10.1f}"
              f"| {r['value_5_us_median']:>10.1f}, {r['every_card_5_us_median']:<10.1f}"
              f"| {r['value_nodes_median']:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
