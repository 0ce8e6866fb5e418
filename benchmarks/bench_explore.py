"""The time of one step of ``dobbm explore`` over the shipped hands: a card played and the
new position's every legal card valued and rendered, as the command does after each command.

Run from the repository root (it writes nothing):

    python benchmarks/bench_explore.py                 # every shipped hand with its lay-away given
    python benchmarks/bench_explore.py --deals 20      # only the first 20 deals of each file

Each deal is explored from its opening lead with a fresh explorer (no values kept
from before) on one solver with a table of ``--tt-mb`` MiB, as the command owns
one: first the starting position, then each card of the play as recorded, or of
a best line where none is, to the end of the hand.  A step is timed from the
command read to the text printed (here: rendered, not printed).  The figures are
seconds per step: median, 95th percentile and the slowest, with the slowest
step's deal and trick; the goal is every step under 0.2 s on 2 cores.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))   # this tree's package, not whichever one is installed

from dobbm_solver.explore import Explorer  # noqa: E402
from dobbm_solver.handfile import load_hand_file  # noqa: E402
from dobbm_solver.report.explore import position_text  # noqa: E402
from dobbm_solver.solver import DEFAULT_TT_MB, Solver  # noqa: E402

HANDS = ROOT / "hands"
GOAL_SECONDS = 0.2


def shipped_deals(limit: int | None) -> list[tuple[str, object]]:
    """Every deal of the shipped hand files that explore takes (the lay-away given)."""
    out = []
    for path in sorted(HANDS.glob("*.yaml")):
        try:
            deals = load_hand_file(path)
        except ValueError:   # a view for the advice commands, or a hand with a revoke
            continue
        kept = [d for d in deals if not d.needs_discard][:limit]
        out += [(f"{path.name}[{n}]", d) for n, d in enumerate(kept, 1)]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=None, metavar="N",
                        help="only the first N deals of each hand file (default: all)")
    parser.add_argument("--tt-mb", type=int, default=DEFAULT_TT_MB, metavar="MB",
                        help=f"the solver's table in MiB (default: {DEFAULT_TT_MB}, as explore's)")
    args = parser.parse_args(argv)
    solver = Solver(args.tt_mb)
    steps: list[tuple[float, str, int]] = []
    deals = shipped_deals(args.deals)
    for title, deal in deals:
        t0 = time.perf_counter()
        explorer = Explorer(deal, solver)   # type: ignore[arg-type]
        position_text(explorer.position(), title, diagram=True)
        steps.append((time.perf_counter() - t0, title, 1))
        while True:
            pos = explorer.position()
            if pos.finished:
                break
            t0 = time.perf_counter()
            if explorer.ahead:
                explorer.redo()
            else:
                explorer.best()
            pos = explorer.position()
            position_text(pos, title, diagram=True, recorded=explorer.ahead_recorded)
            steps.append((time.perf_counter() - t0, title, pos.trick))
    print(f"{len(deals)} deals, {len(steps)} steps (a card played, every legal card of the next position valued "
          f"and the position rendered), --tt-mb {args.tt_mb}")
    return report_times("step", steps)


def report_times(what: str, timed: list[tuple[float, str, int]]) -> int:
    """Print the median, 95th percentile and slowest of ``timed`` ((seconds, where, trick) each)
    against the goal; the exit code: 0 when every one is under it."""
    times = sorted(t for t, _, _ in timed)
    slowest = max(timed)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"seconds per {what}: median {statistics.median(times):.4f}, 95th percentile {p95:.4f}, "
          f"slowest {slowest[0]:.4f} ({slowest[1]}, trick {slowest[2]})")
    print(f"goal: every {what} under {GOAL_SECONDS} s: {'met' if slowest[0] < GOAL_SECONDS else 'NOT met'}")
    return 0 if slowest[0] < GOAL_SECONDS else 1

if __name__ == "__main__":
    sys.exit(main())
