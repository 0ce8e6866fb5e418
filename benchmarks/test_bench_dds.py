"""dobbm beside DDS, the bridge double-dummy solver, in one process (needs ``endplay``; skipped without it).

DDS (through ``endplay``, which bundles it) solves seeded random 32-card
bridge endings: 8 cards a hand, a random trump suit, a random player on lead,
as many endings as there are dobbm benchmark deals.  dobbm solves the 120
deals of ``hands/benchmark.yaml`` from the opening lead (32 cards in the
hands).  Both run single-threaded in this process, alternating deal by deal
within each round, so that a change of load on a shared machine hits both
alike.  Reported in ``benchmark.extra_info`` (and printed with ``-s``):
dobbm's time over DDS's, by the median of the per-deal times and in total,
for the value only (DDS: one optimal card, ``SolveMode.OptimalOne``; dobbm:
``Solver.solve``) and for every card's value (DDS: ``SolveMode.Default``;
dobbm: ``Solver.solve_all_cards``).  Each deal's time is its median over
``DOBBM_BENCH_ROUNDS`` rounds (default 5) after one warm-up round.

    python -m pytest benchmarks/test_bench_dds.py --benchmark-only -s
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Callable, Sequence

import pytest

endplay_dds = pytest.importorskip("endplay.dds")
endplay_types = pytest.importorskip("endplay.types")
SolveMode = pytest.importorskip("endplay.dds.solve").SolveMode

from side_by_side import bridge_ending  # noqa: E402  (benchmarks/ is on the path: conftest's folder)
from test_bench_solver import rounds  # noqa: E402

SEED = 20261201


@pytest.fixture(scope="module")
def bridge_endings(bench_deals) -> list:
    rng = random.Random(SEED)
    endings = [bridge_ending(rng) for _ in bench_deals]
    assert all(len(e[p]) == 8 for e in endings for p in endplay_types.Player)
    return endings


def _side_by_side(benchmark, dobbm_call: Callable, dobbm_deals: Sequence, dds_call: Callable,
                  dds_deals: Sequence) -> dict:
    """Warm-up round, then timed rounds; each round alternates a dobbm deal and a DDS ending.
    Every round must give the warm-up's results.  Returns the ratios and the figures."""
    def one_round() -> tuple[list, list, list[float], list[float]]:
        got_a, got_b, t_a, t_b = [], [], [], []
        for a, b in zip(dobbm_deals, dds_deals):
            t0 = time.perf_counter()
            got_a.append(dobbm_call(a))
            t1 = time.perf_counter()
            got_b.append(dds_call(b))
            t2 = time.perf_counter()
            t_a.append(t1 - t0)
            t_b.append(t2 - t1)
        return got_a, got_b, t_a, t_b

    want_a, want_b, _, _ = one_round()
    times_a: list[list[float]] = []
    times_b: list[list[float]] = []

    def timed() -> None:
        got_a, got_b, t_a, t_b = one_round()
        assert got_a == want_a and got_b == want_b
        times_a.append(t_a)
        times_b.append(t_b)

    benchmark.pedantic(timed, rounds=rounds("DOBBM_BENCH_ROUNDS", 5), iterations=1)
    dobbm = [statistics.median(ts) for ts in zip(*times_a)]
    dds = [statistics.median(ts) for ts in zip(*times_b)]
    info = {
        "deals": len(dobbm),
        "rounds": len(times_a),
        "dobbm_ms_median": round(1000 * statistics.median(dobbm), 4),
        "dds_ms_median": round(1000 * statistics.median(dds), 4),
        "dobbm_s_total": round(sum(dobbm), 4),
        "dds_s_total": round(sum(dds), 4),
        "ratio_by_median": round(statistics.median(dobbm) / statistics.median(dds), 3),
        "ratio_in_total": round(sum(dobbm) / sum(dds), 3),
    }
    benchmark.extra_info.update(info)
    print(f"\n{benchmark.name}: dobbm/DDS by median {info['ratio_by_median']}, "
          f"in total {info['ratio_in_total']} ({info})")
    return info


def _dds_value(deal) -> int:
    """Most tricks the side on lead takes (an optimal card, with its equals)."""
    return max(tricks for _, tricks in endplay_dds.solve_board(deal, SolveMode.OptimalOne))


def _dds_all_cards(deal) -> list[tuple[str, int]]:
    return [(str(card), tricks) for card, tricks in endplay_dds.solve_board(deal)]


def test_dds_side_by_side_value(benchmark, solver, bench_deals, bridge_endings):
    """Value only: dobbm's full deals against DDS's 32-card endings."""
    info = _side_by_side(benchmark, lambda d: solver.solve(d).declarer_points, bench_deals,
                         _dds_value, bridge_endings)
    assert info["deals"] == len(bench_deals)


def test_dds_side_by_side_every_card(benchmark, solver, bench_deals, bridge_endings):
    """Every card's value: dobbm's opening leads against DDS's every card of the player on lead."""
    info = _side_by_side(benchmark, solver.solve_all_cards, bench_deals, _dds_all_cards, bridge_endings)
    assert info["deals"] == len(bench_deals)
