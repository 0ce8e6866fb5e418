"""How many different values the legal cards of a deal have: dobbm beside DDS.

    python benchmarks/distinct_values.py

Each legal card with a value of its own needs a proof of its own at its own
threshold, so this count drives the cost of valuing every card over finding
the value alone.  For the 120 deals of ``hands/benchmark.yaml`` (from the
opening lead) it prints the mean number of legal cards, of distinct values
among them (declarer's points) and of cards at the best value; with
``endplay`` installed (``pip install ".[bench]"``), the same for the 120
seeded bridge endings that ``benchmarks/test_bench_dds.py`` gives DDS (tricks).
"""

from __future__ import annotations

import importlib.util
import random
import statistics
import sys
from pathlib import Path
from typing import Iterable, Sequence

from dobbm_solver.deal import replay
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.solver import Solver

HERE = Path(__file__).resolve().parent
BENCHMARK_FILE = HERE.parent / "hands" / "benchmark.yaml"


def summary(rows: Iterable[Sequence[tuple[object, int]]], best: str) -> str:
    """``rows``: per deal, (card, value) for each legal card; ``best``: max or min."""
    n, distinct, at_best = [], [], []
    for cards in rows:
        values = [v for _, v in cards]
        top = max(values) if best == "max" else min(values)
        n.append(len(values))
        distinct.append(len(set(values)))
        at_best.append(values.count(top))
    return (f"{len(n)} deals: {statistics.mean(n):.2f} legal cards, {statistics.mean(distinct):.2f} "
            f"distinct values, {statistics.mean(at_best):.2f} cards at the best value")


def main() -> None:
    deals = load_hand_file(BENCHMARK_FILE)
    solver = Solver()
    rows = []
    for deal in deals:
        # the declarer leads every benchmark deal: his best is the highest
        if replay(deal, check=False).to_move != deal.declarer:
            sys.exit(f"{BENCHMARK_FILE}: a deal where a defender leads; this script assumes the declarer")
        rows.append(list(solver.solve_all_cards(deal).items()))
    print("dobbm, full deals:", summary(rows, "max"))
    if importlib.util.find_spec("endplay") is None:
        print("DDS: endplay is not installed (pip install \".[bench]\")")
        return
    sys.path.insert(0, str(HERE))
    from test_bench_dds import SEED, _dds_all_cards, bridge_ending

    rng = random.Random(SEED)
    endings = [bridge_ending(rng) for _ in deals]
    print("DDS, 32-card bridge endings:", summary((_dds_all_cards(e) for e in endings), "max"))


if __name__ == "__main__":
    main()
