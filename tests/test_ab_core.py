"""The side-by-side timing of two builds of the search core (``benchmarks/ab_core.py``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import load_script

from dobbm_solver import _search
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.solver import Solver

ROOT = Path(__file__).resolve().parents[1]
ab = load_script("benchmarks/ab_core.py")

DEALS = ROOT / "hands" / "benchmark.yaml"


def test_roots_are_the_solvers_own() -> None:
    """The roots ab_core solves give the solver's values and node counts."""
    args = ab.roots(DEALS)[:6]
    core = _search.Core(64)
    solver = Solver()
    for arg, deal in zip(args, load_hand_file(DEALS)):
        core.set_position(*arg)
        sol = solver.solve(deal)
        assert core.value() == sol.declarer_points and core.nodes == sol.nodes


class _Off:
    """A module whose core is one point off the real one on every root."""

    class Core(_search.Core):
        def value(self, guess: int = -1) -> int:
            return super().value(guess) + 1


def test_builds_that_disagree_stop_it() -> None:
    args = ab.roots(DEALS)[:2]
    with pytest.raises(SystemExit, match="disagree"):
        ab.compare([_search, _Off], args, 1, "value")


def test_the_working_tree_holds_the_core() -> None:
    files = ab.core_files(".")
    assert "_search.pyx" in files and "_search.pxd" in files
    assert all(name.startswith("_search") and name.rsplit(".", 1)[1] in ("pyx", "pxi", "pxd") for name in files)
    # every .pxi the module includes comes along
    for inc in ab.re.findall(r'^include "([^"]+)"', files["_search.pyx"], ab.re.M):
        assert inc in files


@pytest.mark.slow
def test_two_builds_agree_and_count_the_same_nodes(tmp_path) -> None:
    """Two builds of this tree's core, in one process: the same results and nodes as the package's."""
    pytest.importorskip("Cython")     # in the test extra
    if shutil.which("git") is None or subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT,
                                                     capture_output=True).returncode != 0:
        pytest.skip("needs a git checkout")
    # one of them profile-guided, as setup.py builds the package's core with GCC
    pgo = ab.gcc_default()
    mods = [ab.build(".", "_search_ab_t1", tmp_path, pgo=pgo), ab.build("HEAD", "_search_ab_t2", tmp_path)]
    args = ab.roots(DEALS)[:8]
    r = ab.compare(mods, args, 1, "cards")
    solver = Solver()
    want = 0
    for deal in list(load_hand_file(DEALS))[:8]:
        solver.solve_all_cards(deal)
        want += solver._core.nodes
    assert r["deals"] == 8 and r["a_nodes"] == want
    assert r["ratio_by_median"] > 0 and r["ratio_in_total"] > 0
    if ab.core_files(".") == ab.core_files("HEAD"):
        assert r["b_nodes"] == want


def test_the_profile_guided_steps_are_setup_pys() -> None:
    """--pgo builds with setup.py's own flags and training run, read without building."""
    steps = ab.pgo_steps()
    assert "-fprofile-generate" in steps["generate"] and "-fprofile-use" in steps["use"]
    assert '"dobbm_solver._search"' in steps["training"] and steps["deals"] > 0


def test_the_builds_take_setup_pys_flags(monkeypatch) -> None:
    """The flags come from setup.py itself (its debug switch included), and reading them builds nothing."""
    monkeypatch.delenv("DOBBM_DEBUG", raising=False)
    args, directives = ab.release_flags()
    assert args == ["-O3"] and directives["boundscheck"] is False and directives["language_level"] == 3
    monkeypatch.setenv("DOBBM_DEBUG", "1")
    args, directives = ab.release_flags()
    assert "-O0" in args and directives["boundscheck"] is True
