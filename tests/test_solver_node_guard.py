"""The node guard (``benchmarks/check_nodes.py``) fails on every kind of regression it is for."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_nodes", ROOT / "benchmarks" / "check_nodes.py")
assert _spec is not None and _spec.loader is not None
guard = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(guard)


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads(guard.FIGURES.read_text())


def test_committed_figures_cover_every_benchmark_deal(committed):
    from dobbm_solver.handfile import load_hand_file
    assert committed["deals"] == len(committed["results"]) == len(load_hand_file(guard.DEALS))
    assert committed["total"] == guard.totals(committed["results"])


def test_same_figures_pass(committed):
    assert guard.compare(copy.deepcopy(committed["results"]), committed) == []


def test_missing_deal_fails(committed):
    assert guard.compare(copy.deepcopy(committed["results"][:-1]), committed)
    short = dict(committed, results=committed["results"][:-1])
    assert guard.compare(copy.deepcopy(committed["results"][:-1]), short)   # "deals" says more


def test_changed_value_fails(committed):
    now = copy.deepcopy(committed["results"])
    now[7]["declarer_points"] += 1
    assert any("deal 8: declarer_points" in b for b in guard.compare(now, committed))
    now = copy.deepcopy(committed["results"])
    card = next(iter(now[3]["cards"]))
    now[3]["cards"][card] -= 1
    assert any("deal 4: cards" in b for b in guard.compare(now, committed))


@pytest.mark.parametrize("kind", guard.KINDS)
def test_one_deal_growing_fails_even_if_the_total_shrinks(committed, kind):
    now = copy.deepcopy(committed["results"])
    big = max(range(len(now)), key=lambda i: now[i][kind])
    small = min(range(len(now)), key=lambda i: now[i][kind])
    now[big][kind] //= 2                      # a large saving on one deal ...
    now[small][kind] += guard.DEAL_SLACK + 1  # ... hides no growth beyond the slack on another
    bad = guard.compare(now, committed)
    assert bad and all(f"deal {small + 1}: {kind}" in b for b in bad)


@pytest.mark.parametrize("kind", guard.KINDS)
def test_growth_within_the_tolerance_passes_but_the_total_may_not_grow(committed, kind):
    now = copy.deepcopy(committed["results"])
    i, j = sorted(range(len(now)), key=lambda i: now[i][kind])[-2:]     # the two biggest
    grown = guard.deal_limit(now[i][kind]) - now[i][kind]
    now[i][kind] += grown
    bad = guard.compare(now, committed)
    assert bad and all(b.startswith(f"total {kind}") for b in bad)
    assert now[j][kind] >= grown
    now[j][kind] -= grown                     # saved elsewhere: the total holds
    assert guard.compare(now, committed) == []
