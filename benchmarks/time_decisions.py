"""How long the advice takes a decision at its defaults: ``bid``, ``discard`` and ``play``.

    python benchmarks/time_decisions.py --views 12 --jobs 2 [--budget-ms MS] [--command play]

For each command, ``--views`` seeded views (dealt at random and bid by the
bidding model, as :mod:`measure_errors` makes them: a bidder at a random
seat, a Dobbm declarer with the Dobb, the declarer's opening lead) are
analysed at the command's defaults (adaptive samples) with ``--jobs`` workers
and seed 1.  Printed per command: the wall-clock seconds a decision (mean,
median, the slowest), how many took over 1 s, and the samples used.  With
``--budget-ms`` each analysis also has that time budget; with ``--infer``
``play`` reads the play, on views after 3 tricks played by the rule of thumb.  The load average
is printed before and after: on a machine shared with other work the times
are upper bounds of what the decisions cost alone.  The CPU seconds (every
worker's) divided by the workers bound the wall time on idle cores.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import replace
from typing import Any

from measure_errors import ANALYZE, SEATS, make_doc, model_deal

from dobbm_solver.analyzer import make_view
from dobbm_solver.cards import card_name, cardset, set_names
from dobbm_solver.deal import replay
from dobbm_solver.handfile import parse_spec
from dobbm_solver.playout import play_hand, rule_of_thumb_strategy

COMMANDS = ("bid", "discard", "play")


def midplay_doc(rng: random.Random, tricks: int = 3) -> dict[str, Any]:
    """A play view after ``tricks`` tricks played out by the rule of thumb, seen by the seat
    to play (the cards played are what inference reads)."""
    while True:
        deal, bids = model_deal(rng, "dobbm" if rng.random() < 0.8 else "solo")
        strategies = {s: rule_of_thumb_strategy() for s in deal.active_seats}
        played = play_hand(deal, strategies)
        tricks_so_far = played.tricks[:tricks]
        now = replace(deal, tricks=tricks_so_far)
        state = replay(now, check=False)
        me = state.to_move
        assert me is not None
        left = {s: deal.hands[s] & ~cardset(c for t in tricks_so_far for c in t) for s in deal.hands}
        doc: dict[str, Any] = {"seats": list(SEATS), "dealer": "Dave", "bids": [{s: b} for s, b in bids],
                               "declarer": deal.declarer, "contract": deal.contract, "me": me,
                               "hands": {me: " ".join(set_names(left[me]))},
                               "tricks": [" ".join(card_name(c) for c in t) for t in tricks_so_far]}
        if deal.contract == "dobbm" and me == deal.declarer:
            assert deal.discard is not None
            doc.update(dobb=" ".join(set_names(deal.dobb)), discard=" ".join(set_names(deal.discard)))
        return doc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--views", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1, help="seeds the views (the analyses use seed 1)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget-ms", type=int, default=None)
    ap.add_argument("--command", choices=COMMANDS, action="append")
    ap.add_argument("--infer", action="store_true", help="play reads the play (a mid-hand view: after trick 3)")
    args = ap.parse_args()
    budget = None if args.budget_ms is None else args.budget_ms / 1000.0
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    for command in args.command or COMMANDS:
        rng = random.Random(f"time:{command}:{args.seed}")
        seconds, cpu, samples = [], [], []
        for _ in range(args.views):
            doc = make_doc(command, rng) if command != "play" or not args.infer else midplay_doc(rng)
            view = make_view(parse_spec(doc), command)
            extra = {"inference": True} if command == "play" and args.infer else {}
            t0, c0 = time.perf_counter(), time.process_time()
            advice = ANALYZE[command](view, seed=1, jobs=args.jobs, budget_s=budget, **extra)
            seconds.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            samples.append(advice.samples)
        over = sum(s > 1.0 for s in seconds)
        print(f"{command:8} {len(seconds)} views: {statistics.fmean(seconds):.3f} s mean, "
              f"{statistics.median(seconds):.3f} median, {max(seconds):.3f} slowest, {over} over 1 s; "
              f"CPU {statistics.fmean(cpu):.3f} s mean, {max(cpu):.3f} most; "
              f"samples {statistics.fmean(samples):.0f} mean ({min(samples)}-{max(samples)})")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
