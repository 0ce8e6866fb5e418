"""The core's own replay of the tricks (``Core.set_play``, the solver's fixed cost) against ``deal.replay``."""

from __future__ import annotations

import dataclasses
import random

import pytest
from randdeals import random_deal

from dobbm_solver import _search
from dobbm_solver import solver as solver_module
from dobbm_solver.deal import final_points, replay
from dobbm_solver.solver import Solution, Solver


def _old_root(core: _search.Core, deal) -> str | None:
    """The root as the solver set it before the core replayed the tricks: through ``replay``."""
    state = replay(deal, check=False)
    active = deal.active_seats
    d = active.index(deal.declarer)
    order = tuple(active[(d + i) % 4] for i in range(4))
    core.set_position([deal.hands[s] for s in order], order.index(state.leader), list(state.trick),
                      state.declarer_trick_points, state.declarer_tricks > 0, deal.bonus_points)
    return state.to_move


def test_set_play_sets_the_root_replay_gives() -> None:
    """Four and five seats, every stage of the play, mid-trick and finished: the same seat to
    move, the same final points, and (with few cards left, where it is cheap) the same value
    and card values as the root set from ``replay``."""
    rng = random.Random(3601)
    solver = Solver(1)
    old = _search.Core(1)
    seen_finished = seen_mid = 0
    for _ in range(1500):
        deal = random_deal(rng)
        if deal.needs_discard:
            continue
        to_move = solver._load(deal)
        assert to_move == _old_root(old, deal)
        state = replay(deal, check=False)
        if to_move is None:
            seen_finished += 1
            assert solver._core.final_points == final_points(deal, state)
            assert solver.solve(deal).declarer_points == final_points(deal, state)
            continue
        seen_mid += bool(state.trick)
        assert solver._core.to_move == old.to_move
        if sum(map(int.bit_count, deal.hands.values())) <= 16:
            assert solver._core.value() == old.value()
            solver._load(deal)
            assert solver._core.card_values() == old.card_values()
    assert seen_finished > 10 and seen_mid > 100


HANDS = {"a": 1, "b": 2, "c": 4, "d": 8}


@pytest.mark.parametrize("tricks", [((36,),), ((0, 1, 2, 3, 4),), ((-1,),)])
def test_set_play_rejects_bad_tricks(tricks) -> None:
    with pytest.raises(ValueError):
        _search.Core(1).set_play(HANDS, ("a", "b", "c", "d"), tricks, 0)


def test_set_play_rejects_cards_off_the_deck_and_other_tables() -> None:
    with pytest.raises(ValueError):
        _search.Core(1).set_play({**HANDS, "a": 1 << 36}, ("a", "b", "c", "d"), (), 0)
    with pytest.raises(ValueError):
        _search.Core(1).set_play(HANDS, ("a", "b", "c"), (), 0)


def test_fast_solution_equals_the_dataclass() -> None:
    """The solver's quick constructor sets every field of Solution, as its __init__ does."""
    args = ("Anna", 61, "Bert", 12, "solo", 1)
    made = solver_module._solution(*args)
    assert made == Solution(*args) and type(made) is Solution
    assert set(vars(made)) == {f.name for f in dataclasses.fields(Solution)}
