"""Does the bidding model describe the arena's own bidders?  And the sampler, its declarers?

    python benchmarks/measure_inference.py --deals 600 [--seed 1] [--jobs 2] [--strategy advice]

Deals ``--deals`` arena tables (``arena.game.deal_table``) and bids each with
every seat playing ``--strategy`` (the arena's ``advice``: ``analyze_bid`` at
the arena's sample count; ``model``: bids drawn from the bidding model
itself, where the sampler must be exact), forehand first, up to a Solo.  Then:

1. **The bids against the model.**  By hand strength, how often the seats bid
   Dobbm and Solo, next to the model's probabilities for the same hands
   (``bid_probabilities``, lapses included), with the z-score of the
   difference; and the model refitted to these bids by maximum likelihood
   (thresholds and spread), with the mean log-likelihood per bid of both.
   ``--base-rates HANDS`` prints instead the model's base rates
   (``BID_BASE_RATE``) over random hands, for the constants it has.
2. **The sampler against the truth.**  For every deal that ends in a game, the
   first defender's view (as ``double`` sees it) is sampled once; the
   sampled declarer's strength is set against the real declarer's, by
   contract: means with standard errors, and quartiles.  If the model
   describes the bidders, the two agree.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from multiprocessing import Pool
from typing import Any

from dobbm_solver.analyzer import bid_probabilities, bidding, make_view
from dobbm_solver.analyzer.sampling import sampler_for
from dobbm_solver.arena.decisions import Env, decide_bid
from dobbm_solver.arena.game import bidding_order, deal_table
from dobbm_solver.arena.strategies import ARENA_SAMPLES
from dobbm_solver.cards import HAND_SIZE, NUM_CARDS, cardset, set_names
from dobbm_solver.handfile import parse_spec
from dobbm_solver.heuristics import hand_strength
from dobbm_solver.solver import Solver

BUCKETS = (0, 8, 10, 12, 14, 16, 18, 20, 22, 24, 99)
_env: Env | None = None


def one(args: tuple[int, int, str]) -> dict[str, Any]:
    """One table's auction: each bid with its strength, and the sampler's declarer."""
    global _env
    seed, index, strategy = args
    if _env is None:
        _env = Env(Solver(16), ARENA_SAMPLES)
    table = deal_table(seed, index)
    bids: tuple[tuple[str, str], ...] = ()
    rows = []
    rng = random.Random(f"measure-inference:{seed}:{index}")
    for seat in bidding_order(table):
        said = any(b == "dobbm" for _, b in bids)
        if strategy == "model":
            bid = _model_draw(rng, table.hands[seat], said, len(bids))
        else:
            bid = decide_bid(strategy, table, _env, seat, bids)
        rows.append((hand_strength(table.hands[seat]), said, bid, len(bids)))
        bids += ((seat, bid),)
        if bid == "solo":
            break
    out: dict[str, Any] = {"bids": rows}
    games = [(s, b) for s, b in bids if b != "pass"]
    if games:
        declarer, contract = games[-1]
        seats = table.seats
        me = seats[(seats.index(declarer) + 1) % len(seats)]
        doc = {"seats": list(seats), "dealer": table.dealer, "me": me, "declarer": declarer,
               "contract": contract, "bids": [{s: b} for s, b in bids],
               "hands": {me: " ".join(set_names(table.hands[me]))}}
        view = make_view(parse_spec(doc, "<inference>"), "double")
        _, dealt, _ = sampler_for(view).sample(index, 0)
        out.update(contract=contract, true=hand_strength(table.hands[declarer]),
                   sampled=hand_strength(dealt[declarer]))
    return out


def _model_draw(rng: random.Random, hand: int, said: bool, turn: int) -> str:
    """A bid drawn from the bidding model itself, lapses included."""
    p = bidding.bid_probabilities(hand, dobbm_said=said, turn=turn)
    if rng.random() < bidding.BID_LAPSE:
        p = {b: bidding.BID_BASE_RATE[_kind(said, b)] for b in p}
    return rng.choices(list(p), weights=list(p.values()))[0]


def _probabilities(strength: float, said: bool, t_dobbm: float, t_solo: float, spread: float,
                   lapse: float | None = None) -> dict[str, float]:
    sig = bidding.logistic
    ps = sig((strength - t_solo) / spread)
    if said:
        p = {"pass": 1.0 - ps, "solo": ps}
    else:
        pd = sig((strength - t_dobbm) / spread)
        p = {"pass": 1.0 - pd, "dobbm": max(0.0, pd - ps), "solo": ps}
    lapse = bidding.BID_LAPSE if lapse is None else lapse
    base = bidding.BID_BASE_RATE
    kind = {"pass": bidding.KIND_NOT_SOLO if said else bidding.KIND_PASS,
            "dobbm": bidding.KIND_DOBBM, "solo": bidding.KIND_SOLO}
    return {k: (1 - lapse) * v + lapse * base[kind[k]] for k, v in p.items()}


def _loglik(rows: list[tuple[float, bool, str]], t_dobbm: float, t_solo: float, spread: float,
            lapse: float | None = None) -> float:
    return sum(math.log(max(1e-12, _probabilities(s, said, t_dobbm, t_solo, spread, lapse)[b]))
               for s, said, b in rows) / len(rows)


def _refit(rows: list[tuple[float, bool, str]]) -> tuple[float, float, float, float]:
    """Maximum likelihood thresholds, spread and lapse, by coordinate search."""
    best = [bidding.BID_DOBBM_THRESHOLD, bidding.BID_SOLO_THRESHOLD, bidding.BID_SPREAD, bidding.BID_LAPSE]
    step = [2.0, 2.0, 0.5, 0.02]
    for _ in range(8):
        for axis in range(4):
            cands = []
            for k in range(-4, 5):
                c = list(best)
                c[axis] += step[axis] * k / 4
                if c[2] > 0.1 and 0.001 <= c[3] <= 0.5:
                    cands.append(c)
            best = max(cands, key=lambda c: _loglik(rows, c[0], c[1], c[2], c[3]))
        step = [x / 2 for x in step]
    return best[0], best[1], best[2], best[3]


def _bucket(s: float) -> str:
    for lo, hi in zip(BUCKETS, BUCKETS[1:]):
        if lo <= s < hi:
            return f"{lo:2d}-{hi:2d}" if hi < 99 else f"{lo:2d}+  "
    return "?"


def report_bids(rows: list[tuple[float, bool, str]]) -> None:
    print("bids with no Dobbm said before: strength, hands, observed vs model (z)")
    for lo, hi in zip(BUCKETS, BUCKETS[1:]):
        got = [r for r in rows if not r[1] and lo <= r[0] < hi]
        if not got:
            continue
        line = f"  {_bucket(got[0][0])} n={len(got):4d}"
        for kind in ("dobbm", "solo"):
            obs = sum(r[2] == kind for r in got) / len(got)
            pred = statistics.fmean(bid_probabilities_with_lapse(r[0], False)[kind] for r in got)
            z = (obs - pred) / math.sqrt(max(1e-9, pred * (1 - pred) / len(got)))
            line += f"  {kind} {obs:5.3f} vs {pred:5.3f} ({z:+.1f})"
        print(line)
    said = [r for r in rows if r[1]]
    if said:
        obs = sum(r[2] == "solo" for r in said) / len(said)
        pred = statistics.fmean(bid_probabilities_with_lapse(r[0], True)["solo"] for r in said)
        print(f"  after a Dobbm: n={len(said)} solo {obs:.3f} vs {pred:.3f}")
    model = (bidding.BID_DOBBM_THRESHOLD, bidding.BID_SOLO_THRESHOLD, bidding.BID_SPREAD, bidding.BID_LAPSE)
    fit = _refit(rows)
    for name, m in (("model", model), ("refit", fit)):
        print(f"{name}  thresholds dobbm {m[0]:.2f} solo {m[1]:.2f} spread {m[2]:.2f} lapse {m[3]:.3f}: "
              f"log-likelihood {_loglik(rows, *m):.4f} a bid ({len(rows)} bids)")


def bid_probabilities_with_lapse(strength: float, said: bool) -> dict[str, float]:
    return _probabilities(strength, said, bidding.BID_DOBBM_THRESHOLD, bidding.BID_SOLO_THRESHOLD,
                          bidding.BID_SPREAD)


def report_sampler(games: list[dict[str, Any]]) -> None:
    print("declarer's strength, real vs sampled from the first defender's view")
    for contract in ("dobbm", "solo"):
        got = [g for g in games if g["contract"] == contract]
        if len(got) < 2:
            continue
        parts = []
        for key in ("true", "sampled"):
            xs = [g[key] for g in got]
            q = statistics.quantiles(xs, n=4)
            parts.append(f"{key} {statistics.fmean(xs):5.2f} ± {statistics.stdev(xs) / math.sqrt(len(xs)):.2f} "
                         f"(quartiles {q[0]:.1f} {q[1]:.1f} {q[2]:.1f})")
        d = [g["sampled"] - g["true"] for g in got]
        print(f"  {contract:5s} n={len(got):4d}  " + "; ".join(parts)
              + f"; sampled - real {statistics.fmean(d):+.2f} ± {statistics.stdev(d) / math.sqrt(len(d)):.2f}")


def _kind(said: bool, bid: str) -> str:
    if bid == "pass":
        return bidding.KIND_NOT_SOLO if said else bidding.KIND_PASS
    return bidding.KIND_DOBBM if bid == "dobbm" else bidding.KIND_SOLO


def base_rates(hands: int, seed: int) -> dict[str, float]:
    """The model's likelihood of each kind of bid averaged over ``hands`` random 8-card
    hands: ``analyzer.bidding.BID_BASE_RATE`` for the model's present constants."""
    rng = random.Random(seed)
    deck = list(range(NUM_CARDS))
    totals = dict.fromkeys(bidding.BID_BASE_RATE, 0.0)
    for _ in range(hands):
        s = hand_strength(cardset(rng.sample(deck, HAND_SIZE)))
        for kind in totals:
            totals[kind] += bidding.model_likelihood(kind, s)
    return {k: round(v / hands, 4) for k, v in totals.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--strategy", choices=["advice", "rule", "open", "model"], default="advice",
                    help="the bidders: an arena strategy, or 'model' (bids drawn from the bidding model)")
    ap.add_argument("--base-rates", type=int, metavar="HANDS", default=0,
                    help="only print the model's base rates over HANDS random hands (two seeds)")
    args = ap.parse_args()
    if args.base_rates:
        for seed in (1, 2):
            print(f"base rates, seed {seed}: {base_rates(args.base_rates, seed)}")
        return
    work = [(args.seed, i, args.strategy) for i in range(args.deals)]
    with Pool(args.jobs) as pool:
        tables = pool.map(one, work, chunksize=4)
    rows = [tuple(r[:3]) for t in tables for r in t["bids"]]
    print(f"{args.deals} deals, {len(rows)} bids by '{args.strategy}' "
          f"(bid samples {ARENA_SAMPLES.bid}); model {bid_probabilities.__module__}")
    report_bids(rows)
    turn_model = [math.log(bidding.bid_likelihood(_kind(said, b), s, turn))
                  for t in tables for s, said, b, turn in t["bids"]]
    print(f"the model with its thresholds by turn: log-likelihood {statistics.fmean(turn_model):.4f} a bid")
    for pos in range(4):
        mine = [tuple(r[:3]) for t in tables for r in t["bids"] if r[3] == pos]
        if len(mine) > 20:
            fit = _refit(mine)
            print(f"  bidder {pos + 1} of the round: {len(mine)} bids, refit dobbm {fit[0]:.2f} solo {fit[1]:.2f} "
                  f"spread {fit[2]:.2f} lapse {fit[3]:.3f}")
    report_sampler([t for t in tables if "contract" in t])


if __name__ == "__main__":
    main()
