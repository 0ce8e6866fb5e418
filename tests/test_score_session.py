"""``dobbm score`` on a session: running totals worked by hand, the dealer by the rule book."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from dobbm_solver import cli
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.scoring import SessionError, score_hand, score_session

HANDS = Path(__file__).resolve().parents[1] / "hands"
FINISHED = (HANDS / "finished.yaml").read_text(encoding="utf-8")   # Bert's Dobbm x2, 76: 8 units a payment
PLAYED = (HANDS / "played.yaml").read_text(encoding="utf-8")       # Anna's Dobbm, 71: 3 units a payment


def _session(tmp_path: Path, second_dealer: str = "Bert") -> Path:
    """Bert declares (Anna deals); then Anna declares, dealt by ``second_dealer``; then Bert
    again, the dealer left out (Anna, the declarer before, by the rule book)."""
    third = FINISHED.replace("dealer: Anna\n", "")
    path = tmp_path / "session.yaml"
    path.write_text(FINISHED + "---\n" + PLAYED + f"dealer: {second_dealer}\n---\n" + third, encoding="utf-8")
    return path


def run(*args: str):
    return CliRunner().invoke(cli.main, ["score", *args])


def test_running_totals_worked_by_hand(tmp_path):
    path = _session(tmp_path)
    objs = [json.loads(line) for line in run("--json", str(path)).stdout.splitlines()]
    assert len(objs) == 4
    session = objs[3]["session"]
    # hand 1: Bert +3*8, each defender -8; hand 2: Anna +3*3, each defender -3; hand 3 as hand 1
    assert [h["totals"] for h in session["hands"]] == [
        {"Anna": -8, "Bert": 24, "Cora": -8, "Dave": -8},
        {"Anna": 1, "Bert": 21, "Cora": -11, "Dave": -11},
        {"Anna": -7, "Bert": 45, "Cora": -19, "Dave": -19},
    ]
    assert session["totals"] == {"Anna": -7, "Bert": 45, "Cora": -19, "Dave": -19}
    assert [(h["dealer"], h["dealer_given"], h["declarer"]) for h in session["hands"]] == [
        ("Anna", True, "Bert"), ("Bert", True, "Anna"), ("Anna", False, "Bert")]
    assert [h["payments"] for h in session["hands"]] == [o["payments"] for o in objs[:3]]
    money = json.loads(run("--json", "--match-cost", "12", str(path)).stdout.splitlines()[-1])
    assert money["session"]["money"] == {"Anna": -7.0, "Bert": 45.0, "Cora": -19.0, "Dave": -19.0}


def test_the_session_table_in_text(tmp_path):
    text = run("--no-diagram", str(_session(tmp_path))).stdout
    tail = text.splitlines()[-7:]
    assert tail[0].startswith("Session of 3 hands")
    assert "dealer*" in tail[1]
    assert tail[3].split() == ["1", "Anna", "Bert", "Dobbm", "x2", "-8", "+24", "-8", "-8"]
    assert tail[4].split() == ["2", "Bert", "Anna", "Dobbm", "+1", "+21", "-11", "-11"]
    assert tail[5].split() == ["3", "Anna*", "Bert", "Dobbm", "x2", "-7", "+45", "-19", "-19"]
    assert text.rstrip().endswith("totals: Anna -7, Bert +45, Cora -19, Dave -19")


def test_a_dealer_against_the_rule_book_is_one_line_naming_the_file_hand_and_key(tmp_path):
    path = _session(tmp_path, second_dealer="Cora")
    result = run(str(path))
    assert result.exit_code == 2
    assert result.output.strip() == (f"Error: {path}[2]: dealer: Cora deals hand 2, but the declarer of "
                                     "hand 1, Bert, deals the next hand (the rule book)")


def test_score_session_in_the_library(tmp_path):
    deals = load_hand_file(_session(tmp_path))
    session = score_session(deals, [score_hand(d) for d in deals])
    assert session.players == ("Anna", "Bert", "Cora", "Dave")
    assert session.totals == {"Anna": -7, "Bert": 45, "Cora": -19, "Dave": -19}
    assert sum(session.totals.values()) == 0
    bad = load_hand_file(_session(tmp_path, second_dealer="Dave"))
    try:
        score_session(bad, [score_hand(d) for d in bad])
    except SessionError as e:
        assert (e.hand, e.key) == (2, "dealer")
    else:
        raise AssertionError("no SessionError")


def test_one_hand_is_no_session():
    objs = run("--json", str(HANDS / "finished.yaml")).stdout.splitlines()
    assert len(objs) == 1 and "session" not in json.loads(objs[0])
