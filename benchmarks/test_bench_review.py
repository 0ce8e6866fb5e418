"""The review of a played hand (``dobbm review``), 32 cards each, one solver reused.

The 120 deals of ``hands/benchmark.yaml`` are played out once, untimed: the
declarer by the open-card player, the defenders by the rule-of-thumb player
(so the review meets costly cards, as in real play).  Each timed round then
reviews all 120 hands with one ``Solver(tt_mb=64)``, every review timed with
``time.perf_counter``; ``benchmark.extra_info`` gives per-hand figures (for
each hand the median of its times over the rounds).  Target: a median of at
most 50 ms per hand.  ``DOBBM_BENCH_ROUNDS`` (default 5) sets the rounds.

    python -m pytest benchmarks/test_bench_review.py --benchmark-only
"""

from __future__ import annotations

import os
import statistics
import time

import pytest

from dobbm_solver.deal import Deal
from dobbm_solver.playout import open_card_strategy, play_hand, rule_of_thumb_strategy
from dobbm_solver.review import Review, review_hand
from dobbm_solver.solver import Solver

TARGET_MS = 50.0


@pytest.fixture(scope="module")
def played(solver: Solver, bench_deals: list[Deal]) -> list[Deal]:
    oc, rt = open_card_strategy(solver), rule_of_thumb_strategy()
    return [play_hand(d, {s: oc if s == d.declarer else rt for s in d.active_seats}) for d in bench_deals]


def _summary(r: Review) -> tuple:
    return tuple((c.before, c.after) for c in r.cards)


def test_review_120_played_hands(benchmark, solver, played):
    n_rounds = max(1, int(os.environ.get("DOBBM_BENCH_ROUNDS", 5)))
    expected = [_summary(review_hand(solver, d)) for d in played]      # warm-up, untimed
    round_times: list[list[float]] = []

    def one_round() -> list[tuple]:
        times, out = [], []
        for deal in played:
            t0 = time.perf_counter()
            out.append(_summary(review_hand(solver, deal)))
            times.append(time.perf_counter() - t0)
        round_times.append(times)
        return out

    got = benchmark.pedantic(one_round, rounds=n_rounds, iterations=1)
    assert got == expected
    assert all(len(s) == 32 for s in got)
    ms = [1000 * statistics.median(ts) for ts in zip(*round_times)]
    benchmark.extra_info.update({
        "hands": len(played),
        "cards_per_hand": 32,
        "per_hand_ms_median": round(statistics.median(ms), 3),
        "per_hand_ms_mean": round(statistics.fmean(ms), 3),
        "per_hand_ms_max": round(max(ms), 3),
        "target_ms_median": TARGET_MS,
        "costly_cards": sum(a != b for s in got for a, b in s),
    })
