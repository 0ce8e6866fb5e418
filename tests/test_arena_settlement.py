"""The arena's settlement on boards that reach each doubling: none, a Schwacher, and a Retour.

The rule book's payment, computed here from its own words (not by the
library's ``rules.units``): ``ceil(|points - 60| / 5)`` units, paid to the
winning side, times 2 for a Solo and times 2 for each Schwacher and each
Retour; the declarer settles with each of the three defenders.  Each board is
played three times, the doubling answers forced (no one doubles; the first
defender asked says Schwacher and the declarer plays on; Schwacher and the
declarer's Retour): the cards are played alike, so the stakes must go 1, 2, 4.
The default strategies double rarely and the open-card one never answers a
Schwacher with Retour, so without forcing no test board reaches a Retour.
"""

from __future__ import annotations

import math

import pytest

from dobbm_solver.arena import ArenaSamples, TableResult, game, parse_player
from dobbm_solver.arena.decisions import Env
from dobbm_solver.arena.game import deal_board, play_table
from dobbm_solver.solver import Solver

FEW = ArenaSamples(bid=3, discard=1, double=3, play=3)
SEATS = ("Anna", "Bert", "Cora", "Dave")
FOREHAND_FIRST = SEATS   # the dealer is the last seat: forehand, the first asked, is the first


def rule_book_units(points: int, contract: str, doublings: int) -> int:
    """What each defender pays the declarer (negative: what the declarer pays each)."""
    base = math.ceil(abs(points - 60) / 5)
    stakes = base * (2 if contract == "solo" else 1) * 2 ** doublings
    return stakes if points > 60 else -stakes


def play_with_doublings(board, env, players, says: int, monkeypatch) -> TableResult:
    """``board`` played with the doubling answers forced: ``says`` doublings (0, 1 or 2)."""
    def forced(strategy, board, env, deal, seat, bids) -> bool:
        return says >= 1 if seat != deal.declarer else says == 2

    monkeypatch.setattr(game, "decide_double", forced)
    result = play_table(board, env, players)
    assert TableResult.from_json(result.to_json(), SEATS, "t") == result   # the row the file keeps
    return result


@pytest.mark.parametrize("names", [("rule",) * 4, ("open",) * 4])
def test_each_doubling_doubles_the_stakes_as_the_rule_book_says(monkeypatch, names):
    env = Env(Solver(tt_mb=16), FEW)
    players = [parse_player(n) for n in names]
    boards, contracts = 0, set()
    for index in range(40):
        board = deal_board(11, index)
        results = [play_with_doublings(board, env, players, says, monkeypatch) for says in (0, 1, 2)]
        if results[0].contract is None:
            assert all(set(r.units.values()) == {0} and r.doublings == 0 for r in results)
            continue
        declarer, contract, points = results[0].declarer, results[0].contract, results[0].points
        first_defender = next(s for s in FOREHAND_FIRST if s != declarer)
        for says, result in enumerate(results):
            assert (result.declarer, result.contract, result.points, result.tricks) == \
                (declarer, contract, points, results[0].tricks)   # the same play, whatever the stakes
            assert result.doublings == says
            assert result.doubled_by == (first_defender, declarer)[:says]
            u = rule_book_units(points, contract, says)
            assert result.units == {s: 3 * u if s == declarer else -u for s in SEATS}, (index, says)
        stakes = [results[says].units[declarer] for says in (0, 1, 2)]
        assert stakes[1] == 2 * stakes[0] and stakes[2] == 4 * stakes[0]
        boards += 1
        contracts.add(contract)
        if boards >= 6 and points != 60:
            break
    assert boards >= 6


def test_a_board_that_reaches_a_schwacher_by_its_own_strategies():
    # the rule-of-thumb bidder, and the open-card doubler that says Schwacher when the
    # declarer's open-card value is under 60
    env = Env(Solver(tt_mb=16), FEW)
    players = [parse_player("rule,double=open")] * 4
    for index in range(60):
        result = play_table(deal_board(11, index), env, players)
        if result.doublings:
            break
    else:
        pytest.fail("no board of the first 60 reached a Schwacher")
    assert result.doublings == 1 and len(result.doubled_by) == 1
    u = rule_book_units(result.points, result.contract, 1)
    assert result.units == {s: 3 * u if s == result.declarer else -u for s in SEATS}
