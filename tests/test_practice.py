"""Tests of ``dobbm practice``, driven through standard input as a script or a person would.

The session is played with ``hint`` (the advice's choice), with the same
answers typed out in the words of each question, with bad lines between
them, and cut short; its saved file is read back by ``review``, ``explore``
and ``score``; the review after each hand is checked against ``dobbm
review`` of the saved hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dobbm_solver import cli
from dobbm_solver.arena.decisions import Env
from dobbm_solver.cards import card_name
from dobbm_solver.cli.practice import read_answer
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.practice import Session
from dobbm_solver.practice.game import Ask
from dobbm_solver.practice.judge import CardJudged
from dobbm_solver.practice.savefile import HEADER
from dobbm_solver.review import review_hand
from dobbm_solver.solver import Solver

TT = ("--tt-mb", "4")
HINTS = "hint\n" * 400


def run(*args: str, input: str = "") -> Result:
    return CliRunner().invoke(cli.main, ["practice", *TT, *args], input=input)


def json_run(*args: str, input: str = HINTS) -> list[dict]:
    result = run("--json", *args, input=input)
    assert result.exit_code == 0, (result.output, result.exception)
    return [json.loads(line) for line in result.stdout.splitlines()]


def hinted_answers(objs: list[dict]) -> list[str]:
    return [o["hint"] for o in objs if "hint" in o]


@pytest.fixture(scope="module")
def two_hands() -> list[dict]:
    return json_run("--seed", "3", "--hands", "2")


def test_hints_play_the_hands_through(two_hands):
    reviews = [o for o in two_hands if o.get("event") == "review"]
    assert len(reviews) == 2
    end = two_hands[-1]
    assert end == {"event": "end", "hands": 2, "totals": end["totals"], "reason": "done"}
    assert sum(end["totals"].values()) == 0
    totals = {s: 0 for s in end["totals"]}
    for r in reviews:
        for s, u in r["payments"].items():
            totals[s] += u
    assert totals == end["totals"]
    # every question answered is one decision reviewed, in order
    prompts = [o for o in two_hands if "prompt" in o and "hint" not in o]
    assert len(prompts) == sum(len(r["decisions"]) for r in reviews)


def test_every_line_is_one_json_object_and_cards_follow_the_rules(two_hands):
    for o in two_hands:
        assert isinstance(o, dict)
    for n, o in enumerate(two_hands):
        if o.get("prompt") == "play" and "hint" not in o:
            hint = two_hands[n + 1]
            assert hint["hint"] in o["legal"] and set(o["legal"]) <= set(o["cards"])
            assert two_hands[n + 2] == {"event": "card", "seat": "Anna", "card": hint["hint"], "trick": o["trick"]}


def test_typed_answers_play_the_same_session_as_hints(two_hands):
    answers = hinted_answers(two_hands)
    typed = json_run("--seed", "3", "--hands", "2", input="".join(a.lower() + "\n" for a in answers))
    assert [o for o in two_hands if "hint" not in o] == typed


def test_bad_lines_get_one_error_each_and_lose_nothing(two_hands):
    answers = hinted_answers(two_hands)
    bad = ["foo", "EA EK", "hint now", "", "# a comment", "help", "E6 E6 E7 E8", "double please", "XX"]
    lines = []
    for n, a in enumerate(answers):
        lines += [bad[n % len(bad)], a]
    got = json_run("--seed", "3", "--hands", "2", input="".join(x + "\n" for x in lines))
    errors = [o for o in got if "error" in o]
    helps = [o for o in got if "help" in o]
    silent = sum(1 for n in range(len(answers)) if bad[n % len(bad)] in ("", "# a comment"))
    assert len(errors) + len(helps) == len(answers) - silent
    assert all(set(o) == {"error"} and o["error"] for o in errors)
    assert [o for o in got if "error" not in o and "help" not in o] == [o for o in two_hands if "hint" not in o]


@pytest.mark.parametrize("kind, line, ok", [
    ("bid", "pass", "pass"), ("bid", "SOLO", "solo"), ("bid", "dobbm", None), ("bid", "pass pass", None),
    ("double", "double", True), ("double", "Schwacher", True), ("double", "good", False),
    ("double", "play on", False), ("double", "retour", None), ("double", "yes", None),
    ("discard", "e6 s9 s7 s6", "E6 S9 S7 S6"), ("discard", "E6 S9 S7", None), ("discard", "LA E6 S9 S7", None),
    ("discard", "HA E6 S9 S7", None), ("play", "lu", "LU"), ("play", "H6", None), ("play", "EA", None),
])
def test_the_words_of_each_question(kind, line, ok):
    from dobbm_solver.cards import cardset, parse_cards
    hand = cardset(parse_cards("H10 HK HO H7 H6 E6 LA LO LU S9 S7 S6"))
    ask: Ask[object] = Ask(kind=kind, seat="Anna", hand=hand, bids=(("Bert", "dobbm"),) if kind == "bid" else (),
                           options={"bid": ("pass", "solo"), "double": ("double", "good")}.get(kind, ()),
                           legal=cardset(parse_cards("LA LO LU")), advise=lambda: None)
    reply = read_answer(ask, line)
    if ok is None:
        assert reply.kind == "error" and reply.message
    else:
        assert reply.kind == "answer"
        value = reply.value
        if kind == "discard":
            value = " ".join(card_name(c) for c in parse_cards(ok)) if value == cardset(parse_cards(ok)) else value
        elif kind == "play":
            value = card_name(value)
        assert value == ok


def test_the_end_of_the_input_or_quit_ends_cleanly(tmp_path):
    got = json_run("--seed", "3", input="")
    assert got[-1] == {"event": "end", "hands": 0, "totals": {"Anna": 0, "Bert": 0, "Cora": 0, "Dave": 0},
                       "reason": "input ended"}
    text = run("--seed", "3", input="hint\nhint\nhint\n")
    assert text.exit_code == 0 and "input ended: hand 1 is left unfinished" in text.stdout
    out = tmp_path / "s.yaml"
    got = json_run("--seed", "3", "--hands", "3", "--save", str(out), input="hint\n" * 12 + "quit\n")
    assert got[-1]["reason"] == "quit" and got[-1]["hands"] == 1
    assert len(load_hand_file(out)) == 1     # the hand finished before quit is saved


def test_the_same_seed_and_answers_give_the_same_session():
    a = run("--seed", "5", "--hands", "2", input=HINTS)
    b = run("--seed", "5", "--hands", "2", input=HINTS)
    c = run("--seed", "6", "--hands", "2", input=HINTS)
    assert a.exit_code == b.exit_code == c.exit_code == 0
    assert a.stdout == b.stdout and a.stdout != c.stdout


def test_the_saved_session_reads_back_into_review_score_and_explore(tmp_path, two_hands):
    out = tmp_path / "session.yaml"
    got = json_run("--seed", "3", "--hands", "2", "--save", str(out))
    assert got == two_hands
    text = out.read_text(encoding="utf-8")
    assert text.startswith(HEADER + "\n")
    deals = load_hand_file(out)
    reviews = [o for o in got if o.get("event") == "review"]
    assert [d.declarer for d in deals] == [r["declarer"] for r in reviews]
    assert deals[1].dealer == deals[0].declarer
    runner = CliRunner()
    score = runner.invoke(cli.main, ["score", "--json", str(out)])
    assert score.exit_code == 0, score.output
    objs = [json.loads(line) for line in score.stdout.splitlines()]
    assert [o["payments"] for o in objs[:2]] == [r["payments"] for r in reviews]
    assert objs[2]["session"]["totals"] == got[-1]["totals"]
    review = runner.invoke(cli.main, ["review", "--json", *TT, str(out)])
    assert review.exit_code == 0
    for r, rv in zip(reviews, (json.loads(line) for line in review.stdout.splitlines())):
        assert rv["start_points"] == r["start_points"] and rv["declarer_points"] == r["points"]
        mine = [d for d in r["decisions"] if d["decision"] == "card"]
        theirs = [c for c in rv["cards"] if c["seat"] == "Anna"][:len(mine)]
        assert [(d["trick"], d["chosen"], d["cost"], d["best"]) for d in mine] == \
               [(c["trick"], c["card"], c["cost"], c["best"]) for c in theirs]
    explore = runner.invoke(cli.main, ["explore", "--json", *TT, str(out)], input="next\n")
    assert explore.exit_code == 0


def test_a_file_practice_did_not_write_is_refused_and_left_as_it_is(tmp_path):
    other = tmp_path / "notes.yaml"
    other.write_text("my notes\n", encoding="utf-8")
    result = run("--save", str(other), input=HINTS)
    assert result.exit_code == 2
    assert "not a session file of dobbm practice" in result.output and "Traceback" not in result.output
    assert other.read_text(encoding="utf-8") == "my notes\n"
    assert run("--save", str(tmp_path), input=HINTS).exit_code == 2    # a directory
    own = tmp_path / "own.yaml"
    assert run("--save", str(own), "--seed", "3", input=HINTS).exit_code == 0
    first = own.read_text(encoding="utf-8")
    assert run("--save", str(own), "--seed", "4", input=HINTS).exit_code == 0    # its own: written over
    assert own.read_text(encoding="utf-8") != first and len(load_hand_file(own)) == 1
    second = own.read_text(encoding="utf-8")
    assert run("--save", str(own), "--seed", "5", input="").exit_code == 0    # no hand finished: kept
    assert own.read_text(encoding="utf-8") == second


def test_a_file_another_session_is_writing_is_refused(tmp_path):
    from dobbm_solver.practice import SessionFile
    path = tmp_path / "busy.yaml"
    held = SessionFile(str(path))
    try:
        result = run("--save", str(path), input=HINTS)
        assert result.exit_code == 2 and "another practice session is writing this file" in result.output
    finally:
        held.close()
    assert run("--save", str(path), input=HINTS).exit_code == 0


def test_yes_hint_through_a_real_pipe(tmp_path):
    bindir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", "yes hint | dobbm practice --seed 3 --hands 2 --save s.yaml"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Totals after 2 hands" in done.stdout and "> " not in done.stdout   # no prompt off a terminal
    assert len(load_hand_file(tmp_path / "s.yaml")) == 2


def test_on_a_terminal_it_prompts_and_takes_a_bad_word():
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "dobbm_solver.cli", "practice", *TT, "--seed", "3"],
                          encoding="utf-8", timeout=120)
    try:
        child.expect_exact("bid> ")
        child.sendline("maybe")
        child.expect_exact("error: 'maybe': say pass, dobbm or solo")
        child.expect_exact("bid> ")
        child.sendline("hint")
        child.expect_exact("lay away> ")
        child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        child.terminate(force=True)


def test_the_review_after_a_hand_agrees_with_review_of_the_hand():
    solver = Solver(4)
    session = Session(seed=8, me="Cora", solver=solver)

    def player(ask):
        return ask.advice()

    while len(session.reviews) < 2:
        session.play(player, lambda e: None)
    for pr in session.reviews:
        deal = pr.hand.deal
        assert deal is not None and pr.review is not None
        full = review_hand(Solver(4), deal)
        mine = [c for c in full.cards if c.seat == "Cora"]
        judged = [j for j in pr.judged if isinstance(j, CardJudged)]
        assert [j.review for j in judged] == mine[:len(judged)]
        assert len(judged) >= len(mine) - 1     # the last card plays itself
        share = 3 if deal.declarer == "Cora" else 1
        assert all(j.cost_units == share * j.review.units_cost for j in judged)
        # the advice was the player's choice throughout: its costs are the player's
        assert pr.units_lost == pr.advice_units_lost


def test_bids_are_valued_with_open_cards_as_the_arena_values_them():
    solver = Solver(4)
    session = Session(seed=3, me="Anna", solver=solver)
    review = session.play(lambda ask: ask.advice(), lambda e: None)
    bid = review.judged[0]
    env = Env(Solver(4), session.samples)
    board = review.hand.board
    from dobbm_solver.rules import units
    assert bid.values["pass"] == 0
    assert bid.values["dobbm"] == 3 * units(env.best_discard(board, "Anna")[1], "dobbm")
    assert bid.values["solo"] == 3 * units(env.solo_points(board, "Anna"), "solo")


def test_the_methods_page_gives_the_sample_counts_the_computer_uses():
    from dobbm_solver.practice import PRACTICE_SAMPLES
    methods = (Path(__file__).resolve().parents[1] / "docs" / "methods.md").read_text(encoding="utf-8")
    counts = ", ".join(f"{k} {v}" for k, v in PRACTICE_SAMPLES.as_dict().items())
    assert f"({counts}:" in " ".join(methods.split())
