"""The paths only big searches reach: full hard deals, tables that grow, results independent of the table size.

A new table starts in a small part of itself, which grows in stages,
rehashed, as a search passes ``GROW_AFTER_NODES`` nodes and then
``TABLE_GROW_NODES_STEP`` times as many each time (a table no bigger than
the small part never grows).  The 3,000 random endings of the cross-check never get
there, so here the 40 hard full deals of the oracle file
``tests/data/oracle/positions_hard.json`` (solved by an independent
implementation: the value and every opening lead's value) are solved with
tables of 1, 2, 64 and 256 MiB, each table reused from deal to deal as a
program would, and by the core with tables that grow after a few thousand
nodes (so the rehash runs in the middle of nearly every search, whatever
the speed of the solver): every result must be the oracle's, whatever the
size.
"""

from __future__ import annotations

import json

import pytest
from helpers import ORACLE
from test_oracle import build

from dobbm_solver._search import (
    GROW_AFTER_NODES,
    SMALL_TABLE_ENTRIES,
    TABLE_GROW_NODES_STEP,
    TABLE_GROW_STEP,
    Core,
)
from dobbm_solver.cards import card_name
from dobbm_solver.solver import Solver

HARD = ORACLE.with_name("positions_hard.json")

ENTRIES: list[dict] = json.loads(HARD.read_text())
SIZES_MB = (1, 2, 64, 256)
ENTRY_BYTES = 32


def test_hard_file_is_what_the_readme_says():
    assert len(ENTRIES) == 40
    for e in ENTRIES:
        assert e["tricks"] == [] and e["cards"] is not None
        assert e["declarer_points"] == max(e["cards"].values())


@pytest.fixture(scope="module")
def deals() -> list:
    return [build(e) for e in ENTRIES]


@pytest.mark.parametrize("tt_mb", SIZES_MB)
def test_hard_deals_match_the_oracle_whatever_the_table(deals, tt_mb):
    # (no single search of these deals reaches GROW_AFTER_NODES any more: the
    # tests below make the tables grow, the last one with the default stages)
    solver = Solver(tt_mb=tt_mb)
    bad = []
    for i, (e, deal) in enumerate(zip(ENTRIES, deals)):
        sol = solver.solve(deal)
        an = solver.analyze(deal)
        cards = {card_name(c): v for c, v in an.cards.items()}
        if sol.declarer_points != e["declarer_points"] or cards != e["cards"]:
            bad.append(f"hard deal {i}: value {sol.declarer_points}, cards {cards}; "
                       f"oracle {e['declarer_points']}, {e['cards']}")
    assert not bad, f"{tt_mb} MiB table:\n" + "\n".join(bad)


def _root(deal) -> tuple:
    """The core's root of a full deal from the opening lead: relative seats, the declarer 0."""
    active = deal.active_seats
    d = active.index(deal.declarer)
    return [deal.hands[active[(d + k) % 4]] for k in range(4)], 0, [], 0, False, deal.bonus_points


# (1 MiB: four times the small part, so its first stage is capped at the whole)
@pytest.mark.parametrize("tt_mb, grow_after", [(1, 300), (2, 500), (64, 2000), (256, 8000), (64, 2)])
def test_tables_growing_in_every_search_change_nothing(deals, tt_mb, grow_after):
    core = Core(tt_mb, grow_after)
    bad, grown, whole = [], 0, 0
    for i, (e, deal) in enumerate(zip(ENTRIES, deals)):
        core.set_position(*_root(deal))
        value = core.value()
        grown += core.nodes > grow_after
        whole += core.entries_in_use == core.table_entries
        core.set_position(*_root(deal))
        cards = {card_name(c): v for c, v in core.card_values()}
        grown += core.nodes > grow_after
        whole += core.entries_in_use == core.table_entries
        if value != e["declarer_points"] or cards != e["cards"]:
            bad.append(f"hard deal {i}: value {value}, cards {cards}; oracle {e['declarer_points']}, {e['cards']}")
    assert not bad, f"{tt_mb} MiB table growing after {grow_after} nodes:\n" + "\n".join(bad)
    assert grown >= 40, grown   # of the 80 searches
    if grow_after == 2 or tt_mb == 1:
        # every stage, up to the whole table, in most searches
        assert whole >= 40, whole


def test_the_table_grows_in_stages():
    """The part in use: the small part, then TABLE_GROW_STEP times as many entries at
    each stage, the last the whole table; a new root starts small again."""
    core = Core(64, 1)
    full = core.table_entries
    assert full == 64 * 1024 * 1024 // ENTRY_BYTES
    deal = build(ENTRIES[0])
    core.set_position(*_root(deal))
    assert core.entries_in_use == SMALL_TABLE_ENTRIES
    core.value()
    assert core.nodes > TABLE_GROW_NODES_STEP ** 2 and core.entries_in_use == full
    core.set_position(*_root(deal))
    assert core.entries_in_use == SMALL_TABLE_ENTRIES
    one = Core(1)
    one.set_position(*_root(deal))
    assert one.entries_in_use == min(SMALL_TABLE_ENTRIES, one.table_entries)
    staged = Core(64, GROW_AFTER_NODES)
    staged.set_position(*_root(deal))
    staged.value()
    want = SMALL_TABLE_ENTRIES
    if staged.nodes > GROW_AFTER_NODES:
        want *= TABLE_GROW_STEP
    assert staged.entries_in_use == min(want, full)


def test_a_kept_table_grows_with_all_its_roots_nodes(deals):
    """Roots keeping the table count their nodes together for its stages: each
    stage comes after TABLE_GROW_NODES_STEP times the nodes of the one before,
    counted from the first root, whatever the roots' own counts."""
    roots = [_root(deal) for deal in deals[:12]]
    first = Core(64)
    first.set_position(*roots[0])
    first.value()
    n1 = first.nodes
    core = Core(64, n1 + 1)       # the first root stays just below the first stage
    small = SMALL_TABLE_ENTRIES
    core.set_position(*roots[0])
    core.value()
    assert core.nodes == n1 and core.entries_in_use == small
    total = n1
    for root in roots[1:]:
        core.set_position(*root, keep_table=True)
        core.value()
        total += core.nodes
        stages = [small, small * TABLE_GROW_STEP, core.table_entries]
        k = (total > n1 + 1) + (total > (n1 + 1) * TABLE_GROW_NODES_STEP)
        # a stage is taken at the first trick start its count has passed, so
        # it may lag the last few nodes of a root, never lead them
        assert core.entries_in_use in stages[max(k - 1, 0):k + 1], (total, k, core.entries_in_use)
        assert core.entries_in_use <= stages[k]
    assert core.entries_in_use > small


def test_a_kept_table_changes_nothing(deals):
    """One 64 MiB table kept from deal to deal (as a lay-away study keeps it: it grows
    with the nodes of all its roots, by the default stages) for every hard deal."""
    core = Solver(tt_mb=64)._core
    bad = []
    for i, (e, deal) in enumerate(zip(ENTRIES, deals)):
        core.set_position(*_root(deal), keep_table=i > 0)
        if core.value() != e["declarer_points"]:
            bad.append(f"hard deal {i}: value {core.value()}, oracle {e['declarer_points']}")
        cards = {card_name(c): v for c, v in core.card_values()}
        if cards != e["cards"]:
            bad.append(f"hard deal {i}: cards {cards}, oracle {e['cards']}")
    assert not bad, "\n".join(bad)
    assert core.entries_in_use > SMALL_TABLE_ENTRIES      # it grew past its first stage
