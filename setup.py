"""Build the compiled cores: the search, the lay-away scorer and the deal sampler.  DOBBM_DEBUG=1
builds them with checks and symbols.

With GCC the search core is built twice (profile-guided optimization): once
instrumented, which then solves a few seeded random deals in a child process
(``PGO_TRAINING`` below: only the built module, none of the package's
dependencies, which a fresh build environment does not have), and once more
with the profile it wrote, which lays out the search's branches for the paths
it takes (measured about 8% less time on the benchmark deals, node counts
unchanged: the code is the same).  ``DOBBM_PGO=0`` builds it once, as do
other compilers and debug builds; a step that fails falls back to that plain
build with a warning, never a broken install.
"""

import os
import subprocess
import sys
import sysconfig
import warnings

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("DOBBM_DEBUG", "") not in ("", "0")
PGO = not DEBUG and os.environ.get("DOBBM_PGO", "1") != "0"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
}
# (measured and not kept: -march=native, 1.04x the time for every card's value,
# and a build that runs only where it was built)
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]

PGO_MODULE = "dobbm_solver._search"
PGO_GENERATE = ["-fprofile-generate", "-fprofile-update=single"]
# the profile may miss functions (the Python glue) and, rebuilt from the same
# C file, still matches; neither is worth a warning
PGO_USE = ["-fprofile-use", "-fprofile-partial-training", "-Wno-missing-profile", "-Wno-coverage-mismatch"]

# The training run: seeded random full deals (the hand with the most trumps
# and high cards declares, as in real play), each solved for its value and
# every opening lead's value.  Loads the instrumented module from its file.
PGO_TRAINING = r"""
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("dobbm_solver._search", sys.argv[1])
core_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(core_module)
POINTS = [0, 0, 0, 0, 2, 3, 4, 10, 11]
rng = random.Random(20261203)
core = core_module.Core(16)
for _ in range(int(sys.argv[2])):
    cards = list(range(36))
    rng.shuffle(cards)
    hands = [cards[8 * i:8 * i + 8] for i in range(4)]
    strength = [sum(3 if c // 9 == 2 else 0 for c in h) + sum(c % 9 >= 7 for c in h) for h in hands]
    d = strength.index(max(strength))
    hands = hands[d:] + hands[:d]
    bonus = sum(POINTS[c % 9] for c in cards[32:])
    core.set_position([sum(1 << c for c in h) for h in hands], 0, [], 0, False, bonus)
    core.value()
    core.card_values()
"""
PGO_DEALS = 150     # 600 measured no faster (1.00-1.01x)


def gcc_compiler(compiler) -> bool:
    """Whether setuptools compiles with GCC (clang's profiles take another tool to merge)."""
    if getattr(compiler, "compiler_type", "") != "unix":
        return False
    cc = list(getattr(compiler, "compiler_so", None) or [sysconfig.get_config_var("CC") or "cc"])
    try:
        out = subprocess.run([cc[0], "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out.lower()


class BuildExt(build_ext):
    """build_ext with the search core built by profile-guided optimization where it can be."""

    def build_extension(self, ext):
        if ext.name != PGO_MODULE or not PGO or not gcc_compiler(self.compiler):
            return super().build_extension(ext)
        plain = (list(ext.extra_compile_args), list(ext.extra_link_args or []))
        force = self.force
        try:
            self.force = True
            ext.extra_compile_args = plain[0] + PGO_GENERATE
            ext.extra_link_args = plain[1] + PGO_GENERATE
            for obj in self.compiler.object_filenames(ext.sources, output_dir=self.build_temp):
                stale = os.path.splitext(obj)[0] + ".gcda"     # a profile of an older build would merge in
                if os.path.exists(stale):
                    os.remove(stale)
            super().build_extension(ext)
            subprocess.run([sys.executable, "-c", PGO_TRAINING, self.get_ext_fullpath(ext.name), str(PGO_DEALS)],
                           check=True, timeout=600)
            ext.extra_compile_args = plain[0] + PGO_USE
            ext.extra_link_args = plain[1]
            super().build_extension(ext)
        except Exception as exc:      # any failure: the plain build, as without GCC
            warnings.warn(f"profile-guided build of {ext.name} failed ({exc}); building it plainly")
            ext.extra_compile_args, ext.extra_link_args = plain
            super().build_extension(ext)
        finally:
            self.force = force
            ext.extra_compile_args, ext.extra_link_args = plain


extensions = [
    Extension(
        "dobbm_solver._search",
        ["dobbm_solver/_search.pyx"],
        extra_compile_args=compile_args,
    ),
    # the lay-away scores are sums that must match the Python rules' to the last
    # bit: no floating-point contraction (and, as everywhere, no -ffast-math)
    Extension(
        "dobbm_solver._discard",
        ["dobbm_solver/_discard.pyx"],
        extra_compile_args=compile_args + ["-ffp-contract=off"],
    ),
    # the same for the sampler's models, whose likelihoods must round as Python's do
    Extension(
        "dobbm_solver._sampler",
        ["dobbm_solver/_sampler.pyx"],
        extra_compile_args=compile_args + ["-ffp-contract=off"],
        libraries=[] if sys.platform == "win32" else ["m"],     # exp, as math.exp calls it
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, annotate=False),
      cmdclass={"build_ext": BuildExt})
