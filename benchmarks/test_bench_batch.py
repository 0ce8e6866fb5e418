"""The batch API: the 120 benchmark deals through Solver.solve_batch / solve_all_cards_batch.

``jobs=1`` is the one-by-one baseline; ``jobs=2`` runs two threads of the
compiled core (the GIL released in the search).  Compare the two rows of a
kind for the gain of the threads on this machine.
"""

from __future__ import annotations

import pytest

from dobbm_solver.solver import Solver


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("kind", ["value", "all_cards"])
def test_batch(benchmark, bench_deals, kind, jobs):
    solver = Solver(64)
    run = solver.solve_batch if kind == "value" else solver.solve_all_cards_batch
    run(bench_deals[:4], jobs=jobs)        # warm: the tables are allocated once
    benchmark.pedantic(run, args=(bench_deals,), kwargs={"jobs": jobs}, rounds=3, iterations=1)
    benchmark.extra_info.update({"deals": len(bench_deals), "jobs": jobs})
