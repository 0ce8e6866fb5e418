"""Solver benchmarks over the fixed deal sets (run: ``pytest benchmarks --benchmark-only``).

Each benchmark's timed round covers the whole set (120 deals, or 30 for the
lay-away study) with one reused ``Solver(tt_mb=64)``.  Inside every round each
deal is timed with ``time.perf_counter`` (next to a millisecond solve its cost
is negligible); the per-deal figures in ``benchmark.extra_info`` (median, mean
and max ms over the deals, node counts) take, for each deal, the median of
its times over the rounds, so a moment of noise on a shared machine does not
move them.  (a) and (b) run one untimed warm-up round first (it also fills
the table's pages once), and every round must reproduce the warm-up's values
exactly.

``DOBBM_BENCH_ROUNDS`` (default 5) sets the timed rounds of (a) and (b),
``DOBBM_BENCH_DISCARD_ROUNDS`` (default 1) those of (c).
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Callable, Sequence

from dobbm_solver.models.discard_rule import heuristic_discard


def rounds(name: str, default: int) -> int:
    """Timed rounds: ``DOBBM_BENCH_ROUNDS`` (default 5), ``DOBBM_BENCH_DISCARD_ROUNDS`` (default 1)."""
    return max(1, int(os.environ.get(name, default)))


def _nodes_of(solver, result) -> int | None:
    """Nodes searched by the last call: from the result, else from the solver."""
    n = getattr(result, "nodes", None)
    if n is None:
        n = getattr(solver, "last_nodes", None)
    if n is None:
        core = getattr(solver, "_core", None)
        n = getattr(core, "nodes", None)
    return int(n) if n is not None else None


def _timed_rounds(benchmark, solver, deals: Sequence, call: Callable,
                  n_rounds: int) -> tuple[list, list[float], list[int | None]]:
    """Run ``call`` on every deal in one warm-up round and ``n_rounds`` timed
    rounds; each round must give the warm-up's results.  Returns the results,
    each deal's median time over the timed rounds, and its node count."""
    expected, _, nodes = _one_round(solver, deals, call)
    round_times: list[list[float]] = []

    def timed() -> list:
        results, times, _ = _one_round(solver, deals, call)
        round_times.append(times)
        return results

    got = benchmark.pedantic(timed, rounds=n_rounds, iterations=1)
    assert got == expected
    return expected, [statistics.median(ts) for ts in zip(*round_times)], nodes


def _one_round(solver, deals: Sequence, call: Callable) -> tuple[list, list[float], list[int | None]]:
    values, times, nodes = [], [], []
    for deal in deals:
        t0 = time.perf_counter()
        result = call(deal)
        times.append(time.perf_counter() - t0)
        values.append(result)
        nodes.append(_nodes_of(solver, result))
    return values, times, nodes


def _stats(times: list[float], nodes: list[int | None], deals: Sequence) -> dict:
    ms = [t * 1000 for t in times]
    info: dict[str, float | int | None] = {
        "deals": len(deals),
        "per_deal_ms_median": round(statistics.median(ms), 3),
        "per_deal_ms_mean": round(statistics.fmean(ms), 3),
        "per_deal_ms_max": round(max(ms), 3),
        "per_deal_ms_min": round(min(ms), 3),
        "total_s": round(sum(times), 3),
    }
    for contract in ("solo", "dobbm"):
        sel = [m for m, d in zip(ms, deals) if d.contract == contract]
        if sel:
            info[f"{contract}_deals"] = len(sel)
            info[f"{contract}_per_deal_ms_median"] = round(statistics.median(sel), 3)
    counted = [n for n in nodes if n is not None]
    if len(counted) == len(nodes):
        info["nodes_total"] = sum(counted)
        info["nodes_median"] = int(statistics.median(counted))
        info["nodes_max"] = max(counted)
        info["nodes_per_s"] = int(sum(counted) / sum(times)) if sum(times) else None
    return info


def test_solve_value_120(benchmark, solver, bench_deals):
    """(a) Value only, from the opening lead, of each of the 120 deals."""
    solutions, times, nodes = _timed_rounds(benchmark, solver, bench_deals, solver.solve,
                                            rounds("DOBBM_BENCH_ROUNDS", 5))
    values = [s.declarer_points for s in solutions]
    assert all(0 <= v <= 120 for v in values)
    benchmark.extra_info.update(_stats(times, nodes, bench_deals))
    benchmark.extra_info["value_sum"] = sum(values)
    benchmark.extra_info["declarer_wins"] = sum(v >= 61 for v in values)


def test_solve_all_cards_120(benchmark, solver, bench_deals):
    """(b) The value of every legal opening lead of each of the 120 deals."""
    card_values, times, nodes = _timed_rounds(benchmark, solver, bench_deals, solver.solve_all_cards,
                                              rounds("DOBBM_BENCH_ROUNDS", 5))
    for deal, cv in zip(bench_deals, card_values):
        assert cv and all(0 <= v <= 120 for v in cv.values())
        assert all((deal.hands[deal.declarer] >> c) & 1 for c in cv)   # the declarer leads
    benchmark.extra_info.update(_stats(times, nodes, bench_deals))
    benchmark.extra_info["value_sum"] = sum(max(cv.values()) for cv in card_values)
    benchmark.extra_info["cards_valued"] = sum(len(cv) for cv in card_values)


def test_study_discards_30(benchmark, solver, discard_deals):
    """(c) Every legal lay-away of each of the 30 Dobbm deals, solved and ranked.

    A pass takes minutes, so there is no separate pre-pass: each timed round
    times its deals with ``perf_counter`` (negligible next to a study) and the
    per-deal figures are the per-deal medians over the rounds.
    """
    round_times: list[list[float]] = []

    def study_all() -> list:
        times, studies = [], []
        for deal in discard_deals:
            t0 = time.perf_counter()
            studies.append(solver.study_discards(deal))
            times.append(time.perf_counter() - t0)
        round_times.append(times)
        return studies

    studies = benchmark.pedantic(study_all, rounds=rounds("DOBBM_BENCH_DISCARD_ROUNDS", 1),
                                 iterations=1)
    times = [statistics.median(ts) for ts in zip(*round_times)]
    nodes = [sum(r.nodes for r in study) if all(getattr(r, "nodes", None) is not None
                                                 for r in study) else None
             for study in studies]
    for study in studies:
        assert study and all(a.declarer_points >= b.declarer_points for a, b in zip(study, study[1:]))
    info = _stats(times, nodes, discard_deals)
    info["rounds"] = len(round_times)
    info["lay_aways_solved"] = sum(len(study) for study in studies)
    info["per_lay_away_ms_mean"] = round(1000 * sum(times) / info["lay_aways_solved"], 3)
    info["best_value_sum"] = sum(study[0].declarer_points for study in studies)
    # how the table heuristic's lay-away fares against the solver's best one
    loss = []
    for deal, study in zip(discard_deals, studies):
        mine = heuristic_discard(deal.hands[deal.declarer] | deal.dobb)
        value = next(r.declarer_points for r in study if r.cards == mine)
        loss.append(study[0].declarer_points - value)
    info["heuristic_discard_loss_mean"] = round(statistics.fmean(loss), 2)
    info["heuristic_discard_optimal"] = sum(x == 0 for x in loss)
    benchmark.extra_info.update(info)
