"""Build the compiled cores: the search and the lay-away scorer.  DOBBM_DEBUG=1 builds them
with checks and symbols."""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("DOBBM_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]

extensions = [
    Extension(
        "dobbm_solver._search",
        ["dobbm_solver/_search.pyx"],
        extra_compile_args=compile_args,
    ),
    # the lay-away scores are sums that must match the Python rules' to the last
    # bit: no floating-point contraction (and, as everywhere, no -ffast-math)
    Extension(
        "dobbm_solver._lay_away",
        ["dobbm_solver/_lay_away.pyx"],
        extra_compile_args=compile_args + ["-ffp-contract=off"],
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, annotate=False))
