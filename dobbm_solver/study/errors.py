"""The errors of a study: bad input, failed workers."""

from __future__ import annotations

from ..errors import DobbmError, DobbmRuntimeError

__all__ = ["StudyError", "StudyRunError"]


class StudyError(DobbmError):
    """Bad input to a study: paths, output file, options.  The text is one line."""


class StudyRunError(DobbmRuntimeError):
    """The workers failed: a local worker process died (e.g. out of memory), the Dask
    scheduler cannot be reached or its workers cannot run the study."""
