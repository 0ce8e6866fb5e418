"""The package's error classes have two roots.

* :class:`DobbmError` -- bad input: a card, a deal, a hand file, an option
  out of range.  It subclasses :class:`ValueError`; the command line turns it
  into one line on stderr and exit code 2.
* :class:`DobbmRuntimeError` -- a failure that is not the input's fault: a
  worker that died, a cluster that cannot be reached, an output file that
  cannot be written.  Exit code 1.

Anything else escaping the library is a bug and is reported as one.
"""

from __future__ import annotations

__all__ = ["DobbmError", "DobbmRuntimeError", "OptionError"]


class DobbmError(ValueError):
    """Bad input: the message says what is wrong and where."""


class OptionError(DobbmError):
    """An argument of a library call out of range (a sample count, a seed, a number of jobs...)."""


class DobbmRuntimeError(RuntimeError):
    """A failure that is not bad input (workers, clusters, files)."""
