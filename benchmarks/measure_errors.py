"""Are the reported standard errors honest?  Each command's spread over seeds against its error.

    python benchmarks/measure_errors.py --command discard --views 8 --seeds 20 [--jobs 2]

For each of ``--views`` seeded views (dealt at random and bid by the bidding
model, as :mod:`measure_double` does) the command runs at its defaults with
seeds 1..``--seeds``.  For every option that is estimated in every run, its
z-scores ``(ev - mean over seeds) / stderr`` are pooled over views: the
printed ratio is the root mean square of the z-scores (corrected for the
mean taken out), i.e. the spread over seeds in units of the reported error.
An honest error gives 1; 0.8-1.2 is the band asked for.  Its own standard
error comes from resampling the views (bootstrap).  Printed for every option
("all"), for the options solved on the run's full sample count in every run
("distance"), and for the option each run recommends ("recommended": the
run's top row, whatever it is), in expected units and in expected points.

With 20 seeds one view's ratio alone has a standard error of about 16%,
hence the pooling over views.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from typing import Any, Callable

from dobbm_solver.analyzer import (
    Advice,
    analyze_bid,
    analyze_discard,
    analyze_double,
    analyze_play,
    make_view,
)
from dobbm_solver.cards import set_names
from dobbm_solver.deal import Deal
from dobbm_solver.dealer import deal_cards
from dobbm_solver.handfile import parse_spec
from dobbm_solver.models.bidding import bid_probabilities
from dobbm_solver.models.discard_rule import heuristic_discard

SEATS = ("Anna", "Bert", "Cora", "Dave")
ANALYZE: dict[str, Callable[..., Advice]] = {"bid": analyze_bid, "discard": analyze_discard,
                                             "double": analyze_double, "play": analyze_play}


def _names(cs: int) -> str:
    return " ".join(set_names(cs))


def model_auction(rng: random.Random, hands: list[int]) -> list[tuple[str, str]]:
    """Bids drawn from the bidding model, Anna forehand (Dave dealt), until a Solo or the round ends."""
    bids: list[tuple[str, str]] = []
    dobbm_said = False
    for i, seat in enumerate(SEATS):
        p = bid_probabilities(hands[i], dobbm_said=dobbm_said, turn=i)
        bid = rng.choices(list(p), weights=list(p.values()))[0]
        bids.append((seat, bid))
        if bid == "solo":
            break
        dobbm_said = dobbm_said or bid == "dobbm"
    return bids


def model_deal(rng: random.Random, contract: str) -> tuple[Deal, list[tuple[str, str]]]:
    """A random deal whose auction, drawn from the bidding model, ends in ``contract``; a
    Dobbm declarer lays away ``heuristic_discard``."""
    while True:
        order = list(range(36))
        rng.shuffle(order)
        hands, dobb = deal_cards(order, 4)
        bids = model_auction(rng, hands)
        said = [(s, b) for s, b in bids if b != "pass"]
        if not said or said[-1][1] != contract:
            continue
        declarer = said[-1][0]
        held = dict(zip(SEATS, hands))
        discard = None
        if contract == "dobbm":
            twelve = held[declarer] | dobb
            discard = heuristic_discard(twelve)
            held[declarer] = twelve & ~discard
        return Deal(seats=SEATS, declarer=declarer, contract=contract, hands=held, dobb=dobb, discard=discard,
                    tricks=(), doublings=0, dealer="Dave"), bids


def make_doc(command: str, rng: random.Random, full: bool = False) -> dict[str, Any]:
    """A seeded view document for ``command``: a deal, bid by the model, seen from one seat.

    ``full`` (``discard`` only): ``{"view": the document, "deal": the real deal}``,
    the Dobbm with the 8 dealt cards and no lay-away yet."""
    while True:
        order = list(range(36))
        rng.shuffle(order)
        hands, dobb = deal_cards(order, 4)
        held = dict(zip(SEATS, hands))
        doc: dict[str, Any] = {"seats": list(SEATS), "dealer": "Dave"}
        if command == "bid":
            seat = SEATS[rng.randrange(4)]
            bids = model_auction(rng, hands)[:SEATS.index(seat)]
            if any(b == "solo" for _, b in bids):
                continue
            doc.update(me=seat, bids=[{s: b} for s, b in bids], hands={seat: _names(held[seat])})
            return doc
        bids = model_auction(rng, hands)
        said = [(s, b) for s, b in bids if b != "pass"]
        if not said:
            continue
        declarer, contract = said[-1]
        doc["bids"] = [{s: b} for s, b in bids]
        if command == "discard":
            if contract != "dobbm":
                continue
            doc.update(me=declarer, hands={declarer: _names(held[declarer])}, dobb=_names(dobb))
            if full:
                return {"view": doc, "deal": Deal(seats=SEATS, declarer=declarer, contract="dobbm", hands=held,
                                                  dobb=dobb, discard=None, tricks=(), doublings=0, dealer="Dave")}
            return doc
        doc.update(declarer=declarer, contract=contract)
        if command == "double":
            me = SEATS[(SEATS.index(declarer) + 1 + rng.randrange(3)) % 4]
            doc.update(me=me, hands={me: _names(held[me])})
            return doc
        # play: the declarer's opening lead
        mine = held[declarer]
        if contract == "dobbm":
            discard = heuristic_discard(mine | dobb)
            mine = (mine | dobb) & ~discard
            doc.update(dobb=_names(dobb), discard=_names(discard))
        doc.update(me=declarer, hands={declarer: _names(mine)})
        return doc


def _z_ratio(groups: list[list[tuple[float, float]]]) -> float:
    """Root mean square z-score over groups of (estimate, stderr), each group's mean removed."""
    ss = 0.0
    dof = 0
    for g in groups:
        m = statistics.fmean(e for e, _ in g)
        ss += sum(((e - m) / s) ** 2 for e, s in g)
        dof += len(g) - 1
    return math.sqrt(ss / dof) if dof else float("nan")


def _with_bootstrap(groups_by_view: list[list[list[tuple[float, float]]]], rng: random.Random) -> str:
    flat = [g for v in groups_by_view for g in v]
    if not flat:
        return "no option in every run"
    r = _z_ratio(flat)
    boots = []
    for _ in range(400):
        pick = [groups_by_view[rng.randrange(len(groups_by_view))] for _ in groups_by_view]
        b = _z_ratio([g for v in pick for g in v])
        if not math.isnan(b):
            boots.append(b)
    return f"{r:.2f} ± {statistics.stdev(boots):.2f} ({len(flat)} options)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--command", choices=sorted(ANALYZE), required=True)
    ap.add_argument("--views", type=int, default=8)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1, help="seed of the views")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--samples", type=int, default=None, help="fixed samples (default: adaptive)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    kinds = ("all", "distance", "recommended")
    units: dict[str, list[list[list[tuple[float, float]]]]] = {k: [] for k in kinds}
    points: dict[str, list[list[list[tuple[float, float]]]]] = {k: [] for k in kinds}
    for v in range(args.views):
        doc = make_doc(args.command, rng)
        view = make_view(parse_spec(doc, f"view{v}"), args.command)
        analyze = ANALYZE[args.command]
        runs = [analyze(view, samples=args.samples, seed=s, jobs=args.jobs) for s in range(1, args.seeds + 1)]
        per_option: dict[str, list[tuple[Any, ...]]] = {}
        for adv in runs:
            for o in adv.options:
                per_option.setdefault(repr(o.option), []).append(
                    (o.ev_units, o.stderr_units, o.expected_points, o.stderr, o.samples == adv.samples))
        full = [rows for rows in per_option.values() if len(rows) == len(runs)]
        distance = [rows for rows in full if all(r[4] for r in rows)]
        for kind, chosen in (("all", full), ("distance", distance)):
            units[kind].append([[(r[0], r[1]) for r in rows] for rows in chosen if all(r[1] for r in rows)])
            points[kind].append([[(r[2], r[3]) for r in rows] for rows in chosen if all(r[3] for r in rows)])
        top = [adv.options[0] for adv in runs]
        units["recommended"].append([[(o.ev_units, o.stderr_units) for o in top]]
                                    if all(o.stderr_units for o in top) else [])
        points["recommended"].append([[(o.expected_points, o.stderr) for o in top]]
                                     if all(o.stderr for o in top) else [])
        recs = sorted({repr(a.recommendation) for a in runs})
        ratio = _z_ratio(units["all"][-1])
        print(f"view {v}: {len(full)} options in every run, ratio {ratio:.2f}; "
              f"recommendations: {len(recs)} distinct", flush=True)
    brng = random.Random(0)
    for kind in kinds:
        print(f"{args.command} {kind}: spread / reported error, units {_with_bootstrap(units[kind], brng)}; "
              f"points {_with_bootstrap(points[kind], brng)}")


if __name__ == "__main__":
    main()
