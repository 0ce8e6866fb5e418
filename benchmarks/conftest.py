"""Fixtures for the solver benchmarks (pytest-benchmark).

Not part of the default test run (``testpaths = ["tests"]``); run them with

    python -m pytest benchmarks --benchmark-only

The deals come from ``hands/benchmark.yaml`` (120 deals at the opening lead)
and ``hands/benchmark_discard.yaml`` (30 Dobbm deals, Dobb not yet taken),
both written by ``benchmarks/make_hands.py``.  ``DOBBM_BENCH_ROUNDS`` (default
5) and ``DOBBM_BENCH_DISCARD_ROUNDS`` (default 1) set the timed rounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dobbm_solver.deal import Deal
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.solver import Solver

ROOT = Path(__file__).resolve().parent.parent
BENCHMARK_FILE = ROOT / "hands" / "benchmark.yaml"
DISCARD_FILE = ROOT / "hands" / "benchmark_discard.yaml"
TT_MB = 64


@pytest.fixture(scope="session")
def solver() -> Solver:
    return Solver(tt_mb=TT_MB)


@pytest.fixture(scope="session")
def bench_deals() -> list[Deal]:
    deals = load_hand_file(BENCHMARK_FILE)
    assert len(deals) == 120
    return deals


@pytest.fixture(scope="session")
def discard_deals() -> list[Deal]:
    deals = load_hand_file(DISCARD_FILE)
    assert len(deals) == 30 and all(d.needs_discard for d in deals)
    return deals
