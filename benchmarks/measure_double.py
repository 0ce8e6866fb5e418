"""Is `dobbm double` worth following? Paired against never doubling, on seeded deals.

    python benchmarks/measure_double.py --deals 40 --contract solo [--flat-lapse] [--answer]

Each deal is dealt at random (``random.Random(seed)``) and bid by the bidding
model itself, forehand first, until someone declares; deals whose contract is
not ``--contract`` are redealt.  The first defender after the declarer asks
``analyze_double`` from their own 8 cards and the auction.  The advice is then
realised by open-card play of the real deal: the defender's own settlement,
``-units(points, contract, doublings)``, with one doubling if the advice was
to double.  Printed: the mean of (advice - never doubling) per hand in units,
with its standard error over the deals (paired: the same deal, the same play).
With ``--answer`` the declarer answers a double as the tool advises: it asks
``analyze_double`` from its own cards (with the Dobb and lay-away) facing
the Schwacher, and a Retour doubles once more (the defenders do not answer
back: at most 2 doublings, as in the arena); the figure without the Retour
is printed too.  ``--flat-lapse`` restores
the old bidding lapse (each bid at least 5% / 3) to measure what the
base-rate lapse changed.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from measure_errors import SEATS, model_deal

from dobbm_solver.analyzer import analyze_double, make_view, sampling
from dobbm_solver.cards import set_names
from dobbm_solver.deal import Deal
from dobbm_solver.handfile import parse_specs
from dobbm_solver.models import bidding
from dobbm_solver.rules import units
from dobbm_solver.solver import Solver


def _view_text(deal: Deal, me: str, bids: list[tuple[str, str]]) -> str:
    bid_list = ", ".join(f"{{{s}: {b}}}" for s, b in bids)
    return (f"seats: [{', '.join(SEATS)}]\ndealer: Dave\nme: {me}\ndeclarer: {deal.declarer}\n"
            f"contract: {deal.contract}\nbids: [{bid_list}]\n"
            f"hands:\n  {me}: {' '.join(set_names(deal.hands[me]))}\n")


def _view(deal: Deal, me: str, bids: list[tuple[str, str]], doublings: int = 0):
    text = _view_text(deal, me, bids)
    if doublings:
        text += f"doublings: {doublings}\n"
        if deal.discard is not None:
            text += f"dobb: {' '.join(set_names(deal.dobb))}\ndiscard: {' '.join(set_names(deal.discard))}\n"
    [spec] = parse_specs(text, "deal")
    return make_view(spec, "double")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--contract", choices=["solo", "dobbm"], default="solo")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--flat-lapse", action="store_true")
    ap.add_argument("--answer", action="store_true", help="the declarer answers a double by the advice")
    args = ap.parse_args()
    if args.flat_lapse:
        def flat(kind: str, hand: int, turn: int | None = None) -> float:
            return (1 - bidding.BID_LAPSE) * bidding.model_likelihood(kind, hand, turn) + bidding.BID_LAPSE / 3
        sampling.bid_likelihood = flat   # where the sampler reads it
    rng = random.Random(args.seed)
    solver = Solver()
    diffs, once, doubled, retoured = [], [], 0, 0
    for n in range(args.deals):
        deal, bids = model_deal(rng, args.contract)
        me = SEATS[(SEATS.index(deal.declarer) + 1) % 4]
        advice = analyze_double(_view(deal, me, bids), seed=n, jobs=args.jobs)
        points = solver.solve(deal).declarer_points
        play_on = -units(points, deal.contract, 0)
        k = 0
        if advice.recommendation == "double":
            doubled += 1
            k = 1
            if args.answer:
                answer = analyze_double(_view(deal, deal.declarer, bids, 1), seed=n, jobs=args.jobs)
                if answer.recommendation == "retour":
                    retoured += 1
                    k = 2
        chosen = -units(points, deal.contract, k)
        once.append(-units(points, deal.contract, min(k, 1)) - play_on)
        diffs.append(chosen - play_on)
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs))
    lapse = "flat lapse" if args.flat_lapse else "base-rate lapse"
    answered = f", the declarer's Retour {retoured}" if args.answer else ""
    print(f"{args.contract}, {lapse}: {len(diffs)} deals, doubled {doubled}{answered}; "
          f"advice - never doubling = {mean:+.2f} ± {se:.2f} defender units a hand")
    if args.answer:
        print(f"  (the Retour not played: {statistics.fmean(once):+.2f} ± "
              f"{statistics.stdev(once) / math.sqrt(len(once)):.2f})")


if __name__ == "__main__":
    main()
