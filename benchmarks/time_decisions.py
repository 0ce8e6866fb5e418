"""How long the advice takes a decision at its defaults: ``bid``, ``discard`` and ``play``.

    python benchmarks/time_decisions.py --views 12 --jobs 2 [--budget-ms MS] [--command play]

For each command, ``--views`` seeded views (dealt at random and bid by the
bidding model, as :mod:`measure_errors` makes them: a bidder at a random
seat, a Dobbm declarer with the Dobb, the declarer's opening lead) are
analysed at the command's defaults (adaptive samples) with ``--jobs`` workers
and seed 1.  Printed per command: the wall-clock seconds a decision (mean,
median, the slowest), how many took over 1 s, and the samples used.  With
``--budget-ms`` each analysis also has that time budget.  The load average
is printed before and after: on a machine shared with other work the times
are upper bounds of what the decisions cost alone.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from measure_errors import ANALYZE, make_doc

from dobbm_solver.analyzer import make_view
from dobbm_solver.handfile import parse_spec

COMMANDS = ("bid", "discard", "play")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--views", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1, help="seeds the views (the analyses use seed 1)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget-ms", type=int, default=None)
    ap.add_argument("--command", choices=COMMANDS, action="append")
    args = ap.parse_args()
    budget = None if args.budget_ms is None else args.budget_ms / 1000.0
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    for command in args.command or COMMANDS:
        rng = random.Random(f"time:{command}:{args.seed}")
        seconds, samples = [], []
        for _ in range(args.views):
            view = make_view(parse_spec(make_doc(command, rng)), command)
            t0 = time.perf_counter()
            advice = ANALYZE[command](view, seed=1, jobs=args.jobs, budget_s=budget)
            seconds.append(time.perf_counter() - t0)
            samples.append(advice.samples)
        over = sum(s > 1.0 for s in seconds)
        print(f"{command:8} {len(seconds)} views: {statistics.fmean(seconds):.3f} s mean, "
              f"{statistics.median(seconds):.3f} median, {max(seconds):.3f} slowest, {over} over 1 s; "
              f"samples {statistics.fmean(samples):.0f} mean ({min(samples)}-{max(samples)})")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
