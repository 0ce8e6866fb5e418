"""Practice: play one seat against the computer at a table with hidden cards (``dobbm practice``).

* :mod:`.game` -- one hand: the computer's seats decide by the advice, the
  player is asked (:class:`Ask`), what happens is told as events;
* :mod:`.judge` -- after a hand, the player's decisions judged with open
  cards beside the advice's choices;
* :mod:`.session` -- the hands of a session, the dealer, the running totals;
* :mod:`.savefile` -- the session file (``--save``) in the played-hand form.
"""

from __future__ import annotations

from .game import Ask, Event, HandPlayed, play_practice_hand
from .judge import PracticeReview, judge_hand
from .savefile import SessionFile
from .session import PRACTICE_SAMPLES, Session

__all__ = ["Ask", "Event", "HandPlayed", "PRACTICE_SAMPLES", "PracticeReview", "Session", "SessionFile",
           "judge_hand", "play_practice_hand"]
