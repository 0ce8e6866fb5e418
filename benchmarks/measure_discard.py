"""Is `dobbm discard` worth following?  Paired against the rule of thumb, by open-card realisation.

    python benchmarks/measure_discard.py --deals 150 [--seed 1] [--jobs 2] [--samples N]

Each deal is dealt at random and bid by the bidding model (as
``measure_errors.py`` does) until a Dobbm declarer is found; the declarer
asks ``analyze_discard`` (defaults, or ``--samples``) from the 8 dealt cards
and the Dobb.  Every legal lay-away of the real deal is then solved with open
cards (``Solver.study_discards``), so each choice is realised exactly: the
declarer's points and units with the advice's lay-away, with
``heuristic_discard``'s, and with the hindsight best.  Printed: the mean
paired difference advice - rule of thumb in points and in units (what each
defender pays the declarer),
each with its standard error over the deals, and each one's regret against
the hindsight best.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from measure_errors import make_doc

from dobbm_solver.analyzer import analyze_discard, make_view
from dobbm_solver.deal import Deal
from dobbm_solver.handfile import parse_spec
from dobbm_solver.models.discard_rule import heuristic_discard
from dobbm_solver.rules import units
from dobbm_solver.solver import Solver


def _mean_se(xs: list[float]) -> str:
    return f"{statistics.fmean(xs):+.2f} ± {statistics.stdev(xs) / math.sqrt(len(xs)):.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--samples", type=int, default=None)
    args = ap.parse_args()
    rng = random.Random(f"measure-discard:{args.seed}")
    solver = Solver()
    d_pts: list[float] = []
    d_units: list[float] = []
    regret = {"advice": [], "rule": []}   # type: dict[str, list[float]]
    for n in range(args.deals):
        doc = make_doc("discard", rng, full=True)
        view = make_view(parse_spec(doc["view"], f"deal{n}"), "discard")
        deal: Deal = doc["deal"]
        advice = analyze_discard(view, samples=args.samples, seed=n + 1, jobs=args.jobs)
        exact = {r.cards: r.declarer_points for r in solver.study_discards(deal)}
        best = max(exact.values())
        mine = exact[advice.recommendation]
        rule = exact[heuristic_discard(deal.hands[deal.declarer] | deal.dobb)]
        d_pts.append(float(mine - rule))
        d_units.append(float(units(mine, "dobbm") - units(rule, "dobbm")))
        regret["advice"].append(float(mine - best))
        regret["rule"].append(float(rule - best))
        if (n + 1) % 25 == 0:
            print(f"{n + 1} deals: advice - rule {_mean_se(d_pts)} points", flush=True)
    print(f"{len(d_pts)} deals: advice - rule of thumb = {_mean_se(d_pts)} points a deal, "
          f"{_mean_se(d_units)} units from each defender (paired); regret against the hindsight best: "
          f"advice {_mean_se(regret['advice'])}, rule {_mean_se(regret['rule'])} points")


if __name__ == "__main__":
    main()
