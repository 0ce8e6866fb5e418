"""Alpha-mu search for the declarer's cards (``play --method alphamu``, the arena's ``alphamu``)."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from typing import Any

import pytest
from click.testing import CliRunner
from endings import make, random_ending

from dobbm_solver import cli
from dobbm_solver.analyzer import View, analyze_play
from dobbm_solver.analyzer.alphamu import alphamu, pareto
from dobbm_solver.analyzer.payment import payment
from dobbm_solver.analyzer.play import alphamu_applies, alphamu_play
from dobbm_solver.arena import parse_player
from dobbm_solver.arena.decisions import Env, WholeMonteCarlo, play_strategy
from dobbm_solver.arena.duplicate import swapped_decisions
from dobbm_solver.arena.game import deal_board
from dobbm_solver.arena.strategies import ArenaSamples, method
from dobbm_solver.cards import Card, legal_cards, parse_card, scan_forward
from dobbm_solver.deal import Deal, replay
from dobbm_solver.dealer import random_deal
from dobbm_solver.errors import OptionError
from dobbm_solver.solver import Solver

SEATS = ("Sepp", "Loisl", "Vroni", "Toni")


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def _fusion_worlds() -> list[Deal]:
    """Three tricks left, Loisl (Dobbm, doubled twice) to lead holding H10 SA SU.  The two
    worlds differ only in who holds SK: Sepp or Toni (with S7 the other way round)."""
    tricks = ("L7 L10 L9 LO", "EK E6 E7 E10", "HK H9 H8 S10", "E8 EO EA E9", "L8 L6 HO LK")
    common = dict(tricks=tricks, dobb="HA E10 L7 SA", contract="dobbm", discard="HA H6 EU SO",
                  declarer="Loisl", seats=SEATS, doublings=2)
    one = make({"Sepp": "S8 S7 S6", "Loisl": "H10 SA SU", "Vroni": "HU LU S9", "Toni": "H7 LA SK"}, **common)
    two = make({"Sepp": "SK S8 S6", "Loisl": "H10 SA SU", "Vroni": "HU LU S9", "Toni": "H7 LA S7"}, **common)
    return [one, two]


def test_alpha_mu_finds_the_card_that_needs_no_guess(solver: Solver) -> None:
    """Open-card play of each world (PIMC) leads the trump H10, for 93 points in one world
    and 87 in the other: it would then know where SK is.  Played as one strategy for both
    worlds the H10 line must guess and gets 93 and 74; SA needs no guess: 93 and 85 in the
    worlds, as open-card play says."""
    worlds = _fusion_worlds()
    h10, sa, su = (parse_card(t) for t in ("H10", "SA", "SU"))
    pimc = alphamu(solver, worlds, "dobbm", 2, depth=1)
    assert max(pimc.score, key=lambda c: pimc.score[c]) == h10
    assert pimc.open_values[h10] == (93, 87) and pimc.open_values[sa] == (93, 85)
    search = alphamu(solver, worlds, "dobbm", 2)
    assert search.best[h10] == (93, 74)                  # the guess, under one strategy
    assert search.best[sa] == search.open_values[sa] == (93, 85)
    assert search.best[su] == (74, 74)
    assert max(search.score, key=lambda c: search.score[c]) == sa
    assert search.score[sa] > search.score[h10]
    # one strategy can only lose against open cards in every world
    for c, v in search.best.items():
        assert all(a <= b for a, b in zip(v, search.open_values[c]))


def test_depth_one_is_perfect_information_monte_carlo(solver: Solver) -> None:
    worlds = _fusion_worlds()
    r = alphamu(solver, worlds, "dobbm", 2, depth=1)
    for c, v in r.best.items():
        assert v == r.open_values[c]
        assert r.score[c] == pytest.approx(sum(payment(p, "dobbm", 2, True) for p in v) / len(v))


def test_pareto_keeps_the_undominated_vectors_once() -> None:
    assert pareto([(1, 2), (2, 1), (1, 1), (2, 1), (0, 3)]) == [(1, 2), (2, 1), (0, 3)]
    assert pareto([(5, 5), (1, 2), (5, 4)]) == [(5, 5)]


# --------------------------------------------------------------------------
# brute force: every strategy of the declarer on a small ending

def _play(deal: Deal, seat: str, card: Card) -> Deal:
    tricks = deal.tricks
    tricks = tricks[:-1] + (tricks[-1] + (card,),) if tricks and len(tricks[-1]) < 4 else tricks + ((card,),)
    return replace(deal, hands={**deal.hands, seat: deal.hands[seat] & ~(1 << card)}, tricks=tricks)


def _turn(deal: Deal) -> tuple[str, int]:
    st = replay(deal, check=False)
    assert st.to_move is not None
    return st.to_move, legal_cards(deal.hands[st.to_move], st.trick[0] if st.trick else None)


#: Endings whose declarer has more strategies than this (at one root card) are skipped.
MAX_STRATEGIES = 64


def _brute_force(solver: Solver, worlds: list[Deal], depth: int = 2) -> dict[Card, float] | None:
    """Each root card's best mean payment over every strategy of the declarer: a card for
    each position it can tell apart (the cards played so far) at its next ``depth - 1``
    turns, open-card play after that; the defenders choose per world among their
    open-card best cards, each card tried (no grouping of alike cards)."""
    decl, contract, dbl = worlds[0].declarer, worlds[0].contract, worlds[0].doublings

    def infosets(deal: Deal, moves: int, acc: dict[Any, list[Card]]) -> None:
        seat, legal = _turn(deal)
        if seat == decl:
            acc.setdefault(deal.tricks, list(scan_forward(legal)))
            if moves + 1 < depth:
                for c in scan_forward(legal):
                    infosets(_play(deal, seat, c), moves + 1, acc)
            return
        vals = solver.solve_all_cards(deal)
        for c, v in vals.items():
            if v == min(vals.values()):
                infosets(_play(deal, seat, c), moves, acc)

    def outcome(deal: Deal, strategy: dict[Any, Card], moves: int) -> int:
        seat, _ = _turn(deal)
        vals = solver.solve_all_cards(deal)
        if seat == decl:
            c = strategy[deal.tricks]
            return vals[c] if moves + 1 >= depth else outcome(_play(deal, seat, c), strategy, moves + 1)
        return min(outcome(_play(deal, seat, c), strategy, moves) for c, v in vals.items()
                   if v == min(vals.values()))

    seat, legal = _turn(worlds[0])
    out: dict[Card, float] = {}
    for root in scan_forward(legal):
        after = [_play(w, seat, root) for w in worlds]
        acc: dict[Any, list[Card]] = {}
        for w in after:
            infosets(w, 1, acc)
        keys = list(acc)
        if math.prod(len(acc[k]) for k in keys) > MAX_STRATEGIES:
            return None
        best = -1e9
        for choice in itertools.product(*(acc[k] for k in keys)):
            strategy = dict(zip(keys, choice))
            pays = [payment(outcome(w, strategy, 1), contract, dbl, True) for w in after]
            best = max(best, sum(pays) / len(pays))
        out[root] = best
    return out


def _shuffled_worlds(deal: Deal, rng: random.Random, n: int) -> list[Deal]:
    """``deal`` and ``n - 1`` more with the defenders' cards dealt again among them."""
    defs = [s for s in deal.active_seats if s != deal.declarer]
    pool = [c for s in defs for c in scan_forward(deal.hands[s])]
    out = [deal]
    for _ in range(n - 1):
        rng.shuffle(pool)
        hands, k = dict(deal.hands), 0
        for s in defs:
            size = bin(deal.hands[s]).count("1")
            hands[s] = sum(1 << c for c in pool[k:k + size])
            k += size
        out.append(replace(deal, hands=hands))
    return out


@pytest.mark.parametrize("tricks_left", [2, 3])
def test_the_search_equals_brute_force_over_strategies(solver: Solver, tricks_left: int) -> None:
    checked = 0
    for i in range(200):
        rng = random.Random(1000 * tricks_left + i)
        deal = random_ending(rng, tricks_left=tricks_left, extra=rng.randint(0, 3), strong=0.8)
        seat, legal = _turn(deal)
        if seat != deal.declarer or legal & (legal - 1) == 0:
            continue
        worlds = _shuffled_worlds(deal, rng, 3)
        brute = _brute_force(solver, worlds)
        if brute is None:
            continue
        search = alphamu(solver, worlds, deal.contract, deal.doublings)
        heads = {c: h for h, cl in search.alike.items() for c in cl}
        assert set(heads) == set(brute)
        for c, v in brute.items():
            assert search.score[heads[c]] == pytest.approx(v), (i, c)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


# --------------------------------------------------------------------------
# play --method alphamu

def _declarer_view(seed: int) -> View:
    deal = random_deal(random.Random(seed))
    return View.cut(deal, "play", deal.declarer)


def test_alphamu_play_is_deterministic_and_ranks_every_card() -> None:
    view = _declarer_view(2)
    assert alphamu_applies(view)
    a = analyze_play(view, samples=6, seed=5, method="alphamu")
    b = analyze_play(view, samples=6, seed=5, jobs=2, method="alphamu")
    assert a.info["method"] == "alphamu" and a.samples == 6
    assert [(o.option, o.alike, o.ev_units, o.expected_points) for o in a.options] == [
        (o.option, o.alike, o.ev_units, o.expected_points) for o in b.options]
    ranked = {c for o in a.options for c in (o.option,) + o.alike}
    assert ranked == set(scan_forward(legal_cards(view.my_hand, None)))
    units = [o.ev_units for o in a.options]
    assert units == sorted(units, reverse=True)
    # a budget used up at once: the first search's worlds
    timed = alphamu_play(view, seed=5, budget_s=1e-9)
    assert timed.info["stopped"] == "time" and timed.samples == 4


def test_alphamu_leaves_the_defenders_and_later_tricks_to_monte_carlo() -> None:
    deal = random_deal(random.Random(3))
    defender = next(s for s in deal.active_seats if s != deal.declarer)
    lead = _play(deal, deal.declarer, next(iter(scan_forward(deal.hands[deal.declarer]))))
    view = View.cut(lead, "play", defender if _turn(lead)[0] == defender else _turn(lead)[0])
    assert not alphamu_applies(view)
    a = analyze_play(view, samples=4, seed=1, method="alphamu")
    b = analyze_play(view, samples=4, seed=1)
    assert "method" not in a.info
    assert [(o.option, o.ev_units) for o in a.options] == [(o.option, o.ev_units) for o in b.options]
    with pytest.raises(OptionError):
        analyze_play(view, samples=4, seed=1, method="guess")  # type: ignore[arg-type]


BERT = """seats: [Anna, Bert, Cora, Dave]
dealer: Anna
me: Bert
declarer: Bert
contract: dobbm
hands:
  Bert: HA HK HO H9 H6 EA LO LU
dobb: HK HO EA LO
discard: E9 L6 S10 S8
"""


def test_cli_method_option(tmp_path: Any) -> None:
    path = tmp_path / "bert.yaml"
    path.write_text(BERT)
    runner = CliRunner()
    got = runner.invoke(cli.main, ["play", str(path), "-n", "4", "--method", "alphamu", "--json"])
    assert got.exit_code == 0, got.output
    assert '"method": "alphamu"' in got.output
    plain = runner.invoke(cli.main, ["play", str(path), "-n", "4"])
    same = runner.invoke(cli.main, ["play", str(path), "-n", "4", "--method", "pimc"])
    assert plain.exit_code == 0 and plain.output == same.output
    bad = runner.invoke(cli.main, ["play", str(path), "--method", "guess"])
    assert bad.exit_code != 0


# --------------------------------------------------------------------------
# the arena player

def test_alphamu_is_a_player_that_differs_from_advice_in_the_card_play(solver: Solver) -> None:
    assert parse_player("alphamu").name == "alphamu"
    assert [method(d, "alphamu") for d in ("bid", "discard", "double", "play")] == [
        "advice", "advice", "advice", "alphamu"]
    assert swapped_decisions(parse_player("alphamu"), parse_player("advice")) == ("play",)
    assert swapped_decisions(parse_player("alphamu"), parse_player("pimc")) == ("bid", "play")
    board = deal_board(1, 1)
    player = play_strategy("alphamu", board, Env(solver, ArenaSamples(bid=3, discard=1, double=3, play=3)), "Anna")
    assert isinstance(player, WholeMonteCarlo) and player.method == "alphamu"
    assert play_strategy("advice", board, Env(solver, ArenaSamples()), "Anna").method == "pimc"  # type: ignore[attr-defined]
