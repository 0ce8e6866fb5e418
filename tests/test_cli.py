"""Tests of the ``dobbm`` command (the dobbm_solver/cli package over dobbm_solver/report).

The command is invoked in-process with click's ``CliRunner`` (click 8.2+: the
result keeps stdout and stderr apart).  JSON results are checked against the
rule book through the independent reference in ``tests/reference.py``: the
legal cards of the player to move, and a replay of the best line to the end of
the hand.  Each shipped example is solved once per test module (cached), so the
whole file runs in a few seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from reference import ref_legal, ref_line_points, ref_play, ref_state

import dobbm_solver
from dobbm_solver import cli
from dobbm_solver.cards import card_name, cardset, parse_cards, popcount, scan_forward, set_names
from dobbm_solver.cli import check as cli_check
from dobbm_solver.cli import options as cli_options
from dobbm_solver.cli import score as cli_score
from dobbm_solver.deal import Deal, replay
from dobbm_solver.errors import DobbmError, DobbmRuntimeError
from dobbm_solver.handfile import dump_deal_yaml, load_hand_file
from dobbm_solver.notation import format_deal_line, parse_deal_line
from dobbm_solver.rules import discard_error, units
from dobbm_solver.solver import Solver

REPO = Path(__file__).resolve().parents[1]
HANDS = REPO / "hands"
EXAMPLES = ("example.yaml", "midplay.yaml", "discard_study.yaml", "five_players.yaml")
PLAYED = ("example.yaml", "midplay.yaml", "five_players.yaml")   # the lay-away is given
JSON_KEYS = {"deal", "declarer", "contract", "doublings", "declarer_points", "defender_points",
             "outcome", "units", "to_move", "cards", "line", "nodes"}


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.main, list(args), input=input)


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
    assert result.exception is None
    return result


def json_lines(result: Result) -> list[dict]:
    ok(result)
    lines = result.stdout.splitlines()
    assert lines and all(line.startswith("{") and line.endswith("}") for line in lines)
    return [json.loads(line) for line in lines]


@lru_cache(maxsize=None)
def _solved_text(name: str, diagram: bool = True) -> str:
    return ok(run("solve", str(HANDS / name), *(() if diagram else ("--no-diagram",)))).stdout


@lru_cache(maxsize=None)
def _solved_json(name: str) -> str:
    return ok(run("solve", "--json", str(HANDS / name))).stdout


def solved_json(name: str) -> dict:
    """The one JSON object of a shipped example (solved once, a fresh copy each call)."""
    (obj,) = [json.loads(line) for line in _solved_json(name).splitlines()]
    return obj


def the_deal(name: str) -> Deal:
    (deal,) = load_hand_file(HANDS / name)
    return deal


def check_analysis(obj: dict, pos: Deal) -> None:
    """One solved deal's JSON object against the rule book; ``pos`` is the solved position."""
    assert JSON_KEYS <= set(obj)
    assert obj["deal"] == format_deal_line(pos)
    assert (obj["declarer"], obj["contract"], obj["doublings"]) == (pos.declarer, pos.contract,
                                                                   pos.doublings)
    pts = obj["declarer_points"]
    assert type(pts) is int and 0 <= pts <= 120
    assert obj["defender_points"] == 120 - pts
    assert obj["outcome"] == ("win" if pts >= 61 else "standoff" if pts == 60 else "loss")
    assert obj["units"] == units(pts, pos.contract, pos.doublings)
    assert (obj["units"] > 0) == (pts > 60) and (obj["units"] == 0) == (pts == 60)
    assert type(obj["nodes"]) is int and obj["nodes"] > 0

    st = ref_state(pos)
    to_move = st.seats[st.to_move]
    assert obj["to_move"] == to_move == replay(pos).to_move
    cards = obj["cards"]
    assert isinstance(cards, dict)
    assert set(cards) == {card_name(c) for c in ref_legal(st.hands[st.to_move], st.trick)}
    assert all(type(v) is int and 0 <= v <= 120 for v in cards.values())
    best = max(cards.values()) if to_move == pos.declarer else min(cards.values())
    assert best == pts

    line = obj["line"]
    assert isinstance(line, list) and all(isinstance(c, str) for c in line)
    assert len(line) == sum(len(h) for h in st.hands)          # to the end of the hand
    assert cards[line[0]] == pts                                # it starts with a best card
    assert ref_line_points(pos, line) == pts                    # legal, and reaches the value


# --------------------------------------------------------------------------
# version and help


def test_version():
    r = ok(run("--version"))
    assert r.stdout == f"dobbm, version {dobbm_solver.__version__}\n"


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_main_help(flag):
    r = ok(run(flag))
    assert r.stdout.startswith("Usage: ")
    assert "Double-dummy solver" in r.stdout
    assert "solve" in r.stdout and "--version" in r.stdout and "-h, --help" in r.stdout
    assert r.stderr == ""


def test_main_help_examples():
    """Every example in the main help names a real command, lines up with the
    others (one column of commands, one of descriptions) and, where it names
    a shipped hand file, that file exists."""
    lines = ok(run("-h")).stdout.splitlines()
    start = lines.index("  Examples:") + 1
    examples = []
    for line in lines[start:]:
        if not line.strip():
            break
        examples.append(line)
    assert len(examples) >= 10
    commands = set(cli.main.commands)
    root = Path(__file__).resolve().parent.parent
    for line in examples:
        assert line.startswith("    dobbm ") and not line.startswith("     "), line
        words = line.split()
        assert words[1] in commands, line
        for w in words[2:]:
            if w.startswith("hands/"):
                assert (root / w).is_file(), line
    # the descriptions start in one column (the study line's longer command aside)
    columns = {len(line) - len(line[42:].lstrip()) for line in examples if line[40:42] == "  "}
    assert len(columns) == 1, examples


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_solve_help(flag):
    r = ok(run("solve", flag))
    assert r.stdout.startswith("Usage: ") and "solve [OPTIONS] [FILE]" in r.stdout
    for opt in ("--deal", "--json", "--all", "--tt-mb", "--quiet", "-h, --help"):
        assert opt in r.stdout
    assert "default: 64" in r.stdout


# --------------------------------------------------------------------------
# the shipped examples


@pytest.mark.parametrize("diagram", [True, False])
@pytest.mark.parametrize("name", EXAMPLES)
def test_example_text(name, diagram):
    text = _solved_text(name, diagram)
    obj = solved_json(name)
    deal = the_deal(name)
    pts, decl = obj["declarer_points"], deal.declarer
    head, best = text.splitlines()[:2]
    assert head.startswith(f"{HANDS / name}: {'Dobbm' if deal.contract == 'dobbm' else 'Solo'} by {decl}")
    outcome = {"win": "wins", "standoff": "stands off (60)", "loss": "loses"}[obj["outcome"]]
    assert f"{decl} {outcome} with {pts} points, defenders {120 - pts}" in best
    u = obj["units"]
    assert (f"each defender pays {decl} {u} unit" if u > 0 else
            f"{decl} pays each defender {-u} unit" if u < 0 else "nobody pays") in best
    role = "declarer" if obj["to_move"] == decl else "defender"
    assert f"{obj['to_move']} ({role}) to play" in text
    # each card on a line of its value, best first for the mover's side, the best marked
    rows = [ln.split() for ln in text.splitlines() if ln.startswith("    ") and ln.split()[-1] != "leads"]
    rows = [r for r in rows if r[-1] == "best" or r[-1] in ("units)", "unit)")]
    by_card = {c: r for r in rows for c in r[:r.index(next(w for w in r if w.isdigit()))]}
    assert set(by_card) == set(obj["cards"])
    for c, v in obj["cards"].items():
        assert str(v) in by_card[c]
        assert (by_card[c][-1] == "best") == (c in obj["best"])
    values = [int(next(w for w in r if w.isdigit())) for r in rows]
    assert values == sorted(values, reverse=obj["to_move"] == decl)
    assert f"nodes searched: {obj['nodes']}" in text
    state = replay(parse_deal_line(obj["deal"]), check=False)
    first = state.declarer_tricks + state.defender_tricks + 1
    if diagram:
        # the trick table: a row per trick from the first, the best line from the current trick
        assert "best line:" not in text
        table = text.split("  trick  lead ")[1].split("\n  (right of |")[0].splitlines()[1:]
        rows = [ln for ln in table if not ln.startswith("  -- best line from here")]
        assert [ln.split()[0] for ln in rows] == [str(n) for n in range(1, 9)]
        assert table.index(next(ln for ln in table if ln.startswith("  -- best line"))) == first - 1
        return
    assert "best line:" in text
    # one row per trick still to be finished, numbered from the current trick
    rows = [ln for ln in text.splitlines() if " leads " in ln]
    assert [ln.split(".")[0].strip() for ln in rows] == [str(n) for n in range(first, 9)]


@pytest.mark.parametrize("name", PLAYED)
def test_example_json(name):
    out = _solved_json(name)
    assert out.count("\n") == 1                                 # one deal, one line
    obj = solved_json(name)
    assert "discards" not in obj
    check_analysis(obj, the_deal(name))


def test_example_values():
    """The values of the shipped examples, pinned against regressions of the core."""
    got = {n: solved_json(n)["declarer_points"] for n in EXAMPLES}
    assert got == {"example.yaml": 76, "midplay.yaml": 69, "discard_study.yaml": 69,
                   "five_players.yaml": 74}
    assert solved_json("midplay.yaml")["to_move"] == "Cora"          # a defender: min
    assert solved_json("five_players.yaml")["units"] == 3 * 2         # 74: 3 units, one Schwacher


def test_discard_study_json():
    obj = solved_json("discard_study.yaml")
    deal = the_deal("discard_study.yaml")
    assert deal.needs_discard
    discards = obj["discards"]
    twelve = deal.hands[deal.declarer] | deal.dobb
    legal = {four for four in combinations(sorted(scan_forward(twelve)), 4)
             if discard_error(cardset(four)) is None}
    assert len(discards) == len(legal) == 439
    sets = []
    for entry in discards:
        assert set(entry) == {"cards", "declarer_points"}
        cs = cardset(parse_cards(entry["cards"]))
        assert popcount(cs) == 4 and cs & ~twelve == 0
        assert discard_error(cs) is None                           # the Sau rule
        assert type(entry["declarer_points"]) is int and 0 <= entry["declarer_points"] <= 120
        sets.append(cs)
    assert len(set(sets)) == len(sets)
    pts = [e["declarer_points"] for e in discards]
    assert pts == sorted(pts, reverse=True)                          # best first
    assert pts[0] == obj["declarer_points"]
    # the analysis is of the deal with the best lay-away
    best = deal.with_discard(sets[0])
    assert parse_deal_line(obj["deal"]) == best
    check_analysis(obj, best)


def test_discard_study_text_top10_and_all():
    text = _solved_text("discard_study.yaml")
    n = len(solved_json("discard_study.yaml")["discards"])
    assert f"lay-aways, best first ({n} legal, top 10 shown):" in text
    rows = text.split("lay-aways, best first")[1].splitlines()[1:]
    assert len(rows) == 10
    every = ok(run("solve", "--all", str(HANDS / "discard_study.yaml"))).stdout
    assert f"lay-aways, best first ({n} legal):" in every
    assert len(every.split("lay-aways, best first")[1].splitlines()[1:]) == n


def test_finished_deal(tmp_path):
    """All 8 tricks played: the final points, nobody to move, no cards and no line."""
    deal = the_deal("example.yaml")
    obj = solved_json("example.yaml")
    end = ref_play(deal, obj["line"])
    path = tmp_path / "end.yaml"
    path.write_text(dump_deal_yaml(end), encoding="utf-8")
    (got,) = json_lines(run("solve", "--json", str(path)))
    assert got["declarer_points"] == obj["declarer_points"]
    assert got["to_move"] is None and got["cards"] == {} and got["line"] == []
    assert "nodes searched" in ok(run("solve", str(path))).stdout


# --------------------------------------------------------------------------
# several deals, other sources of input


def test_multi_document_file(tmp_path):
    names = ("midplay.yaml", "five_players.yaml", "example.yaml")
    path = tmp_path / "three.yaml"
    path.write_text("\n---\n".join((HANDS / n).read_text(encoding="utf-8") for n in names),
                    encoding="utf-8")
    objs = json_lines(run("solve", "--json", str(path)))
    assert len(objs) == 3
    for i, (obj, n) in enumerate(zip(objs, names), 1):
        assert obj.pop("id") == f"{path}#{i}"
        assert obj == {k: v for k, v in solved_json(n).items() if k != "id"}
    text = ok(run("solve", "-q", str(path))).stdout
    for i, n in enumerate(names, 1):
        assert f"{path}[{i}]: " in text
        assert f"with {solved_json(n)['declarer_points']} points" in text
    assert text.count("\n\n") == 2                                   # a blank line between deals


def test_solve_takes_several_files_and_checks_all_before_solving(tmp_path):
    names = ("midplay.yaml", "example.yaml", "discard_study.yaml")
    objs = json_lines(run("solve", "--json", *(str(HANDS / n) for n in names)))
    assert [o["id"] for o in objs] == [f"{HANDS / n}#1" for n in names]
    assert [o["declarer_points"] for o in objs] == [solved_json(n)["declarer_points"] for n in names]
    text = ok(run("solve", "-q", *(str(HANDS / n) for n in names))).stdout
    assert [line.split(":")[0] for line in text.splitlines() if line.startswith("/")] == \
        [str(HANDS / n) for n in names]
    bad = tmp_path / "bad.yaml"
    bad.write_text("hands: {}\n")
    r = run("solve", str(HANDS / "midplay.yaml"), str(bad))
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.startswith(f"Error: {bad}: ")


def test_solve_json_names_the_discard_analysed():
    study = solved_json("discard_study.yaml")
    assert study["discard"] == study["discards"][0]["cards"]
    assert f"discard: {' '.join(study['discard'])}" in study["deal"]
    text = _solved_text("discard_study.yaml")
    assert f"  lay-away analysed: {' '.join(study['discard'])} (the best of {len(study['discards'])} legal)" \
        in text.splitlines()
    for n in EXAMPLES:
        obj, deal = solved_json(n), the_deal(n)
        if deal.contract == "solo":
            assert obj["discard"] is None
        elif deal.discard is None:
            assert obj["discard"] == obj["discards"][0]["cards"]
        else:
            assert obj["discard"] == set_names(deal.discard) and "discards" not in obj


def test_solve_help_says_json_lines():
    assert "JSON lines" in ok(run("solve", "--help")).stdout


@pytest.mark.parametrize("name", EXAMPLES)
def test_deal_line_same_as_file(name):
    line = format_deal_line(the_deal(name))
    (obj,) = json_lines(run("solve", "--json", "--deal", line))
    assert obj.pop("id") == "--deal"
    assert obj == {k: v for k, v in solved_json(name).items() if k != "id"}
    assert ok(run("solve", "--deal", line)).stdout.startswith("--deal: ")


@pytest.mark.parametrize("name", EXAMPLES)
def test_stdin_same_as_file(name):
    text = (HANDS / name).read_text(encoding="utf-8")
    (obj,) = json_lines(run("solve", "--json", "-", input=text))
    assert obj.pop("id") == "<stdin>#1"
    assert obj == {k: v for k, v in solved_json(name).items() if k != "id"}
    assert ok(run("solve", "-", input=text)).stdout.startswith("<stdin>: ")


@pytest.mark.parametrize("name", EXAMPLES)
def test_small_table_same_values(name):
    (obj,) = json_lines(run("solve", "--json", "--tt-mb", "1", str(HANDS / name)))
    ref = solved_json(name)
    for key in ("deal", "declarer_points", "defender_points", "outcome", "units", "to_move",
                "cards", "discards"):
        assert obj.get(key) == ref.get(key), key
    pos = parse_deal_line(obj["deal"])
    assert ref_line_points(pos, obj["line"]) == obj["declarer_points"]


# --------------------------------------------------------------------------
# bad input: exit code 2 and exactly one line "Error: ..." on stderr


def one_error(result: Result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit)             # not an uncaught error
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and result.stderr.endswith("\n"), result.stderr
    assert lines[0].startswith("Error: ") and "Traceback" not in result.output
    return lines[0]


def _edit(name: str, *pairs: tuple[str, str]) -> str:
    text = (HANDS / name).read_text(encoding="utf-8")
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


LAY_AWAY = """\
seats: [Anna, Bert, Cora, Dave]
declarer: Anna
contract: dobbm
hands:
  Anna: HA H10 HK HO E10 L10 SA S10
  Bert: HU H9 H8 H7 EK EO EU E9
  Cora: E8 E6 LK LO LU L9 L8 L7
  Dave: L6 SK SO SU S9 S8 S7 S6
dobb: EA LA H6 E7
discard: EA LA H6 E7
"""
# the same deal with a lay-away the Sau rule allows: EA with the heart HA, LA kept
LAY_AWAY_OK = LAY_AWAY.replace("Anna: HA H10", "Anna: LA H10").replace(
    "discard: EA LA H6 E7", "discard: EA HA H6 E7")

# example.yaml after trick 1 (Bert leads EA) in which Cora trumps although she holds EK E6
REVOKE = """\
seats: [Anna, Bert, Cora, Dave]
declarer: Bert
contract: dobbm
hands:
  Anna: LA L8 L7 SK SO S7 S6
  Bert: HA HK HO H9 H6 LO LU
  Cora: H7 EK E6 LK SA SU S9
  Dave: H10 HU E10 EU E7 L10 L9
dobb: HK HO EA LO
discard: E9 L6 S10 S8
tricks:
  - EA H8 E8 EO
"""
NO_REVOKE = REVOKE.replace("Cora: H7 EK E6", "Cora: H8 H7 EK").replace(
    "EA H8 E8 EO", "EA E6 E8 EO")

BAD_FILES = {
    # id: (file text, key, words in the message)
    "unknown-card": (_edit("example.yaml", ("Bert: HA HK", "Bert: HA HQ")),
                     "hands.Bert", "unknown card 'HQ'"),
    "card-twice-in-a-hand": (_edit("example.yaml", ("Bert: HA HK", "Bert: HA HA")),
                             "hands.Bert", "HA is listed twice"),
    "card-twice": (_edit("example.yaml", ("Cora: H8 H7", "Cora: H8 HA")),
                   "hands.Cora", "HA is also in hands.Bert"),
    "card-missing": (_edit("example.yaml", ("SO S7 S6", "SO S7")),
                     "hands", "cards missing: S6"),
    "hand-sizes": (_edit("example.yaml", ("S7 S6\n", "S7 S6 L9\n"), ("L10 L9\n", "L10\n")),
                   "hands.Anna", "holds 9 cards, should hold 8"),
    "seat-not-seated": (_edit("example.yaml", ("  Dave: H10", "  Zoe: H10")),
                        "hands.Zoe", "'Zoe' is not a seat"),
    "dealer-sitting-out-holds-cards": (
        _edit("five_players.yaml", ("  Dave: HA", "  Eve: HA")),
        "hands.Eve", "Eve is the dealer and sits out"),
    "declarer-not-a-seat": (_edit("example.yaml", ("declarer: Bert", "declarer: Zoe")),
                            "declarer", "'Zoe' is not a seat"),
    "declarer-sits-out": (_edit("five_players.yaml", ("declarer: Dave", "declarer: Eve")),
                          "declarer", "'Eve' is not a seat that plays"),
    "discard-in-solo": (_edit("midplay.yaml", ("dobb: H10 H7 EK LK\n",
                                               "dobb: H10 H7 EK LK\ndiscard: H10 H7 EK LK\n")),
                        "discard", "a Solo has no lay-away"),
    "sau-rule": (LAY_AWAY, "discard", "cannot lay away EA LA with only 1 heart (Sau rule)"),
    "revoke": (REVOKE, "tricks", "trick 1: Cora plays H8, a revoke"),
    "unknown-key": (_edit("example.yaml", ("dealer: Anna", "deeler: Anna")),
                    "deeler", "unknown key"),
    "not-a-mapping": ("- seats\n- hands\n", "document", "must be a mapping"),
}


@pytest.mark.parametrize("text", [LAY_AWAY_OK, NO_REVOKE], ids=["lay-away-ok", "no-revoke"])
def test_bad_file_controls_are_valid(tmp_path, text):
    """The hand-made bad files differ from valid deals only in what is tested."""
    path = tmp_path / "good.yaml"
    path.write_text(text, encoding="utf-8")
    assert len(load_hand_file(path)) == 1


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_file(tmp_path, case):
    text, key, words = BAD_FILES[case]
    path = tmp_path / f"{case}.yaml"
    path.write_text(text, encoding="utf-8")
    line = one_error(run("solve", "--json", str(path)))
    assert line.startswith(f"Error: {path}: {key}: "), line
    assert words in line


def test_bad_document_in_multi_document_file(tmp_path):
    path = tmp_path / "three.yaml"
    bad = _edit("example.yaml", ("Bert: HA HK", "Bert: HA HQ"))
    path.write_text("\n---\n".join([(HANDS / "midplay.yaml").read_text(encoding="utf-8"), bad,
                                    (HANDS / "five_players.yaml").read_text(encoding="utf-8")]),
                    encoding="utf-8")
    line = one_error(run("solve", "--json", str(path)))
    assert line.startswith(f"Error: {path}[2]: hands.Bert: unknown card"), line


def test_yaml_that_does_not_parse(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("seats: [Anna, Bert\nhands: : :\n", encoding="utf-8")
    line = one_error(run("solve", str(path)))
    assert line.startswith(f"Error: {path}: line 2, column ") and "not valid YAML" in line


def test_yaml_from_stdin_that_does_not_parse():
    line = one_error(run("solve", "-", input="seats: [Anna, Bert\n"))
    assert line.startswith("Error: <stdin>: ") and "not valid YAML" in line


def test_no_such_file(tmp_path):
    path = tmp_path / "nowhere.yaml"
    assert one_error(run("solve", str(path))) == f"Error: {path}: no such file"


def test_directory_and_empty_file(tmp_path):
    assert one_error(run("solve", str(tmp_path))) == f"Error: {tmp_path}: is a directory, not a hand file"
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing\n", encoding="utf-8")
    assert one_error(run("solve", str(empty))) == f"Error: {empty}: holds no deal"


@pytest.mark.parametrize("line, segment, words", [
    ("dobbm Anna | Anna: HA", "seats", "need 4 seats"),
    ("dobbm", "head", "must be CONTRACT DECLARER"),
    (format_deal_line(load_hand_file(HANDS / "example.yaml")[0]).replace("HA", "HQ", 1),
     "Bert", "unknown card 'HQ'"),
    (format_deal_line(load_hand_file(HANDS / "example.yaml")[0]) + " | discard: EA",
     "discard", "given twice"),
])
def test_bad_deal_line(line, segment, words):
    err = one_error(run("solve", "--json", "--deal", line))
    assert err.startswith(f"Error: --deal: segment {segment!r}: "), err
    assert words in err


def test_file_and_deal_both_given():
    line = format_deal_line(the_deal("midplay.yaml"))
    err = one_error(run("solve", str(HANDS / "midplay.yaml"), "--deal", line))
    assert err == "Error: give a FILE or --deal, not both"


def test_neither_file_nor_deal():
    err = one_error(run("solve"))
    assert err.startswith("Error: give a hand FILE") and "--deal" in err


def test_table_size_out_of_range():
    r = run("solve", "--tt-mb", "0", str(HANDS / "midplay.yaml"))
    assert r.exit_code == 2 and "Invalid value for '--tt-mb'" in r.stderr
    assert "Traceback" not in r.output


def test_table_too_big_for_memory(monkeypatch):
    """A table the machine cannot allocate: one clean line, not a MemoryError traceback."""
    class NoRoom:
        def __init__(self, tt_mb):
            raise MemoryError(f"cannot allocate a {tt_mb} MiB table")

    monkeypatch.setattr(cli_options, "Solver", NoRoom)
    r = run("solve", "--tt-mb", "65536", str(HANDS / "midplay.yaml"))
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit)
    assert r.stderr == "Error: --tt-mb 65536: cannot allocate a 65536 MiB table; give a smaller table\n"


# --------------------------------------------------------------------------
# the error roots: DobbmError is bad input (exit 2), DobbmRuntimeError a clean
# failure (exit 1), any other exception a bug (its traceback, never "bad input")


def _raising(exc: BaseException):
    def fn(*args: object, **kwargs: object) -> object:
        raise exc
    return fn


@pytest.mark.parametrize("exc", [ValueError("an internal inconsistency"), KeyError("x"),
                                 OverflowError("too big")])
def test_a_bug_is_not_reported_as_bad_input(monkeypatch, exc):
    """A ValueError from inside the library that is no DobbmError is a bug, not bad input."""
    monkeypatch.setattr(cli_score, "score_hand", _raising(exc))
    r = run("score", str(HANDS / "finished.yaml"))
    assert r.exit_code == 1 and r.exception is exc
    assert "Error:" not in r.stderr


def test_a_bug_in_the_solver_is_not_reported_as_bad_input(monkeypatch):
    bug = ValueError("no card keeps the value")
    monkeypatch.setattr(Solver, "solve_best", _raising(bug))
    r = run("solve", str(HANDS / "midplay.yaml"))
    assert r.exit_code == 1 and r.exception is bug


def test_bad_input_from_the_library_is_exit_2(monkeypatch):
    monkeypatch.setattr(cli_score, "score_hand", _raising(DobbmError("tricks: not a finished hand")))
    assert one_error(run("score", str(HANDS / "finished.yaml"))) == \
        f"Error: {HANDS / 'finished.yaml'}: tricks: not a finished hand"


def test_bad_input_found_while_printing_is_exit_2(monkeypatch):
    """Raised outside the guarded library calls, a DobbmError is still one clean line."""
    monkeypatch.setattr(cli_check, "check_dict", _raising(DobbmError("segment 'Me': a keyword")))
    assert one_error(run("check", "--json", str(HANDS / "example.yaml"))) == "Error: segment 'Me': a keyword"


def test_runtime_failure_is_one_line_and_exit_1(monkeypatch):
    monkeypatch.setattr(Solver, "solve_best", _raising(DobbmRuntimeError("a worker died")))
    r = run("solve", str(HANDS / "midplay.yaml"))
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit)
    assert r.stdout == "" and r.stderr == "Error: a worker died\n"


# --------------------------------------------------------------------------
# the real process: the module entry point, clean errors on stderr


def _subprocess(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "dobbm_solver.cli", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)


def test_process_version_and_bad_file(tmp_path):
    p = _subprocess("--version")
    assert p.returncode == 0 and p.stdout == f"dobbm, version {dobbm_solver.__version__}\n"
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_FILES["unknown-card"][0], encoding="utf-8")
    p = _subprocess("solve", str(path))
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == f"Error: {path}: hands.Bert: unknown card 'HQ'\n"


def test_process_json(tmp_path):
    p = _subprocess("solve", "--json", str(HANDS / "midplay.yaml"))
    assert p.returncode == 0 and p.stderr == ""
    assert json.loads(p.stdout) == solved_json("midplay.yaml")


# --------------------------------------------------------------------------
# advice views: check validates them, and every advice command takes them as --deal

VIEW_FILES = {"bid.yaml": "bid", "discard.yaml": "discard", "double.yaml": "double",
              "double_retour.yaml": "double"}


@pytest.mark.parametrize("name", list(VIEW_FILES))
def test_check_validates_an_advice_view_and_prints_it_back(name):
    from dobbm_solver.analyzer import make_view
    from dobbm_solver.handfile import load_specs
    from dobbm_solver.notation import parse_spec_line

    path = str(HANDS / name)
    command = VIEW_FILES[name]
    text = ok(run("check", path)).stdout
    assert text.startswith(f"# {path}: ok, a view for dobbm {command}\n")
    (obj,) = json_lines(run("check", "--json", path))
    assert obj["command"] == command and obj["me"]
    line = ok(run("check", "--line", path)).stdout.strip()
    assert line == obj["deal"]
    [spec] = load_specs(path)
    assert make_view(parse_spec_line(line), command) == make_view(spec, command)
    assert ok(run("check", "--deal", line)).stdout.startswith(f"# --deal: ok, a view for dobbm {command}")
    broken = line.replace(" | me: ", " | me: Nobody | x: ") if " | me: " in line else "me: Nobody | " + line
    assert one_error(run("check", "--deal", broken)).startswith("Error: --deal: ")


def test_check_reports_a_bad_view_as_a_view():
    text = (HANDS / "bid.yaml").read_text(encoding="utf-8").replace("S6", "")
    err = one_error(run("check", "-", input=text))
    assert err.startswith("Error: <stdin>: hands.Bert: holds 7 cards"), err


def test_bid_takes_its_view_as_a_deal_line():
    line = ok(run("check", "--line", str(HANDS / "bid.yaml"))).stdout.strip()
    assert line.startswith("me: ")
    args = ("--seed", "1", "-n", "2", "-j", "1", "--json")
    (from_line,) = json_lines(run("bid", "--deal", line, *args))
    (from_file,) = json_lines(run("bid", str(HANDS / "bid.yaml"), *args))
    for obj in (from_line, from_file):
        obj.pop("seconds", None)
        obj.get("info", {}).pop("seconds", None)
    assert from_line == from_file


def test_score_names_the_document_of_an_unfinished_deal(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text((HANDS / "finished.yaml").read_text(encoding="utf-8") + "\n---\n"
                    + (HANDS / "midplay.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert one_error(run("score", str(path))).startswith(f"Error: {path}[2]: ")


def test_a_key_given_twice_is_an_error(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text((HANDS / "example.yaml").read_text(encoding="utf-8")
                    + "doublings: 2\ndoublings: 0\n", encoding="utf-8")
    err = one_error(run("solve", str(path)))
    assert err.startswith(f"Error: {path}: line ") and "key 'doublings' is given twice" in err


@pytest.mark.parametrize("word", ["me", "Dobb", "TRICKS", "bids", "Must", "doublings", "discard",
                                  "dealer", "out"])
def test_keyword_seat_names_fail_cleanly_and_are_skipped_by_study(tmp_path, word):
    bad = tmp_path / "bad.yaml"
    bad.write_text((HANDS / "example.yaml").read_text(encoding="utf-8").replace("Dave", word),
                   encoding="utf-8")
    for cmd in (("check",), ("solve", "--json"), ("score",)):
        err = one_error(run(*cmd, str(bad)))
        assert err.startswith(f"Error: {bad}: ") and "cannot name a seat" in err, err
    out = tmp_path / "rows.jsonl"
    r = run("study", str(bad), str(HANDS / "example.yaml"), "-o", str(out), "--skip-invalid", "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    assert "Warning: skipped: " in r.stderr and "cannot name a seat" in r.stderr
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == [f"{HANDS / 'example.yaml'}#1"]
