"""setup.py's profile-guided build of the search core: its training run works with the core as built.

A training run that failed (say, after a change of ``Core``'s methods) would
not break the install: the build falls back to a plain one with a warning,
and the core would silently lose the speed the profile gives.  So the
training script is run here against the installed core, on a few deals.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from helpers import load_script

import dobbm_solver._search as search_core

ab_core = load_script("benchmarks/ab_core.py")


def setup_globals() -> dict[str, Any]:
    """The globals of ``setup.py``, run with ``setup`` and ``cythonize`` stood in for (nothing is built)."""
    pytest.importorskip("Cython.Build")
    return ab_core.setup_globals()[0]


def test_training_run_solves_with_the_built_core():
    g = setup_globals()
    assert g["PGO_MODULE"] == search_core.__name__
    done = subprocess.run([sys.executable, "-c", g["PGO_TRAINING"], search_core.__file__, "3"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_profile_flags_only_for_the_search_core():
    g = setup_globals()
    assert "-fprofile-use" in g["PGO_USE"] and "-fprofile-generate" in g["PGO_GENERATE"]
    for ext in g["extensions"]:
        assert not any(flag.startswith("-fprofile") for flag in ext.extra_compile_args), ext.name
