"""The analyzer's throughput at defaults: open-card solves and samples per second.

    python benchmarks/measure_sample_rate.py [--rounds 5] [--jobs 2]

Runs ``bid``, ``discard`` and ``double`` (and the Retour view) at their default
precision on the shipped examples, seeds 1..``--rounds``, and prints per
command the solves (each option on each sample is one open-card solve; Pass
solves nothing) and samples per second of wall time, summed over the rounds.
It uses only the analyzer's public verbs (``load_views``, ``analyze_*``), so
the same script measures an older tree too:
``PYTHONPATH=/path/to/old/tree python benchmarks/measure_sample_rate.py``.
Time it on a quiet machine.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import dobbm_solver
from dobbm_solver.analyzer import analyze_bid, analyze_discard, analyze_double, load_views

HANDS = Path(__file__).resolve().parent.parent / "hands"
CASES = (("bid", "bid.yaml", analyze_bid), ("discard", "discard.yaml", analyze_discard),
         ("double", "double.yaml", analyze_double), ("retour", "double_retour.yaml", analyze_double))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    print(f"package: {Path(dobbm_solver.__file__).parent}")
    for name, file, analyze in CASES:
        command = "double" if name == "retour" else name
        [view] = load_views(HANDS / file, command)
        analyze(view, seed=0, jobs=args.jobs)          # warm-up: worker start, imports
        solves = samples = 0
        seconds = 0.0
        for seed in range(1, args.rounds + 1):
            t0 = time.perf_counter()
            advice = analyze(view, seed=seed, jobs=args.jobs)
            seconds += time.perf_counter() - t0
            samples += advice.samples
            if command == "double":
                solves += advice.samples
            else:
                solves += sum(o.samples for o in advice.options if o.option != "pass")
        print(f"{name:8s} {solves / seconds:8.0f} solves/s  {samples / seconds:7.0f} samples/s  "
              f"({solves} solves, {samples} samples in {seconds:.2f} s over {args.rounds} rounds)")


if __name__ == "__main__":
    main()
