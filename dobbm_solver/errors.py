"""The package's error classes have two roots.

* :class:`DobbmError` -- bad input: a card, a deal, a hand file, an option
  out of range.  It subclasses :class:`ValueError`; the command line turns it
  into one line on stderr and exit code 2.
* :class:`DobbmRuntimeError` -- a failure that is not the input's fault: a
  worker that died, a cluster that cannot be reached, an output file that
  cannot be written.  Exit code 1.

Anything else escaping the library is a bug and is reported as one.

Both pickle whole, whatever arguments a subclass's ``__init__`` takes, so a
worker process can raise them to its parent.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DobbmError", "DobbmRuntimeError", "OptionError"]


def _rebuilt(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    """An error of ``cls`` with its message ``args`` and attributes ``state``, made
    without calling ``cls.__init__`` (whose arguments differ from class to class)."""
    err = cls.__new__(cls)
    BaseException.__init__(err, *args)
    err.__dict__.update(state)
    return err


class _Picklable(Exception):
    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), self.args, dict(self.__dict__))


class DobbmError(_Picklable, ValueError):
    """Bad input: the message says what is wrong and where."""


class OptionError(DobbmError):
    """An argument of a library call out of range (a sample count, a seed, a number of jobs...)."""


class DobbmRuntimeError(_Picklable, RuntimeError):
    """A failure that is not bad input (workers, clusters, files)."""
