"""Solver.solve_batch / solve_all_cards_batch: many deals on threads, the same values as one by one."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dobbm_solver.cards import cardset
from dobbm_solver.dealer import random_deal
from dobbm_solver.jobs import JobsError
from dobbm_solver.solver import Solver


@pytest.fixture(scope="module")
def deals():
    rng = random.Random(77)
    out = []
    for _ in range(24):
        d = random_deal(rng)
        line = Solver(4).analyze(d).line[:rng.randrange(8, 20)]    # endings of 13..24 cards
        out.append(replace(d, hands={s: h & ~cardset(line) for s, h in d.hands.items()},
                           tricks=tuple(tuple(line[i:i + 4]) for i in range(0, len(line), 4))))
    return out


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_batch_values_equal_single_solves(deals, jobs) -> None:
    one = Solver(8)
    expected = [one.solve(d).declarer_points for d in deals]
    cards = [one.solve_all_cards(d) for d in deals]
    batch = Solver(8)
    assert [s.declarer_points for s in batch.solve_batch(deals, jobs=jobs)] == expected
    assert batch.solve_all_cards_batch(deals, jobs=jobs) == cards


def test_batch_bad_jobs_and_empty() -> None:
    s = Solver(1)
    assert s.solve_batch([]) == []
    assert s.solve_batch([], jobs=0) == []      # 0: one per core (dobbm_solver.jobs.resolve_jobs)
    for bad in (-1, 257, 1.5, True):
        with pytest.raises(JobsError):
            s.solve_batch([], jobs=bad)
