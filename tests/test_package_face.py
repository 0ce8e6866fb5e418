"""The package face: ``import dobbm_solver`` gives the public API, documented, and nothing else."""

from __future__ import annotations

import doctest
import importlib
import pydoc
import subprocess
import sys
from pathlib import Path

import pytest

import dobbm_solver

REPO = Path(__file__).resolve().parents[1]


def test_every_public_name_loads_and_is_documented() -> None:
    for name in dobbm_solver.__all__:
        value = getattr(dobbm_solver, name)
        if name == "__version__" or name in ("Card", "CardSet"):   # a string; int aliases
            continue
        assert (getattr(value, "__doc__", None) or "").strip(), f"{name} has no docstring"


def test_each_name_is_the_object_of_its_home_module() -> None:
    for name, home in dobbm_solver._HOMES.items():
        assert getattr(dobbm_solver, name) is getattr(importlib.import_module(f"dobbm_solver.{home}"), name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        dobbm_solver.no_such_thing  # noqa: B018
    assert not hasattr(dobbm_solver, "_HOMES_MISSING")


def test_star_import_gives_exactly_the_public_names() -> None:
    space: dict[str, object] = {}
    exec("from dobbm_solver import *", space)
    assert sorted(k for k in space if k != "__builtins__") == sorted(dobbm_solver.__all__)


def test_import_loads_nothing_heavy() -> None:
    # the command's start stays quick: the solver, the analyzer and click load on first use
    code = ("import sys, dobbm_solver; "
            "print(sorted(m for m in sys.modules if m.startswith('dobbm_solver') or m == 'click'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['dobbm_solver']"


def test_help_is_a_usable_page() -> None:
    page = pydoc.render_doc(dobbm_solver, renderer=pydoc.plaintext)
    for verb in ("load_hand_file", "Solver", "review_hand", "score_hand", "analyze_bid", "run_study", "run_arena"):
        assert verb in page


def test_the_docstring_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)   # they read the shipped hand files
    importlib.reload(dobbm_solver)
    result = doctest.testmod(dobbm_solver, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


def test_subpackages_export_no_constants_but_their_output_columns() -> None:
    for name in ("analyzer", "arena", "study", "models"):
        module = importlib.import_module(f"dobbm_solver.{name}")
        upper = [n for n in module.__all__ if n.isupper()]
        assert set(upper) <= {"DECISIONS", "VALUE_COLUMNS", "ANALYZE_COLUMNS", "TIMING_FIELDS"}, (name, upper)


def test_all_lists_every_name_that_loads() -> None:
    assert dobbm_solver.__all__ == ["__version__", *dobbm_solver._HOMES]
