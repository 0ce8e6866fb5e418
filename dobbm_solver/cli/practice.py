"""``dobbm practice``: play one seat against the computer at a table with hidden cards, one answer a line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import click

from ..cards import CardError, card_name, cards_text, cardset, parse_card, parse_cards
from ..echo import brief
from ..practice import Session, SessionFile
from ..practice.game import DOUBLE, GOOD, RETOUR, Ask, Event
from ..practice.session import SEATS
from ..report.practice import (
    answer_text,
    ask_dict,
    ask_text,
    event_dict,
    event_text,
    example_discard,
    hand_start_dict,
    hand_start_text,
    help_text,
    review_dict,
    review_text,
    totals_dict,
    totals_text,
)
from ..rules import discard_error
from .options import CONTEXT, JSON, SEED, TT_MB, open_solver
from .output import echo, echo_json
from .prompt import Commands

__all__ = ["practice", "Reply", "read_answer"]

A = TypeVar("A")
QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?")
HINT_WORDS = ("hint",)
DOUBLE_WORDS = (DOUBLE, "schwacher", RETOUR)
GOOD_WORDS = (GOOD, "play on")
PROMPTS = {"bid": "bid> ", "discard": "lay away> ", "double": "double> ", "play": "card> "}
MAX_HANDS = 1000


@dataclass(frozen=True)
class Reply:
    """What one line gives at a question: an ``answer`` (``value``), a hint, the help, an
    error (``message``), the end, or nothing (a blank line, a comment)."""

    kind: Literal["answer", "hint", "help", "error", "quit", "nothing"]
    value: object = None
    message: str = ""


def _error(message: str) -> Reply:
    return Reply("error", message=message)


def read_answer(ask: Ask[Any], text: str) -> Reply:
    """The reply of one line typed at ``ask``; a bad line is an error and changes nothing."""
    words = text.split()
    if not words or words[0].startswith("#"):
        return Reply("nothing")
    line = " ".join(w.lower() for w in words)
    if line in QUIT_WORDS:
        return Reply("quit")
    if line in HELP_WORDS:
        return Reply("help")
    if line in HINT_WORDS:
        return Reply("hint")
    if words[0].lower() in (*QUIT_WORDS, *HELP_WORDS, *HINT_WORDS):
        return _error(f"{words[0].lower()} takes nothing after it (one command a line)")
    if ask.kind == "bid":
        return _bid(ask, line)
    if ask.kind == "double":
        return _double(ask, line)
    if ask.kind == "discard":
        return _discard(ask, words)
    return _card(ask, words)


def _bid(ask: Ask[Any], line: str) -> Reply:
    if line in ask.options:
        return Reply("answer", line)
    if line in ("pass", "dobbm", "solo"):
        return _error(f"{line}: not open after a Dobbm (say {' or '.join(ask.options)})")
    return _error(f"{brief(line)}: say {', '.join(ask.options[:-1])} or {ask.options[-1]} (or hint, help, quit)")


def _double(ask: Ask[Any], line: str) -> Reply:
    word = ask.options[0]
    if line in DOUBLE_WORDS:
        if (line == "schwacher") != (word == DOUBLE) and line != DOUBLE:
            return _error(f"{line}: say {word} or {GOOD} (the doubling now is a "
                          f"{'Schwacher' if word == DOUBLE else 'Retour'})")
        return Reply("answer", True)
    if line in GOOD_WORDS or line == "pass":
        return Reply("answer", False)
    return _error(f"{brief(line)}: say {word} or {GOOD} (or hint, help, quit)")


def _discard(ask: Ask[Any], words: list[str]) -> Reply:
    try:
        cards = parse_cards(words)
    except CardError as e:
        return _error(f"{e}: lay away four cards of your 12, e.g. {cards_text(example_discard(ask.hand))} "
                      "(or hint, help, quit)")
    if len(set(cards)) != len(cards):
        return _error("a card named twice: lay away four different cards")
    chosen = cardset(cards)
    if chosen & ~ask.hand:
        return _error(f"{cards_text(chosen & ~ask.hand)}: not in your 12 cards ({cards_text(ask.hand)})")
    why = discard_error(chosen)
    if why:
        return _error(why)
    return Reply("answer", chosen)


def _card(ask: Ask[Any], words: list[str]) -> Reply:
    if len(words) > 1:
        return _error(f"{brief(' '.join(words))}: one card a line")
    try:
        card = parse_card(words[0])
    except CardError:
        return _error(f"unknown command {brief(words[0])}: a card you may play ({cards_text(ask.legal)}), "
                      "hint, help or quit")
    if not (ask.hand >> card) & 1:
        return _error(f"{card_name(card)}: not in your hand ({cards_text(ask.hand)})")
    if not (ask.legal >> card) & 1:
        return _error(f"{card_name(card)}: you must follow suit, or trump when you cannot "
                      f"(you may play {cards_text(ask.legal)})")
    return Reply("answer", card)


class _Stop(Exception):
    """The session ends before its hands are played: ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _words(ask: Ask[Any]) -> list[str]:
    """What may be typed at ``ask``, for Tab completion."""
    if ask.kind == "play":
        now = [card_name(c) for c in range(36) if (ask.legal >> c) & 1]
    elif ask.kind == "discard":
        now = [card_name(c) for c in range(36) if (ask.hand >> c) & 1]
    else:
        now = list(ask.options)
    return now + ["hint", "help", "quit"]


@click.command(context_settings=CONTEXT)
@click.option("--seat", type=click.Choice(SEATS, case_sensitive=False), default=SEATS[0], show_default=True,
              metavar="SEAT", help=f"Your seat, {', '.join(SEATS[:-1])} or {SEATS[-1]}; the computer plays the "
                                   "other three.")
@click.option("--hands", type=click.IntRange(1, MAX_HANDS), default=1, show_default=True, metavar="N",
              help=f"Hands to play, 1 to {MAX_HANDS} (a deal all four pass is dealt again and not counted).")
@SEED
@click.option("--save", metavar="FILE",
              help="Write each hand as played to FILE, in the played-hand form review, explore and score "
                   "read; a FILE this command did not write is refused and left as it is.")
@JSON
@TT_MB
def practice(seat: str, hands: int, seed: int, save: str | None, as_json: bool, tt_mb: int) -> None:
    """Play one seat against the computer at a table with hidden cards.

    Deals --hands hands (--seed: the same seed and the same answers give the same
    session); you see only your own seat. At each decision type the words of the
    command it mirrors: a bid (pass, dobbm, solo), four cards to lay away, double
    (Schwacher; retour to answer one) or good, a card; or hint (take the advice's
    choice: what the computer would do in your seat), help, quit. The other seats
    decide with the advice of bid, discard, double and play. After each hand: the
    result and the payments, then your decisions judged with open cards beside the
    advice's choice from your view, and the running totals (units: each seat's own:
    a declarer settles with all three defenders). In a terminal with line editing
    and history; from a pipe or a file the same answers, one a line, and the same
    output. With --json one JSON object a line: each event, each question
    ({"prompt": ...}), each result and review, and {"error": ...} for a bad line.
    The end of the input or quit ends the session (the hands finished stay saved).
    """
    me = next(s for s in SEATS if s.lower() == seat.lower())
    solver = open_solver(tt_mb)
    session = Session(seed=seed, me=me, solver=solver)
    out = SessionFile(save) if save is not None else None
    current: list[Ask[Any]] = []   # the question open now
    commands = Commands(lambda: _words(current[0]) if current else ["help", "quit"])

    def tell(e: Event) -> None:
        if as_json:
            echo_json(event_dict(e))
        else:
            line = event_text(e, me)
            if line is not None:
                echo(line)

    def show(text: str, obj: dict[str, Any]) -> None:
        if as_json:
            echo_json(obj)
        else:
            echo(text)

    def player(ask: Ask[A]) -> A:
        current[:] = [ask]
        show(ask_text(ask), ask_dict(ask))
        while True:
            text = commands.read(PROMPTS[ask.kind])
            if text is None:
                raise _Stop("input ended")
            reply = read_answer(ask, text)
            if reply.kind == "quit":
                raise _Stop("quit")
            if reply.kind == "help":
                show(help_text(ask), {"help": help_text(ask)})
            elif reply.kind == "error":
                show(f"error: {reply.message}", {"error": reply.message})
            elif reply.kind == "hint":
                advice = ask.advice()
                show(f"  hint: the advice says {answer_text(ask, advice)}",
                     {"hint": answer_text(ask, advice), "prompt": ask.kind})
                return advice
            elif reply.kind == "answer":
                return reply.value   # type: ignore[return-value]

    if commands.terminal and not as_json:
        echo("  (help lists the commands; quit or Ctrl-D ends)")
    ended = "done"
    try:
        while len(session.reviews) < hands:
            board = session.next_board()
            number, deal_number = len(session.reviews) + 1, session.deals + 1
            args = (number, hands, deal_number, board.seats, board.dealer, me, board.hands[me])
            show(("\n" if session.deals else "") + hand_start_text(*args), hand_start_dict(*args))
            review = session.play(player, tell)
            show(review_text(review), review_dict(review, number))
            if review.hand.deal is None:
                continue
            if out is not None:
                out.write(review.hand, seed)
            played = len(session.reviews)
            show(totals_text(session.totals, played, me), totals_dict(session.totals, played))
    except _Stop as stop:
        ended = stop.reason
    finally:
        if out is not None:
            out.close()
    played = len(session.reviews)
    if ended != "done":
        note = f"{ended}: hand {played + 1} is left unfinished"
        show(f"{note}. " + totals_text(session.totals, played, me), totals_dict(session.totals, played, end=ended))
    elif as_json:
        echo_json(totals_dict(session.totals, played, end=ended))
