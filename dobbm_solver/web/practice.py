"""Practice in the page: one seat against the computer at a hidden table (:mod:`dobbm_solver.practice`).

A tab's practice table plays its hands in a thread of its own: the computer's
seats decide there, and where the player is to decide the thread waits for the
page's answer (:meth:`PracticeTable.answer`, the words ``dobbm practice``
reads: a bid, four cards, double/retour or good, a card).  What happens is kept
as lines for the page; after each hand, the result, the player's decisions
judged with open cards beside the advice's choice, and the running totals.
A table left unanswered for :data:`ANSWER_SECONDS`, or closed with its tab's
session, ends its thread.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from ..errors import DobbmError
from ..practice import Session as PracticeSession
from ..practice.game import Ask, Event
from ..practice.session import SEATS
from ..report.practice import answer_text, event_text, review_text, totals_text
from ..report.serve import practice_start_text
from ..solver import Solver

__all__ = ["PracticeError", "PracticeTable", "ANSWER_SECONDS", "MAX_TABLES", "STEP_SECONDS", "PRACTICE_TT_MB"]

#: A question left unanswered this long ends the table's thread.
ANSWER_SECONDS = 2 * 60 * 60
#: How long an answer waits for the computer's decisions up to the next question.
STEP_SECONDS = 25.0
#: The table of a practice table's solver (MiB): small, there may be several.
PRACTICE_TT_MB = 8
#: The most practice tables served at once (each a thread and a solver of its own).
MAX_TABLES = 32


class PracticeError(DobbmError):
    """An answer the question does not take, or a table that cannot go on."""


class _Closed(Exception):
    """The table was closed (its tab's session ended) while a question waited."""


_CLOSE = object()


class PracticeTable:
    """One tab's practice session: ``me`` the player's seat, ``seed`` the deals."""

    def __init__(self, seed: int, me: str) -> None:
        if me not in SEATS:
            raise PracticeError(f"seat: one of {', '.join(SEATS)}, not {me[:20]!r}")
        self.me = me
        self.seed = seed
        self.session = PracticeSession(seed=seed, me=me, solver=Solver(PRACTICE_TT_MB))
        self.lines: list[str] = []
        self.ask: Ask[Any] | None = None
        self.playing = False
        self.failed: str | None = None
        self._answers: queue.Queue[object] = queue.Queue()
        self._moved = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the page's side -------------------------------------------------------
    def deal(self) -> None:
        """Deal and start the next hand; returns at the player's first question (or the hand's end)."""
        if self.playing:
            raise PracticeError("a hand is being played: answer its question first")
        self.playing = True
        self._moved.clear()
        self._thread = threading.Thread(target=self._hand, daemon=True, name="practice")
        self._thread.start()
        self._moved.wait(STEP_SECONDS)

    def answer(self, text: str) -> None:
        """The player's answer to the question open now, in ``dobbm practice``'s words;
        ``hint`` shows the advice's choice without taking it."""
        from ..cli.practice import read_answer  # the command line's own reading of an answer

        ask = self.ask
        if ask is None:
            raise PracticeError("no question is open: deal a hand")
        if len(text) > 200:
            raise PracticeError("an answer is a few words: a bid, four cards, double or good, a card")
        reply = read_answer(ask, text)
        if reply.kind == "error":
            raise PracticeError(reply.message)
        if reply.kind == "hint":
            self.lines.append(f"hint: the advice says {answer_text(ask, ask.advice())}")
            return
        if reply.kind != "answer":
            raise PracticeError(f"{text.strip()[:20]!r}: answer the question (or hint)")
        self.ask = None
        self._moved.clear()
        self._answers.put(reply.value)
        self._moved.wait(STEP_SECONDS)

    def close(self) -> None:
        """End the table's thread, if a question waits."""
        self._answers.put(_CLOSE)

    # -- the table's thread ----------------------------------------------------
    def _player(self, ask: Ask[Any]) -> Any:
        self.ask = ask
        self._moved.set()
        try:
            answer = self._answers.get(timeout=ANSWER_SECONDS)
        except queue.Empty:
            raise _Closed from None
        if answer is _CLOSE:
            raise _Closed
        return answer

    def _tell(self, e: Event) -> None:
        line = event_text(e, self.me)
        if line is not None:
            self.lines.append(line)

    def _hand(self) -> None:
        s = self.session
        try:
            board = s.next_board()
            self.lines.append(practice_start_text(len(s.reviews) + 1, s.deals + 1, board.dealer, self.me))
            review = s.play(self._player, self._tell)
            self.lines.append(review_text(review))
            self.lines.append(totals_text(s.totals, len(s.reviews), self.me))
        except _Closed:
            return
        except Exception as e:   # a bug: the page says so, the server goes on
            self.failed = f"the hand could not go on ({type(e).__name__}: {e})"
        finally:
            self.ask = None
            self.playing = False
            self._moved.set()
