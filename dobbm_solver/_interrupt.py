"""Ctrl-C without a traceback: as a flag while the main thread waits on a pool of
worker processes (:class:`CtrlC`), while a document is written
(:class:`WholeOutput`), and while the command line starts (:func:`exit_on_ctrl_c`);
and an exit status of 130 that stays 130 (:func:`hold_ctrl_c`)."""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType
from typing import Any, TextIO


class CtrlC:
    """Inside ``with CtrlC() as ctrl_c:`` Ctrl-C sets ``ctrl_c.caught`` instead of
    raising ``KeyboardInterrupt`` wherever the main thread happens to be.

    Raised inside ``concurrent.futures.wait`` (which takes the lock of every
    future in turn), the exception can leave a future's lock held, and the
    pool's shutdown then waits for ever.  The waiting loop polls the flag
    instead and stops at a point of its choosing.  Only the main thread
    receives signals, so elsewhere this does nothing.
    """

    def __init__(self) -> None:
        self.caught = False
        self._installed = False
        self._previous: Any = None

    def __enter__(self) -> "CtrlC":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.caught = True

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            previous = self._previous if self._previous is not None else signal.default_int_handler
            signal.signal(signal.SIGINT, previous)
            self._installed = False


#: The exit status of a command stopped by Ctrl-C (128 + SIGINT).
EXIT_INTERRUPTED = 130
#: The line Ctrl-C leaves on stderr when nothing more is to be said.
INTERRUPTED_MESSAGE = "Interrupted."
#: After Ctrl-C, how long a document that has begun may take to be written whole, in seconds.
FINISH_SECONDS = 10.0


class exit_on_ctrl_c:   # lower case: used as a function, with exit_on_ctrl_c(): ...
    """Ctrl-C inside ``with exit_on_ctrl_c():`` ends the process at once: ``message``
    on stderr, status 130, no traceback.

    For modules loading (the command line's start), when nothing is written
    yet and nothing needs cleaning up.  A ``KeyboardInterrupt`` raised while
    Python imports can be lost (raised in a callback whose errors are
    ignored) or leave an import lock held, so Ctrl-C here does not raise: its
    handler ends the process.  With ``until_released`` the handler stays
    after the block, until :meth:`release` (a module that goes on loading
    after its imports).  Nothing happens outside the main thread, or when
    SIGINT is ignored (it stays so).
    """

    def __init__(self, message: str = INTERRUPTED_MESSAGE, *, until_released: bool = False) -> None:
        self.message = message
        self.until_released = until_released
        self._previous: Any = None
        self._installed = False

    def _end_now(self, signum: int, frame: FrameType | None) -> None:
        _say(self.message)
        os._exit(EXIT_INTERRUPTED)

    def __enter__(self) -> "exit_on_ctrl_c":
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            self._previous = signal.signal(signal.SIGINT, self._end_now)
            self._installed = True
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is not None and self._installed and is_ctrl_c(exc):   # a Ctrl-C that came before, raised now
            self._end_now(signal.SIGINT, None)
        if not self.until_released or exc is not None:
            self.release()

    def release(self) -> None:
        """Ctrl-C as it was before (a ``KeyboardInterrupt`` by default); Python's default if
        it was the ``dobbm`` script's own handler of its start, which only loading needs."""
        if self._installed:
            previous = self._previous
            if previous is None or getattr(previous, "while_loading", False):
                previous = signal.default_int_handler
            signal.signal(signal.SIGINT, previous)
            self._installed = False


def hold_ctrl_c() -> None:
    """Hold back SIGINT for the rest of this process (it is ending with status 130).

    An interpreter that saw ``KeyboardInterrupt`` leave code it ran through
    ``exec`` (a dataclass being made, say), even if it was caught later,
    ends by sending itself SIGINT, whatever the exit status; held back, that
    SIGINT never arrives and the status stays.  A Ctrl-C during the
    shutdown has no effect either."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def is_ctrl_c(e: BaseException) -> bool:
    """Whether ``e`` is Ctrl-C: a ``KeyboardInterrupt``, or the ``RuntimeError`` that
    Python wraps one in when it came while a class was made (``__set_name__``)."""
    return isinstance(e, KeyboardInterrupt) or (
        isinstance(e, RuntimeError) and isinstance(e.__cause__, KeyboardInterrupt))


def _say(line: str) -> None:
    """``line`` on stderr, straight to the file descriptor (safe in any thread)."""
    try:
        os.write(2, (line + "\n").encode(errors="replace"))
    except OSError:
        pass


class WholeOutput(CtrlC):
    """Inside ``with WholeOutput() as out:`` a document that has begun is written whole.

    Ctrl-C sets ``out.caught`` (the caller stops after the block) instead of
    cutting the write short, also while the output is blocked (a slow
    reader).  If the block has not ended :data:`FINISH_SECONDS` after that
    Ctrl-C, or Ctrl-C comes again, the process exits at once with status 130
    and says on stderr that the output is cut short.
    """

    def __init__(self, seconds: float | None = None) -> None:
        super().__init__()
        self.seconds = FINISH_SECONDS if seconds is None else seconds
        self._timer: threading.Timer | None = None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.caught:
            self._give_up()
        self.caught = True
        self._timer = threading.Timer(self.seconds, self._give_up)
        self._timer.daemon = True
        self._timer.start()

    @staticmethod
    def _give_up() -> None:
        _say("Interrupted: the output was cut short.")
        os._exit(EXIT_INTERRUPTED)

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        super().__exit__(*exc)


def write_whole(text: str, stream: TextIO | None = None) -> bool:
    """Write ``text`` to ``stream`` (default ``sys.stdout``) whole, in spite of Ctrl-C
    (see :class:`WholeOutput`); whether Ctrl-C came meanwhile.

    A stream with a file descriptor is written with ``os.write`` until every
    byte is out: Python's buffered writer drops the rest of a write that a
    signal cut short (a partial write to a full pipe)."""
    stream = sys.stdout if stream is None else stream
    with WholeOutput() as out:
        try:
            fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):   # io.UnsupportedOperation: no descriptor
            fd = None
        if fd is None:
            stream.write(text)
            stream.flush()
        else:
            for pending in {id(s): s for s in (sys.stdout, stream) if s is not None}.values():
                pending.flush()   # what was written before goes first
            data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
            while data:
                data = data[os.write(fd, data):]
    return out.caught
