"""Everything the commands write, in one place: documents on standard output, lines on stderr,
the progress bar.

* :func:`echo` and :func:`echo_json` write one document whole (Ctrl-C while it
  is written stops the command after it).  An output that cannot be written
  (a full disk, a closed pipe) is :class:`OutputError`: one line on stderr and
  exit 1, no traceback.  JSON numbers are always finite (``NaN`` is no JSON).
* :func:`say` writes a line on stderr (notes, warnings); a stderr that cannot
  be written is let be, there is no other place to say so.
* :class:`Progress` is the progress bar, on stderr and only on a terminal.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from types import TracebackType
from typing import Any

import click

from .._interrupt import write_whole

__all__ = ["OutputError", "echo", "echo_json", "say", "Progress"]


#: What writing to a full disk, past a quota or a size limit, to a closed pipe, or to a
#: failing device raises.
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EPIPE, errno.EIO})


class OutputError(click.ClickException):
    """An output that could not be written (a full disk, a closed pipe), or another
    failure of the system: one line, exit 1."""

    exit_code = 1

    @classmethod
    def of(cls, e: OSError) -> "OutputError":
        """The line for ``e``: the file it names, or standard output when it names none
        and is a write's error (standard output is then let be: see :func:`_silence_stdout`)."""
        reason = e.strerror or str(e) or type(e).__name__
        if e.filename is not None:
            return cls(f"{e.filename}: {reason}")
        if e.errno in WRITE_ERRNOS:
            _silence_stdout()
            return cls(f"cannot write the output: {reason}")
        return cls(reason)


def _silence_stdout() -> None:
    """Point standard output at the null device, so that what is still buffered is
    flushed there at exit (not reported again with a traceback)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)
    except (OSError, ValueError, AttributeError):   # no descriptor (a test's stream)
        pass


def echo(text: str) -> None:
    """Print one document (a report, a JSON line) and a newline, whole: Ctrl-C while it
    is written (the output blocked by a slow reader, say) stops the command after it
    (at most ``_interrupt.FINISH_SECONDS`` later), so a reader gets a whole document or
    none.  :class:`OutputError` if standard output cannot be written."""
    if sys.stdout is None:   # started with standard output closed (>&-)
        raise OutputError("cannot write the output: standard output is closed")
    try:
        caught = write_whole(text + "\n", sys.stdout)   # where click.echo writes
    except OSError as e:
        raise OutputError.of(e) from None
    if caught:
        raise KeyboardInterrupt


def echo_json(obj: Any) -> None:
    """Print ``obj`` as one line of JSON (:func:`echo`).  Every number is finite: a
    ``NaN`` or an infinity here is a bug (``ValueError``), the input that could give
    one is refused where it comes in."""
    echo(json.dumps(obj, allow_nan=False))


def say(line: str) -> None:
    """One line on stderr (a note, a warning, an error)."""
    try:
        click.echo(line, err=True)
    except OSError:   # stderr itself cannot be written: nowhere to say it
        pass


class Progress:
    """The progress bar of a command, on stderr: shown on a terminal only, not when
    ``quiet``, and only for two steps or more.

    ``with Progress("solving", quiet) as bar:`` then :meth:`start` with the number
    of steps, :meth:`advance` after each (or :meth:`reach` where the total grows)."""

    def __init__(self, label: str, quiet: bool) -> None:
        self.label = label
        self.shown = not quiet and sys.stderr.isatty()
        self.done = 0
        self._bar: Any = None

    def start(self, total: int) -> None:
        """Show the bar for ``total`` steps (nothing for fewer than two)."""
        if self.shown and self._bar is None and total >= 2:
            self._bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
            self._bar.__enter__()

    def advance(self, steps: int = 1) -> None:
        """``steps`` more done."""
        self.done += steps
        if self._bar is not None:
            self._bar.update(steps)

    def reach(self, done: int, total: int) -> None:
        """``done`` of ``total`` steps done (the total may change as the work goes)."""
        self.start(total)
        if self._bar is not None:
            self._bar.length = max(total, 1)
            self._bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        """Take the bar down (the next line on stderr starts on a line of its own)."""
        bar, self._bar = self._bar, None
        if bar is not None:
            bar.__exit__(None, None, None)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
