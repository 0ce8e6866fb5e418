"""Input a person gives: deal lines wherever a FILE is read, views told apart from deals,
tricks written in seat order, view lines that leave unseen seats out, and the
options of the ``benchmarks/`` scripts.

* A FILE or standard input may hold deal lines in the one-line notation, one a line
  (``dobbm deal --format line | dobbm solve -``), in every command that reads one.
* An advice view given to a command that needs the whole deal says it is a view and
  which command reads it; ``check`` names that command; ``study`` leaves views out with
  a note and keys its resume on the deal's content, not on the path as typed.
* A trick written in seat order rather than from its leader is told so.
* A view line may give the seats whole (``seats:``) and leave the unseen seats out.
* ``explore`` takes one ``--deal``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from click.testing import Result
from helpers import ok, run

from dobbm_solver.analyzer import make_view
from dobbm_solver.cards import card_name, trick_winner
from dobbm_solver.deal import trick_seats
from dobbm_solver.handfile import (
    HandFileError,
    dump_deal_yaml,
    is_deal_line,
    load_hand_file,
    load_specs,
    parse_deal_text,
    parse_specs,
)
from dobbm_solver.notation import NotationError, format_deal_line, format_spec_line, parse_deal_line, parse_spec_line

ROOT = Path(__file__).resolve().parents[1]
HANDS = ROOT / "hands"
VIEWS = {"bid.yaml": "bid", "discard.yaml": "discard", "double.yaml": "double",
         "double_retour.yaml": "double", "play.yaml": "play"}


def one_error(result: Result) -> str:
    """The one line of a bad input's error (exit 2, nothing on stdout)."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert result.stdout == ""
    return lines[0]


def untimed(obj: object) -> object:
    """A JSON value without its ``seconds`` (the only field that differs run to run)."""
    if isinstance(obj, dict):
        return {k: untimed(v) for k, v in obj.items() if k != "seconds"}
    if isinstance(obj, list):
        return [untimed(v) for v in obj]
    return obj


def dealt_lines(count: int, seed: int) -> list[str]:
    return ok(run("deal", "--count", str(count), "--seed", str(seed), "--format", "line")).stdout.splitlines()


# --- deal lines where a FILE is read -----------------------------------------------


def test_a_dealt_line_is_read_from_standard_input():
    (line,) = dealt_lines(1, 2)
    piped = ok(run("solve", "--json", "-j", "1", "-", input=line + "\n")).stdout
    given = ok(run("solve", "--json", "-j", "1", "--deal", line)).stdout
    assert json.loads(piped)["deal"] == json.loads(given)["deal"]
    assert {k: v for k, v in json.loads(piped).items() if k != "id"} == \
        {k: v for k, v in json.loads(given).items() if k != "id"}


@pytest.mark.parametrize("command", ["solve", "check", "explore", "review", "score"])
def test_every_deal_command_reads_a_file_of_deal_lines(tmp_path, command):
    deals = load_hand_file(HANDS / "played.yaml") + load_hand_file(HANDS / "finished.yaml")
    if command == "explore":
        deals = deals[:1]
    lines = [format_deal_line(d) for d in deals]
    as_lines = tmp_path / "deals.txt"
    as_lines.write_text("# two played hands\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    as_yaml = tmp_path / "deals.yaml"
    as_yaml.write_text("---\n".join(dump_deal_yaml(d) for d in deals), encoding="utf-8")
    args = [command, "--json"] + (["-j", "1"] if command == "solve" else [])
    from_lines = ok(run(*args, str(as_lines), input="")).stdout
    from_yaml = ok(run(*args, str(as_yaml), input="")).stdout
    from_stdin = ok(run(*args, "-", input=as_lines.read_text())).stdout if command != "explore" else from_lines
    assert from_lines.replace("deals.txt", "F") == from_yaml.replace("deals.yaml", "F")
    assert from_stdin.replace("<stdin>", "F") == from_lines.replace(str(as_lines), "F")
    assert len(from_lines.splitlines()) == len(deals) + (command == "score")   # score: the session's line


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_the_advice_commands_read_a_view_line_from_standard_input(name):
    command = VIEWS[name]
    line = ok(run("check", "--line", str(HANDS / name))).stdout
    piped = json.loads(ok(run(command, "--json", "-n", "4", "-j", "1", "-", input=line)).stdout)
    filed = json.loads(ok(run(command, "--json", "-n", "4", "-j", "1", str(HANDS / name))).stdout)
    assert untimed(piped) == untimed(filed)


def test_a_line_file_error_names_the_line(tmp_path):
    (line,) = dealt_lines(1, 3)
    f = tmp_path / "deals.txt"
    f.write_text(f"# a comment\n{line}\nAnna: HA\n", encoding="utf-8")
    assert one_error(run("solve", str(f))) == (
        f"Error: {f}: line 3: not a deal line: a file in the one-line notation holds one deal a line "
        "(blank lines and # comments aside)")
    f.write_text(line.replace("Anna: ", "Anna: HQ ", 1) + "\n", encoding="utf-8")
    error = one_error(run("solve", str(f)))
    assert error.startswith(f"Error: {f}: line 1: segment 'Anna'") and "HQ" in error
    example = format_deal_line(load_hand_file(HANDS / "example.yaml")[0])
    f.write_text(example + "\n" + example.replace("dobbm ", "solo ", 1) + "\n", encoding="utf-8")
    assert one_error(run("solve", str(f))) == f"Error: {f}[2]: segment 'discard': a Solo has no lay-away"


def test_yaml_is_still_yaml():
    for path in sorted(HANDS.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert not any(is_deal_line(line) for line in text.splitlines()), path
        assert all(not s.line for s in parse_specs(text, path.name))
    # a block scalar is YAML, not a deal line
    assert not is_deal_line("dobb: |") and not is_deal_line("hands: |-")
    assert is_deal_line("me: Bert | Anna: ?") and is_deal_line("dobbm Anna | Anna: HA")


def test_library_readers_take_deal_lines(tmp_path):
    deals = load_hand_file(HANDS / "benchmark.yaml")[:5]
    f = tmp_path / "five.txt"
    f.write_text("\n".join(format_deal_line(d) for d in deals), encoding="utf-8")
    assert load_hand_file(f) == deals
    assert [s.doc for s in load_specs(f)] == [1, 2, 3, 4, 5]
    assert all(s.line for s in load_specs(f))


# --- views told apart from deals --------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "review", "explore", "score"])
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_a_deal_command_on_a_view_says_it_is_a_view_and_which_command_reads_it(command, name):
    path = str(HANDS / name)
    assert one_error(run(command, path, input="")) == (
        f"Error: {path}: a view for dobbm {VIEWS[name]} (one seat's cards); {command} needs all hands")
    line = ok(run("check", "--line", path)).stdout.strip()
    assert one_error(run(command, "--deal", line, input="")) == (
        f"Error: --deal: a view for dobbm {VIEWS[name]} (one seat's cards); {command} needs all hands")


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_check_names_the_command_a_view_is_for(name):
    path = str(HANDS / name)
    assert ok(run("check", path)).stdout.startswith(f"# {path}: ok, a view for dobbm {VIEWS[name]}\n")


def test_study_leaves_views_out_with_a_note(tmp_path):
    out = tmp_path / "rows.jsonl"
    d = tmp_path / "hands"
    d.mkdir()
    for name in ("play.yaml", "bid.yaml", "example.yaml", "midplay.yaml"):
        (d / name).write_bytes((HANDS / name).read_bytes())
    r = ok(run("study", str(d), "--output", str(out), "-j", "1"))
    notes = [line for line in r.stderr.splitlines() if line.startswith("Note: ")]
    assert notes == [f"Note: {d / 'bid.yaml'}: a view for dobbm bid (one seat's cards), left out: "
                     "study solves whole deals",
                     f"Note: {d / 'play.yaml'}: a view for dobbm play (one seat's cards), left out: "
                     "study solves whole deals"]
    assert "study: 2 deals, 2 solved" in r.stderr
    assert sorted(json.loads(x)["id"].rsplit("/", 1)[1] for x in out.read_text().splitlines()) == \
        ["example.yaml#1", "midplay.yaml#1"]
    assert "Note" not in ok(run("study", str(d), "--output", str(out), "-q")).stderr


def test_study_resumes_on_the_deal_not_the_path_as_typed(tmp_path):
    out = tmp_path / "rows.jsonl"
    (tmp_path / "hands").mkdir()
    (tmp_path / "hands" / "x.yaml").write_bytes((HANDS / "example.yaml").read_bytes())
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert "1 solved" in ok(run("study", "./hands/x.yaml", "--output", str(out))).stderr
        for typed in ("hands/x.yaml", str(tmp_path / "hands" / "x.yaml"), "hands/../hands/x.yaml", "hands"):
            r = ok(run("study", typed, "--output", str(out)))
            assert "1 already in" in r.stderr and "nothing left to solve" in r.stderr, (typed, r.stderr)
        # the same deal in the line notation and in the dealt form is one deal too
        (deal,) = load_hand_file(HANDS / "example.yaml")
        (tmp_path / "line.txt").write_text(format_deal_line(deal, dealt=True) + "\n", encoding="utf-8")
        assert "1 already in" in ok(run("study", "line.txt", "--output", str(out))).stderr
        # a copy is still a deal of its own: two copies, two rows
        (tmp_path / "hands" / "y.yaml").write_bytes((HANDS / "example.yaml").read_bytes())
        r = ok(run("study", "hands", "--output", str(out)))
        assert "1 already in" in r.stderr and "1 solved" in r.stderr
        assert len(out.read_text().splitlines()) == 2
    finally:
        os.chdir(cwd)


# --- tricks written in seat order ------------------------------------------------


def _in_seat_order(deal):
    """``deal`` with every trick written in seat order instead of from its leader."""
    active, leader, tricks = deal.active_seats, deal.declarer, []
    for t in deal.tricks:
        order = trick_seats(active, leader)
        by_seat = dict(zip(order, t))
        tricks.append(tuple(by_seat[s] for s in active))
        leader = order[trick_winner(t)]
    return replace(deal, tricks=tuple(tricks))


SEAT_ORDER = "tricks: trick 5 is written in seat order: each trick starts with its leader " \
             "(Dave, who won trick 4), then clockwise"


@pytest.mark.parametrize("command", ["check", "solve", "review", "score", "explore"])
def test_a_trick_in_seat_order_is_told_so(tmp_path, command):
    (played,) = load_hand_file(HANDS / "played.yaml")
    bad = _in_seat_order(played)
    f = tmp_path / "seat_order.yaml"
    f.write_text(dump_deal_yaml(bad), encoding="utf-8")
    assert one_error(run(command, str(f), input="")) == f"Error: {f}: {SEAT_ORDER}"
    line = format_deal_line(bad)
    assert one_error(run(command, "--deal", line, input="")) == \
        "Error: --deal: segment 'tricks': " + SEAT_ORDER.split(": ", 1)[1]


def test_a_dealt_form_in_seat_order_is_told_so(tmp_path):
    doc = yaml.safe_load((HANDS / "played_dealt.yaml").read_text(encoding="utf-8"))
    (played,) = load_hand_file(HANDS / "played.yaml")
    doc["tricks"] = [" ".join(card_name(c) for c in t) for t in _in_seat_order(played).tricks]
    f = tmp_path / "dealt.yaml"
    f.write_text(yaml.safe_dump(doc), encoding="utf-8")
    assert one_error(run("check", str(f))) == f"Error: {f}: {SEAT_ORDER}"


def test_a_real_revoke_is_still_a_revoke():
    error = one_error(run("check", str(HANDS / "revoke.yaml")))
    assert "revoke" in error and "seat order" not in error
    assert ok(run("score", str(HANDS / "revoke.yaml")))
    with pytest.raises(HandFileError, match="a revoke"):
        load_hand_file(HANDS / "revoke.yaml")


# --- a view line may leave the unseen seats out ------------------------------------


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_a_view_line_may_give_the_seats_and_leave_unseen_seats_out(name):
    (spec,) = load_specs(HANDS / name)
    line = format_spec_line(spec)
    assert "?" in line
    short = " | ".join(p for p in line.split(" | ") if not p.endswith(": ?"))
    short += " | seats: " + " ".join(spec.seats)
    assert parse_spec_line(short) == spec
    assert make_view(parse_spec_line(short), VIEWS[name]) == make_view(spec, VIEWS[name])
    assert ok(run("check", "--line", "--deal", short)).stdout == ok(run("check", "--line", str(HANDS / name))).stdout


def test_a_seats_segment_is_checked_like_the_yaml_key():
    with pytest.raises(NotationError, match="segment 'seats': need 4 seats"):
        parse_spec_line("me: Anna | seats: Anna Bert | Anna: HA")
    with pytest.raises(NotationError, match="segment 'Xaver'"):
        parse_spec_line("me: Anna | seats: Anna Bert Cora Dave | Xaver: HA")
    with pytest.raises(NotationError, match="cannot name a seat"):
        parse_spec_line("me: Anna | Anna: HA | Seats: ? | Cora: ? | Dave: ?")
    with pytest.raises(NotationError, match=r"segment 'seats': need 4 seats, not 1 seat segment: give every "
                                            r"seat one, clockwise \('\?' for a hand not seen\), or the seats whole"):
        parse_spec_line("me: Bert | Bert: HA H10 HK EA E9 L8 L7 S6 | dealer: Dave | bids: Anna pass")
    deal = load_hand_file(HANDS / "example.yaml")[0]
    assert parse_deal_line(format_deal_line(deal) + " | seats: " + " ".join(deal.seats)) == deal


# --- explore takes one --deal ------------------------------------------------------


def test_explore_refuses_several_deal_lines():
    lines = dealt_lines(2, 4)
    assert one_error(run("explore", "--deal", lines[0], "--deal", lines[1], input="")) == (
        "Error: --deal: explore takes one deal, not 2: give --deal once (a FILE of several deals "
        "explores the first)")


# --- the scripts of benchmarks/ ----------------------------------------------------

MENTION = re.compile(r"benchmarks/(\w+)\.py")


def documented_options() -> dict[str, set[str]]:
    """Every option the README, the docs and the package's text give a ``benchmarks/`` script:
    the ``--words`` right after a mention (a subcommand and option values between them)."""
    found: dict[str, set[str]] = {}
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "dobbm_solver").rglob("*.py"))]
    for f in files:
        text = f.read_text(encoding="utf-8")
        for m in MENTION.finditer(text):
            words = text[m.end():m.end() + 300].split()
            after_option, first = False, True
            for w in words:
                stop = w[-1] in ",.;:)`'\"" or "`" in w
                word = w.strip(",.;:)`'\"[]")
                if word.startswith("--"):
                    found.setdefault(m.group(1), set()).add(word)
                    after_option = True
                elif (after_option or first and word.isalpha() and word.islower()) and len(word) < 20:
                    after_option = False
                else:
                    break
                first = False
                if stop:
                    break
    return found


def test_the_benchmark_scripts_have_the_options_the_docs_give_them():
    found = documented_options()
    assert {"--seed", "--deals"} <= found["make_hands"] and "--hands" in found["calibrate_discard"]
    missing = {}
    for script, options in sorted(found.items()):
        helps = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{script}.py"), "--help"],
                               capture_output=True, text=True, cwd=ROOT, timeout=120)
        if script == "calibrate_discard":   # its options follow a subcommand
            helps = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{script}.py"), "agree", "--help"],
                                   capture_output=True, text=True, cwd=ROOT, timeout=120)
        absent = {o for o in options if o not in helps.stdout}
        if absent:
            missing[script] = absent
    assert missing == {}


@pytest.fixture
def make_hands(monkeypatch, tmp_path):
    path = ROOT / "benchmarks" / "make_hands.py"
    spec = importlib.util.spec_from_file_location("dobbm_make_hands_inputs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shipped = tmp_path / "shipped.yaml"
    monkeypatch.setattr(module, "outputs", lambda: {shipped: "deals\n"})
    monkeypatch.setattr(module, "ROOT", tmp_path)
    return module, shipped


def test_make_hands_writes_a_shipped_file_only_when_asked(make_hands, capsys):
    module, shipped = make_hands
    assert module.main([]) == 1 and not shipped.exists()          # the default only checks
    assert module.main(["--check"]) == 1 and not shipped.exists()
    assert module.main(["--write"]) == 0 and shipped.read_text() == "deals\n"
    assert module.main([]) == 0


def test_make_hands_deals_held_out_deals(make_hands, tmp_path, capsys):
    module, shipped = make_hands
    assert module.main(["--seed", "1001", "--deals", "3"]) == 0
    out = capsys.readouterr().out
    deals = parse_specs(out)
    assert len(deals) == 3 and out == module.held_out_text(1001, 3)
    f = tmp_path / "held_out.yaml"
    assert module.main(["--seed", "1001", "--deals", "3", "--out", str(f)]) == 0
    assert load_hand_file(f) == module.benchmark_deals(1001, 3)
    shipped.write_text("keep me\n")
    with pytest.raises(SystemExit) as e:
        module.main(["--seed", "1", "--deals", "2", "--out", str(shipped)])
    assert e.value.code == 2 and shipped.read_text() == "keep me\n"
    assert module.main(["--seed", "1", "--deals", "2", "--out", str(shipped), "--force"]) == 0
    assert len(load_hand_file(shipped)) == 2
    assert len(load_hand_file(f)) == 3
    assert all(d.needs_discard for d in parse_deal_text(module.held_out_text(7, 2, discard=True)))
    for bad in (["--seed", "1"], ["--deals", "2"], ["--out", str(f)], ["--seed", "1", "--deals", "0"],
                ["--write", "--seed", "1", "--deals", "2"]):
        with pytest.raises(SystemExit):
            module.main(bad)


@pytest.mark.parametrize("command", ["play", "check"])
def test_a_view_with_a_trick_in_seat_order_is_told_so(tmp_path, command):
    (spec,) = load_specs(HANDS / "play.yaml")
    f = tmp_path / "view.yaml"
    f.write_text((HANDS / "play.yaml").read_text(encoding="utf-8")
                 .replace("LO LK L10 LA", "LA LO LK L10").replace("H9 H7 H10 SK", "SK H9 H7 H10"), encoding="utf-8")
    message = ("tricks: trick 1 is written in seat order: each trick starts with its leader "
               "(Bert, the declarer, who leads the first), then clockwise")
    assert one_error(run(command, "-n", "2", str(f)) if command == "play" else run(command, str(f))) == \
        f"Error: {f}: {message}"
    line = format_spec_line(replace(spec, tricks=load_specs(f)[0].tricks))
    assert one_error(run(command, "--deal", line)) == "Error: --deal: segment 'tricks': " + message.split(": ", 1)[1]


def test_a_line_file_is_bounded_and_may_begin_with_a_byte_order_mark(tmp_path):
    from dobbm_solver.safe_yaml import MAX_DOCUMENTS

    line = format_deal_line(load_hand_file(HANDS / "example.yaml")[0])
    assert load_specs_of(tmp_path, "\ufeff" + line + "\r\n") == parse_specs(line)
    with pytest.raises(HandFileError, match=f"more than {MAX_DOCUMENTS} deal lines: split the file"):
        parse_specs((line + "\n") * (MAX_DOCUMENTS + 1), "big.txt")


def load_specs_of(tmp_path: Path, text: str) -> list:
    f = tmp_path / "deal.txt"
    f.write_bytes(text.encode("utf-8"))
    return load_specs(f)
