"""The solved positions of tests/data/oracle/positions.json (see the README beside it).

Every entry must be reproduced by the production solver (``declarer_points``,
and ``cards`` where not null).  The reference solver of ``reference.py`` is run
on the entries with ``cards`` (at most four tricks left) and must agree with
the oracle too -- that validates the reference used by the random cross-check.
"""

from __future__ import annotations

import json

import pytest
from endings import names
from helpers import ORACLE
from reference import ref_card_values, ref_value

from dobbm_solver.cards import parse_card
from dobbm_solver.deal import Deal, validate

ENTRIES: list[dict] = json.loads(ORACLE.read_text())


def _bits(cards) -> int:
    s = 0
    for c in cards:
        s |= 1 << parse_card(c)
    return s


def build(entry: dict) -> Deal:
    deal = Deal(
        seats=tuple(entry["seats"]),
        declarer=entry["declarer"],
        contract=entry["contract"],
        hands={s: _bits(h) for s, h in entry["hands"].items()},
        dobb=_bits(entry["dobb"]),
        discard=None if entry["discard"] is None else _bits(entry["discard"]),
        tricks=tuple(tuple(parse_card(c) for c in t) for t in entry["tricks"]),
    )
    validate(deal)
    return deal


ALL = list(range(len(ENTRIES)))
WITH_CARDS = [i for i in ALL if ENTRIES[i]["cards"] is not None]


def test_oracle_file_is_what_the_readme_says():
    assert len(ENTRIES) == 90
    assert len(WITH_CARDS) == 80
    for e in ENTRIES:
        assert 0 <= e["declarer_points"] <= 120
        if e["cards"] is not None:
            assert e["declarer_points"] in e["cards"].values()


@pytest.fixture(scope="module")
def solver():
    from dobbm_solver.solver import Solver  # must fail loudly if missing
    return Solver(tt_mb=64)


@pytest.mark.parametrize("i", ALL)
def test_solver_matches_oracle(solver, i):
    e = ENTRIES[i]
    deal = build(e)
    sol = solver.solve(deal)
    assert sol.declarer_points == e["declarer_points"], f"entry {i}"
    if e["cards"] is not None:
        assert names(solver.solve_all_cards(deal)) == e["cards"], f"entry {i}"


@pytest.mark.slow   # the pure-Python reference on full positions
@pytest.mark.parametrize("i", WITH_CARDS)
def test_reference_matches_oracle(i):
    e = ENTRIES[i]
    deal = build(e)
    assert names(ref_card_values(deal)) == e["cards"], f"entry {i}"
    assert ref_value(deal) == e["declarer_points"], f"entry {i}"
