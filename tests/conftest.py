"""Test set-up: test the installed package when the source tree has no compiled core.

``python -m pytest`` puts the repository root first on ``sys.path``, so the
source folder ``dobbm_solver/`` shadows the package that ``pip install .``
put in site-packages; without a core built in place (``pip install -e .``
builds one) every import of the solver would fail.  In that case the tests
run against the installed package instead, which is what was built.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _source_tree_has_core() -> bool:
    return any((ROOT / "dobbm_solver").glob("_search.*.so")) or any((ROOT / "dobbm_solver").glob("_search.*.pyd"))


def _use_installed_package() -> None:
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    for name in [n for n in sys.modules if n == "dobbm_solver" or n.startswith("dobbm_solver.")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    try:
        import dobbm_solver._search  # noqa: F401
    except ImportError:
        raise SystemExit("the compiled search core is missing: install with `pip install -e .` "
                         "(or `pip install .` and run the tests from another folder)") from None


if not _source_tree_has_core():
    _use_installed_package()
