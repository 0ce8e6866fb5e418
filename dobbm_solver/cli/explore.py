"""``dobbm explore``: a deal explored card by card with open cards, one command a line."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Literal

import click

from ..cards import card_name, parse_card
from ..echo import brief
from ..errors import DobbmError
from ..explore import Explorer
from ..pagefile import check_page_file, write_page
from ..report.explore import help_text, line_dict, line_text, position_dict, position_text
from .boundary import BadInput, about
from .inputs import read_deals
from .options import CONTEXT, DEAL, FILE, HTML, JSON, NO_DIAGRAM, TT_MB, open_solver
from .output import echo, echo_json, say
from .prompt import Commands

__all__ = ["explore", "Reply", "run_command"]

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?")
STEP_WORDS = ("next", "undo", "redo", "best", "line")
COMMAND_WORDS = (*STEP_WORDS, *QUIT_WORDS, *HELP_WORDS)


@dataclass(frozen=True)
class Reply:
    """What one command gives: the position after it, a best line, the help, an error
    (``message``), the end, or nothing (a blank line with no card ahead, a comment)."""

    kind: Literal["position", "line", "help", "error", "quit", "nothing"]
    message: str = ""


def run_command(explorer: Explorer, text: str) -> Reply:
    """Carry out one command line on ``explorer``; a bad command changes nothing."""
    words = text.split()
    if not words:   # Enter alone: the next card ahead, if any
        return run_command(explorer, "next") if explorer.ahead else Reply("nothing")
    if words[0].startswith("#"):
        return Reply("nothing")
    word, args = words[0].lower(), words[1:]
    try:
        if word == "goto":
            if len(args) != 1 or not args[0].isdigit() or not args[0].isascii():
                return Reply("error", "goto takes the number of a trick, 1 to 8: goto 3")
            explorer.goto(int(args[0]))
            return Reply("position")
        if args:
            if word in COMMAND_WORDS:
                return Reply("error", f"{word} takes nothing after it (one command a line)")
            return Reply("error", f"{brief(text.strip())}: one command a line, a card or a word "
                                  "(help lists them)")
        if word in QUIT_WORDS:
            return Reply("quit")
        if word in HELP_WORDS:
            return Reply("help")
        if word == "line":
            return Reply("line")
        if word in ("next", "redo"):
            if not explorer.ahead:
                return Reply("error", f"{word}: no card ahead (a card name plays one; best plays a best one)")
            explorer.redo()
        elif word == "undo":
            explorer.undo()
        elif word == "best":
            explorer.best()
        else:
            explorer.play(parse_card(words[0]))
    except DobbmError as e:
        if word not in ("goto", "next", "redo", "undo", "best") and str(e).startswith("unknown card"):
            return Reply("error", f"unknown command {brief(words[0])}: a card (EA), next, undo, redo, "
                                  "goto N, best, line, help or quit")
        return Reply("error", str(e))
    return Reply("position")


def _terminal_as_stdin() -> bool:
    """After the deal was read from standard input, read the commands from the terminal
    (when the output goes to one and there is one to open); whether that worked."""
    if not sys.stdout.isatty():
        return False
    try:
        fd = os.open("/dev/tty", os.O_RDONLY)
    except OSError:
        return False
    os.dup2(fd, 0)
    os.close(fd)
    sys.stdin = open(0, encoding=sys.stdin.encoding if sys.stdin else "utf-8", closefd=False)
    return True


@click.command(context_settings=CONTEXT)
@click.argument("file", required=False, type=FILE)
@DEAL
@JSON
@TT_MB
@NO_DIAGRAM
@HTML
def explore(file: str | None, deal_lines: tuple[str, ...], as_json: bool, tt_mb: int, no_diagram: bool,
            html_file: str | None) -> None:
    """Explore a deal card by card with open cards: every legal card's value, then play,
    take back and try another.

    Shows the hands, the tricks with each side's points, what the declarer ends with
    under best play from here, and each legal card of the seat to play with the
    declarer's final points after it, best first, marked best or with what it costs
    its side in points and units (units: what each defender pays the declarer). A
    hand played to the end (FILE with all eight `tricks`) starts at the opening lead
    with the play ahead: `next` (or Enter) plays each card as it was played and shows
    its cost; another card branches off. A deal in mid-play starts where it stands
    (undo and goto take back the cards before). Then reads commands, one a line: a
    card (EA), next, undo, redo,
    goto N (the start of trick N), best, line (the rest of a best line), help, quit.
    In a terminal with line editing and history; from a pipe or a file the same
    commands and output with no prompt. With --json one JSON object a line: the
    starting position, then one after each command ({"error": ...} for a bad one).
    A FILE of several deals: the first is explored (--deal is given once). With '-' the deal is read from
    standard input, and the commands from the terminal (without one, the starting
    position is shown). The end of the input or quit ends it. With --html FILE the
    page of the position reached at the end (the cards played with their costs, each
    legal card's value, the rest of a best line) is written then; the command `html`
    writes it at any time.
    """
    if len(deal_lines) > 1:
        raise BadInput(f"--deal: explore takes one deal, not {len(deal_lines)}: give --deal once "
                       "(a FILE of several deals explores the first)")
    if html_file is not None:
        check_page_file(html_file)
    deals = read_deals(file, deal_lines)
    title, deal = deals[0]
    if len(deals) > 1:
        say(f"{file or '--deal'} holds {len(deals)} deals: exploring the first, {title}")
    solver = open_solver(tt_mb)
    with about(title):
        explorer = Explorer(deal, solver)
    diagram = not no_diagram

    def show(reply: Reply, gap: str = "\n") -> None:
        """Print what ``reply`` asks for; in text a report after the first follows a blank line."""
        pos = explorer.position()
        if as_json:
            if reply.kind == "error":
                echo_json({"error": reply.message})
            elif reply.kind == "line":
                echo_json(line_dict(pos, explorer.line()))
            elif reply.kind == "help":
                echo_json({**position_dict(pos), "help": help_text()})
            else:
                echo_json(position_dict(pos))
        elif reply.kind == "error":
            echo(f"error: {reply.message}")
        elif reply.kind == "line":
            echo(gap + line_text(pos, explorer.line(), diagram=diagram))
        elif reply.kind == "help":
            echo(gap + help_text())
        else:
            echo(gap + position_text(pos, title, diagram=diagram, recorded=explorer.ahead_recorded))

    def write_html() -> None:
        if html_file is not None:
            from ..report.html import explore_page
            write_page(html_file, explore_page(explorer, title))

    show(Reply("position"), gap="")
    if file == "-" and not _terminal_as_stdin():
        write_html()
        return
    def words() -> list[str]:
        """What may be typed now: the legal cards of the seat to play, then the command words."""
        return ([card_name(v.card) for v in explorer.position().cards] + [*STEP_WORDS, "goto", "help", "quit"]
                + (["html"] if html_file is not None else []))

    commands = Commands(words)
    if commands.terminal and not as_json:
        echo("  (help lists the commands; quit or Ctrl-D ends)")
    while True:
        pos = explorer.position()
        prompt = "end> " if pos.to_play is None else f"{pos.to_play} (trick {pos.trick})> "
        text = commands.read(prompt)
        if text is None:
            write_html()
            return
        if text.strip().lower() == "html":
            if html_file is None:
                show(Reply("error", "html: give --html FILE to write the page"))
            else:
                write_html()
                say(f"wrote {html_file}")
            continue
        reply = run_command(explorer, text)
        if reply.kind == "quit":
            write_html()
            return
        if reply.kind != "nothing":
            show(reply)
