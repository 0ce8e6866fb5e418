"""The time of each decision the computer makes in ``dobbm practice``: a bid, a lay-away, a
doubling, a card, with the sample counts the command uses.

Run from the repository root (it writes nothing):

    python benchmarks/bench_practice.py                  # 20 hands of seed 1
    python benchmarks/bench_practice.py --hands 50 --seed 7

The player's seat answers every question with the advice (as ``hint`` does),
so the hands play as a session does.  A computer decision is timed from the
event before it (or the player's answer) to the event it gives: the bid said,
the lay-away made, the doubling said or not, the card played; the open-card
review after each hand is not a decision and is left out.  The figures are
seconds per decision by kind: count, median, 95th percentile and the
slowest, in wall time and in the process's CPU time (the computer decides
in one thread, so on an idle core the two agree; on a busy machine the CPU
time is the figure that does not depend on the other work); the goal is
every decision under 1 s on 2 cores.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))   # this tree's package, not whichever one is installed

from dobbm_solver.practice.game import (  # noqa: E402
    Ask,
    BidSaid,
    CardPlayed,
    DoublingSaid,
    Event,
    LaidAway,
)
from dobbm_solver.practice.session import PRACTICE_SAMPLES, Session  # noqa: E402
from dobbm_solver.solver import DEFAULT_TT_MB, Solver  # noqa: E402

GOAL_SECONDS = 1.0
KINDS = {BidSaid: "bid", LaidAway: "discard", DoublingSaid: "double", CardPlayed: "play"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20, metavar="N", help="hands to play (default 20)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="the session's seed (default 1)")
    parser.add_argument("--seat", default="Anna", help="the player's seat (default Anna)")
    args = parser.parse_args(argv)
    session = Session(seed=args.seed, me=args.seat, solver=Solver(DEFAULT_TT_MB))
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in KINDS.values()}
    clock = [time.perf_counter(), time.process_time()]

    def reset() -> None:
        clock[:] = [time.perf_counter(), time.process_time()]

    def player(ask: Ask[Any]) -> Any:
        answer = ask.advice()
        reset()
        return answer

    def tell(e: Event) -> None:
        wall, cpu = time.perf_counter() - clock[0], time.process_time() - clock[1]
        kind = KINDS.get(type(e))
        if kind is not None and getattr(e, "seat", None) != args.seat:
            times[kind].append((wall, cpu))
        reset()

    while len(session.reviews) < args.hands:
        reset()
        session.play(player, tell)
    print(f"practice: {args.hands} hands of seed {args.seed}, {session.deals} deals; samples "
          f"{PRACTICE_SAMPLES.text()}; seconds per computer decision (goal: under {GOAL_SECONDS:g} s)")
    worst = {"wall": 0.0, "cpu": 0.0}
    for kind, pairs in times.items():
        if not pairs:
            continue
        for i, clock_name in enumerate(("wall", "cpu")):
            ts = sorted(p[i] for p in pairs)
            p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
            worst[clock_name] = max(worst[clock_name], ts[-1])
            print(f"  {kind:<8} {clock_name:<4} {len(ts):>5} decisions  median {statistics.median(ts):.3f}  "
                  f"p95 {p95:.3f}  slowest {ts[-1]:.3f}")
    for clock_name, w in worst.items():
        print(f"  slowest of all, {clock_name}: {w:.3f} s ({'within' if w < GOAL_SECONDS else 'over'} the goal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
