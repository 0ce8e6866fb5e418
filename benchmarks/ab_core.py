"""Time two builds of the search core side by side, in one process: a change's speed on a noisy machine.

On a shared machine whose speed moves by tens of per cent within the hour,
two timing runs one after the other cannot show a change of a few per cent.
This builds the search core (``dobbm_solver/_search*.pyx``, ``.pxi``, ``.pxd``)
of two revisions as two modules of their own, loads both into this process
and solves every deal with each, alternating which goes first deal by deal
and round by round, so that a change of load hits both alike.  Every deal
must get the same results from both (the search is exact), and the node
counts are shown (equal when the change is to the cost per node only).
Run from the repository root:

    python benchmarks/ab_core.py HEAD .                  # the last commit against the working tree
    python benchmarks/ab_core.py HEAD~1 HEAD --mode cards --rounds 9
    python benchmarks/ab_core.py HEAD . --pgo            # both built profile-guided (GCC), as installed
    python benchmarks/ab_core.py HEAD . --mode study     # the lay-away studies (one job, a shared table)

A revision is anything ``git show`` takes, or ``.`` for the files as they are
now.  Each deal's time is its median over the rounds (after a warm-up round);
the report gives each build's median and total over the deals, and B's time
over A's by median, in total and as the median of the per-deal ratios.  The
builds use the compiler flags and directives that ``setup.py`` gives the core,
and need Cython and setuptools (``pip install -e ".[bench]"``); with ``--pgo``
both are built profile-guided by ``setup.py``'s own steps and training run
(GCC only), as the package's core is: a change can move the compiler's
inlining and layout, which the profile changes too.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import importlib.util
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))   # this tree's package (the deals' loader), not whichever one is installed

from dobbm_solver.cards import card_points, trick_winner  # noqa: E402
from dobbm_solver.handfile import load_hand_file  # noqa: E402
from dobbm_solver.models.discard_rule import legal_discards  # noqa: E402
from dobbm_solver.solver import Solver  # noqa: E402

CORE = re.compile(r"^dobbm_solver/_search[^/]*\.(pyx|pxi|pxd)$")
BUILD = """\
from Cython.Build import cythonize
from setuptools import Extension, setup
setup(ext_modules=cythonize([Extension({name!r}, [{name!r} + ".pyx"], extra_compile_args={args!r},
                                       extra_link_args={link!r})],
                            compiler_directives={directives!r}, quiet=True))
"""


def release_flags() -> tuple[list[str], dict[str, Any]]:
    """The search core's compiler flags and Cython directives, read from ``setup.py``
    (run with ``setup`` and ``cythonize`` stood in for, so nothing is built)."""
    args, directives, _ = _read_setup()
    return args, directives


def pgo_steps() -> dict[str, Any]:
    """``setup.py``'s profile-guided build: the flags of its two compiles
    (``generate``, ``use``), its training script and the deals it solves."""
    return _read_setup()[2]


def gcc_default() -> bool:
    """Whether the builds compile with GCC (``setup.py``'s test), which ``--pgo`` needs."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler
    compiler = new_compiler()
    customize_compiler(compiler)
    return bool(pgo_steps()["gcc"](compiler))


def setup_globals() -> tuple[dict[str, Any], dict[str, Any]]:
    """``setup.py`` run with ``setup`` and ``cythonize`` stood in for, so nothing is
    built: its globals, and the arguments those two were given."""
    import runpy

    import Cython.Build
    import setuptools
    seen: dict[str, Any] = {}
    saved = setuptools.setup, Cython.Build.cythonize
    setuptools.setup = lambda **kw: seen.update(kw)                                  # type: ignore[assignment]
    Cython.Build.cythonize = lambda exts, **kw: seen.update(exts=exts, **kw)         # type: ignore[assignment]
    try:
        glob = runpy.run_path(str(ROOT / "setup.py"), run_name="setup")
    finally:
        setuptools.setup, Cython.Build.cythonize = saved
    return glob, seen


def _read_setup() -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    glob, seen = setup_globals()
    [core] = [e for e in seen["exts"] if e.name == "dobbm_solver._search"]
    pgo = {"generate": list(glob["PGO_GENERATE"]), "use": list(glob["PGO_USE"]),
           "training": glob["PGO_TRAINING"], "deals": glob["PGO_DEALS"], "gcc": glob["gcc_compiler"]}
    return list(core.extra_compile_args), dict(seen["compiler_directives"]), pgo


def core_files(rev: str) -> dict[str, str]:
    """The search core's files of ``rev`` (``.``: the working tree), by file name."""
    if rev == ".":
        return {p.name: p.read_text(encoding="utf-8")
                for p in sorted((ROOT / "dobbm_solver").glob("_search*"))
                if CORE.match(f"dobbm_solver/{p.name}")}
    names = subprocess.run(["git", "ls-tree", "--name-only", rev, "dobbm_solver/"], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout.split()
    return {Path(n).name: subprocess.run(["git", "show", f"{rev}:{n}"], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout
            for n in names if CORE.match(n)}


def build(rev: str, name: str, where: Path, pgo: bool = False) -> Any:
    """Compile ``rev``'s core as the module ``name`` in ``where``; return the module.
    ``pgo``: profile-guided, as ``setup.py`` builds the package's core with GCC
    (instrumented, its training run, then again with the profile)."""
    if importlib.util.find_spec("Cython") is None:
        raise SystemExit('ab_core: the builds need Cython and setuptools: pip install -e ".[bench]"')
    files = core_files(rev)
    if "_search.pyx" not in files:
        raise SystemExit(f"ab_core: {rev}: no dobbm_solver/_search.pyx")
    folder = where / name
    folder.mkdir()
    for fname, text in files.items():
        # the module and its declarations take the new name; the included .pxi keep theirs
        target = f"{name}{fname[len('_search'):]}" if fname in ("_search.pyx", "_search.pxd") else fname
        (folder / target).write_text(text, encoding="utf-8")
    args, directives, steps = _read_setup()

    def compile_with(extra: list[str], link: list[str]) -> None:
        (folder / "setup.py").write_text(BUILD.format(name=name, args=args + extra, link=link,
                                                      directives=directives), encoding="utf-8")
        done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "--force"], cwd=folder,
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"ab_core: {rev}: the build failed:\n{done.stderr[-2000:]}")

    if pgo:
        compile_with(steps["generate"], steps["generate"])
        built = [folder / (name + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
                 if (folder / (name + suffix)).exists()]
        if not built:
            raise SystemExit(f"ab_core: {rev}: the instrumented build left no module")
        training = steps["training"].replace('"dobbm_solver._search"', repr(name))
        done = subprocess.run([sys.executable, "-c", training, str(built[0]), str(steps["deals"])],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"ab_core: {rev}: the training run failed:\n{done.stderr[-2000:]}")
        compile_with(steps["use"], [])
    else:
        compile_with([], [])
    sys.path.insert(0, str(folder))
    return importlib.import_module(name)


class _Capture:
    """Stands in for a core: keeps the arguments of ``set_position`` for the root the
    solver would set (a core of any revision takes them; newer solvers set the root
    with ``set_play``, which replays the tricks in the core)."""

    args: tuple

    def set_position(self, *args: Any) -> None:
        self.args = args

    def set_play(self, hands: Any, seats: tuple[str, ...], tricks: Any, bonus: int,
                 keep_table: bool = False) -> int:
        leader, points, has_trick = 0, 0, False
        for trick in tricks:
            if len(trick) == 4:
                leader = (leader + trick_winner(trick)) % 4
                if leader == 0:
                    points += sum(card_points(c) for c in trick)
                    has_trick = True
        last = tricks[-1] if tricks else ()
        trick_now = list(last) if len(last) < 4 else []
        self.args = ([hands[s] for s in seats], leader, trick_now, points, has_trick, bonus, keep_table)
        finished = sum(len(t) == 4 for t in tricks) == 8
        return -1 if finished else (leader + len(trick_now)) % 4


def _root(solver: Solver, deal: Any, keep_table: bool = False) -> tuple:
    """The arguments ``solver`` would set its core's root with for ``deal``."""
    cap = _Capture()
    solver._load(deal, keep_table=keep_table, core=cap)    # type: ignore[arg-type]
    return cap.args


def roots(deals_file: Path) -> list[tuple]:
    """The core's root of every deal of the file, as :class:`~dobbm_solver.solver.Solver` sets it."""
    solver = Solver(1)
    return [_root(solver, deal) for deal in load_hand_file(deals_file)]


def study_roots(deals_file: Path) -> list[list[tuple]]:
    """For each Dobbm of the file whose lay-away is still open, the core's roots of
    its lay-away study, as :meth:`~dobbm_solver.solver.Solver.study_discards`
    sets them with one job (its lay-aways in order, each after the first
    keeping the table)."""
    solver = Solver(1)
    return [[_root(solver, deal.with_discard(discard), keep_table=i > 0)
             for i, discard in enumerate(legal_discards(deal.hands[deal.declarer] | deal.dobb))]
            for deal in load_hand_file(deals_file) if deal.needs_discard]


def _solve(core: Any, arg: tuple | list[tuple], mode: str) -> tuple[Any, int]:
    """One item's results and nodes: a root's value or every card's, or a study's values."""
    if mode == "study":
        values, nodes = [], 0
        for root in arg:
            core.set_position(*root)
            values.append(core.value())
            nodes += core.nodes
        return values, nodes
    core.set_position(*arg)
    return (core.value() if mode == "value" else core.card_values()), core.nodes


def compare(mods: list[Any], args: list, rounds: int, mode: str) -> dict[str, Any]:
    """Solve every root (in mode ``study``: every study's run of roots) with each
    module's core, alternating; the figures of each and B over A."""
    cores = [m.Core(64) for m in mods]
    times: list[list[list[float]]] = [[[] for _ in args] for _ in cores]
    nodes = [0, 0]
    for rnd in range(rounds + 1):       # round 0 warms up
        for i, arg in enumerate(args):
            got = []
            for k in ((0, 1) if (i + rnd) % 2 == 0 else (1, 0)):
                t0 = time.perf_counter()
                result, searched = _solve(cores[k], arg, mode)
                t = time.perf_counter() - t0
                got.append(result)
                if rnd:
                    times[k][i].append(t)
                if rnd == 1:
                    nodes[k] += searched
            if got[0] != got[1]:
                raise SystemExit(f"ab_core: deal {i}: the builds disagree: {got[0]} / {got[1]}")
    per = [[statistics.median(t) for t in times[k]] for k in range(2)]
    med = [statistics.median(p) for p in per]
    tot = [sum(p) for p in per]
    return {"deals": len(args), "rounds": rounds, "mode": mode,
            "a_ms_median": round(1000 * med[0], 4), "b_ms_median": round(1000 * med[1], 4),
            "a_s_total": round(tot[0], 4), "b_s_total": round(tot[1], 4),
            "a_nodes": nodes[0], "b_nodes": nodes[1],
            "ratio_by_median": round(med[1] / med[0], 3), "ratio_in_total": round(tot[1] / tot[0], 3),
            "ratio_per_deal_median": round(statistics.median(b / a for a, b in zip(*per)), 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="the revision to compare against (git, or . for the working tree)")
    ap.add_argument("b", help="the revision whose time is given over A's")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--mode", choices=("value", "cards", "study"), default="value",
                    help="the value alone, every legal card's value, or the lay-away study of "
                         "each Dobbm (default deals: hands/benchmark_discard.yaml)")
    ap.add_argument("--deals", type=Path, default=None)
    ap.add_argument("--pgo", action="store_true",
                    help="build both cores profile-guided, as setup.py builds the package's with GCC")
    opts = ap.parse_args(argv)
    if opts.rounds < 1:
        ap.error("--rounds must be at least 1")
    if opts.pgo and not gcc_default():
        ap.error("--pgo needs GCC, as setup.py's profile-guided build does")
    if opts.deals is None:
        opts.deals = ROOT / "hands" / ("benchmark_discard.yaml" if opts.mode == "study" else "benchmark.yaml")
    args: list = study_roots(opts.deals) if opts.mode == "study" else roots(opts.deals)
    if not args:
        ap.error(f"{opts.deals}: no deal to {'study' if opts.mode == 'study' else 'solve'}")
    with tempfile.TemporaryDirectory(prefix="ab_core_") as tmp:
        mods = [build(opts.a, "_search_ab_a", Path(tmp), opts.pgo),
                build(opts.b, "_search_ab_b", Path(tmp), opts.pgo)]
        r = compare(mods, args, opts.rounds, opts.mode)
    print(f"A {opts.a}: median {r['a_ms_median']} ms, total {r['a_s_total']} s, {r['a_nodes']} nodes")
    print(f"B {opts.b}: median {r['b_ms_median']} ms, total {r['b_s_total']} s, {r['b_nodes']} nodes")
    print(f"B/A over {r['deals']} deals, {r['rounds']} rounds ({r['mode']}): by median {r['ratio_by_median']}, "
          f"in total {r['ratio_in_total']}, per deal (median) {r['ratio_per_deal_median']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
