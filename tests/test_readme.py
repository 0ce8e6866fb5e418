"""Every example in README runs as shown.

* ``text`` blocks whose lines start with ``$ `` are shell sessions: each
  command is run (in a scratch folder that sees the repository's ``hands/``)
  and its output compared with the lines shown under it.  Timing figures are
  blanked on both sides; ``...`` in the README stands for any text.
* ``text`` blocks holding a one-line deal are parsed and validated.
* ``python`` blocks are run, and a line ``expr  # value`` checks ``expr == value``.
* ``sh`` blocks are the two commands of the README's head: the install
  commands are those that ``.ci/run`` runs; the rest of each is run as above.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from dobbm_solver.analyzer import make_view
from dobbm_solver.errors import DobbmError
from dobbm_solver.notation import parse_deal_line, parse_spec_line

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
TIMING = [
    (re.compile(r"\b\d+(\.\d+)?\s*(ms|s)\b"), "<t>"),                 # "in 0.1 s", "12 ms"
    (re.compile(r'("seconds": )[0-9.e-]+'), r"\1<t>"),               # study rows
    (re.compile(r"\(\d+ workers?\)"), "(<n> workers)"),              # the core count
]


@dataclass(frozen=True)
class Block:
    lang: str
    text: str
    line: int

    def __str__(self) -> str:
        return f"README.md:{self.line}"


def blocks(lang: str | None = None) -> list[Block]:
    text = README.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        if lang is None or m.group(1) == lang:
            out.append(Block(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1))
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
        # a trailing "# comment" on a README output line is the README's, not the tool's
        pattern = ".*".join(re.escape(part) for part in e.split("..."))
        if not re.fullmatch(pattern, g):
            return False
    return True


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A folder of its own for each block, that sees the repository's files."""
    for name in ("hands", "examples", "benchmarks"):
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


SESSIONS = sessions()


def test_readme_has_examples() -> None:
    assert sum(len(steps) for _, steps in SESSIONS) >= 5
    assert blocks("python") and blocks("sh")


@pytest.mark.parametrize("block,steps", SESSIONS, ids=[str(b) for b, _ in SESSIONS])
def test_session(block: Block, steps: list[tuple[str, list[str]]], scratch: Path) -> None:
    for command, expected in steps:
        done = run_shell(command, scratch)
        text = (done.stdout + done.stderr).rstrip("\n")
        got = text.split("\n") if text else []
        assert _matches(expected, got), (
            f"{block}: `{command}` printed (exit {done.returncode}):\n" + "\n".join(got)
            + "\n\nREADME shows:\n" + "\n".join(expected))


def test_one_line_deals_parse() -> None:
    lines = [b for b in blocks("text") if re.match(r"(dobbm|solo) \w+ \|", b.text)]
    assert lines, "README shows no one-line deal"
    for b in lines:
        for text in b.text.strip().split("\n"):
            parse_deal_line(text)   # raises with the reason if the example is wrong


def test_one_line_views_are_views() -> None:
    """A one-line view shown in README reads back as a view that some advice command takes."""
    lines = [b for b in blocks("text") if b.text.startswith("me: ")]
    assert lines, "README shows no one-line view"
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


def test_python_blocks(scratch: Path) -> None:
    for b in blocks("python"):
        namespace: dict[str, object] = {}
        cwd = os.getcwd()
        os.chdir(scratch)
        try:
            for n, line in enumerate(b.text.split("\n")):
                code, _, comment = line.partition("  # ")
                value = comment.strip()
                if code.strip() and re.fullmatch(r"-?\d+|True|False|None", value or "x"):
                    assert eval(code, namespace) == eval(value), f"{b}+{n + 1}: {code.strip()}"
                elif code.strip():
                    exec(code, namespace)
        finally:
            os.chdir(cwd)


def test_sh_blocks(scratch: Path) -> None:
    """Install steps are CI's own (it installs as README says); the test command is
    the one .ci/run runs; every other step runs here (but the figure refresh, which
    rewrites a committed file on purpose)."""
    ci = (ROOT / ".ci" / "run").read_text()
    for b in blocks("sh"):
        for line in b.text.strip().split("\n"):
            for step in (s.strip() for s in line.split("&&")):
                if step.startswith("pip install") or step.endswith("--update"):
                    continue
                if "pytest" in step:
                    assert step in ci, f"{b}: README's test command {step!r} is not what .ci/run runs"
                    continue
                done = run_shell(step, scratch)
                assert done.returncode == 0, f"{b}: `{step}` failed:\n{done.stderr}"


def test_layout_names_every_module() -> None:
    """README's Layout section lists every module of the package, and nothing else."""
    text = README.read_text(encoding="utf-8")
    layout = text[text.index("## Layout"):]
    layout = layout[:layout.index("\n## ", 1)]
    pkg = ROOT / "dobbm_solver"
    for path in sorted(pkg.rglob("*.py")) + sorted(pkg.glob("*.pyx")) + sorted(pkg.glob("*.pxi")):
        if path.name == "__init__.py":
            continue
        named = re.search(rf"(?<![\w/]){re.escape(path.stem)}\b", layout)
        assert named, f"Layout does not name {path.relative_to(ROOT)}"
    listed = re.findall(r"^\s+(\w+)(?:\.py|\.pyx|\.pxi|/)", layout.split("```text", 1)[1], flags=re.M)
    for name in listed:
        assert list(pkg.rglob(f"{name}.py")) or list(pkg.rglob(f"{name}.pyx")) or (pkg / f"{name}.pxi").is_file() \
            or (pkg / name).is_dir() \
            or (ROOT / name).is_dir(), f"Layout names {name}, which is not in the tree"
