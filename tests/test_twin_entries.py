"""Table entries shared by twin positions, checked against the reference.

Two trick starts are twins when their hands hold the same cards relative to
the cards still present (see ``canonical_key``): the same seat holds each
suit's k-th lowest card in both, only the cards' points differ.  They share
one table key, and a twin's bounds are shifted by what the points may change
(``point_shift``), except for the top trumps of one side, which that side
surely takes.  Here a position is solved on a table that already holds its
twin's entries (``keep_table``), and the value must be the reference's.
"""

from __future__ import annotations

import random

import pytest
from reference import points
from test_bounds import exact_value, random_trick_start, set_core

from dobbm_solver import _search
from dobbm_solver.cards import BB_TRUMPS

SEED = 20261203
TRUMPS = [c for c in range(36) if (1 << c) & BB_TRUMPS]


def twin(rng: random.Random, pos: dict) -> dict | None:
    """The position with its suits' cards replaced by other ranks of the same
    suits, order and holders kept (the trumps always, each plain suit half the
    time), and the points taken so that the deck still holds 120 (the
    defenders' tricks take the rest; with none, the declarer takes it all, as
    the Match rule assumes); None where that cannot be."""
    hands = [list(h) for h in pos["hands"]]
    present = sorted(c for h in hands for c in h)
    suits = {c // 9 for c in present}
    new_of: dict[int, int] = {}
    for s in sorted(suits):
        mine = [c for c in present if c // 9 == s]
        if not any(c in TRUMPS for c in mine) and rng.random() < 0.5:
            continue
        other = sorted(rng.sample(range(9 * s, 9 * s + 9), len(mine)))
        new_of.update(zip(mine, other))
    out = dict(pos)
    out["hands"] = [tuple(sorted(new_of.get(c, c) for c in h)) for h in hands]
    room = 120 - pos["bonus"] - sum(points(h) for h in out["hands"])
    if room < 0:
        return None
    out["taken"] = room if pos["ftricks"] == 0 else 0 if pos["dtricks"] == 0 else min(pos["taken"], room)
    return out


def _check(rng: random.Random, count: int, tricks_left: int) -> int:
    """Solve ``count`` twin pairs each way on a shared table; returns how many
    pairs differ in their trumps' points (so the shifts are reached)."""
    core = _search.Core(1)
    checked = differ = 0
    while checked < count:
        pos = random_trick_start(rng, tricks_left, trumpless=False)
        other = twin(rng, pos)
        if other is None:
            continue
        checked += 1
        trump_pts = [sum(points([c]) for h in p["hands"] for c in h if c in TRUMPS) for p in (pos, other)]
        differ += trump_pts[0] != trump_pts[1]
        for first, second in ((other, pos), (pos, other)):
            set_core(core, first)
            core.value()
            set_core(core, second, keep_table=True)
            assert core.value() == exact_value(second), (first, second)
    return differ


def test_twins_on_a_shared_table_match_the_reference():
    assert _check(random.Random(SEED), 400, 3) > 200


@pytest.mark.slow
def test_twins_on_a_shared_table_match_the_reference_with_four_tricks_left():
    assert _check(random.Random(SEED + 1), 150, 4) > 75
