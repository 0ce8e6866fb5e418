"""Ctrl-C without a traceback: as a flag while the main thread waits on a pool of
worker processes (:class:`CtrlC`), while a document is written
(:class:`WholeOutput`), and while the command line starts (:func:`exit_on_ctrl_c`)."""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from types import FrameType
from typing import Any, Iterator


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
#: After Ctrl-C, how long a document that has begun may take to be written whole, in seconds.
FINISH_SECONDS = 10.0


@contextmanager
def exit_on_ctrl_c(message: str = "Interrupted.") -> Iterator[None]:
    """Ctrl-C inside: ``message`` on stderr and ``SystemExit(130)``, no traceback.

    For the command line's start (its modules loading), where nothing else
    would catch the ``KeyboardInterrupt``."""
    try:
        yield
    except KeyboardInterrupt:
        _say(message)
        raise SystemExit(EXIT_INTERRUPTED) from None


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
