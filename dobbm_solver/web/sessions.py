"""Each browser tab's position, kept in memory: a session id a tab, capped and expiring.

A tab asks for a session when its page loads and sends its id with every
request.  The store holds at most ``cap`` sessions; one unused for
``idle_seconds`` is dropped, and when the store is full the one unused for the
longest goes.  Nothing is written anywhere: a server that stops forgets them.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import DobbmError
from ..explore import Explorer

__all__ = ["SessionError", "Session", "Sessions", "MAX_SESSIONS", "IDLE_SECONDS"]

#: The most tabs served at once (the oldest unused goes first).
MAX_SESSIONS = 512
#: A tab unused this long is forgotten.
IDLE_SECONDS = 2 * 60 * 60


class SessionError(DobbmError):
    """A session id the server does not know (never given, or expired)."""


@dataclass(kw_only=True)
class Session:
    """One tab's state: the deal explored (None before one is loaded), its title, the last
    best line asked for, and a lock so that one tab's requests run one at a time."""

    ident: str
    explorer: Explorer | None = None
    practice: Any = None   # a PracticeTable (web/practice.py) once the tab practises
    title: str = ""
    show_line: bool = False
    used: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def close(self) -> None:
        """End what the session runs (a practice table's thread)."""
        if self.practice is not None:
            self.practice.close()


class Sessions:
    """The sessions of a server: :meth:`new`, :meth:`get`, with a cap and an expiry."""

    def __init__(self, cap: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.cap = cap
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._items: OrderedDict[str, Session] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def count(self, test: Callable[[Session], bool]) -> int:
        """How many sessions pass ``test``."""
        with self._lock:
            return sum(1 for s in self._items.values() if test(s))

    def _expire(self, now: float) -> None:
        while self._items:
            ident, oldest = next(iter(self._items.items()))
            if now - oldest.used <= self.idle_seconds and len(self._items) < self.cap:
                return
            del self._items[ident]
            oldest.close()

    def new(self) -> Session:
        """A new session with an id no one can guess."""
        with self._lock:
            now = self.clock()
            self._expire(now)
            session = Session(ident=secrets.token_urlsafe(18), used=now)
            self._items[session.ident] = session
            return session

    def get(self, ident: object) -> Session:
        """The session ``ident``, marked used now; :class:`SessionError` if there is none."""
        with self._lock:
            now = self.clock()
            session = self._items.get(ident) if isinstance(ident, str) else None
            if session is None or now - session.used > self.idle_seconds:
                if session is not None:
                    del self._items[session.ident]
                    session.close()
                raise SessionError("this tab's position is not kept any more (the server restarted, or "
                                   "it was unused too long): load the deal again")
            session.used = now
            self._items.move_to_end(session.ident)
            return session
