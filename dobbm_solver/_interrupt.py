"""Ctrl-C as a flag while the main thread waits on a pool of worker processes."""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any


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
