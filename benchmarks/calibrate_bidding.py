"""Calibrate the analyzer's bidding model thresholds with the solver.

    python benchmarks/calibrate_bidding.py [DEALS] [JOBS]

Deals random hands (strength 4 and up; the common middle strengths 8..16
thinned to 40% so that the strong tail is well covered), gives the first
hand the Dobb, and solves with open cards both a Dobbm (the lay-away of
``models.discard_rule.heuristic_discard``) and a
Solo against unconstrained defenders.  It prints, by strength, the
declarer's mean units (3 x units) in each contract and two linear fits:

* where Dobbm's expected units cross zero (fit over strengths 9..16);
* where Solo's overtake Dobbm's (fit over 17..27).

With 5000 deals (about a minute on two cores) the fits gave 12.6 and 22.3,
the solver's own break-even in strength.  The analyzer's bidding model is
fitted instead to the arena's bidders, on ``models.bidding.bid_score``
(``benchmarks/measure_inference.py``).  Not a test: pytest does not collect it.
"""

from __future__ import annotations

import random
import sys
from collections import defaultdict
from dataclasses import replace
from multiprocessing import Pool

from dobbm_solver.deal import Deal
from dobbm_solver.models.discard_rule import heuristic_discard
from dobbm_solver.models.strength import hand_strength
from dobbm_solver.rules import units
from dobbm_solver.solver import Solver

SEATS = ("A", "B", "C", "D")
_solver: Solver | None = None


def one(i: int) -> tuple[float, int, int]:
    global _solver
    if _solver is None:
        _solver = Solver(32)
    rng = random.Random(f"calibrate-bidding:{i}")
    while True:
        cards = list(range(36))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[8 * k:8 * k + 8]) for k in range(4)]
        s = hand_strength(hands[0])
        if s < 4 or (8 <= s <= 16 and rng.random() < 0.6):
            continue
        break
    dobb = sum(1 << c for c in cards[32:])
    deal = Deal(seats=SEATS, declarer="A", contract="dobbm", hands=dict(zip(SEATS, hands)), dobb=dobb)
    dobbm = _solver.solve(deal.with_discard(heuristic_discard(hands[0] | dobb))).declarer_points
    solo = _solver.solve(replace(deal, contract="solo")).declarer_points
    return s, dobbm, solo


def fit(xs: list[float], ys: list[float]) -> tuple[float, float]:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else None
    with Pool(jobs) as pool:
        rows = pool.map(one, range(n), chunksize=20)
    by = defaultdict(list)
    for s, d, o in rows:
        by[int(s)].append((3 * units(d, "dobbm"), 3 * units(o, "solo")))
    print("strength  deals  dobbm_units  solo_units")
    for k in sorted(by):
        v = by[k]
        print(f"{k:8d} {len(v):6d} {sum(a for a, _ in v) / len(v):12.2f} {sum(b for _, b in v) / len(v):11.2f}")
    sel = [(s, 3 * units(d, "dobbm")) for s, d, _ in rows if 9 <= s <= 16]
    a, b = fit([x for x, _ in sel], [y for _, y in sel])
    print(f"Dobbm's expected units cross zero at strength {-a / b:.2f}")
    sel = [(s, 3 * units(o, "solo") - 3 * units(d, "dobbm")) for s, d, o in rows if 17 <= s <= 27]
    a, b = fit([x for x, _ in sel], [y for _, y in sel])
    print(f"Solo overtakes Dobbm at strength {-a / b:.2f}")


if __name__ == "__main__":
    main()
