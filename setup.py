"""Build the compiled cores: the search, the lay-away scorer and the deal sampler.  DOBBM_DEBUG=1
builds them with checks and symbols."""

import os
import sys

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
    # the same for the sampler's models, whose likelihoods must round as Python's do
    Extension(
        "dobbm_solver._sampler",
        ["dobbm_solver/_sampler.pyx"],
        extra_compile_args=compile_args + ["-ffp-contract=off"],
        libraries=[] if sys.platform == "win32" else ["m"],     # exp, as math.exp calls it
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, annotate=False))
