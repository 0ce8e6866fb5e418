"""Monte Carlo card play (`dobbm play`, analyzer.play): the cards ranked from one's own view."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from views import view_of

from dobbm_solver.analyzer import AnalyzerError, analyze_play
from dobbm_solver.analyzer.play import play_turn
from dobbm_solver.cards import card_name, cardset, legal_cards, parse_card, scan_forward
from dobbm_solver.cli import main
from dobbm_solver.deal import replay
from dobbm_solver.dealer import random_deal
from dobbm_solver.handfile import dump_deal_yaml
from dobbm_solver.report.advice import advice_dict
from dobbm_solver.solver import Solver

HANDS = Path(__file__).resolve().parents[1] / "hands"
PLAY = (HANDS / "play.yaml").read_text()


def _strip(advice):
    j = advice_dict(advice)
    j.pop("seconds"), j.pop("jobs")
    return j


def _played_out(seed: int, cards: int):
    """A random deal with ``cards`` cards played by the solver's best line."""
    deal = random_deal(random.Random(seed))
    line = Solver().analyze(deal).line[:cards]
    tricks = [tuple(line[i:i + 4]) for i in range(0, len(line), 4)]
    hands = {s: h & ~cardset(line) for s, h in deal.hands.items()}
    return replace(deal, hands=hands, tricks=tuple(tricks))


def _open_view_text(deal, me: str) -> str:
    """The deal as a play view for ``me`` that shows every card."""
    text = dump_deal_yaml(deal)
    return f"me: {me}\n" + text


@pytest.mark.parametrize("seed,cards", [(1, 0), (2, 5), (3, 14), (4, 23)])
def test_open_view_equals_solve(seed: int, cards: int) -> None:
    """With every card shown, the values are the open-card solver's, exactly."""
    deal = _played_out(seed, cards)
    me = replay(deal).to_move
    advice = analyze_play(view_of(_open_view_text(deal, me), "play"), seed=1, jobs=1)
    values = Solver().solve_all_cards(deal)
    got = {}
    for o in advice.options:
        for card in (o.option, *o.alike):
            got[card] = o.expected_points
    assert got == {c: float(v) for c, v in values.items()}
    assert advice.samples == 1


def test_cards_are_my_legal_cards_and_ranked_by_units() -> None:
    view = view_of(PLAY, "play")
    advice = analyze_play(view, samples=12, seed=1, jobs=1)
    cards = [c for o in advice.options for c in (o.option, *o.alike)]
    assert sorted(cards) == sorted(scan_forward(legal_cards(view.my_hand, None)))
    assert all(isinstance(c, int) for c in cards)
    evs = [o.ev_units for o in advice.options]
    assert evs == sorted(evs, reverse=True)
    assert advice.recommendation == advice.options[0].option
    assert all(o.samples == 12 for o in advice.options)
    assert any("strategy fusion" in n for n in advice.notes)


def test_reproducible_whatever_jobs() -> None:
    view = view_of(PLAY, "play")
    one = analyze_play(view, samples=8, seed=5, jobs=1)
    assert _strip(one) == _strip(analyze_play(view, samples=8, seed=5, jobs=2))


def test_adaptive_run_meets_the_target() -> None:
    advice = analyze_play(view_of(PLAY, "play"), seed=2, jobs=1)
    top = advice.options[0]
    assert advice.info["stopped"] in ("target", "max_samples")
    if advice.info["stopped"] == "target":
        assert top.stderr is not None and top.stderr <= 1.5


def test_cards_alike_in_every_sample_share_a_row() -> None:
    advice = analyze_play(view_of(PLAY, "play"), samples=10, seed=1, jobs=1)
    rows = {o.option: o.alike for o in advice.options}
    # E8 E7 touch: always worth the same
    assert (parse_card("E7"),) in rows.values() or (parse_card("E8"),) in rows.values()


def test_follow_suit_in_mid_trick() -> None:
    text = PLAY.replace("  - H9 H7 H10 SK\n", "  - H9 H7 H10 SK\n  - E10\n") \
        .replace("me: Dave", "me: Anna").replace("  Dave: E10 EU E8 E7 L9", "  Anna: EO L8 L7 SO S6")
    view = view_of(text, "play")
    turn = play_turn(view)
    assert turn.to_move == "Anna" and [card_name(c) for c in turn.trick] == ["E10"]
    assert [card_name(c) for c in turn.legal] == ["EO"]


@pytest.mark.parametrize("change,key,words", [
    (("me: Dave", "me: Cora"), "me", "Dave's turn"),
    (("  - H9 H7 H10 SK\n", ""), "me", "turn to play"),
])
def test_not_my_turn_is_a_clear_error(change, key, words) -> None:
    text = PLAY.replace(*change)
    if change[0] == "me: Dave":
        text = text.replace("  Dave: E10 EU E8 E7 L9", "  Cora: H8 EK E6 SA SU")
    else:
        text = text.replace("  Dave: E10 EU E8 E7 L9", "  Dave: H10 E10 EU E8 E7 L9")
    with pytest.raises(AnalyzerError) as info:
        analyze_play(view_of(text, "play"), samples=2, seed=1, jobs=1)
    assert f"{key}:" in str(info.value) and words in str(info.value)


def test_cli_text_and_json() -> None:
    r = CliRunner().invoke(main, ["play", str(HANDS / "play.yaml"), "--seed", "1", "-n", "8", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "play for Dave (defender)" in r.output and "recommendation:" in r.output
    r = CliRunner().invoke(main, ["play", str(HANDS / "play.yaml"), "--seed", "1", "-n", "8", "--jobs", "1", "--json"])
    obj = json.loads(r.output)
    assert obj["command"] == "play" and obj["info"]["to_move"] == "Dave"
    shown = [n for o in obj["options"] for n in [o["option"], *o["alike"]]]
    assert sorted(shown) == sorted(["E10", "EU", "E8", "E7", "L9"])


def test_cli_bad_view_exit_2() -> None:
    r = CliRunner().invoke(main, ["play", "-", "--seed", "1"], input=PLAY.replace("me: Dave", "me: Cora")
                           .replace("  Dave: E10 EU E8 E7 L9", "  Cora: H8 EK E6 SA SU"))
    assert r.exit_code == 2 and "Error:" in r.output and "turn to play" in r.output


def test_monte_carlo_player_plays_a_hand_from_its_own_view() -> None:
    """The Monte Carlo strategy in play_hand: legal cards, the hand finished, the same
    hand again for the same seed, and it is never given the open deal."""
    from dobbm_solver.analyzer.strategy import monte_carlo_strategy
    from dobbm_solver.playout import open_card_strategy, play_hand

    deal = random_deal(random.Random(11))
    seen = []

    class Watch:
        sees_all_cards = False

        def __init__(self) -> None:
            self.inner = monte_carlo_strategy(samples=4, seed=3)

        def __call__(self, view):
            seen.append(view.open_deal)
            return self.inner(view)

    defender = next(s for s in deal.active_seats if s != deal.declarer)
    strategies = {s: open_card_strategy(Solver(8)) for s in deal.active_seats}
    strategies[defender] = Watch()
    done = play_hand(deal, strategies)
    assert len(done.tricks) == 8 and all(len(t) == 4 for t in done.tricks)
    assert seen and all(d is None for d in seen)
    strategies[defender] = monte_carlo_strategy(samples=4, seed=3)
    assert play_hand(deal, strategies).tricks == done.tricks
