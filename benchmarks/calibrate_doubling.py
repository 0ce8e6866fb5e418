"""Calibrate the analyzer's doubling model against ``analyze_double`` itself.

    python benchmarks/calibrate_doubling.py [--views N] [--rounds R] [--jobs J] [--samples S]

For each contract (Dobbm, Solo) it deals ``N`` random deals bid by the
bidding model (forehand first, redealt until the contract is the one
wanted; a Dobbm declarer lays away with ``heuristic_discard``) and asks
``analyze_double`` three kinds of view, as a player at the table would:

* **schwacher**: a defender picked at random, after "I lie" (no doubling yet);
* **retour**: the declarer facing a Schwacher -- the deal is kept with the
  doubling model's chance that some defender would have said it, as the
  sampler assumes;
* **retour back**: a defender picked at random facing the declarer's Retour
  (kept with the model's chance of the Schwacher and the Retour).

It records whether the analysis says one more doubling, with the cheap facts
the model reads (``fast_hand_strength`` and trumps of the player asked: a
defender's 8 cards, a Solo declarer's 8, a Dobbm declarer's 12), and fits
``P(double) = sig(a + b * strength + c * trumps)`` by logistic regression per
view kind and contract: ``models.doubling.DOUBLING_MODEL``.  Since the
analysis values a doubling with the model's answers and samples with its
signal, the fit is repeated ``R`` rounds, each with the previous round's
constants in place.  It also prints the side's mean chance of doubling
under the fitted model (``DOUBLING_BASE_RATE``).  Not a test: pytest does
not collect it.  Its functions are used by ``tests/test_doubling.py``.

With ``--samples S`` (default 64) each analysis uses ``S`` samples and plain
means, a cheaper stand-in for its adaptive default.  ``--rows FILE`` appends
every view's answer; ``--fit FILE...`` fits the rows of such files pooled.
Each round first prints how well the constants in place predict its answers
(per situation: doublings said against the model's expected count, z-score):
at a fixed point of the calibration they agree.  The plain iteration
oscillates (declarers who answer often make the defenders double less, and
the next fit the other way); ``--pool`` damps it: each round answers fresh
views (the next ``--views`` indices from ``--start``) with the fit of every
round's answers so far.  The shipped constants: ``--views 300 --rounds 8
--samples 48 --jobs 2 --pool`` (about 45 s a round on two cores), checked
on fresh views with ``--start 100000 --rounds 1``.  See the doc of
``DOUBLING_MODEL``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from multiprocessing import Pool
from typing import Sequence

from measure_errors import model_deal

from dobbm_solver.analyzer import AnalyzerError, analyze_double, make_view, runner
from dobbm_solver.analyzer import double as double_module
from dobbm_solver.analyzer.sampling import clear_sampler_cache
from dobbm_solver.cards import BB_TRUMPS, popcount, set_names
from dobbm_solver.deal import Deal
from dobbm_solver.handfile import parse_spec
from dobbm_solver.models import doubling
from dobbm_solver.models.strength import fast_hand_strength

SEATS = ("Anna", "Bert", "Cora", "Dave")
Model = dict[tuple[str, str], tuple[float, float, float]]
Rates = dict[tuple[str, str], float]
#: one calibration view's answer: (who, contract, strength, trumps, doubled, the side's
#: hands, the cards the player asked is rated on)
Row = tuple[str, str, float, int, bool, tuple[int, ...], int]


def deal_for(rng: random.Random, contract: str) -> tuple[Deal, list[tuple[str, str]]]:
    """A random deal whose auction (by the bidding model) ends in ``contract``."""
    return model_deal(rng, contract)


def _names(cs: int) -> str:
    return " ".join(set_names(cs))


def view_doc(deal: Deal, me: str, bids: list[tuple[str, str]], doublings: int) -> dict:
    doc: dict = {"seats": list(SEATS), "dealer": "Dave", "me": me, "declarer": deal.declarer,
                 "contract": deal.contract, "bids": [{s: b} for s, b in bids],
                 "hands": {me: _names(deal.hands[me])}, "doublings": doublings}
    if me == deal.declarer and deal.discard is not None:
        doc.update(dobb=_names(deal.dobb), discard=_names(deal.discard))
    return doc


def _dealt(deal: Deal, seat: str) -> int:
    """What the model rates ``seat`` on (a Dobbm declarer: the 12 cards)."""
    if seat == deal.declarer:
        return doubling.declarer_cards(deal.contract, deal.hands[seat] | (deal.discard or 0), 0)
    return deal.hands[seat]


#: the doublings said before each kind of view
DOUBLINGS = {doubling.SCHWACHER: 0, doubling.RETOUR: 1, doubling.RETOUR_BACK: 2}


def calibration_view(who: str, contract: str, index: int) -> tuple[dict, Deal, str]:
    """View ``index`` of a kind (``who``: a situation of the model): its hand-file doc,
    the real deal and the seat asked."""
    rng = random.Random(f"calibrate-doubling:{who}:{contract}:{index}")
    k = DOUBLINGS[who]
    while True:
        deal, bids = deal_for(rng, contract)
        defenders = [s for s in SEATS if s != deal.declarer]
        p = doubling.doubling_likelihood(k, contract, _dealt(deal, deal.declarer),
                                         [deal.hands[s] for s in defenders])
        if rng.random() < p:
            me = deal.declarer if who == doubling.RETOUR else rng.choice(defenders)
            return view_doc(deal, me, bids, k), deal, me


def answer(who: str, contract: str, index: int, samples: int | None, model: Model | None = None,
           rates: Rates | None = None) -> Row:
    """What ``analyze_double`` answers on calibration view ``index`` (with ``model`` and the
    base ``rates`` in place)."""
    if model is not None and (model != doubling.DOUBLING_MODEL or rates != doubling.DOUBLING_BASE_RATE):
        doubling.DOUBLING_MODEL.update(model)
        doubling.DOUBLING_BASE_RATE.update(rates or {})
        clear_sampler_cache()
    doc, deal, me = calibration_view(who, contract, index)
    view = make_view(parse_spec(doc, f"<calibration {index}>"), "double")
    advice = analyze_double(view, samples=samples, seed=index, jobs=1)
    cards = _dealt(deal, me)
    side = (cards,) if who == doubling.RETOUR else tuple(deal.hands[s] for s in SEATS if s != deal.declarer)
    return (who, contract, fast_hand_strength(cards), popcount(cards & BB_TRUMPS),
            advice.recommendation != "play on", side, cards)


def rated_cards(row: Row) -> int:
    """The cards the player of a row is rated on."""
    return row[6]


def fit_logistic(xs: Sequence[tuple[float, float]], ys: Sequence[bool], ridge: float = 0.02,
                 steps: int = 50) -> tuple[float, float, float]:
    """Maximum-likelihood ``(a, b, c)`` of ``P(y) = sig(a + b x0 + c x1)`` (Newton steps,
    a tiny ridge on ``b`` and ``c`` so that a perfectly separated sample stays finite)."""
    w = [0.0, 0.0, 0.0]
    rows = [(1.0, float(x0), float(x1)) for x0, x1 in xs]
    for _ in range(steps):
        g = [0.0] * 3
        h = [[0.0] * 3 for _ in range(3)]
        for r, y in zip(rows, ys):
            z = sum(wi * ri for wi, ri in zip(w, r))
            p = 1.0 / (1.0 + math.exp(-max(-35.0, min(35.0, z))))
            for i in range(3):
                g[i] += (float(y) - p) * r[i]
                for j in range(3):
                    h[i][j] += p * (1 - p) * r[i] * r[j]
        for i in (1, 2):
            g[i] -= ridge * w[i] * len(rows)
            h[i][i] += ridge * len(rows)
        step = _solve3(h, g)
        w = [wi + si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return (w[0], w[1], w[2])


def _solve3(a: list[list[float]], b: list[float]) -> list[float]:
    m = [row[:] + [bi] for row, bi in zip(a, b)]
    for c in range(3):
        piv = max(range(c, 3), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(3):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][3] / m[i][i] for i in range(3)]


def fit_rows(rows: Sequence[Row]) -> tuple[Model, dict[tuple[str, str], float]]:
    """The fitted model and each side's mean chance of doubling under it."""
    model: Model = {}
    rates: Rates = {}
    for key in sorted({(r[0], r[1]) for r in rows}):
        sel = [r for r in rows if (r[0], r[1]) == key]
        model[key] = fit_logistic([(r[2], r[3]) for r in sel], [r[4] for r in sel])
    saved = dict(doubling.DOUBLING_MODEL)
    doubling.DOUBLING_MODEL.update(model)
    try:
        for key in model:
            sel = [r for r in rows if (r[0], r[1]) == key]
            # floored: a lapse at rate 0 would make a doubling impossible for some hands
            sel = [r for r in sel if r[5]] or sel    # rows read back without hands: none
            rates[key] = max(0.02, sum(doubling.side_doubles(key[0], key[1], r[5]) for r in sel) / len(sel))
    finally:
        doubling.DOUBLING_MODEL.clear()
        doubling.DOUBLING_MODEL.update(saved)
    return model, rates


def _task(args: tuple[str, str, int, int | None, Model, Rates]) -> Row | None:
    """One view on a worker.  With ``samples`` given the analysis uses plain means (no
    control variates: their 1024 cheap draws cost more than the solves in a Solo, where
    each draw is a rejection from about 70 deals)."""
    samples = args[3]
    if samples is not None:
        runner.CV_MIN_SAMPLES = double_module.CV_MIN_SAMPLES = samples + 1   # where they are read
    try:
        return answer(*args)
    except AnalyzerError as e:    # a view the sampler finds too unlikely: left out, and counted
        print(f"left out: {args[:3]}: {e.message}", flush=True)
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--views", type=int, default=160, help="views per kind and contract")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--start", type=int, default=0,
                    help="the first view's index; with --pool each round takes the next --views views")
    ap.add_argument("--rows", help="append each view's answer to this file (JSON lines)")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--samples", type=int, default=64,
                    help="analyze_double's samples, plain means (0: its default, adaptive)")
    ap.add_argument("--fit", nargs="+", metavar="ROWS", help="only fit the rows of these files, pooled")
    ap.add_argument("--pool", action="store_true",
                    help="each round's constants: the fit of every round's answers so far, pooled (a damped "
                         "iteration that settles where the plain one oscillates)")
    args = ap.parse_args()
    if args.fit:
        rows = [read_row(line) for name in args.fit for line in open(name, encoding="utf-8") if line.strip()]
        model, rates = fit_rows(rows)
        print(f"pooled fit of {len(rows)} views")
        _print(model, rates)
        return
    model: Model = dict(doubling.DOUBLING_MODEL)
    rates: Rates = dict(doubling.DOUBLING_BASE_RATE)
    every: list[Row] = []
    for rnd in range(1, args.rounds + 1):
        first = args.start + ((rnd - 1) * args.views if args.pool else 0)
        tasks = [(who, contract, i, args.samples or None, model, rates)
                 for who in DOUBLINGS for contract in ("dobbm", "solo")
                 for i in range(first, first + args.views)]
        with Pool(args.jobs) as pool:
            got = pool.map(_task, tasks, chunksize=4)
        rows = [r for r in got if r is not None]
        if args.rows:
            with open(args.rows, "a", encoding="utf-8") as f:
                for r in rows:
                    f.write(json.dumps({"round": rnd, "kind": r[0], "contract": r[1], "strength": r[2],
                                        "trumps": r[3], "doubled": r[4], "side": list(r[5])}) + "\n")
        report_calibration(rows, model)
        every += rows
        model, rates = fit_rows(every if args.pool else rows)
        print(f"round {rnd}: {len(rows)} views ({len(got) - len(rows)} left out)"
              + (f"; the fit of all {len(every)} so far" if args.pool else ""))
        for key, (a, b, c) in model.items():
            sel = [r for r in rows if (r[0], r[1]) == key]
            said = sum(r[4] for r in sel)
            print(f"  {key}: a={a:.3f} b={b:.4f} c={c:.4f}  doubled {said}/{len(sel)}  "
                  f"side rate {rates[key]:.3f}")
    _print(model, rates)


def report_calibration(rows: Sequence[Row], model: Model) -> None:
    """How well ``model`` (the constants the views were answered with) predicts the
    answers: per situation the share that doubled against the model's mean chance for
    the players asked, with its z-score.  A fixed point of the calibration agrees."""
    saved = dict(doubling.DOUBLING_MODEL)
    doubling.DOUBLING_MODEL.update(model)
    try:
        for key in sorted({(r[0], r[1]) for r in rows}):
            sel = [r for r in rows if (r[0], r[1]) == key]
            p = [doubling.player_doubles(key[0], key[1], rated_cards(r)) for r in sel]
            said = sum(r[4] for r in sel)
            var = sum(x * (1 - x) for x in p)
            z = (said - sum(p)) / math.sqrt(var) if var > 0 else 0.0
            print(f"  the model in place, {key}: doubled {said}/{len(sel)}, predicted {sum(p):.1f} (z {z:+.1f})")
    finally:
        doubling.DOUBLING_MODEL.clear()
        doubling.DOUBLING_MODEL.update(saved)


def read_row(line: str) -> Row:
    """A row written by ``--rows``."""
    d = json.loads(line)
    return (d["kind"], d["contract"], d["strength"], d["trumps"], d["doubled"], tuple(d.get("side", ())), 0)


def _print(model: Model, rates: Rates) -> None:
    print("DOUBLING_MODEL = {" + ", ".join(f"{k}: ({a:.2f}, {b:.3f}, {c:.3f})" for k, (a, b, c) in model.items())
          + "}")
    print("DOUBLING_BASE_RATE = {" + ", ".join(f"{k}: {v:.3f}" for k, v in rates.items()) + "}")


if __name__ == "__main__":
    main()
