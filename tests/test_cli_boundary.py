"""The command line's one options layer and its boundary (dobbm_solver/cli/options.py, boundary.py,
output.py): each shared option declared once, one exit for Ctrl-C, errors as one bounded line,
an output that cannot be written, and JSON that is always JSON."""

from __future__ import annotations

import errno
import io
import json
import math
import os
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from dobbm_solver import cli
from dobbm_solver.cli import options
from dobbm_solver.cli.boundary import cut_echoes
from dobbm_solver.cli.output import OutputError, echo_json
from dobbm_solver.echo import ECHO_CHARS, brief
from dobbm_solver.jobs import resolve_jobs

REPO = Path(__file__).resolve().parents[1]
HANDS = REPO / "hands"
PACKAGE = REPO / "dobbm_solver"
SHARED = {"--jobs": "JOBS", "--seed": "SEED", "--json": "JSON", "--no-diagram": "NO_DIAGRAM", "--quiet": "QUIET",
          "--scheduler": "SCHEDULER", "--deal": "DEAL", "--tt-mb": "TT_MB", "--samples": "SAMPLES", "--html": "HTML"}


def run(*args: str) -> Result:
    return CliRunner().invoke(cli.main, list(args))


def commands() -> dict[str, click.Command]:
    return dict(cli.main.commands)


def one_error(r: Result) -> str:
    assert "Traceback" not in r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("Error")]
    assert len(lines) == 1, r.stderr
    return lines[0]


# --------------------------------------------------------------------------
# one options layer


@pytest.mark.parametrize("name", list(SHARED))
def test_each_shared_option_has_one_definition(name):
    """Every command that takes a shared option takes the same one: its short form,
    type, default and help text, as declared once in cli/options.py."""
    found = {}
    for cmd_name, cmd in commands().items():
        for p in cmd.params:
            if isinstance(p, click.Option) and name in p.opts:
                found[cmd_name] = (tuple(p.opts), tuple(p.secondary_opts), p.help, repr(p.type), p.default,
                                   p.show_default, p.metavar)
    assert found, f"no command takes {name}"
    assert len(set(found.values())) == 1, found
    # declared in one place: one click.option(...) names it in the cli package
    declaration = re.compile(r'click\.option\(\s*(?:"[^"]*",\s*)*"%s"' % re.escape(name))
    declared = {path.name: len(declaration.findall(path.read_text(encoding="utf-8")))
                for path in (PACKAGE / "cli").glob("*.py")}
    assert {n: k for n, k in declared.items() if k} == {"options.py": 1}, declared


def test_the_shared_options_are_where_they_belong():
    takes = {name: sorted(c for c, cmd in commands().items()
                          if any(name in p.opts for p in cmd.params if isinstance(p, click.Option)))
             for name in SHARED}
    assert takes["--jobs"] == ["arena", "bid", "discard", "double", "play", "solve", "study"]
    assert takes["--seed"] == ["arena", "bid", "deal", "discard", "double", "play", "practice"]
    assert takes["--json"] == ["arena", "bench", "bid", "check", "discard", "double", "explore", "play", "practice",
                               "review", "score", "solve"]
    assert takes["--no-diagram"] == ["check", "explore", "review", "score", "solve"]
    assert takes["--tt-mb"] == ["bench", "explore", "practice", "review", "serve", "solve", "study"]
    assert takes["--html"] == ["arena", "deal", "explore", "review", "solve"]
    assert takes["--scheduler"] == ["arena", "study"]


def test_n_means_samples_only():
    for name, cmd in commands().items():
        for p in cmd.params:
            if "-n" in p.opts:
                assert p.name == "samples", (name, p.opts)
    deals = next(p for p in commands()["arena"].params if p.name == "deals")
    assert deals.opts == ["--deals"]


def test_seed_has_one_default_said_in_the_help():
    for name in ("bid", "arena"):
        r = CliRunner().invoke(cli.main, [name, "--help"], terminal_width=200)
        assert r.exit_code == 0
        assert f"[default: {options.DEFAULT_SEED}]" in " ".join(r.stdout.split())


def test_seed_default_is_the_seed_reported():
    args = ("bid", str(HANDS / "bid.yaml"), "--samples", "2", "--jobs", "1", "--json")
    obj = json.loads(run(*args).stdout)
    assert obj["seed"] == options.DEFAULT_SEED
    given = json.loads(run(*args, "--seed", str(options.DEFAULT_SEED)).stdout)
    obj.pop("seconds", None), given.pop("seconds", None)
    obj.get("info", {}).pop("seconds", None), given.get("info", {}).pop("seconds", None)
    assert obj == given


@pytest.mark.parametrize("args", [["bid", str(HANDS / "bid.yaml")], ["arena", "rule", "rule"]])
def test_a_negative_seed_is_one_line_of_bad_input(args):
    r = run(*args, "--seed", "-1")
    assert r.exit_code == 2
    assert r.stderr == "Error: --seed must be a whole number, 0 or more, not '-1'\n"


def test_the_old_long_options_still_work():
    r = run("arena", "rule", "rule", "--deals", "1", "--seed", "5", "--jobs", "1", "--json", "-q")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["deals"] == 1


def test_solve_takes_jobs_and_the_values_do_not_depend_on_it():
    path = str(HANDS / "discard_study.yaml")
    one = json.loads(run("solve", "--json", "--jobs", "1", path).stdout)
    two = json.loads(run("solve", "--json", "--jobs", "2", path).stdout)
    for obj in (one, two):
        obj.pop("nodes")
    assert one == two and len(one["discards"]) > 1
    assert run("solve", "--jobs", "257", path).exit_code == 2


def test_resolve_jobs_states_the_rule():
    doc = resolve_jobs.__doc__ or ""
    assert "``None`` or ``0``: one worker per core" in doc and "``1``: no worker" in doc


# --------------------------------------------------------------------------
# one exit for Ctrl-C, no guard lambdas


def test_no_literal_exit_status_130_in_the_package():
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "sys.exit(130)" not in text, path
        if path.parent.name == "cli":   # no number 130 in the code (the help texts may say it)
            numbers = [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
                       if t.type == tokenize.NUMBER]
            assert "130" not in numbers, path
    interrupt = (PACKAGE / "_interrupt.py").read_text(encoding="utf-8")
    assert interrupt.count("EXIT_INTERRUPTED = 130") == 1


def test_no_guard_lambdas():
    for path in (PACKAGE / "cli").glob("*.py"):
        assert "guard(lambda" not in path.read_text(encoding="utf-8"), path


# --------------------------------------------------------------------------
# errors: one line, values typed cut to ECHO_CHARS

LONG = "x" * 100_000


@pytest.mark.parametrize("args", [
    ["bid", str(HANDS / "bid.yaml"), "--jobs", LONG],
    ["bid", str(HANDS / "bid.yaml"), "--seed", LONG],
    ["score", str(HANDS / "finished.yaml"), "--match-cost", LONG],
    ["arena", LONG, "rule"],
    ["arena", f"advice,play={LONG}", "rule"],
    ["study", str(HANDS / "example.yaml"), "-o", "unused.jsonl", "--scheduler", LONG],
    ["check", "--deal", LONG],
    ["check", LONG],
])
def test_a_long_value_comes_back_cut(args):
    r = run(*args)
    assert r.exit_code in (1, 2)
    line = one_error(r)
    assert len(line) < 400 and "…" in line, line[:500]
    assert "x" * (ECHO_CHARS + 1) not in line


def test_cut_echoes_keeps_file_names_and_short_values():
    path = "/some/where/" + "d" * 80 + "/hand.yaml"
    assert cut_echoes(f"{path}: no such file", [path], {path}) == f"{path}: no such file"
    assert cut_echoes(f"{path}: no such file", [path]).startswith(f"{path[:ECHO_CHARS - 1]}…: no such")
    assert cut_echoes("player 'abc': no strategy 'abc'", ["abc"]) == "player 'abc': no strategy 'abc'"
    long = "y" * 200
    assert cut_echoes(f"not {long!r}", [long]) == f"not {brief(long)}"
    assert len(brief(long)) == ECHO_CHARS and brief(long).endswith("…")


def test_a_library_error_is_one_line_exit_2_and_memory_exit_1(monkeypatch):
    from dobbm_solver.cli import score as score_command

    def no_memory(*args: object) -> None:
        raise MemoryError

    monkeypatch.setattr(score_command, "score_hand", no_memory)
    r = run("score", str(HANDS / "finished.yaml"))
    assert r.exit_code == 1 and r.stderr == "Error: out of memory\n"


# --------------------------------------------------------------------------
# JSON is always JSON: finite numbers


@pytest.mark.parametrize("cost", ["nan", "NaN", "inf", "-inf", "infinity", "1e308", "1e13"])
def test_a_match_cost_that_is_not_a_finite_amount_is_bad_input(cost):
    r = run("score", "--json", str(HANDS / "finished.yaml"), "--match-cost", cost)
    assert r.exit_code == 2 and r.stdout == ""
    assert "--match-cost" in one_error(r)


def test_the_largest_match_cost_gives_finite_json():
    r = run("score", "--json", str(HANDS / "finished.yaml"), "--match-cost", "1e12")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))
    assert obj["money"] and all(math.isfinite(v) for v in obj["money"].values())


def test_json_output_refuses_what_json_has_not():
    with pytest.raises(ValueError):
        echo_json({"x": float("nan")})


# --------------------------------------------------------------------------
# an output that cannot be written: one line, exit 1, no traceback


def _process(args: list[str], stdout: object) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "dobbm_solver.cli", *args], cwd=REPO, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)


OUTPUTS = [["check", str(HANDS / "example.yaml")], ["solve", "--json", str(HANDS / "midplay.yaml")],
           ["score", str(HANDS / "finished.yaml")], ["--help"], ["solve", "--help"], ["--version"]]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", OUTPUTS)
def test_a_full_disk_is_one_line_and_exit_1(args):
    with open("/dev/full", "w") as full:
        p = _process(args, full)
    assert p.returncode == 1
    assert p.stderr == "Error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("args", OUTPUTS)
def test_a_closed_pipe_is_one_line_and_exit_1(args):
    read, write = os.pipe()
    os.close(read)
    try:
        p = _process(args, write)
    finally:
        os.close(write)
    assert p.returncode == 1
    assert p.stderr == "Error: cannot write the output: Broken pipe\n"


def test_a_closed_standard_output_is_one_line_and_exit_1():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    p = subprocess.run(f"{sys.executable} -m dobbm_solver.cli check {HANDS / 'example.yaml'} >&-", shell=True,
                       cwd=REPO, env=env, stderr=subprocess.PIPE, text=True, timeout=120)
    assert p.returncode == 1
    assert p.stderr == "Error: cannot write the output: standard output is closed\n"


def test_an_output_error_names_its_file():
    e = OSError(errno.ENOSPC, "No space left on device", "rows.jsonl")
    assert OutputError.of(e).format_message() == "rows.jsonl: No space left on device"
    assert OutputError.exit_code == 1


# --------------------------------------------------------------------------
# report/: one renderer module per command; "table" is a card table only


def test_report_has_a_renderer_module_per_command():
    names = {p.stem for p in (PACKAGE / "report").glob("*.py")}
    assert {"solve", "check", "score", "review", "advice", "arena", "diagram"} <= names


def test_report_names_no_grid_a_table():
    for path in (PACKAGE / "report").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        names = {t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.NAME}
        assert not [n for n in names if "table" in n.lower()], path


def test_the_commands_import_renderers_from_report_only():
    for path in (PACKAGE / "cli").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "format_deal_line" not in text and "format_spec_line" not in text, path
        assert "json.dumps" not in text or path.name == "output.py", path
