"""How many workers a run uses: the one rule for ``jobs``, in the library and on the command line.

:func:`resolve_jobs` states it; :class:`~dobbm_solver.solver.Solver`, the worker
pool (``study``, ``arena``, the advice commands) and every ``--jobs`` option read
``jobs`` through it.
"""

from __future__ import annotations

import os

from .errors import OptionError

__all__ = ["MAX_JOBS", "JobsError", "available_cores", "resolve_jobs"]

#: The most workers one run may ask for.
MAX_JOBS = 256


class JobsError(OptionError):
    """A ``jobs`` value that is not a whole number from 0 to :data:`MAX_JOBS`."""


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def resolve_jobs(jobs: int | None) -> int:
    """The number of workers for ``jobs``; the rule everywhere ``jobs`` is taken:

    * ``None`` or ``0``: one worker per core this process may run on (:func:`available_cores`);
    * ``1``: no worker; the work runs in this process (this thread);
    * ``N`` (2 .. :data:`MAX_JOBS`): ``N`` workers.

    Results never depend on it.  Anything else (negative, more than
    :data:`MAX_JOBS`, not a whole number, a bool) raises :class:`JobsError`.
    """
    if isinstance(jobs, bool) or not (jobs is None or isinstance(jobs, int)) \
            or (jobs is not None and not 0 <= jobs <= MAX_JOBS):
        raise JobsError(f"jobs must be a whole number from 1 to {MAX_JOBS} "
                        f"(0 or none: all cores), not {jobs!r}")
    return available_cores() if not jobs else jobs
