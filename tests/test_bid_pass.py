"""``bid`` values a pass by the game the others then play against you (and ``pimc``'s as 0)."""

from __future__ import annotations

import itertools
import math

import pytest
from views import bid_file, view_of

from dobbm_solver.analyzer import analyze_bid
from dobbm_solver.analyzer.bid import PassValue
from dobbm_solver.analyzer.sampling import sampler_for
from dobbm_solver.analyzer.view import View
from dobbm_solver.analyzer.work import PASS_MIN_CHANCE
from dobbm_solver.deal import Deal
from dobbm_solver.errors import OptionError
from dobbm_solver.models.bidding import bid_probabilities
from dobbm_solver.models.discard_rule import calibrated_discard
from dobbm_solver.rules import units
from dobbm_solver.solver import Solver

SEATS = ("Anna", "Bert", "Cora", "Dave")


def view_as(seat: str, hand: str, bids: tuple[tuple[str, str], ...]) -> View:
    text = bid_file(hand, "".join(f"  - {{{s}: {b}}}\n" for s, b in bids)).replace("me: Bert", f"me: {seat}")
    return view_of(text.replace("  Bert: ", f"  {seat}: "), "bid")


def pass_of(view: View, samples: int = 24, seed: int = 1) -> tuple[float, float]:
    advice = analyze_bid(view, samples=samples, seed=seed, jobs=1)
    [p] = [o for o in advice.options if o.option == "pass"]
    assert p.stderr_units is not None
    return p.ev_units, p.stderr_units


def test_passing_into_a_laydown_costs() -> None:
    # Dave, last to speak, holds nothing after Anna's Dobbm: passing lets her play it against him
    view = view_as("Dave", "E6 E7 E8 E9 L6 L7 L8 L9", (("Anna", "dobbm"), ("Bert", "pass"), ("Cora", "pass")))
    ev, se = pass_of(view)
    assert ev < -2.0 and ev + 3 * se < 0
    assert analyze_bid(view, samples=8, seed=1, jobs=1).info["game_after_pass_probability"] > 0.7


def test_passing_with_the_top_cards_gains() -> None:
    # the same auction, Dave holding the top trumps and the Saus: Anna's Dobbm will lose to him
    view = view_as("Dave", "HA H10 HK HO EA LA SA S10", (("Anna", "dobbm"), ("Bert", "pass"), ("Cora", "pass")))
    ev, se = pass_of(view)
    assert ev > 1.0 and ev - 3 * se > 0


def test_everyone_passing_throws_the_hand_in_for_0() -> None:
    view = view_as("Dave", "E6 E7 E8 E9 L6 L7 L8 L9", (("Anna", "pass"), ("Bert", "pass"), ("Cora", "pass")))
    advice = analyze_bid(view, samples=4, seed=1, jobs=1)
    [p] = [o for o in advice.options if o.option == "pass"]
    assert (p.ev_units, p.stderr_units) == (0.0, 0.0)
    assert advice.info["game_after_pass_probability"] == 0.0


def test_pimc_counts_a_pass_as_0() -> None:
    view = view_as("Dave", "E6 E7 E8 E9 L6 L7 L8 L9", (("Anna", "dobbm"), ("Bert", "pass"), ("Cora", "pass")))
    advice = analyze_bid(view, samples=4, seed=1, jobs=1, pass_value="zero")
    [p] = [o for o in advice.options if o.option == "pass"]
    assert p.ev_units == 0.0 and "game_after_pass_probability" not in advice.info
    with pytest.raises(OptionError, match="pass_value"):
        analyze_bid(view, samples=4, seed=1, jobs=1, pass_value="maybe")  # type: ignore[arg-type]


def _auction_games(view: View, dealt: dict[str, int]) -> dict[tuple[str, str], float]:
    """Every sequence of the later bids, by brute force: the game it ends in and its chance."""
    assert view.order is not None
    later = view.order[view.order.index(view.me) + 1:]
    games: dict[tuple[str, str], float] = {}
    seen = set()
    for bids in itertools.product(("pass", "dobbm", "solo"), repeat=len(later)):
        said = bids[:bids.index("solo") + 1] if "solo" in bids else bids   # a Solo ends the bidding
        if said in seen:
            continue
        seen.add(said)
        chance, dobbm_by = 1.0, next((s for s, b in view.bids if b == "dobbm"), None)
        for seat, bid in zip(later, said):
            p = bid_probabilities(dealt[seat], dobbm_said=dobbm_by is not None, turn=view.order.index(seat))
            chance *= p.get(bid, 0.0)
            if bid == "dobbm":
                dobbm_by = seat
        game: tuple[str, str] | None = None
        if said[-1:] == ("solo",):
            game = (later[len(said) - 1], "solo")
        elif dobbm_by is not None:
            game = (dobbm_by, "dobbm")
        if game is not None and chance > 0:
            games[game] = games.get(game, 0.0) + chance
    return games


@pytest.mark.parametrize("seat, hand, bids", [
    ("Anna", "HK H9 EA E10 L9 L7 S8 S6", ()),
    ("Bert", "H8 H7 EK EO L10 LU S9 S7", (("Anna", "dobbm"),)),
])
def test_a_samples_pass_value_checked_independently(seat: str, hand: str, bids: tuple[tuple[str, str], ...]) -> None:
    view = view_as(seat, hand, bids)
    seed, n = 11, 6
    solver = Solver()
    values = []
    for i in range(n):
        deal, dealt, dobb = sampler_for(view).sample(seed, i)
        assert deal is not None
        value = 0.0
        for (declarer, contract), chance in _auction_games(view, dict(dealt)).items():
            if chance < PASS_MIN_CHANCE:     # (the rule: so unlikely a game is not solved)
                continue
            hands = dict(dealt)
            discard = None
            if contract == "dobbm":
                discard = calibrated_discard(hands[declarer] | dobb)
                hands[declarer] = (hands[declarer] | dobb) & ~discard
            game = Deal(seats=SEATS, declarer=declarer, contract=contract, hands=hands, dobb=dobb,
                        discard=discard, dealer="Dave")
            value -= chance * units(solver.solve(game).declarer_points, contract)
        values.append(value)
    advice = analyze_bid(view, samples=n, seed=seed, jobs=1)
    [p] = [o for o in advice.options if o.option == "pass"]
    # few samples: a plain mean, so the estimate is the mean of the samples' values
    assert p.ev_units == pytest.approx(sum(values) / n, abs=1e-9)
    assert any(v != 0 for v in values) and all(math.isfinite(v) for v in values)


def test_the_arena_bidders() -> None:
    from dobbm_solver.arena import ArenaSamples
    from dobbm_solver.arena.decisions import Env, decide_bid
    from dobbm_solver.arena.game import deal_board
    board = deal_board(2, 0)
    env = Env(Solver(), ArenaSamples(bid=4, discard=1, double=3, play=3))
    pairs: tuple[tuple[str, PassValue], ...] = (("pimc", "zero"), ("advice", "defend"))
    for strategy, value in pairs:
        view = View.from_seat("bid", seats=board.seats, dealer=board.dealer, me="Anna", hand=board.hands["Anna"])
        want = analyze_bid(view, samples=4, seed=board.seed_for("Anna", "bid"), jobs=1, pass_value=value)
        assert decide_bid(strategy, board, env, "Anna", ()) == want.recommendation
