"""``dobbm bench``: the shipped deals' node count is the node guard's signature, shown as text and JSON."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import load_script

from dobbm_solver import bench, cli

ROOT = Path(__file__).resolve().parents[1]
guard = load_script("benchmarks/check_nodes.py")
TIMING = ("seconds", "seconds_per_deal", "nodes_per_second")


def run(*args: str) -> Result:
    return CliRunner().invoke(cli.main, ["bench", *args])


@pytest.fixture(scope="module")
def committed() -> dict:
    return json.loads(guard.FIGURES.read_text())


@pytest.fixture(scope="module")
def result() -> bench.BenchResult:
    return bench.run_bench()


def test_the_signature_is_the_node_guards(result, committed):
    assert guard.FIGURES.samefile(ROOT / "dobbm_solver" / "data" / "bench_nodes.json")
    assert asdict(result.signature) == {"deals": committed["deals"], **committed["total"]}
    assert result.expected == result.signature and result.matches is True
    assert guard.compare([asdict(f) for f in result.figures], committed) == []
    assert result.value_nodes == committed["total"]["value_nodes"] > 0
    assert result.analysis_nodes == committed["total"]["analysis_nodes"] > result.value_nodes
    assert result.tt_mb == bench.BENCH_TT_MB == 64


def test_the_shipped_deals_are_the_benchmark_file():
    shipped = (ROOT / "dobbm_solver" / "data" / "bench.yaml").read_text(encoding="utf-8")
    assert shipped == (ROOT / "hands" / "benchmark.yaml").read_text(encoding="utf-8")
    assert len(bench.bench_deals()) == 120


def test_json_keys_and_values(committed):
    r = run("--json")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert set(obj) == {"version", "deals", "threads", "tt_mb", "value_nodes", "analysis_nodes", "nodes",
                        "expected", "matches", *TIMING}
    total = committed["total"]
    nodes = {"value_nodes": total["value_nodes"], "analysis_nodes": total["analysis_nodes"],
             "nodes": total["value_nodes"] + total["analysis_nodes"]}
    assert {k: obj[k] for k in nodes} == nodes and obj["expected"] == nodes
    assert (obj["deals"], obj["threads"], obj["tt_mb"], obj["matches"]) == (120, 1, 64, True)
    assert all(obj[k] > 0 for k in TIMING)


def test_text_output(committed):
    r = run()
    assert r.exit_code == 0, r.output
    v, a = committed["total"]["value_nodes"], committed["total"]["analysis_nodes"]
    lines = r.output.splitlines()
    assert lines[0].startswith("dobbm bench ") and lines[0].endswith(
        "120 deals from the opening lead, the value and every card's value; one thread, a table of 64 MiB")
    assert lines[1] == f"  signature: {v + a} nodes ({v} value, {a} every card)"
    assert lines[2] == f"  expected:  {v + a} nodes ({v} value, {a} every card): matches"
    assert lines[3].startswith("  time: ") and lines[3].endswith(" million nodes a second")
    assert len(lines) == 4


def test_deterministic_across_runs():
    first, second = (json.loads(run("--json").output) for _ in range(2))
    for obj in (first, second):
        for key in TIMING:
            del obj[key]
    assert first == second


def test_a_changed_search_differs_and_fails_only_with_check(monkeypatch, committed):
    changed = json.loads(json.dumps(committed))
    changed["total"]["analysis_nodes"] += 1        # as if the search had found one node less
    monkeypatch.setattr(bench, "committed_figures", lambda: changed)
    r = run()
    assert r.exit_code == 0 and "DIFFERS" in r.output.splitlines()[2]
    r = run("--check", "--json")
    assert r.exit_code == 1
    assert json.loads(r.stdout)["matches"] is False
    assert "signature differs" in r.output   # stderr, mixed in


def test_check_passes_on_the_committed_signature():
    r = run("--check")
    assert r.exit_code == 0 and r.output.splitlines()[2].endswith(": matches")


def test_another_table_size_has_no_expected_signature():
    obj = json.loads(run("--json", "--tt-mb", "16").output)
    assert (obj["tt_mb"], obj["expected"], obj["matches"]) == (16, None, None)
    assert "none for a table of 16 MiB" in run("--tt-mb", "16").output
    r = run("--check", "--tt-mb", "16")
    assert r.exit_code == 2 and "--tt-mb 64" in r.output


def test_the_data_ships_with_the_package():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["dobbm_solver"]
    pkg = ROOT / "dobbm_solver"
    for name in (bench.DEALS_FILE, bench.FIGURES_FILE):
        assert any((pkg / "data" / name).match(p) for p in patterns), f"pyproject's package-data misses {name}"
