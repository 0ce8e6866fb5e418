"""Every example in README.md and docs/*.md runs as shown, and docs/ follows the code.

* ``sh`` blocks are run line by line, each ``&&`` step in turn, in a scratch
  folder that sees the repository's files.  Two kinds of step are not run
  (``NOT_RUN`` below, with the reason for each): installing, which the test
  environment has done already, and the test suite itself, which is instead
  checked to be the command CI runs.
* ``text`` blocks whose lines start with ``$ `` are shell sessions: each
  command is run (in a scratch folder of the block's own) and its output
  compared with the lines shown under it, number for number.  Timing figures
  are blanked on both sides; ``...`` in a document stands for any text.  A
  command that writes no file and appears in several blocks is run once.
* ``text`` blocks holding a one-line deal or view are parsed and validated.
* ``python`` blocks are run, and a line ``expr  # value`` checks ``expr == value``.
* docs/commands.md documents exactly the options that each command's
  ``--help`` shows: its option tables are ``--help``'s, and
  ``python tests/test_docs.py`` regenerates them when the command line changes.
* docs/design.md's map of the package names every module, and nothing else.
* Relative links between the pages point at files and headings that exist.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

from dobbm_solver.analyzer import make_view
from dobbm_solver.cli import main
from dobbm_solver.errors import DobbmError
from dobbm_solver.notation import parse_deal_line, parse_spec_line

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
COMMANDS_MD = ROOT / "docs" / "commands.md"
DESIGN_MD = ROOT / "docs" / "design.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
TIMING = [
    (re.compile(r"\b\d+(\.\d+)?\s*(ms|s)\b"), "<t>"),                 # "in 0.1 s", "12 ms"
    (re.compile(r'("seconds": )[0-9.e-]+'), r"\1<t>"),               # study rows
    (re.compile(r"\(\d+ workers?\)"), "(<n> workers)"),              # the core count
]
# sh steps that are shown but not run here, each with its reason
NOT_RUN = {
    "pip install": "installing: the test environment is installed already",
    "python -m pytest": "the test suite itself: checked to be the command .ci/run runs instead",
}


@dataclass(frozen=True)
class Block:
    page: Path
    lang: str
    text: str
    line: int

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(lang: str | None = None, pages: list[Path] = PAGES) -> list[Block]:
    out = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if lang is None or m.group(1) == lang:
                out.append(Block(page, m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1))
    return out


def sessions() -> list[tuple[Block, list[tuple[str, list[str]]]]]:
    """For every shell-session block, its ``(command, expected output lines)`` in order."""
    out = []
    for b in blocks("text"):
        if not b.text.startswith("$ "):
            continue
        steps = []
        for chunk in re.split(r"^(?=\$ )", b.text, flags=re.M):
            if chunk.strip():
                command, *expected = chunk.rstrip("\n").split("\n")
                steps.append((command[2:], expected))
        out.append((b, steps))
    return out


def _blank(line: str) -> str:
    for pattern, repl in TIMING:
        line = pattern.sub(repl, line)
    return line.rstrip()


def _matches(expected: list[str], got: list[str]) -> bool:
    if len(expected) != len(got):
        return False
    for e, g in zip(expected, got):
        e, g = _blank(e), _blank(g)
        pattern = ".*".join(re.escape(part) for part in e.split("..."))
        if not re.fullmatch(pattern, g):
            return False
    return True


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A folder of its own for each block, that sees the repository's files."""
    for name in ("hands", "examples", "benchmarks", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


def _env() -> dict[str, str]:
    env = dict(os.environ)
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("COLUMNS", None)
    return env


def run_shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    if shutil.which("dobbm", path=_env()["PATH"]) is None:
        pytest.skip("the dobbm command is not installed")
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)


_RUN_ONCE: dict[str, subprocess.CompletedProcess[str]] = {}


def _writes_files(command: str) -> bool:
    return bool(re.search(r"(^|\s)(-o|--output)\b|>", command)) or not command.startswith("dobbm ")


def run_session_step(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command``'s run; one that writes no file is run once for every block that shows it."""
    if _writes_files(command):
        return run_shell(command, cwd)
    if command not in _RUN_ONCE:
        _RUN_ONCE[command] = run_shell(command, cwd)
    return _RUN_ONCE[command]


SESSIONS = sessions()


def test_pages_have_examples() -> None:
    assert sum(len(steps) for _, steps in SESSIONS) >= 10
    assert blocks("python") and blocks("sh")
    readme = [b for b, _ in SESSIONS if b.page.name == "README.md"]
    assert len(readme) >= 4, "README's tour shows a solve, a lay-away study, a review and advice"


@pytest.mark.parametrize("block,steps", SESSIONS, ids=[str(b) for b, _ in SESSIONS])
def test_session(block: Block, steps: list[tuple[str, list[str]]], scratch: Path) -> None:
    for command, expected in steps:
        done = run_session_step(command, scratch)
        text = (done.stdout + done.stderr).rstrip("\n")
        got = text.split("\n") if text else []
        assert _matches(expected, got), (
            f"{block}: `{command}` printed (exit {done.returncode}):\n" + "\n".join(got)
            + "\n\nthe page shows:\n" + "\n".join(expected))


def test_one_line_deals_parse() -> None:
    lines = [b for b in blocks("text") if re.match(r"(dobbm|solo) \w+ \|", b.text)]
    assert lines, "no page shows a one-line deal"
    for b in lines:
        for text in b.text.strip().split("\n"):
            parse_deal_line(text)   # raises with the reason if the example is wrong


def test_one_line_views_are_views() -> None:
    """A one-line view shown in a page reads back as a view that some advice command takes."""
    lines = [b for b in blocks("text") if b.text.startswith("me: ")]
    assert lines, "no page shows a one-line view"
    for b in lines:
        for text in b.text.strip().split("\n"):
            spec = parse_spec_line(text)
            assert any(_is_view_for(spec, c) for c in ("bid", "discard", "double", "play")), f"{b}: {text}"


def _is_view_for(spec: object, command: str) -> bool:
    try:
        make_view(spec, command)   # type: ignore[arg-type]
    except DobbmError:
        return False
    return True


@pytest.mark.parametrize("block", blocks("python"), ids=str)
def test_python_block(block: Block, scratch: Path) -> None:
    namespace: dict[str, object] = {}
    cwd = os.getcwd()
    os.chdir(scratch)
    try:
        for n, line in enumerate(block.text.split("\n")):
            code, _, comment = line.partition("  # ")
            value = comment.strip()
            if code.strip() and re.fullmatch(r"-?\d+|True|False|None|'[^']*'", value or "x"):
                assert eval(code, namespace) == eval(value), f"{block}+{n + 1}: {code.strip()}"
            elif code.strip():
                exec(code, namespace)
    finally:
        os.chdir(cwd)


def _not_run(step: str) -> str | None:
    """Why ``step`` is shown but not run here, or None."""
    for prefix, reason in NOT_RUN.items():
        if step.startswith(prefix):
            return reason
    return None


def test_not_run_list_stays_small() -> None:
    shown = [s.strip() for b in blocks("sh") for line in b.text.strip().split("\n") for s in line.split("&&")]
    skipped = [s for s in shown if _not_run(s)]
    assert len(skipped) <= 3, f"sh steps not run: {skipped}"


@pytest.mark.parametrize("block", blocks("sh"), ids=str)
def test_sh_block(block: Block, scratch: Path) -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    for line in block.text.strip().split("\n"):
        for step in (s.strip() for s in line.split("&&")):
            reason = _not_run(step)
            if reason and "pytest" in step:
                assert step in ci, f"{block}: the test command {step!r} is not what .ci/run runs"
            if reason:
                continue
            done = run_shell(step, scratch)
            assert done.returncode == 0, f"{block}: `{step}` failed:\n{done.stdout}\n{done.stderr}"


def _documented_options() -> dict[str, set[str]]:
    text = COMMANDS_MD.read_text(encoding="utf-8")
    out: dict[str, set[str]] = {}
    for m in re.finditer(r"<!-- options: (\w+) -->(.*?)<!-- end options -->", text, flags=re.S):
        out[m.group(1)] = {opt for cell in re.findall(r"^\| `([^`]+)` \|", m.group(2), flags=re.M)
                           for opt in _option_names(cell)}
    return out


def _option_names(names: str) -> list[str]:
    """The option names in a help record's first column (not a metavar like SEAT:MIN-MAX)."""
    return [opt for opt in re.findall(r"(?<![\w:-])(--?[\w-]+)", names) if not opt.isupper()]


def _help_records(name: str) -> list[tuple[str, str]]:
    """``(options, help text)`` of each option ``dobbm NAME --help`` shows."""
    cmd = main.commands[name]
    ctx = click.Context(cmd, info_name=name, parent=click.Context(main, info_name="dobbm", **main.context_settings))
    return [r for r in (p.get_help_record(ctx) for p in cmd.get_params(ctx)) if r is not None]


def _help_options(name: str) -> set[str]:
    return {opt for names, _ in _help_records(name) for opt in _option_names(names)}


def _table(name: str) -> str:
    """The option table of ``dobbm NAME`` as docs/commands.md shows it."""
    cmd = main.commands[name]
    ctx = click.Context(cmd, info_name=name, parent=click.Context(main, info_name="dobbm", **main.context_settings))
    rows = [f"| `{names}` | {_cell(help_)} |" for names, help_ in _help_records(name)]
    usage = cmd.get_usage(ctx).replace("Usage: ", "")
    return f"Usage: `{usage}`\n\n| option | meaning |\n| --- | --- |\n" + "\n".join(rows)


def _cell(help_: str) -> str:
    return re.sub(r"\s+", " ", help_).replace("|", "\\|")


def test_every_command_has_its_options_in_commands_md() -> None:
    documented = _documented_options()
    assert set(documented) == set(main.commands), (
        f"docs/commands.md has option tables for {sorted(documented)}, the CLI has {sorted(main.commands)}")
    for name in main.commands:
        shown = _help_options(name)
        assert shown, name
        assert documented[name] == shown, (
            f"dobbm {name}: --help shows {sorted(shown)}, docs/commands.md {sorted(documented[name])}")


def test_commands_md_tables_are_those_of_help() -> None:
    """Each command's option table in commands.md is its --help (``python tests/test_docs.py`` regenerates them)."""
    text = COMMANDS_MD.read_text(encoding="utf-8")
    assert text == regenerated(text), "docs/commands.md's option tables differ from --help: python tests/test_docs.py"


def regenerated(text: str) -> str:
    """``text`` (docs/commands.md) with its option tables made anew from ``--help``."""
    return re.sub(r"<!-- options: (\w+) -->.*?<!-- end options -->",
                  lambda m: f"<!-- options: {m.group(1)} -->\n{_table(m.group(1))}\n<!-- end options -->",
                  text, flags=re.S)


def test_design_map_names_every_module() -> None:
    """design.md's map of the package lists every module of the package, and nothing else."""
    text = DESIGN_MD.read_text(encoding="utf-8")
    part = text[text.index("## The package, room by room"):]
    layout = part.split("```text", 1)[1].split("```", 1)[0]
    pkg = ROOT / "dobbm_solver"
    for path in sorted(pkg.rglob("*.py")) + sorted(pkg.glob("*.pyx")) + sorted(pkg.glob("*.pxi")):
        if path.name in ("__init__.py", "__main__.py") and path.parent != pkg:
            continue
        named = re.search(rf"(?<![\w/]){re.escape(path.stem)}\b", layout)
        assert named, f"docs/design.md's map does not name {path.relative_to(ROOT)} (a new or renamed module: map it)"
    listed = re.findall(r"^\s+(\w+)(?:\.py|\.pyx|\.pxi|/)", layout, flags=re.M)
    for name in listed:
        exists = (list(pkg.rglob(f"{name}.py")) or list(pkg.rglob(f"{name}.pyx")) or (pkg / f"{name}.pxi").is_file()
                  or list(pkg.rglob(name)) or (ROOT / name).is_dir())
        assert exists, f"docs/design.md's map names {name}, not in the tree (renamed or removed: update the map)"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def test_links_between_pages_resolve() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"\w+://", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (page.parent / file).resolve() if file else page
            assert dest.exists(), f"{page.relative_to(ROOT)}: link to {target}: no such file"
            if anchor and dest.suffix == ".md":
                anchors = {_anchor(h) for h in re.findall(r"^#+ (.*)$", dest.read_text(encoding="utf-8"), flags=re.M)}
                assert anchor in anchors, f"{page.relative_to(ROOT)}: link to {target}: no such heading"


if __name__ == "__main__":
    old = COMMANDS_MD.read_text(encoding="utf-8")
    new = regenerated(old)
    COMMANDS_MD.write_text(new, encoding="utf-8")
    print("docs/commands.md: option tables " + ("regenerated from --help" if new != old else "already those of --help"))
