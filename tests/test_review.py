"""Tests of the review of a played hand (dobbm_solver/review.py) and of ``dobbm review``.

The hands are played out by the strategies of dobbm_solver/playout.py on seeded
random deals.  Every position the review passes through is rebuilt here with
the reference's own rules (``ref_play`` from the opening lead) and solved
again by a second solver; on the last three tricks the values are checked
against the plain minimax of ``tests/reference.py`` as well.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from reference import ref_card_values, ref_play, ref_value

from dobbm_solver import cli
from dobbm_solver.cards import card_name, parse_card
from dobbm_solver.deal import Deal, DealError, final_points, validate
from dobbm_solver.dealer import random_deal
from dobbm_solver.handfile import dump_deal_yaml, load_hand_file
from dobbm_solver.notation import format_deal_line
from dobbm_solver.playout import open_card_strategy, play_hand, rule_of_thumb_strategy
from dobbm_solver.review import Review, ReviewError, deal_before_play, review_hand
from dobbm_solver.rules import outcome, units
from dobbm_solver.solver import Solver

REPO = Path(__file__).resolve().parents[1]
HANDS = REPO / "hands"


@lru_cache(maxsize=1)
def solver() -> Solver:
    return Solver(16)


def _mixed(deal: Deal, pattern: int):
    """Strategies by seat: open-card where bit i of ``pattern`` is set, else the rule of thumb."""
    oc, rt = open_card_strategy(solver()), rule_of_thumb_strategy()
    return {s: oc if (pattern >> i) & 1 else rt for i, s in enumerate(deal.active_seats)}


def _truncated(deal: Deal, n_cards: int) -> Deal:
    """A finished ``deal`` with only its first ``n_cards`` played (rebuilt by the reference)."""
    cards = [c for t in deal.tricks for c in t]
    return ref_play(deal_before_play(deal), cards[:n_cards])


@lru_cache(maxsize=1)
def played_hands() -> list[Deal]:
    """Seeded hands played out by a mix of strategies, some cut off in mid-play."""
    rng = random.Random(1111)
    out = []
    for k in range(6):
        deal = random_deal(rng)
        done = play_hand(deal, _mixed(deal, rng.randrange(16)))
        out.append(done if k % 2 == 0 else _truncated(done, rng.randrange(1, 32)))
    return out


@lru_cache(maxsize=None)
def _review(i: int) -> Review:
    return review_hand(solver(), played_hands()[i])


@pytest.mark.parametrize("i", range(6))
def test_review_agrees_with_solve_on_every_position(i):
    deal = played_hands()[i]
    review = _review(i)
    cards = [c for t in deal.tricks for c in t]
    assert [r.card for r in review.cards] == cards
    check = Solver(16)
    start = deal_before_play(deal)
    for k, r in enumerate(review.cards):
        before, after = ref_play(start, cards[:k]), ref_play(start, cards[:k + 1])
        assert r.before == check.solve(before).declarer_points
        after_state = validate(after)
        want = final_points(after, after_state) if after_state.finished else check.solve(after).declarer_points
        assert r.after == want
        assert r.cost >= 0
        assert r.cost == (r.before - r.after if r.seat == deal.declarer else r.after - r.before)
        assert (r.cost == 0) == (r.card in r.best)
        if k + 1 < len(review.cards):
            assert review.cards[k + 1].before == r.after
    assert review.start_points == check.solve(start).declarer_points
    assert review.declarer_points == (review.cards[-1].after if review.cards else review.start_points)
    now = validate(deal)
    assert review.finished == now.finished
    if not now.finished:
        assert review.declarer_points == check.solve(deal).declarer_points


@pytest.mark.parametrize("i", [0, 2, 4])
def test_review_agrees_with_the_reference_on_the_last_three_tricks(i):
    deal = played_hands()[i]
    review = _review(i)
    cards = [c for t in deal.tricks for c in t]
    start = deal_before_play(deal)
    for k in range(20, 32):
        r = review.cards[k]
        position = ref_play(start, cards[:k])
        values = ref_card_values(position)
        best = max(values.values()) if r.seat == deal.declarer else min(values.values())
        assert r.before == best == ref_value(position)
        assert r.after == values[r.card]
        assert set(r.best) == {c for c, v in values.items() if v == best}


@pytest.mark.parametrize("i", range(6))
def test_players_outcome_and_units(i):
    deal = played_hands()[i]
    review = _review(i)
    assert [p.seat for p in review.players] == list(deal.active_seats)
    for p in review.players:
        mine = [r for r in review.cards if r.seat == p.seat]
        assert p.declarer_side == (p.seat == deal.declarer)
        assert list(p.cards_with_cost) == [r for r in mine if r.cost > 0]
        assert p.points_lost == sum(r.cost for r in mine)
        assert p.units_lost == sum(r.units_cost for r in mine) >= 0
    for r in review.cards:
        u_before = units(r.before, deal.contract, deal.doublings)
        u_after = units(r.after, deal.contract, deal.doublings)
        assert r.units_cost == (u_before - u_after if r.declarer_side else u_after - u_before)
        assert r.changes_outcome == (outcome(r.before) != outcome(r.after))
        assert r.mark == ("outcome" if r.changes_outcome else "units" if r.units_cost else "")
    changed = [r for r in review.cards if r.outcome_before != r.outcome_after or r.units_cost]
    assert review.first_change == (changed[0] if changed else None)
    # the side's losses add up to the difference between best play and the play
    decl = sum(p.points_lost for p in review.players if p.declarer_side)
    defs = sum(p.points_lost for p in review.players if not p.declarer_side)
    assert review.start_points - decl + defs == review.declarer_points


def test_best_play_everywhere_costs_nothing():
    rng = random.Random(42)
    for _ in range(3):
        deal = random_deal(rng)
        done = play_hand(deal, _mixed(deal, 15))
        review = review_hand(solver(), done)
        assert all(r.cost == 0 and r.units_cost == 0 and not r.mark for r in review.cards)
        assert all(p.points_lost == 0 and not p.cards_with_cost for p in review.players)
        assert review.first_change is None and review.finished
        assert review.declarer_points == review.start_points == Solver(16).solve(deal).declarer_points


def test_no_card_played_and_five_seats():
    (deal,) = load_hand_file(HANDS / "example.yaml")
    review = review_hand(solver(), deal)
    assert review.cards == () and not review.finished and review.first_change is None
    assert review.declarer_points == review.start_points == Solver(16).solve(deal).declarer_points
    (five,) = load_hand_file(HANDS / "five_players.yaml")
    done = play_hand(five, _mixed(five, 0))
    review = review_hand(solver(), done)
    assert len(review.cards) == 32 and review.finished
    assert five.dealer not in {r.seat for r in review.cards}


def test_a_revoke_names_the_trick_and_card():
    (ok,) = load_hand_file(HANDS / "finished.yaml")
    tricks = list(ok.tricks)
    # trick 1 as in hands/revoke.yaml: Cora plays LK though she holds E6
    tricks[0], tricks[1] = (parse_card("EA"), parse_card("LK"), parse_card("E7"), parse_card("EO")), \
        (parse_card("LU"), parse_card("E6"), parse_card("L10"), parse_card("LA"))
    bad = replace(ok, tricks=tuple(tricks))
    with pytest.raises(DealError, match="trick 1: Cora plays LK, a revoke"):
        review_hand(solver(), bad)


def test_a_discard_study_has_no_play_to_review():
    study = random_deal(random.Random(2), contract="dobbm", discard=False)
    with pytest.raises(ReviewError, match="lay-away"):
        review_hand(solver(), study)


def test_deal_before_play_of_the_finished_example():
    (done,) = load_hand_file(HANDS / "finished.yaml")
    start = deal_before_play(done)
    validate(start)
    assert start.tricks == () and all(bin(h).count("1") == 8 for h in start.hands.values())


def test_the_shipped_played_hand_is_what_the_rule_of_thumb_plays():
    """hands/played.yaml: deal 27 of hands/benchmark.yaml, all four seats by the rule of thumb."""
    (played,) = load_hand_file(HANDS / "played.yaml")
    deal = load_hand_file(HANDS / "benchmark.yaml")[26]
    rt = rule_of_thumb_strategy()
    assert play_hand(deal, {s: rt for s in deal.active_seats}) == played
    review = review_hand(solver(), played)
    costly = [r for r in review.cards if r.cost]
    assert {r.declarer_side for r in costly} == {True, False}     # a mistake on each side
    assert review.first_change is not None and review.first_change.changes_outcome


# --- the command ----------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(cli.main, list(args))


def test_cli_text():
    r = run("review", str(HANDS / "played.yaml"))
    assert r.exit_code == 0, r.output
    review = review_hand(solver(), load_hand_file(HANDS / "played.yaml")[0])
    out = r.stdout
    assert out.startswith(f"{HANDS / 'played.yaml'}: review: Dobbm by {review.deal.declarer}")
    assert f"best play from the opening lead: {review.deal.declarer} {review.start_points} points" in out
    assert f"as played: {review.deal.declarer} {review.declarer_points} points" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [int(row[0]) for row in rows] == list(range(1, 9))
    for r_ in review.cards:
        if r_.cost:
            assert f"{card_name(r_.card)} -{r_.cost}" in out
            best = " ".join(card_name(c) for c in r_.best)
            assert f"trick {r_.trick}  {r_.seat}  {card_name(r_.card):<3}  cost {r_.cost:>2}" in out
            assert f"best: {best}" in out
    first = review.first_change
    assert first is not None
    assert f"first card that changed the result: trick {first.trick}, {first.seat} {card_name(first.card)}" in out
    for p in review.players:
        assert any(line.split()[:2] == [p.seat, "declarer" if p.declarer_side else "defender"]
                   and f"{p.points_lost} points" in line for line in out.splitlines())


def test_cli_json():
    r = run("review", "--json", str(HANDS / "played.yaml"), "--tt-mb", "8")
    assert r.exit_code == 0, r.output
    (line,) = r.stdout.splitlines()
    obj = json.loads(line)
    (deal,) = load_hand_file(HANDS / "played.yaml")
    review = review_hand(solver(), deal)
    assert {"deal", "declarer", "contract", "doublings", "finished", "start_points", "declarer_points",
            "outcome", "units", "cards", "players", "first_change"} <= set(obj)
    assert obj["deal"] == format_deal_line(deal)
    assert obj["declarer_points"] == review.declarer_points == final_points(deal, validate(deal))
    assert len(obj["cards"]) == 32
    for got, want in zip(obj["cards"], review.cards):
        assert {"trick", "seat", "card", "before", "after", "cost", "best"} <= set(got)
        assert (got["trick"], got["seat"], got["card"], got["before"], got["after"], got["cost"]) == \
            (want.trick, want.seat, card_name(want.card), want.before, want.after, want.cost)
        assert got["best"] == [card_name(c) for c in want.best]
    assert set(obj["players"]) == set(deal.active_seats)
    for p in review.players:
        got = obj["players"][p.seat]
        assert got["cards_with_cost"] == [card_name(r.card) for r in p.cards_with_cost]
        assert (got["points_lost"], got["units_lost"]) == (p.points_lost, p.units_lost)


def test_cli_unfinished_and_nothing_to_review(tmp_path):
    r = run("review", str(HANDS / "midplay.yaml"))
    assert r.exit_code == 0 and "now, best play from here" in r.stdout
    assert "  4  Anna" in r.stdout and r.stdout.count("\n      ") >= 4
    r = run("review", str(HANDS / "example.yaml"))
    assert r.exit_code == 0 and "nothing to review" in r.stdout
    r = run("review", "--json", str(HANDS / "example.yaml"))
    obj = json.loads(r.stdout)
    assert obj["cards"] == [] and obj["first_change"] is None and obj["finished"] is False
    both = tmp_path / "two.yaml"
    both.write_text((HANDS / "played.yaml").read_text() + "\n---\n" + (HANDS / "midplay.yaml").read_text())
    r = run("review", "--json", str(both))
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 2


def test_cli_deal_line():
    (deal,) = load_hand_file(HANDS / "played.yaml")
    r = run("review", "--json", "--deal", format_deal_line(deal))
    assert r.exit_code == 0
    assert json.loads(r.stdout)["declarer_points"] == final_points(deal, validate(deal))


def test_cli_errors(tmp_path):
    r = run("review", str(HANDS / "revoke.yaml"))
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"Error: {HANDS / 'revoke.yaml'}: tricks: trick 1: Cora plays LK, a revoke "
                                "(must play one of EK E6)")
    r = run("review", str(HANDS / "discard_study.yaml"))
    assert r.exit_code == 2 and r.stderr.startswith(f"Error: {HANDS / 'discard_study.yaml'}: discard:")
    assert "Traceback" not in r.output
    r = run("review")
    assert r.exit_code == 2 and "give a hand FILE" in r.stderr
    r = run("review", str(HANDS / "played.yaml"), "--tt-mb", "0")
    assert r.exit_code == 2
    bad = tmp_path / "bad.yaml"
    (deal,) = load_hand_file(HANDS / "played.yaml")
    bad.write_text(dump_deal_yaml(deal).replace("- HA H6 HO H7", "- HA H6 HO H7 H8"))
    r = run("review", str(bad))
    assert r.exit_code == 2 and r.stderr.startswith(f"Error: {bad}: tricks")
