"""Record the CLI's outputs on the shipped examples, to prove a refactor changes no behaviour.

    python benchmarks/record_outputs.py record DIR     # write every output to DIR
    python benchmarks/record_outputs.py compare A B    # exit 1 if any output differs

Recorded: ``dobbm bid/discard/double/play --json --seed S`` on every shipped advice view,
with ``--jobs 1`` and ``--jobs 2``; ``dobbm solve/check/score/review --json`` on every
shipped hand file (a refusal is recorded too: its exit code); ``dobbm study`` on
``hands/benchmark.yaml``; a small ``dobbm arena --json``; ``benchmarks/check_nodes.py``.
Timing fields (``seconds``, ``elapsed`` and the like) are blanked before comparing.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "dobbm_solver.cli"]
ADVICE = {
    "bid": ["hands/bid.yaml"],
    "discard": ["hands/discard.yaml"],
    "double": ["hands/double.yaml", "hands/double_retour.yaml"],
    "play": ["hands/play.yaml"],
}
HAND_FILES = sorted(p.name for p in (ROOT / "hands").glob("*.yaml") if not p.name.startswith("benchmark"))
TIMING_KEYS = {"seconds", "elapsed", "time", "wall", "samples_per_second"}
TIMING_TEXT = re.compile(r"\d+(\.\d+)?\s*(ms|s)\b")


def _blank_timing(obj: object) -> object:
    if isinstance(obj, dict):
        return {k: ("<t>" if k in TIMING_KEYS else _blank_timing(v)) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_blank_timing(v) for v in obj]
    return obj


def _normalise(text: str) -> str:
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.dumps(_blank_timing(json.loads(line)), sort_keys=True))
        except ValueError:
            lines.append(TIMING_TEXT.sub("<t>", line))
    return "\n".join(lines) + "\n"


def _run(args: list[str]) -> str:
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    return f"exit {done.returncode}\n" + _normalise(done.stdout)


def record(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for command, files in ADVICE.items():
        for name in files:
            for seed, jobs in (("1", "1"), ("1", "2"), ("7", "2")):
                text = _run([*CLI, command, name, "--json", "--seed", seed, "--jobs", jobs])
                (out / f"{command}-{Path(name).stem}-s{seed}-j{jobs}.txt").write_text(text)
    for name in HAND_FILES:
        for command in ("solve", "check", "score", "review"):
            text = _run([*CLI, command, "--json", f"hands/{name}"])
            (out / f"{command}-{Path(name).stem}.txt").write_text(text)
    arena = [*CLI, "arena", "advice", "rule", "--deals", "3", "--seed", "5", "--jobs", "1", "--json", "-q"]
    (out / "arena-advice-rule.txt").write_text(_run(arena))
    (out / "solve-benchmark.txt").write_text(_run([*CLI, "solve", "--json", "hands/benchmark.yaml"]))
    with tempfile.TemporaryDirectory() as tmp:
        rows = Path(tmp) / "rows.jsonl"
        _run([*CLI, "study", "hands/benchmark.yaml", "-o", str(rows), "-q"])
        ordered = sorted(rows.read_text().splitlines(), key=lambda r: json.loads(r)["id"])
        (out / "study-benchmark.txt").write_text(_normalise("\n".join(ordered)))
    nodes = subprocess.run([sys.executable, "benchmarks/check_nodes.py"], cwd=ROOT, capture_output=True, text=True)
    (out / "check-nodes.txt").write_text(f"exit {nodes.returncode}\n" + TIMING_TEXT.sub("<t>", nodes.stdout))


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    bad = 0
    for name in names:
        pa, pb = a / name, b / name
        if not pa.exists() or not pb.exists() or pa.read_text() != pb.read_text():
            print(f"differs: {name}")
            bad += 1
    print(f"{len(names) - bad} identical, {bad} different")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "record":
        record(Path(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)
