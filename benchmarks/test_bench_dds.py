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
from typing import Callable, Sequence

import pytest

endplay_dds = pytest.importorskip("endplay.dds")
endplay_types = pytest.importorskip("endplay.types")
SolveMode = pytest.importorskip("endplay.dds.solve").SolveMode

from side_by_side import bridge_ending, figures, one_round  # noqa: E402  (benchmarks/ is on the path: conftest's folder)
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
    """Warm-up round, then timed rounds; each round alternates a dobbm deal and a DDS ending
    (``side_by_side.one_round``, on thread time).  Every round must give the warm-up's results.
    Returns the ratios and the figures."""
    want_a, want_b, _, _ = one_round(dobbm_call, dobbm_deals, dds_call, dds_deals)
    times_a: list[list[int]] = []
    times_b: list[list[int]] = []

    def timed() -> None:
        got_a, got_b, t_a, t_b = one_round(dobbm_call, dobbm_deals, dds_call, dds_deals)
        assert got_a == want_a and got_b == want_b
        times_a.append(t_a)
        times_b.append(t_b)

    benchmark.pedantic(timed, rounds=rounds("DOBBM_BENCH_ROUNDS", 5), iterations=1)
    dobbm = [statistics.median(ts) / 1e9 for ts in zip(*times_a)]
    dds = [statistics.median(ts) / 1e9 for ts in zip(*times_b)]
    info = {"deals": len(dobbm), "rounds": len(times_a), **figures(dobbm, dds)}
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
