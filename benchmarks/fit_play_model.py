"""Fit the play model's temperature (``models.play_model.PLAY_TEMPERATURE``) to the arena's card players.

    python benchmarks/fit_play_model.py --deals 100 --seed 1 --save plays1.json
    python benchmarks/fit_play_model.py --fit plays1.json --holdout plays2.json

Each of ``--deals`` arena deals (``arena.game.deal_board(seed, i)``) is bid
by the noiseless bidding model (thrown in: skipped), a Dobbm laid away by
the rule of thumb, and played out by the arena's Monte Carlo card player
(``MonteCarloStrategy`` at ``--samples``, 8 as in the arena) in every seat.
At every card with a choice the open-card value of each legal card
(``Solver.solve_all_cards`` on the real deal) is recorded with the card
played and whether the declarer played it.  ``--fit`` finds the
temperature that maximises the log-likelihood of the cards played under
the softmax model (``models.play_model.card_chances``), for all cards and
for the declarer's and the defenders' apart, and prints the log-likelihood
a card there and on ``--holdout`` (cards the fit never saw).
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from dobbm_solver.analyzer.strategy import MonteCarloStrategy
from dobbm_solver.arena.game import bidding_order, deal_board
from dobbm_solver.models.bidding import model_bid
from dobbm_solver.models.discard_rule import heuristic_discard
from dobbm_solver.models.play_model import card_chances
from dobbm_solver.playout import SeatView, play_hand
from dobbm_solver.solver import Solver

Row = dict[str, Any]


def record(deals: int, seed: int, samples: int) -> list[Row]:
    """The cards with a choice of ``deals`` arena deals, played by the Monte Carlo player."""
    solver = Solver()
    rows: list[Row] = []
    for index in range(deals):
        board = deal_board(seed, index)
        said: list[tuple[str, str]] = []
        for turn, seat in enumerate(bidding_order(board)):
            bid = model_bid(board.hands[seat], dobbm_said=any(b == "dobbm" for _, b in said), turn=turn)
            said.append((seat, bid))
            if bid == "solo":
                break
        games = [(s, b) for s, b in said if b != "pass"]
        if not games:
            continue
        declarer, contract = games[-1]
        deal = board.open_deal(declarer, contract)
        if contract == "dobbm":
            deal = deal.with_discard(heuristic_discard(deal.hands[declarer] | deal.dobb))

        class Recorder:
            sees_all_cards = True

            def __init__(self, seat: str) -> None:
                self.player = MonteCarloStrategy(samples=samples, seed=board.seed_for(seat, "play"), jobs=1)

            def __call__(self, view: SeatView) -> int:
                card = self.player(view)
                if view.legal & (view.legal - 1):
                    assert view.open_deal is not None
                    values = solver.solve_all_cards(view.open_deal)
                    rows.append({"deal": index, "declarer": view.seat == view.declarer,
                                 "values": {str(c): v for c, v in values.items()}, "card": card})
                return card

        play_hand(deal, {s: Recorder(s) for s in board.seats})
    return rows


def log_likelihood(rows: list[Row], temperature: float) -> float:
    total = 0.0
    for r in rows:
        values = {int(c): v for c, v in r["values"].items()}
        total += math.log(card_chances(values, r["declarer"], temperature)[r["card"]])
    return total


def fit(rows: list[Row]) -> float:
    """The temperature of the highest log-likelihood: a log grid, then golden section."""
    grid = [0.25 * 1.25 ** k for k in range(30)]
    best = max(grid, key=lambda t: log_likelihood(rows, t))
    lo, hi = math.log(best / 1.25), math.log(best * 1.25)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(30):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if log_likelihood(rows, math.exp(a)) >= log_likelihood(rows, math.exp(b)):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--save", metavar="FILE")
    ap.add_argument("--fit", metavar="FILE", nargs="+")
    ap.add_argument("--holdout", metavar="FILE")
    args = ap.parse_args()
    if not args.fit:
        rows = record(args.deals, args.seed, args.samples)
        print(f"{len(rows)} cards with a choice on {args.deals} deals of seed {args.seed}")
        if args.save:
            with open(args.save, "w") as f:
                json.dump(rows, f)
        return
    rows = [r for name in args.fit for r in json.load(open(name))]
    held = json.load(open(args.holdout)) if args.holdout else []
    for who, keep in (("every card", lambda r: True), ("the declarer's", lambda r: r["declarer"]),
                      ("the defenders'", lambda r: not r["declarer"])):
        part = [r for r in rows if keep(r)]
        t = fit(part)
        per_card = log_likelihood(part, t) / len(part)
        line = f"{who:15} {len(part):5} cards: temperature {t:.2f} points, {per_card:+.4f} a card"
        hp = [r for r in held if keep(r)]
        if hp:
            line += f"; held out {len(hp)}: {log_likelihood(hp, t) / len(hp):+.4f} a card"
            line += f" (uniform {sum(-math.log(len(r['values'])) for r in hp) / len(hp):+.4f})"
        print(line)


if __name__ == "__main__":
    main()
