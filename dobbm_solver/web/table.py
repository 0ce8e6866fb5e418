"""What a page asks of its tab's position: load a deal, deal one, play, undo, redo, best, line, advice.

Input is read with the command line's parsers and limits: a one-line deal by
:mod:`~dobbm_solver.notation`, anything else as a hand file by
:mod:`~dobbm_solver.handfile` (its size, nesting and alias limits), random deals
by :func:`~dobbm_solver.dealer.deal_random` (its bounded number of draws).  Bad
input raises a :class:`~dobbm_solver.errors.DobbmError` whose text the page
shows; the position is then as it was.
"""

from __future__ import annotations

import io
import random
from typing import Any, Mapping

from ..analyzer.advice import Advice
from ..analyzer.play import analyze_play
from ..analyzer.view import View
from ..cards import Card, parse_card
from ..deal import Deal
from ..dealer import Constraints, SeatRange, deal_random
from ..errors import DobbmError
from ..explore import Explorer
from ..handfile import load_stream_specs, spec_to_deal
from ..notation import NotationError, in_notation_words, parse_spec_line
from ..playout import seat_view
from ..solver import Solver
from .sessions import Session

__all__ = ["InputError", "MAX_TEXT", "ADVICE_SAMPLES", "STEPS", "read_pasted", "random_deal", "load", "step",
           "advice", "parse_range"]

#: The most characters a pasted deal may have (a hand file of one deal is far shorter).
MAX_TEXT = 64 * 1024
#: Samples of the advice asked for on a page (fixed: the request's work is bounded).
ADVICE_SAMPLES = 48
#: The steps a page may ask for by name.
STEPS = ("undo", "redo", "next", "best", "line", "goto", "play")


class InputError(DobbmError):
    """Input from the page that is not a deal, a card or a command."""


def read_pasted(text: str) -> tuple[str, Deal]:
    """The deal pasted: a one-line deal (the notation) or a hand file's text (its first
    document), with a title; :class:`~dobbm_solver.errors.DobbmError` if it is none."""
    if len(text) > MAX_TEXT:
        raise InputError(f"too long ({len(text)} characters; a deal has at most {MAX_TEXT})")
    stripped = text.strip()
    if not stripped:
        raise InputError("paste a deal: a line like 'dobbm Anna | Anna: ... | ...' or a hand file")
    if "\n" not in stripped and "|" in stripped:
        spec = parse_spec_line(stripped)
        if spec.declarer is None or spec.contract is None:
            raise NotationError("head", "missing: a deal line begins with CONTRACT DECLARER like 'dobbm Anna |'")
        try:
            return "the pasted line", spec_to_deal(spec)
        except DobbmError as e:
            raise _in_words(e) from None
    specs = load_stream_specs(io.StringIO(text), "<pasted>")
    if not specs:
        raise InputError("the pasted text holds no deal")
    title = "the pasted hand" + (f" (the first of {len(specs)})" if len(specs) > 1 else "")
    return title, spec_to_deal(specs[0])


def _in_words(e: DobbmError) -> DobbmError:
    from ..handfile import HandFileError
    return in_notation_words(e) if isinstance(e, HandFileError) else e


def parse_range(text: str, what: str) -> tuple[SeatRange, ...]:
    """``SEAT:MIN-MAX`` ranges, comma- or space-separated (as ``dobbm deal`` takes them)."""
    from ..cli.deal import RANGE  # the command line's own parser of a range
    out = []
    for word in text.replace(",", " ").split():
        try:
            out.append(RANGE.convert(word, None, None))
        except Exception as e:   # the parser's one line of bad input
            raise InputError(f"{what}: {getattr(e, 'message', e)}") from None
    return tuple(out)


def random_deal(fields: Mapping[str, Any]) -> tuple[str, Deal]:
    """A random deal to ``dobbm deal``'s constraints: ``seed`` (a whole number; none: any),
    ``dealer``, ``declarer``, ``contract``, and ranges ``trumps``, ``points``, ``strength``."""
    def text(key: str) -> str:
        value = fields.get(key) or ""
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or len(value) > 200:
            raise InputError(f"{key}: a short text")
        return value.strip()

    seed_text = text("seed")
    if seed_text and not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 18):
        raise InputError(f"seed: a whole number, 0 or more, not {seed_text!r}")
    seed = int(seed_text) if seed_text else random.SystemRandom().randrange(10 ** 9)
    constraints = Constraints(dealer=text("dealer") or None, declarer=text("declarer") or None,
                              contract=text("contract").lower() or None,
                              trumps=parse_range(text("trumps"), "trumps"),
                              points=parse_range(text("points"), "points"),
                              strength=parse_range(text("strength"), "strength"))
    dealt = deal_random(random.Random(seed), constraints)
    return f"a random deal (seed {seed})", dealt.deal


def load(session: Session, title: str, deal: Deal, solver: Solver) -> None:
    """Explore ``deal`` in ``session`` from its opening lead (a hand played to the end: with
    its play ahead) or from where it stands."""
    explorer = Explorer(deal, solver)
    explorer.position()   # solved now: a bad deal is refused before the old one is dropped
    session.explorer, session.title, session.show_line = explorer, title, False


def step(session: Session, action: str, card: str | None = None, trick: object = None) -> None:
    """One step on the tab's position: ``play`` a card, ``undo``, ``redo`` (or ``next``),
    ``best``, ``line`` (show the rest of a best line), ``goto`` a trick."""
    explorer = _explorer(session)
    session.show_line = False
    if action == "play":
        if not isinstance(card, str) or len(card) > 8:
            raise InputError("play: a card like EA")
        explorer.play(parse_card(card))
    elif action == "undo":
        explorer.undo()
    elif action in ("redo", "next"):
        explorer.redo()
    elif action == "best":
        explorer.best()
    elif action == "line":
        session.show_line = True
    elif action == "goto":
        if not isinstance(trick, int) or isinstance(trick, bool):
            raise InputError("goto: the number of a trick, 1 to 8")
        explorer.goto(trick)
    else:
        raise InputError(f"unknown step {action[:20]!r}")


def advice(session: Session) -> tuple[str, Advice[Card]]:
    """``dobbm play``'s advice for the seat to play, from its own view (its hand, the tricks,
    what its role knows of the lay-away), on :data:`ADVICE_SAMPLES` samples."""
    explorer = _explorer(session)
    deal = explorer.deal()
    sv = seat_view(deal)
    view = View.from_seat("play", seats=sv.seats, me=sv.seat, hand=sv.hand, declarer=sv.declarer,
                          contract=sv.contract, discard=sv.discard, tricks=sv.tricks, doublings=sv.doublings,
                          path="<page>")
    played = sum(len(t) for t in deal.tricks)
    return sv.seat, analyze_play(view, samples=ADVICE_SAMPLES, seed=1 + played, jobs=1)


def _explorer(session: Session) -> Explorer:
    if session.explorer is None:
        raise InputError("no deal yet: paste one or deal one at random")
    return session.explorer
