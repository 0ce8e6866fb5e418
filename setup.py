"""Build the compiled search core.  DOBBM_DEBUG=1 builds it with checks and symbols."""

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
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, annotate=False))
