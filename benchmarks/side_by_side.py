#!/usr/bin/env python
"""dobbm beside DDS (the bridge double-dummy solver, through ``endplay``) in one process, on thread time.

    python benchmarks/side_by_side.py --deals 80 --seed 1
    python benchmarks/side_by_side.py --deals 80 --seed 1 --rounds 3 --json

dobbm solves ``--deals`` random full deals from the opening lead
(:func:`dobbm_solver.dealer.random_deal`, ``random.Random(seed)``); DDS solves
as many random 32-card bridge endings (8 cards a hand, a random trump suit, a
random player on lead; ``random.Random(seed + 1)``).  Both run on this thread,
alternating deal by deal (dobbm's deal, then DDS's ending), so that a change
of load on a shared machine hits both alike; each call is timed on the
thread's CPU clock (``time.thread_time_ns``), not the wall clock.

Two passes: the value alone (dobbm ``Solver.solve``, DDS one optimal card,
``SolveMode.OptimalOne``), then every legal card's value (dobbm
``Solver.solve_all_cards``, DDS ``SolveMode.Default``: every card of the
player on lead).  DDS keeps its transposition table only while it solves the
same board again; here each DDS board follows a different one (the passes
are separate, and with ``--rounds`` above one each round goes through all the
boards), so DDS starts every board on a reset table, as dobbm starts every
deal on a new table generation.  Each deal's time is its median over the
rounds (after one warm-up round, whose results every round must repeat).

Printed: dobbm's time over DDS's for each pass, by the median of the per-deal
times and in total (the four figures), with both sides' medians and totals.
Needs ``endplay`` (``pip install -e ".[bench]"``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent
try:
    import dobbm_solver  # noqa: F401
except ImportError:  # run as a script from a checkout without an install
    sys.path.insert(0, str(ROOT))

from dobbm_solver.deal import Deal  # noqa: E402
from dobbm_solver.dealer import DEFAULT_SEATS, random_deal  # noqa: E402
from dobbm_solver.solver import Solver  # noqa: E402

HAND_CARDS = 8
SUITS = "SHDC"
RANKS = "AKQJT98765432"


def bridge_ending(rng: random.Random) -> Any:
    """A random 32-card bridge ending: 8 random cards a hand, a random trump suit and leader."""
    from endplay import types

    cards = rng.sample([(s, r) for s in range(4) for r in range(13)], 4 * HAND_CARDS)
    hands = []
    for h in range(4):
        mine = cards[h * HAND_CARDS:(h + 1) * HAND_CARDS]
        hands.append(".".join("".join(RANKS[r] for r in sorted(r for s2, r in mine if s2 == s))
                              for s in range(4)))
    trump = (types.Denom.spades, types.Denom.hearts, types.Denom.diamonds, types.Denom.clubs)[rng.randrange(4)]
    first = (types.Player.north, types.Player.east, types.Player.south, types.Player.west)[rng.randrange(4)]
    return types.Deal("N:" + " ".join(hands), first=first, trump=trump)


def dobbm_deals(seed: int, count: int) -> list[Deal]:
    rng = random.Random(seed)
    return [random_deal(rng, DEFAULT_SEATS) for _ in range(count)]


def bridge_endings(seed: int, count: int) -> list[Any]:
    rng = random.Random(seed + 1)
    return [bridge_ending(rng) for _ in range(count)]


def one_round(a_call: Callable[[Any], Any], a_deals: Sequence[Any], b_call: Callable[[Any], Any],
              b_deals: Sequence[Any]) -> tuple[list[Any], list[Any], list[int], list[int]]:
    """One pass over the deals, A's deal then B's in turn: both results and thread times (ns)."""
    got_a, got_b, t_a, t_b = [], [], [], []
    for a, b in zip(a_deals, b_deals):
        t0 = time.thread_time_ns()
        got_a.append(a_call(a))
        t1 = time.thread_time_ns()
        got_b.append(b_call(b))
        t2 = time.thread_time_ns()
        t_a.append(t1 - t0)
        t_b.append(t2 - t1)
    return got_a, got_b, t_a, t_b


def alternate(a_call: Callable[[Any], Any], a_deals: Sequence[Any], b_call: Callable[[Any], Any],
              b_deals: Sequence[Any], rounds: int) -> tuple[list[float], list[float]]:
    """Per-deal thread times (seconds, median over ``rounds`` after a warm-up) of A and B, alternating."""
    want_a, want_b, _, _ = one_round(a_call, a_deals, b_call, b_deals)
    times_a: list[list[int]] = []
    times_b: list[list[int]] = []
    for _ in range(rounds):
        got_a, got_b, t_a, t_b = one_round(a_call, a_deals, b_call, b_deals)
        if got_a != want_a or got_b != want_b:
            raise RuntimeError("a round's results differ from the warm-up's")
        times_a.append(t_a)
        times_b.append(t_b)
    return ([statistics.median(ts) / 1e9 for ts in zip(*times_a)],
            [statistics.median(ts) / 1e9 for ts in zip(*times_b)])


def figures(dobbm: list[float], dds: list[float]) -> dict[str, float]:
    return {
        "dobbm_ms_median": round(1000 * statistics.median(dobbm), 4),
        "dds_ms_median": round(1000 * statistics.median(dds), 4),
        "dobbm_s_total": round(sum(dobbm), 4),
        "dds_s_total": round(sum(dds), 4),
        "ratio_by_median": round(statistics.median(dobbm) / statistics.median(dds), 3),
        "ratio_in_total": round(sum(dobbm) / sum(dds), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=80, help="deals of each game (default 80)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="timed rounds after the warm-up; a deal's time is its median (default 1)")
    parser.add_argument("--tt-mb", type=int, default=64, help="dobbm's table in MiB (default 64)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.rounds < 1:
        parser.error("--deals and --rounds must be at least 1")
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
    except ImportError:
        print("side_by_side: needs endplay (pip install -e \".[bench]\")", file=sys.stderr)
        return 2

    def dds_value(deal: Any) -> int:
        return max(tricks for _, tricks in solve_board(deal, SolveMode.OptimalOne))

    def dds_every_card(deal: Any) -> list[tuple[str, int]]:
        return [(str(card), tricks) for card, tricks in solve_board(deal, SolveMode.Default)]

    solver = Solver(tt_mb=args.tt_mb)
    deals = dobbm_deals(args.seed, args.deals)
    endings = bridge_endings(args.seed, args.deals)
    value = figures(*alternate(lambda d: solver.solve(d).declarer_points, deals, dds_value, endings,
                               args.rounds))
    every = figures(*alternate(solver.solve_all_cards, deals, dds_every_card, endings, args.rounds))
    out = {"deals": args.deals, "seed": args.seed, "rounds": args.rounds, "value": value,
           "every_card": every}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{args.deals} dobbm deals beside {args.deals} DDS endings, seed {args.seed}, "
          f"{args.rounds} round(s), thread time")
    for name, f in (("value", value), ("every card", every)):
        print(f"{name:>10}: dobbm/DDS by median {f['ratio_by_median']:.3f}, in total {f['ratio_in_total']:.3f}"
              f"  (dobbm median {f['dobbm_ms_median']:.3f} ms, total {f['dobbm_s_total']:.3f} s; "
              f"DDS median {f['dds_ms_median']:.3f} ms, total {f['dds_s_total']:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
