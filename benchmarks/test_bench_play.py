"""Card-play advice (`dobbm play`) at its defaults: one decision in trick 1 and one from trick 4.

For each of the first ``DOBBM_BENCH_PLAY_DEALS`` (default 12) deals of
``hands/benchmark.yaml`` the deal is played along its best line to the
decision (0 cards: the declarer's opening lead; 12 cards: the lead to trick
4) and the player to move asks :func:`analyze_play` from their own view: their
own cards, the lay-away if they are the Dobbm declarer, the tricks so far,
the contract and (for the bidding model) the auction the contract implies.
Default precision (adaptive to a standard error of 1.5 points), all cores.
``extra_info`` has the median and the maximum seconds of a decision and the
samples used.  Targets (issue: the play of the cards): median at most 1 s in
trick 1 and 0.2 s from trick 4 on.
"""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import replace

import pytest

from dobbm_solver.analyzer import analyze_play, make_view
from dobbm_solver.cards import card_name, cardset, set_names
from dobbm_solver.deal import Deal, replay
from dobbm_solver.handfile import parse_spec
from dobbm_solver.solver import Solver


def _deals() -> int:
    return max(1, int(os.environ.get("DOBBM_BENCH_PLAY_DEALS", 12)))


def _position(deal: Deal, cards: int) -> Deal:
    line = Solver().analyze(deal).line[:cards]
    hands = {s: h & ~cardset(line) for s, h in deal.hands.items()}
    tricks = tuple(tuple(line[i:i + 4]) for i in range(0, len(line), 4))
    return replace(deal, hands=hands, tricks=tricks)


def _view(deal: Deal):
    me = replay(deal).to_move
    doc = {"seats": list(deal.seats), "me": me, "declarer": deal.declarer, "contract": deal.contract,
           "hands": {me: " ".join(set_names(deal.hands[me]))},
           "tricks": [" ".join(card_name(c) for c in t) for t in deal.tricks]}
    if me == deal.declarer and deal.contract == "dobbm":
        doc["dobb"] = " ".join(set_names(deal.dobb))
        doc["discard"] = " ".join(set_names(deal.discard or 0))
    return make_view(parse_spec(doc, "benchmark"), "play")


@pytest.mark.parametrize("cards", [0, 12], ids=["trick1", "trick4"])
def test_play_decision(benchmark, bench_deals, cards):
    views = [_view(_position(d, cards)) for d in bench_deals[:_deals()]]
    seconds: list[float] = []
    samples: list[int] = []

    def decide_all() -> None:
        seconds.clear()
        samples.clear()
        for n, v in enumerate(views):
            t0 = time.perf_counter()
            advice = analyze_play(v, seed=n)
            seconds.append(time.perf_counter() - t0)
            samples.append(advice.samples)

    benchmark.pedantic(decide_all, rounds=1, iterations=1)
    benchmark.extra_info.update({
        "decisions": len(seconds),
        "median_seconds": round(statistics.median(seconds), 4),
        "max_seconds": round(max(seconds), 4),
        "median_samples": statistics.median(samples),
    })
