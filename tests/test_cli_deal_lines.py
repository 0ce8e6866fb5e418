"""``--deal`` given more than once: every line is taken, in order, as one document each.

A repeated option used to keep only its last value (click's default), so
``dobbm solve --deal A --deal B`` solved B alone and exited 0.  Each command
that reads deals or views (solve, check, score, review and the advice
commands) now reads them all; with one line the titles and ids stay
``--deal``, with several they are ``--deal[N]`` and ``--deal#N``, as for the
documents of a file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dobbm_solver import cli

HANDS = Path(__file__).resolve().parents[1] / "hands"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli.main, list(args))


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
    return result


def line_of(name: str) -> str:
    """The one-line notation of a shipped hand file (deal or view), as ``check --line`` gives it."""
    return ok(run("check", "--line", str(HANDS / name))).stdout.strip()


def objects(result: Result) -> list[dict]:
    return [json.loads(line) for line in ok(result).stdout.splitlines()]


def without(obj: dict, *keys: str) -> dict:
    return {k: v for k, v in obj.items() if k not in keys}


@pytest.mark.parametrize("names", [("example.yaml", "midplay.yaml"), ("midplay.yaml", "example.yaml", "midplay.yaml")])
def test_solve_takes_every_deal_line_in_order(names):
    lines = [line_of(n) for n in names]
    args = [a for line in lines for a in ("--deal", line)]
    got = objects(run("solve", "--json", "-j", "1", *args))
    assert [o["id"] for o in got] == [f"--deal#{n}" for n in range(1, len(names) + 1)]
    for obj, line in zip(got, lines):
        (alone,) = objects(run("solve", "--json", "-j", "1", "--deal", line))
        assert alone["id"] == "--deal"
        assert without(obj, "id") == without(alone, "id")
    text = ok(run("solve", "--no-diagram", "-j", "1", *args)).stdout
    assert [t for t in (f"--deal[{n}]: " for n in range(1, len(names) + 1)) if t not in text] == []


def test_check_takes_every_deal_line_in_order():
    lines = [line_of("midplay.yaml"), line_of("example.yaml"), line_of("bid.yaml")]
    got = ok(run("check", "--line", *[a for line in lines for a in ("--deal", line)])).stdout.splitlines()
    assert got == lines
    text = ok(run("check", "--deal", lines[0], "--deal", lines[1])).stdout
    assert "--deal[1]" in text and "--deal[2]" in text and text.index("--deal[1]") < text.index("--deal[2]")


def test_score_takes_every_deal_line_in_order():
    finished = line_of("finished.yaml")
    assert "doublings: 1" in finished
    undoubled = finished.replace("doublings: 1", "doublings: 0")
    # the lines are a session: Bert declares each hand, so Bert deals the next
    dealt_by_bert = [line.replace("dealer: Anna", "dealer: Bert") for line in (undoubled, finished)]
    got = objects(run("score", "--json", "--deal", finished, "--deal", dealt_by_bert[0], "--deal", dealt_by_bert[1]))
    (alone_finished,) = objects(run("score", "--json", "--deal", finished))
    (alone_undoubled,) = objects(run("score", "--json", "--deal", undoubled))
    assert got[:3] == [alone_finished, alone_undoubled, alone_finished]
    assert [h["payments"] for h in got[3]["session"]["hands"]] == [
        alone_finished["payments"], alone_undoubled["payments"], alone_finished["payments"]]
    assert alone_finished != alone_undoubled


def test_review_takes_every_deal_line_in_order():
    played, dealt = line_of("played.yaml"), line_of("played_dealt.yaml")
    got = objects(run("review", "--json", "--deal", played, "--deal", dealt))
    assert got == objects(run("review", "--json", "--deal", played)) + objects(run("review", "--json", "--deal", dealt))


@pytest.mark.parametrize("command, name", [("bid", "bid.yaml"), ("double", "double.yaml")])
def test_advice_takes_every_view_line_in_order(command, name):
    view = line_of(name)
    other = line_of("double_retour.yaml" if command == "double" else name)
    args = ("--seed", "1", "-n", "2", "-j", "1", "--json")
    got = objects(run(command, "--deal", view, "--deal", other, *args))
    alone = objects(run(command, "--deal", view, *args)) + objects(run(command, "--deal", other, *args))
    assert len(got) == 2
    for obj in got + alone:
        obj.pop("seconds", None)
        obj.get("info", {}).pop("seconds", None)
    assert got == alone


def test_an_error_names_the_deal_line_it_is_in():
    good = line_of("example.yaml")
    result = run("solve", "--deal", good, "--deal", good.replace("HA", "HQ", 1))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: --deal[2]: "), result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_file_and_deal_lines_is_an_error():
    line = line_of("example.yaml")
    result = run("solve", str(HANDS / "example.yaml"), "--deal", line, "--deal", line)
    assert result.exit_code == 2 and result.stderr == "Error: give a FILE or --deal, not both\n"
