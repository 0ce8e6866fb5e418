"""No input costs out of proportion to its size: alias bombs, deep nesting, huge scalars,
many documents, devices, FIFOs and a closed standard input each get one clean error, fast.

Each nasty input runs ``dobbm check`` in a child process with its address space
limited (``RLIMIT_AS``) and a timeout: a blow-up shows as a crash, a MemoryError
traceback or a timeout, not as a slow test.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from dobbm_solver.echo import ECHO_CHARS
from dobbm_solver.handfile import MAX_BYTES, HandFileError, load_specs, parse_specs
from dobbm_solver.safe_yaml import MAX_DOCUMENTS, MAX_NESTING, MAX_NODES

REPO = Path(__file__).resolve().parents[1]
MEMORY_LIMIT = 1024 * 1024 * 1024      # bytes of address space for the child
TIMEOUT = 60                            # seconds, generous: the machine is shared


def _limit_memory() -> None:   # runs in the child, before exec
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_limited(*args: str, stdin: int | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "dobbm_solver.cli", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT, stdin=stdin,
                          preexec_fn=_limit_memory)


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    lines = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def keyed_bomb() -> str:
    """The bomb where a hand file's walk would meet it: inside hands and tricks."""
    return alias_bomb() + "hands: {Anna: *a8, Bert: *a8}\ntricks: *a8\n"


NASTY = {
    "alias bomb": alias_bomb(),
    "alias bomb under known keys": keyed_bomb(),
    "alias bomb of long scalars": ("s: &s " + "HA" * 50_000 + "\n"
                                   + "".join(f"k{i}: &k{i} [*{'s' if i == 0 else f'k{i - 1}'}"
                                             + f", *{'s' if i == 0 else f'k{i - 1}'}" * 7 + "]\n"
                                             for i in range(8))),
    "deep flow nesting": "[" * 200_000 + "]" * 200_000,
    "deep block nesting": "- " * 500_000 + "x\n",
    "deep block mappings": "".join(" " * i + f"k{i}:\n" for i in range(300)),
    "huge scalar as a card": "hands: {Anna: 'H" + "A" * 20_000_000 + "'}\n",
    "huge key": "K" * 20_000_000 + ": 1\n",
    "huge number": "doublings: " + "9" * 10_000_000 + "\nhands: {A: ''}\nseats: [A, B, C, D]\n",
    "many documents": "---\n" * (MAX_DOCUMENTS + 10),
    "many empty documents then a deal": "---\n" * 50_000 + "hands: {}\n",
    "a huge flow list": "hands: {Anna: [" + "HA, " * 3_000_000 + "]}\n",
    "many mapping keys": "".join(f"k{i}: {i}\n" for i in range(500_000)),
    "many tricks": "tricks: [" + "HA H6 H7 H8, " * 2_000_000 + "]\nhands: {A: ''}\n",
}


@pytest.mark.parametrize("name", list(NASTY))
def test_nasty_input_errors_out_quickly_and_within_memory(tmp_path: Path, name: str) -> None:
    f = tmp_path / "nasty.yaml"
    f.write_text(NASTY[name], encoding="utf-8")
    r = run_limited("check", str(f))
    assert r.returncode == 2, (name, r.returncode, r.stderr[-2000:])
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {f}"), (name, r.stderr[-2000:])
    assert len(lines[0]) < len(str(f)) + 300, (name, lines[0][:400])


def test_the_bomb_is_refused_for_its_size_not_its_text() -> None:
    with pytest.raises(HandFileError, match=f"more than {MAX_NODES} YAML nodes"):
        parse_specs(alias_bomb(), "b.yaml")
    # a few aliases are fine: they are YAML
    text = "hands: {Anna: &cards HA H10 HK HO, Bert: *cards}\nseats: [Anna, Bert, Cora, Dave]\n"
    [spec] = parse_specs(text, "ok.yaml")
    assert spec.hands["Anna"] == spec.hands["Bert"] != 0


@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n",
    "hands:\n  Anna: HA\n  Anna: HK\n",
    "bids:\n  - {Bert: pass, Bert: solo}\n",
    "x: {y: {z: 1, z: 2}}\n",
    "doublings: 2\nseats: [A, B, C, D]\ndoublings: 0\n",
])
def test_a_key_given_twice_is_an_error_at_any_level(text: str) -> None:
    with pytest.raises(HandFileError, match=r"^t\.yaml: line \d+, column \d+: not valid YAML: key .* is given twice$"):
        parse_specs(text, "t.yaml")


def test_nesting_limit() -> None:
    ok = "hands: {Anna: " + "[" * (MAX_NESTING - 2) + "HA" + "]" * (MAX_NESTING - 2) + "}\n"
    with pytest.raises(HandFileError) as info:   # accepted by YAML, rejected as cards
        parse_specs(ok, "t.yaml")
    assert "nested" not in str(info.value)
    deep = "- " * (MAX_NESTING + 1) + "x\n"
    with pytest.raises(HandFileError, match="nested more than"):
        parse_specs(deep, "t.yaml")


@pytest.mark.parametrize("value", ["H" + "A" * 10_000_000, "x" * 100_000], ids=["10M", "100k"])
def test_error_messages_echo_a_bounded_part_of_the_input(value: str) -> None:
    for text in (f"seats: [Anna, B, C, D]\nhands: {{Anna: '{value}'}}\n", f"{value}: 1\n",
                 f"seats: [A, B, C, D]\nhands: {{'{value}': HA}}\n",
                 f"seats: [A, B, C, D]\nhands: {{A: ''}}\ndoublings: '{value}'\n"):
        with pytest.raises(HandFileError) as info:
            parse_specs(text, "t.yaml")
        msg = str(info.value)
        assert len(msg) < 250 and (value[:30] not in msg or "…" in msg), msg
    assert ECHO_CHARS == 60


# --------------------------------------------------------------------------
# files that are not regular files, and standard input


def test_a_device_is_refused_before_reading() -> None:
    for dev in ("/dev/zero", "/dev/urandom", "/dev/null"):
        if not os.path.exists(dev):
            continue
        with pytest.raises(HandFileError, match=f"^{dev}: is a device, not a hand file$"):
            load_specs(dev)
    r = run_limited("check", "/dev/zero")
    assert r.returncode == 2 and r.stderr == "Error: /dev/zero: is a device, not a hand file\n"


def _fifo(tmp_path: Path, payload: bytes) -> Path:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)

    def write() -> None:
        try:
            with open(path, "wb") as f:
                f.write(payload)
        except BrokenPipeError:
            pass

    threading.Thread(target=write, daemon=True).start()
    return path


def test_a_fifo_is_read_with_the_byte_limit(tmp_path: Path) -> None:
    path = _fifo(tmp_path, b"\0" * (MAX_BYTES + 1024 * 1024))
    assert stat.S_ISFIFO(os.stat(path).st_mode)
    with pytest.raises(HandFileError, match=f"too large \\(more than {MAX_BYTES} bytes\\)"):
        load_specs(path)


def test_a_fifo_holding_a_deal_is_read(tmp_path: Path) -> None:
    text = (REPO / "hands" / "example.yaml").read_bytes()
    [spec] = load_specs(_fifo(tmp_path, text))
    assert spec.declarer is not None


def test_closed_standard_input_is_a_clear_error() -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    for cmd in ("check", "solve", "score"):
        r = subprocess.run(f"{sys.executable} -m dobbm_solver.cli {cmd} - <&-", shell=True, cwd=REPO,
                           env=env, capture_output=True, text=True, timeout=TIMEOUT)
        assert r.returncode == 2, r.stderr
        assert r.stderr == "Error: <stdin>: standard input is closed: give a FILE\n"


def test_endless_standard_input_is_cut_at_the_limit() -> None:
    with open("/dev/zero", "rb") as zero:
        r = run_limited("check", "-", stdin=zero.fileno())
    assert r.returncode == 2 and r.stderr == f"Error: <stdin>: too large (more than {MAX_BYTES} bytes)\n"


@pytest.mark.parametrize("data", [bytes(range(256)), b"\xff\xfe hands:", "hands: {A: \udcff}".encode(
    "utf-8", "surrogatepass")], ids=["all bytes", "bom", "surrogate"])
def test_binary_standard_input_names_stdin(data: bytes) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    r = subprocess.run([sys.executable, "-m", "dobbm_solver.cli", "check", "-"], input=data, cwd=REPO,
                       env=env, capture_output=True, timeout=TIMEOUT)
    assert r.returncode == 2 and r.stderr == b"Error: <stdin>: is not UTF-8 text\n"
