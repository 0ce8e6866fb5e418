"""Tests of ``dobbm explore``, driven through standard input as a script would drive it.

Each card value is checked against ``dobbm solve --json`` of the same position
(written as a deal line), and each card stepped through a played hand against
``dobbm review --json``; the positions come from the shipped hand files and
from random deals with random play (tests/randdeals.py).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from randdeals import random_deal

from dobbm_solver import cli
from dobbm_solver.cards import Card, card_name, parse_card
from dobbm_solver.cli.explore import run_command
from dobbm_solver.deal import Deal, replay
from dobbm_solver.explore import ExploreError, Explorer
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.notation import format_deal_line
from dobbm_solver.review import deal_before_play
from dobbm_solver.solver import Solver

REPO = Path(__file__).resolve().parents[1]
HANDS = REPO / "hands"
# the shipped hands whose lay-away is given (explore needs it): a fresh deal, played ones, one in mid-play
FRESH = ("example.yaml", "five_players.yaml")
PLAYED = ("played.yaml", "played_dealt.yaml", "midplay.yaml", "finished.yaml")
TT = ("--tt-mb", "4")
KEYS = {"to_play", "cards", "played", "points_taken"}


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.main, list(args), input=input)


def explore_json(source: list[str], commands: list[str]) -> list[dict]:
    """The JSON lines of explore on ``source`` (FILE or --deal LINE) fed ``commands``."""
    result = run("explore", "--json", *TT, *source, input="".join(c + "\n" for c in commands))
    assert result.exit_code == 0, (result.output, result.exception)
    lines = result.stdout.splitlines()
    assert all(line.startswith("{") and line.endswith("}") for line in lines), result.stdout
    return [json.loads(line) for line in lines]


@lru_cache(maxsize=None)
def solved(line: str) -> dict:
    """``dobbm solve --json`` of one deal line."""
    result = run("solve", "--json", *TT, "--deal", line)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def after(start: Deal, cards: list[Card]) -> Deal:
    """``start`` (at the opening lead) after ``cards`` in play order: hands lose them, tricks of four."""
    hands = dict(start.hands)
    tricks: list[tuple[Card, ...]] = []
    for card in cards:
        seat = replay(replace(start, hands=hands, tricks=tuple(tricks)), check=False).to_move
        assert seat is not None
        hands[seat] &= ~(1 << card)
        if tricks and len(tricks[-1]) < 4:
            tricks[-1] += (card,)
        else:
            tricks.append((card,))
    return replace(start, hands=hands, tricks=tuple(tricks))


def check_values(obj: dict, deal: Deal) -> None:
    """``obj``'s card values are those of ``dobbm solve --json`` of ``deal``, best first."""
    want = solved(format_deal_line(deal))
    assert obj["to_play"] == want["to_move"]
    assert {c["card"]: c["points"] for c in obj["cards"]} == want["cards"]
    if not obj["cards"]:
        assert want["cards"] == {}
        return
    declarer = obj["to_play"] == want["declarer"]
    points = [c["points"] for c in obj["cards"]]
    assert points == sorted(points, reverse=declarer)      # best first for the side to play
    assert obj["declarer_points"] == want["declarer_points"]
    for c in obj["cards"]:
        assert c["best"] == (c["points"] == want["declarer_points"])
        assert c["cost"] == abs(want["declarer_points"] - c["points"])


def test_json_has_the_keys_of_the_issue():
    start, *_ = explore_json(["--deal", format_deal_line(load_hand_file(HANDS / "example.yaml")[0])], [])
    assert KEYS <= set(start)
    assert start["played"] == [] and start["points_taken"] == {"declarer": 0, "defenders": 0}
    assert start["cards"] and all(set(c) >= {"card", "points", "units", "best"} for c in start["cards"])
    assert any(c["best"] for c in start["cards"])


@pytest.mark.parametrize("name", FRESH + PLAYED)
def test_every_position_of_a_shipped_hand_has_solves_values(name):
    """From where it starts (a hand played to the end: the opening lead), then stepped
    through the play as recorded from the opening lead, and a best line after it, each
    position's values are solve's of that position."""
    deal = load_hand_file(HANDS / name)[0]
    recorded = [c for t in deal.tricks for c in t]
    start = deal_before_play(deal)
    objs = explore_json([str(HANDS / name)], ["goto 1"] + ["next"] * len(recorded) + ["line"])
    assert len(objs) == len(recorded) + 3
    first, objs = objs[0], objs[1:]
    finished = len(recorded) == 32
    assert first["played"] == ([] if finished else [card_name(c) for c in recorded])
    check_values(first, start if finished else deal)
    for n, obj in enumerate(objs[:-1]):
        assert obj["played"] == [card_name(c) for c in recorded[:n]]
        check_values(obj, after(start, recorded[:n]))
    line = [parse_card(c) for c in objs[-1]["line"]]
    assert len(recorded) + len(line) == 32
    assert replay(after(start, recorded + line), check=False).finished


def test_random_positions_mid_play_have_solves_values():
    rng = random.Random(34)
    checked = 0
    while checked < 12:
        deal = random_deal(rng)
        if deal.needs_discard:
            continue
        # the deal as given: explored from where it stands (the opening lead if played to the end)
        given = explore_json(["--deal", format_deal_line(deal)], [])[0]
        finished = sum(len(t) for t in deal.tricks) == 32
        check_values(given, deal_before_play(deal) if finished else deal)
        # random cards played from the opening lead, as commands
        start = deal_before_play(deal)
        explorer = Explorer(start, Solver(4))
        cards: list[Card] = []
        for _ in range(rng.randint(1, 31)):
            card = rng.choice(sorted(explorer.values()))
            cards.append(card)
            explorer.play(card)
        names = [card_name(c) for c in cards]
        objs = explore_json(["--deal", format_deal_line(start)], names)
        assert [o["played"] for o in objs] == [names[:n] for n in range(len(names) + 1)]
        for n in (0, len(cards) // 2, len(cards)):
            check_values(objs[n], after(start, cards[:n]))
        checked += 1


@pytest.mark.parametrize("name", ("played.yaml", "played_dealt.yaml", "midplay.yaml"))
def test_a_played_hand_stepped_through_costs_what_review_says(name):
    deal = load_hand_file(HANDS / name)[0]
    n = sum(len(t) for t in deal.tricks)
    review = run("review", "--json", *TT, str(HANDS / name))
    assert review.exit_code == 0
    reviewed = json.loads(review.stdout)["cards"]
    objs = explore_json([str(HANDS / name)], ["goto 1"] + ["next"] * n)[1:]
    assert objs[0]["next"] == reviewed[0]["card"] and objs[0]["last"] is None
    for obj, card in zip(objs[1:], reviewed, strict=True):
        last = obj["last"]
        assert (last["seat"], last["card"], last["cost"], last["units_cost"], last["points"]) == \
               (card["seat"], card["card"], card["cost"], card["units_cost"], card["after"])
    assert any(card["cost"] for card in reviewed)   # the steps show costs, not only zeros


def test_enter_steps_as_next_and_a_branch_drops_the_play_ahead():
    source = [str(HANDS / "played.yaml")]
    by_next = explore_json(source, ["next", "next"])
    by_enter = explore_json(source, ["", ""])
    assert by_enter == by_next
    # Anna led HA; SA instead branches off: nothing ahead any more
    start, branched, nothing = explore_json(source, ["SA", "next"])
    assert start["next"] == "HA"
    assert branched["played"] == ["SA"] and branched["next"] is None
    assert "error" in nothing
    # the recorded card itself keeps the rest of the play ahead
    _, same = explore_json(source, ["HA"])
    assert same["next"] == "H6"


def test_undo_and_redo_round_trip():
    deal = load_hand_file(HANDS / "example.yaml")[0]
    explorer = Explorer(deal, Solver(4))
    cards = []
    for _ in range(11):
        card = explorer.line()[0]
        cards.append(card_name(card))
        explorer.play(card)
    objs = explore_json([str(HANDS / "example.yaml")], cards + ["undo"] * 11 + ["redo"] * 11)
    forward, back, again = objs[:12], objs[12:23], objs[23:]
    assert [o["played"] for o in back] == [cards[:n] for n in range(10, -1, -1)]
    strip = [{k: v for k, v in o.items() if k != "next"} for o in forward]
    assert [{k: v for k, v in o.items() if k != "next"} for o in back] == strip[10::-1]
    assert [{k: v for k, v in o.items() if k != "next"} for o in again] == strip[1:]
    assert [o["next"] for o in back] == list(reversed(cards))
    assert again[-1]["next"] is None
    undo_at_start = explore_json([str(HANDS / "example.yaml")], ["undo"])[1]
    assert "error" in undo_at_start


def test_goto_moves_along_the_cards_played_and_ahead():
    source = [str(HANDS / "played.yaml")]
    objs = explore_json(source, ["goto 5", "goto 2", "goto 8", "goto 1", "goto 9", "goto x", "goto"])
    assert [len(o["played"]) for o in objs[:5]] == [0, 16, 4, 28, 0]
    assert [o["trick"] for o in objs[:5]] == [1, 5, 2, 8, 1]
    assert all(set(o) == {"error"} for o in objs[5:])
    # past the play as recorded: not reached yet; the position is kept
    deal = load_hand_file(HANDS / "example.yaml")[0]
    start, error, line = explore_json(["--deal", format_deal_line(deal)], ["goto 2", "line"])
    assert set(error) == {"error"} and "not reached" in error["error"]
    assert line["played"] == start["played"]


def test_best_plays_the_line_and_keeps_the_value():
    source = [str(HANDS / "five_players.yaml")]
    objs = explore_json(source, ["line"] + ["best"] * 33)
    line, best, over = objs[1]["line"], objs[2:-1], objs[-1]
    value = objs[0]["declarer_points"]
    assert len(line) == 32 and objs[1]["played"] == []
    assert [o["played"][-1] for o in best] == line
    assert all(o["declarer_points"] == value and o["last"]["best"] for o in best)
    assert best[-1]["to_play"] is None and best[-1]["cards"] == []
    assert over == {"error": "the hand is over: no card to play"}


def test_bad_commands_get_one_line_and_keep_the_position():
    bad = ["EZ", "HA HK", "undo now", "goto 0", "goto 12", "frobnicate", "S6", "E6"]  # E6 not Anna's
    deal = load_hand_file(HANDS / "example.yaml")[0]
    objs = explore_json([str(HANDS / "example.yaml")], ["best"] + bad + ["help"])
    assert len(objs) == 2 + len(bad) + 1
    assert all(set(o) == {"error"} and o["error"] for o in objs[2:-1])
    assert objs[-1]["played"] == objs[1]["played"] and objs[-1]["cards"] == objs[1]["cards"]
    assert "help" in objs[-1]
    # in text: one line each, then the next command is read as usual
    text = run("explore", "--no-diagram", *TT, str(HANDS / "example.yaml"), input="\n".join(bad + ["line"]) + "\n")
    assert text.exit_code == 0
    errors = [line for line in text.stdout.splitlines() if line.startswith("error:")]
    assert len(errors) == len(bad)
    assert "best line from here" in text.stdout
    assert deal.declarer in text.stdout


def test_quit_and_the_end_of_input_end_with_0_and_comments_are_skipped():
    source = [str(HANDS / "example.yaml")]
    assert len(explore_json(source, ["# a comment", "best", "quit", "best", "best"])) == 2
    assert len(explore_json(source, [])) == 1
    result = run("explore", *TT, *source, input="")
    assert result.exit_code == 0 and "to play" in result.stdout


def test_text_shows_the_diagram_the_values_and_the_costs():
    result = run("explore", *TT, str(HANDS / "played.yaml"), input="next\nnext\nnext\nH10\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "hands at the opening lead" in out and "hands now" in out
    assert "best play from here: Anna ends with 74 points (win)" in out
    assert "Anna played HA: costs 20 points (5 units)" in out
    assert "next (or Enter): Anna HA, as played (32 cards ahead)" in out
    assert "costs are Anna's" in out and "costs are the defenders'" in out
    assert "(right of |: each side's points in tricks so far)" in out
    plain = run("explore", "--no-diagram", *TT, str(HANDS / "midplay.yaml"), input="goto 4\nnext\nnext\n")
    assert "hands now" not in plain.stdout and "trick 4 so far: Anna led; SK S10" in plain.stdout


def test_a_dobbm_without_its_lay_away_is_refused_and_several_deals_take_the_first():
    result = run("explore", *TT, str(HANDS / "discard_study.yaml"), input="")
    assert result.exit_code == 2 and "lay-away" in result.stderr
    many = run("explore", "--json", *TT, str(HANDS / "benchmark.yaml"), input="")
    assert many.exit_code == 0 and "exploring the first" in many.stderr
    assert len(many.stdout.splitlines()) == 1


def test_library_refuses_what_the_position_does_not_allow():
    explorer = Explorer(load_hand_file(HANDS / "midplay.yaml")[0], Solver(4))
    assert len(explorer.played) == 14 and explorer.ahead == ()     # where the deal stands
    explorer.goto(1)
    assert explorer.played == () and len(explorer.ahead) == 14 and explorer.ahead_recorded
    with pytest.raises(ExploreError, match="nothing to undo"):
        explorer.undo()
    explorer.goto(4)
    assert len(explorer.played) == 12 and len(explorer.ahead) == 2
    with pytest.raises(ExploreError, match="does not hold"):
        explorer.play(parse_card("EA"))          # Anna is to lead and Cora holds it
    explorer.redo()
    explorer.redo()
    with pytest.raises(ExploreError, match="goto: trick 5 is not reached"):
        explorer.goto(5)
    # Anna led HA in played.yaml; Bert, holding H6 as his one trump, must play it
    explorer = Explorer(load_hand_file(HANDS / "played.yaml")[0], Solver(4))
    explorer.redo()
    bert = explorer.position()
    with pytest.raises(ExploreError, match=r"Bert may not play EK \(legal: H6\)"):
        explorer.play(parse_card("EK"))
    assert explorer.position() == bert
    assert run_command(explorer, "EK").kind == "error"
    assert run_command(explorer, "LX").kind == "error"
    assert explorer.position() == bert and explorer.ahead_recorded


def test_standard_input_as_the_deal_and_no_prompt_off_a_terminal():
    line = format_deal_line(load_hand_file(HANDS / "example.yaml")[0])
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    cmd = [sys.executable, "-m", "dobbm_solver.cli", "explore", *TT]
    yaml_text = (HANDS / "example.yaml").read_text(encoding="utf-8")
    got = subprocess.run([*cmd, "-"], input=yaml_text, capture_output=True, text=True, env=env, timeout=60)
    assert got.returncode == 0, got.stderr
    assert "to play" in got.stdout
    piped = subprocess.run([*cmd, "--deal", line], input="best\nhelp\n", capture_output=True, text=True,
                           env=env, timeout=60)
    assert piped.returncode == 0
    assert "> " not in piped.stdout + piped.stderr      # no prompt when standard input is no terminal


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_on_a_terminal_a_prompt_is_shown():
    import pty

    line = format_deal_line(load_hand_file(HANDS / "example.yaml")[0])
    pid, fd = pty.fork()
    if pid == 0:   # the child: explore on the terminal
        os.execv(sys.executable, [sys.executable, "-m", "dobbm_solver.cli", "explore", "--no-diagram",
                                  *TT, "--deal", line])
    seen = b""

    def read_until(text: bytes, seconds: float = 60) -> None:
        nonlocal seen
        end = time.monotonic() + seconds
        while text not in seen and time.monotonic() < end:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
        assert text in seen, seen[-500:]

    try:
        read_until(b"(trick 1)> ")
        os.write(fd, b"undo\n")
        read_until(b"error: nothing to undo")
        os.write(fd, b"quit\n")
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        os.close(fd)


def test_ctrl_c_while_waiting_for_a_command_is_the_shared_exit():
    line = format_deal_line(load_hand_file(HANDS / "example.yaml")[0])
    proc = subprocess.Popen([sys.executable, "-m", "dobbm_solver.cli", "explore", "--json", *TT, "--deal", line],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()       # the starting position: now it waits for a command
        assert json.loads(first)["to_play"]
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130
        assert "Traceback" not in err
    finally:
        proc.kill()
