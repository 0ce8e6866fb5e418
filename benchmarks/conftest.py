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
import yaml

from dobbm_solver.cards import cardset, parse_cards
from dobbm_solver.deal import Deal, validate

ROOT = Path(__file__).resolve().parent.parent
BENCHMARK_FILE = ROOT / "hands" / "benchmark.yaml"
DISCARD_FILE = ROOT / "hands" / "benchmark_discard.yaml"
TT_MB = 64


def _cards(value) -> int:
    return cardset(parse_cards(value))


def _doc_to_deal(doc: dict) -> Deal:
    """The few keys the benchmark files use, for when the hand-file loader is absent."""
    deal = Deal(
        seats=tuple(doc["seats"]),
        declarer=doc["declarer"],
        contract=str(doc["contract"]).lower(),
        hands={seat: _cards(text) for seat, text in doc["hands"].items()},
        dobb=_cards(doc["dobb"]),
        discard=_cards(doc["discard"]) if doc.get("discard") is not None else None,
        doublings=int(doc.get("doublings", 0)),
        dealer=doc.get("dealer"),
    )
    validate(deal)
    return deal


def load_deals(path: Path) -> list[Deal]:
    try:
        from dobbm_solver.handfile import load_hand_file
    except ImportError:
        with open(path, encoding="utf-8") as f:
            return [_doc_to_deal(doc) for doc in yaml.safe_load_all(f) if doc is not None]
    return load_hand_file(path)


@pytest.fixture(scope="session")
def solver():
    try:
        from dobbm_solver.solver import Solver
    except ImportError as exc:
        pytest.skip(f"dobbm_solver.solver is not available: {exc}")
    return Solver(tt_mb=TT_MB)


@pytest.fixture(scope="session")
def bench_deals() -> list[Deal]:
    deals = load_deals(BENCHMARK_FILE)
    assert len(deals) == 120
    return deals


@pytest.fixture(scope="session")
def discard_deals() -> list[Deal]:
    deals = load_deals(DISCARD_FILE)
    assert len(deals) == 30 and all(d.needs_discard for d in deals)
    return deals
