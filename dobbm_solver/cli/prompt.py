"""The command lines of an interactive command (``explore``, ``practice``), one at a time.

From a terminal: a prompt, line editing, history and Tab completion through
the ``readline`` module where there is one.  From anything else (a pipe, a
file): the lines read plainly with no prompt, so that a script or a test
drives the command and gets the same output.
"""

from __future__ import annotations

import sys
from typing import Callable

from .output import echo, say

__all__ = ["Commands"]


class Commands:
    """The command lines, one at a time: from a terminal with line editing, history and
    Tab completion (``words``: what may be typed now) through the ``readline`` module,
    where there is one, and a prompt; from anything else plainly, with no prompt."""

    def __init__(self, words: Callable[[], list[str]]) -> None:
        self.terminal = sys.stdin is not None and sys.stdin.isatty()
        self.editing = self.terminal and sys.stdout.isatty()
        self.words = words
        if self.editing:
            try:
                import readline  # once loaded, input() edits lines and keeps their history
            except ImportError:
                return
            readline.set_completer(self._complete)
            readline.set_completer_delims(" ")
            libedit = "libedit" in (readline.__doc__ or "")
            readline.parse_and_bind("bind ^I rl_complete" if libedit else "tab: complete")

    def _complete(self, text: str, state: int) -> str | None:
        matches = [w for w in self.words() if w.lower().startswith(text.lower())]
        return matches[state] if state < len(matches) else None

    def read(self, prompt: str) -> str | None:
        """The next command line, None at the end of the input."""
        if sys.stdin is None:
            return None
        if self.editing:
            try:
                return input(prompt)
            except EOFError:
                echo("")
                return None
            except KeyboardInterrupt:   # the boundary ends the command; its line starts on a line of its own
                echo("")
                raise
        if self.terminal:
            say(prompt)
        line = sys.stdin.readline()
        return line if line else None
