"""Does the bidding model describe the arena's own bidders?  And the sampler, its declarers?

    python benchmarks/measure_inference.py --deals 600 [--seed 1] [--jobs 2] [--strategy advice]
        [--samples 1] [--save FILE]
    python benchmarks/measure_inference.py --fit FILE [FILE ...] [--holdout FILE] [--fit-solo]
    python benchmarks/measure_inference.py --resample FILE [--samples 4] [--jobs 2]

Deals ``--deals`` arena tables (``arena.game.deal_board``) and bids each with
every seat playing ``--strategy`` (the arena's ``advice``: ``analyze_bid`` at
the arena's sample count; ``model``: bids drawn from the bidding model
itself, where the sampler must be exact), forehand first, up to a Solo.  Then:

1. **The bids against the model.**  By hand strength, how often the seats bid
   Dobbm and Solo, next to the model's probabilities for the same hands
   (``bid_likelihood`` of each hand's ``bid_score`` at its turn, lapses
   included), with the z-score of the difference; the mean strength of the
   Dobbm bidders against the model's expectation over the same hands; and
   the model's mean log-likelihood a bid.
2. **The sampler against the truth.**  For every deal that ends in a game, the
   first defender's view (as ``double`` sees it) is sampled ``--samples``
   times; the sampled declarers' mean strength is set against the real
   declarer's, by contract: means with standard errors, and quartiles.  If
   the model describes the bidders, the two agree.

``--save FILE`` writes every bid with its 8 cards; ``--fit FILE`` then refits
the model (thresholds by turn, Solo threshold, both spreads) by maximum
likelihood to those bids, with the bid score ``hand_strength`` alone or plus
one or two of :data:`FEATURES`, and prints the log-likelihood a bid of each
fit (and on the bids of ``--holdout FILE``): how ``models.bidding``'s
score weights were chosen.  ``--resample FILE`` samples the declarers of the
saved auctions again under the model in place (part 2 alone, without bidding
again).  ``--base-rates HANDS`` prints the model's base
rates (``BID_BASE_RATE``) over random hands, for the constants it has.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from itertools import combinations
from multiprocessing import Pool
from typing import Any, Sequence

from dobbm_solver.analyzer import View
from dobbm_solver.analyzer.sampling import sampler_for
from dobbm_solver.arena.decisions import Env, decide_bid
from dobbm_solver.arena.game import bidding_order, deal_board
from dobbm_solver.arena.strategies import ARENA_SAMPLES
from dobbm_solver.cards import (
    BB_PLAIN_SAUS,
    BB_SUITS,
    BB_TRUMPS,
    HAND_SIZE,
    NUM_CARDS,
    cardset,
    popcount,
    set_points,
)
from dobbm_solver.models import bidding
from dobbm_solver.models.bidding import bid_probabilities
from dobbm_solver.models.strength import PLAIN_SUITS, hand_strength
from dobbm_solver.solver import Solver

BUCKETS = (0, 8, 10, 12, 14, 16, 18, 20, 22, 24, 99)
_env: Env | None = None


def one(args: tuple[int, int, str, int]) -> dict[str, Any]:
    """One table's auction: each bid with its strength and hand, and the sampler's declarers
    (the mean strength of ``samples`` of them)."""
    global _env
    seed, index, strategy, samples = args
    if _env is None:
        _env = Env(Solver(16), ARENA_SAMPLES)
    board = deal_board(seed, index)
    bids: tuple[tuple[str, str], ...] = ()
    rows = []
    rng = random.Random(f"measure-inference:{seed}:{index}")
    for seat in bidding_order(board):
        said = any(b == "dobbm" for _, b in bids)
        if strategy == "model":
            bid = _model_draw(rng, board.hands[seat], said, len(bids))
        else:
            bid = decide_bid(strategy, board, _env, seat, bids)
        rows.append((hand_strength(board.hands[seat]), said, bid, len(bids), board.hands[seat]))
        bids += ((seat, bid),)
        if bid == "solo":
            break
    out: dict[str, Any] = {"bids": rows}
    out.update(sampled_declarer(board, index, bids, samples))
    return out


def sampled_declarer(board: Any, index: int, bids: tuple[tuple[str, str], ...], samples: int) -> dict[str, Any]:
    """For an auction that ends in a game: the contract, the real declarer's strength and the
    mean strength of ``samples`` declarers sampled from the first defender's view."""
    out: dict[str, Any] = {}
    games = [(s, b) for s, b in bids if b != "pass"]
    if games:
        declarer, contract = games[-1]
        seats = board.seats
        me = seats[(seats.index(declarer) + 1) % len(seats)]
        view = View.from_seat("double", seats=seats, dealer=board.dealer, me=me, hand=board.hands[me],
                              declarer=declarer, contract=contract, bids=bids, path="<inference>")
        sampler = sampler_for(view)
        sampled = [hand_strength(sampler.sample(index, k)[1][declarer]) for k in range(samples)]
        out.update(contract=contract, true=hand_strength(board.hands[declarer]), sampled=statistics.fmean(sampled))
    return out


def resample_one(args: tuple[int, int, list[str], int]) -> dict[str, Any]:
    """:func:`sampled_declarer` for a saved auction (``--resample``): the bids said at table
    ``index`` of ``seed``, in the bidding order."""
    seed, index, said, samples = args
    board = deal_board(seed, index)
    return sampled_declarer(board, index, tuple(zip(bidding_order(board), said)), samples)


def _model_draw(rng: random.Random, hand: int, said: bool, turn: int) -> str:
    """A bid drawn from the bidding model itself, lapses included."""
    p = bidding.bid_probabilities(hand, dobbm_said=said, turn=turn)
    if rng.random() < bidding.BID_LAPSE:
        p = {b: bidding.BID_BASE_RATE[bid_kind(said, b)] for b in p}
    return rng.choices(list(p), weights=list(p.values()))[0]


Row = tuple[float, bool, str, int, int]    # strength, Dobbm said before, bid, turn, the 8 cards

#: Features of the 8 cards a bid score may add to ``hand_strength`` (``--fit``).
FEATURES = ("trumps", "high_trumps", "plain_saus", "voids", "points")
#: The model's parameters, in order: Dobbm thresholds by turn, Solo threshold,
#: spread, Solo spread, Solo threshold and spread over a Dobbm, then one weight
#: per feature used (the Dobbm score's, then the Solo score's).
PARAMS = ("dobbm_1", "dobbm_2", "dobbm_3", "dobbm_4", "solo", "spread", "solo_spread", "solo_over",
          "solo_over_spread")
#: The features the shipped Dobbm score weighs (``BID_HIGH_TRUMP_WEIGHT``, ``BID_POINTS_WEIGHT``)
#: and those the shipped Solo score weighs (``BID_SOLO_WEIGHTS``).
PLACED = ("high_trumps", "points")
#: The parameters of the Solo decision alone (``--fit-solo``).
SOLO_PARAMS = ("solo", "solo_spread", "solo_over", "solo_over_spread")
SOLO_PLACED = ("plain_saus", "voids")


def hand_features(hand: int) -> tuple[float, ...]:
    """The :data:`FEATURES` of 8 cards."""
    plain = [hand & BB_SUITS[s] for s in PLAIN_SUITS]
    return (float(popcount(hand & BB_TRUMPS)), float(popcount(hand & bidding.BB_HIGH_TRUMPS)),
            float(popcount(hand & BB_PLAIN_SAUS)), float(sum(not cs for cs in plain)), float(set_points(hand)))



def model_params() -> list[float]:
    """The bidding model's present constants as :data:`PARAMS` with the score weights
    (:data:`PLACED`: the Dobbm score's, then the Solo score's)."""
    return [*bidding.BID_DOBBM_THRESHOLD_BY_TURN, bidding.BID_SOLO_THRESHOLD, bidding.BID_SPREAD,
            bidding.BID_SOLO_SPREAD, bidding.BID_SOLO_OVER_THRESHOLD, bidding.BID_SOLO_OVER_SPREAD,
            bidding.BID_HIGH_TRUMP_WEIGHT, bidding.BID_POINTS_WEIGHT, bidding.BID_SOLO_SAU_WEIGHT,
            bidding.BID_SOLO_VOID_WEIGHT]


def loglik(params: Sequence[float], data: tuple[Any, ...], lapse: float | None = None) -> float:
    """Mean log-likelihood a bid of the model with ``params`` (:data:`PARAMS`, then the weights
    of the Dobbm score's features of ``data``, then those of the Solo score's, :func:`bid_arrays`),
    lapses included: the model of ``models.bidding`` for any constants."""
    import numpy as np
    s, said, bid, turn, feats, solo_feats = data
    t = np.asarray(params, float)
    k = len(PARAMS) + feats.shape[1]
    score = s + feats @ t[len(PARAMS):k]
    solo_score = s + solo_feats @ t[k:]

    def sig(x: Any) -> Any:
        return 1.0 / (1.0 + np.exp(-x))

    ps = sig((solo_score - np.where(said, t[7], t[4])) / np.where(said, t[8], t[6]))
    up = sig((score - t[:4][turn]) / t[5])
    p = np.where(bid == "solo", ps, np.where(said, 1 - ps, np.where(bid == "pass", 1 - np.maximum(up, ps),
                                                                     np.maximum(0.0, up - ps))))
    base = bidding.BID_BASE_RATE
    rate = np.where(said, np.where(bid == "solo", base["solo_over"], base["pass_over"]),
                    np.where(bid == "solo", base["solo"], np.where(bid == "pass", base["pass"], base["dobbm"])))
    lapse = bidding.BID_LAPSE if lapse is None else lapse
    return float(np.mean(np.log(np.maximum(1e-12, (1 - lapse) * p + lapse * rate))))


def bid_arrays(rows: Sequence[Row], use: Sequence[int], solo_use: Sequence[int] | None = None
               ) -> tuple[Any, ...]:
    """The bids as numpy arrays: strength, Dobbm said, bid, turn, and the features ``use`` of the
    Dobbm score and ``solo_use`` of the Solo score (None: the same as the Dobbm score's)."""
    import numpy as np
    solo_use = use if solo_use is None else solo_use
    all_feats = [hand_features(r[4]) for r in rows]
    feats = np.array([[f[k] for k in use] for f in all_feats], float).reshape(len(rows), len(use))
    solo_feats = np.array([[f[k] for k in solo_use] for f in all_feats], float).reshape(len(rows), len(solo_use))
    return (np.array([r[0] for r in rows]), np.array([r[1] for r in rows]), np.array([r[2] for r in rows]),
            np.array([min(r[3], 3) for r in rows]), feats, solo_feats)


def refit(rows: Sequence[Row], use: Sequence[int], solo_use: Sequence[int] | None = None,
          solo_only: bool = False) -> tuple[list[float], float]:
    """Maximum likelihood :data:`PARAMS`, weights of the Dobbm score's features ``use`` and of
    the Solo score's ``solo_use`` (None: the same features, weighted apart), the lapse fixed at
    ``BID_LAPSE``: the parameters and their mean log-likelihood a bid.  ``solo_only``: the
    Dobbm part (thresholds, spread, the weights of ``use``) held at the model's present values.
    Needs scipy."""
    from scipy.optimize import minimize  # type: ignore[import-untyped]
    solo_use = use if solo_use is None else solo_use
    data = bid_arrays(rows, use, solo_use)
    present = model_params()
    x0 = [*present[:len(PARAMS)], *([0.0] * len(use)), *([0.0] * len(solo_use))]
    if solo_only:
        assert tuple(use) == tuple(FEATURES.index(f) for f in PLACED)
        x0[len(PARAMS):len(PARAMS) + len(use)] = present[len(PARAMS):len(PARAMS) + len(use)]
    free = [k for k in range(len(x0)) if not solo_only or k >= len(PARAMS) + len(use)
            or k < len(PARAMS) and PARAMS[k] in SOLO_PARAMS]
    spreads = {PARAMS.index(n) for n in ("spread", "solo_spread", "solo_over_spread")}
    bounds = [(0.2, 8.0) if k in spreads else (None, None) for k in free]

    def full(t: Sequence[float]) -> list[float]:
        x = list(x0)
        for k, v in zip(free, t):
            x[k] = v
        return x

    got = minimize(lambda t: -loglik(full(t), data), [x0[k] for k in free], method="L-BFGS-B", bounds=bounds)
    return [float(x) for x in full(got.x)], -float(got.fun)


def _bucket(s: float) -> str:
    for lo, hi in zip(BUCKETS, BUCKETS[1:]):
        if lo <= s < hi:
            return f"{lo:2d}-{hi:2d}" if hi < 99 else f"{lo:2d}+  "
    return "?"


def _model_probability(row: Row, bid: str) -> float:
    """The model's chance (lapses included, with the bidder's turn) of ``bid`` from the row's hand."""
    return bidding.bid_likelihood(bid_kind(row[1], bid), row[4], row[3])


def report_bids(rows: Sequence[Row]) -> None:
    print("bids with no Dobbm said before: strength, hands, observed vs model with the turn (z)")
    for lo, hi in zip(BUCKETS, BUCKETS[1:]):
        got = [r for r in rows if not r[1] and lo <= r[0] < hi]
        if not got:
            continue
        line = f"  {_bucket(got[0][0])} n={len(got):4d}"
        for kind in ("dobbm", "solo"):
            obs = sum(r[2] == kind for r in got) / len(got)
            pred = statistics.fmean(_model_probability(r, kind) for r in got)
            z = (obs - pred) / math.sqrt(max(1e-9, pred * (1 - pred) / len(got)))
            line += f"  {kind} {obs:5.3f} vs {pred:5.3f} ({z:+.1f})"
        print(line)
    said = [r for r in rows if r[1]]
    if said:
        obs = sum(r[2] == "solo" for r in said) / len(said)
        pred = statistics.fmean(_model_probability(r, "solo") for r in said)
        print(f"  after a Dobbm: n={len(said)} solo {obs:.3f} vs {pred:.3f}")
    first = [r for r in rows if not r[1]]
    weights = [_model_probability(r, "dobbm") for r in first]
    real = [r[0] for r in first if r[2] == "dobbm"]
    if real:
        expect = sum(w * r[0] for w, r in zip(weights, first)) / sum(weights)
        print(f"  mean strength of the Dobbm bidders: real {statistics.fmean(real):.2f}, "
              f"the model's on the same hands {expect:.2f}")
    ll = statistics.fmean(math.log(_model_probability(r, r[2])) for r in rows)
    print(f"the model: log-likelihood {ll:.4f} a bid ({len(rows)} bids)")


def report_fit(rows: Sequence[Row], holdout: Sequence[Row], solo_only: bool = False) -> None:
    """Refit the model on ``rows``: the Dobbm score with each set of up to two features (the
    Solo score on the shipped features), then the Solo score with each set of up to two (the
    Dobbm score on the shipped features; ``solo_only``: only these, with the Dobbm part held
    fixed); log-likelihood a bid on ``rows`` and on ``holdout`` (if any)."""
    have = [(), *((k,) for k in range(len(FEATURES))), *combinations(range(len(FEATURES)), 2)]
    placed = tuple(FEATURES.index(f) for f in PLACED)
    solo_placed = tuple(FEATURES.index(f) for f in SOLO_PLACED)
    print(f"the model in place: {loglik(model_params(), bid_arrays(rows, placed, solo_placed)):.4f} a bid" + (
        f", held out {loglik(model_params(), bid_arrays(holdout, placed, solo_placed)):.4f}" if holdout else ""))
    fits = [] if solo_only else [(use, solo_placed) for use in have]
    fits += [(placed, solo) for solo in have]
    for use, solo_use in fits:
        params, ll = refit(rows, use, solo_use, solo_only)
        names = ("+".join(FEATURES[k] for k in use) or "strength alone") + " / solo " + (
            "+".join(FEATURES[k] for k in solo_use) or "strength alone")
        shown = " ".join(f"{n} {v:.3f}" for n, v in zip(
            [*PARAMS, *(FEATURES[k] for k in use), *("solo_" + FEATURES[k] for k in solo_use)], params))
        held = f" held out {loglik(params, bid_arrays(holdout, use, solo_use)):.4f}" if holdout else ""
        print(f"  {names:48s} {ll:.4f}{held}  ({shown})")


def report_sampler(games: list[dict[str, Any]], samples: int) -> None:
    print(f"declarer's strength, real vs sampled from the first defender's view ({samples} a deal)")
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


def bid_kind(said: bool, bid: str) -> str:
    if bid == "pass":
        return bidding.KIND_PASS_OVER if said else bidding.KIND_PASS
    if bid == "solo":
        return bidding.KIND_SOLO_OVER if said else bidding.KIND_SOLO
    return bidding.KIND_DOBBM


def base_rates(hands: int, seed: int) -> dict[str, float]:
    """The model's likelihood of each kind of bid averaged over ``hands`` random 8-card
    hands: ``models.bidding.BID_BASE_RATE`` for the model's present constants."""
    rng = random.Random(seed)
    deck = list(range(NUM_CARDS))
    totals = dict.fromkeys(bidding.BID_BASE_RATE, 0.0)
    for _ in range(hands):
        hand = cardset(rng.sample(deck, HAND_SIZE))
        for kind in totals:
            totals[kind] += bidding.model_likelihood(kind, hand)
    return {k: round(v / hands, 4) for k, v in totals.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--strategy", choices=["advice", "pimc", "rule", "open", "model"], default="advice",
                    help="the bidders: an arena strategy, or 'model' (bids drawn from the bidding model)")
    ap.add_argument("--base-rates", type=int, metavar="HANDS", default=0,
                    help="only print the model's base rates over HANDS random hands (two seeds)")
    ap.add_argument("--save", metavar="FILE", help="write every bid (with its hand) and game to FILE (JSON)")
    ap.add_argument("--samples", type=int, default=1,
                    help="sampled declarers per deal (their mean strength is compared with the real one)")
    ap.add_argument("--fit", metavar="FILE", nargs="+", help="only refit the model, with one or two features, "
                    "to the bids saved in FILE(s) (needs numpy and scipy)")
    ap.add_argument("--resample", metavar="FILE", help="only sample the declarers again (--samples a deal) "
                    "for the auctions saved in FILE, under the model in place: the sampler's gap without "
                    "bidding again")
    ap.add_argument("--fit-solo", action="store_true",
                    help="with --fit: refit only the Solo decision, the Dobbm part held fixed")
    ap.add_argument("--holdout", metavar="FILE", help="with --fit: bids saved in FILE to score the fits on")
    args = ap.parse_args()
    if args.base_rates:
        for seed in (1, 2):
            print(f"base rates, seed {seed}: {base_rates(args.base_rates, seed)}")
        return
    if args.fit:
        rows = [r for path in args.fit for r in load_rows(path)]
        holdout = load_rows(args.holdout) if args.holdout else []
        print(f"refit to {len(rows)} bids of {' '.join(args.fit)}" + (f", held out {len(holdout)} of {args.holdout}"
                                                             if holdout else ""))
        report_fit(rows, holdout, args.fit_solo)
        return
    if args.resample:
        with open(args.resample) as f:
            saved = json.load(f)
        jobs = [(saved["seed"], i, [r[2] for r in t["bids"]], args.samples) for i, t in enumerate(saved["tables"])]
        with Pool(args.jobs) as pool:
            games = [g for g in pool.map(resample_one, jobs, chunksize=8) if g]
        print(f"{len(jobs)} saved auctions of {args.resample} (seed {saved['seed']}), sampled again")
        report_sampler(games, args.samples)
        return
    work = [(args.seed, i, args.strategy, args.samples) for i in range(args.deals)]
    with Pool(args.jobs) as pool:
        tables = pool.map(one, work, chunksize=4)
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"strategy": args.strategy, "seed": args.seed, "tables": tables}, f)
    rows = rows_of(tables)
    print(f"{args.deals} deals, {len(rows)} bids by '{args.strategy}' "
          f"(bid samples {ARENA_SAMPLES.bid}); model {bid_probabilities.__module__}")
    report_bids(rows)
    report_sampler([t for t in tables if "contract" in t], args.samples)


def rows_of(tables: Sequence[dict[str, Any]]) -> list[Row]:
    return [(float(r[0]), bool(r[1]), str(r[2]), int(r[3]), int(r[4])) for t in tables for r in t["bids"]]


def load_rows(path: str) -> list[Row]:
    """The bids of a run saved with ``--save``."""
    with open(path) as f:
        return rows_of(json.load(f)["tables"])


if __name__ == "__main__":
    main()
