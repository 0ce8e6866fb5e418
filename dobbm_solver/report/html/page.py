"""The shell of every page dobbm writes: one self-contained HTML document.

The style sheet, the step script and the suit symbols are inlined, so a page
fetches nothing: it opens from a file, offline, and prints.  Every text put
into a page goes through :func:`esc`.  :data:`GENERATOR` marks a page as one
dobbm wrote (see :mod:`dobbm_solver.pagefile`).
"""

from __future__ import annotations

import html
from functools import cache
from importlib import resources
from typing import Sequence

from ...cards import CARDS_PER_SUIT, RANKS, SUIT_NAMES, SUITS, Card, card_name

__all__ = ["GENERATOR", "SUIT_SYMBOLS", "esc", "asset", "suit_icon", "card_html", "page", "sections_page"]

#: The mark in the head of every page dobbm writes: a page holding it may be written over.
GENERATOR = '<meta name="generator" content="dobbm">'

# The German suits drawn as small inline symbols (20 x 20): acorn, leaf, heart, bell.
SUIT_SYMBOLS = (
    '<symbol id="suit-E" viewBox="0 0 20 20"><path d="M4.5 8.5 Q10 0.5 15.5 8.5 Z" fill="#5a3610"/>'
    '<rect x="9.2" y="1" width="1.6" height="3" fill="#5a3610"/>'
    '<ellipse cx="10" cy="13" rx="4.6" ry="5.8" fill="#a0622a"/></symbol>'
    '<symbol id="suit-L" viewBox="0 0 20 20"><path d="M10 17 C2.5 13 2.5 5 10 1.5 C17.5 5 17.5 13 10 17 Z" '
    'fill="#2b7a2b"/><path d="M10 19.5 V4" stroke="#cfe8cf" stroke-width="1.2"/></symbol>'
    '<symbol id="suit-H" viewBox="0 0 20 20"><path d="M10 18 C10 18 1.5 12 1.5 6.5 A4.25 4.25 0 0 1 10 5 '
    'A4.25 4.25 0 0 1 18.5 6.5 C18.5 12 10 18 10 18 Z" fill="#c8102e"/></symbol>'
    '<symbol id="suit-S" viewBox="0 0 20 20"><circle cx="10" cy="2.6" r="1.6" fill="none" stroke="#8a5b00" '
    'stroke-width="1.2"/><circle cx="10" cy="11" r="7" fill="#e0a800"/><path d="M3.4 9 H16.6" '
    'stroke="#8a5b00" stroke-width="1.2"/><path d="M10 12 V17" stroke="#5a3b00" stroke-width="1.6"/>'
    '<circle cx="10" cy="12.3" r="1.4" fill="#5a3b00"/></symbol>'
)


def esc(text: object) -> str:
    """``text`` escaped for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


@cache
def asset(name: str) -> str:
    """A file shipped beside this module (the style sheet, the scripts), as text."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def suit_icon(suit: int) -> str:
    """The symbol of ``suit`` (an index of :data:`~dobbm_solver.cards.SUITS`), named for readers."""
    return (f'<svg class="sy" role="img" aria-label="{SUIT_NAMES[suit]}"><title>{SUIT_NAMES[suit]}</title>'
            f'<use href="#suit-{SUITS[suit]}"/></svg>')


def card_html(card: Card, *, rank_only: bool = False) -> str:
    """One card: its suit's symbol and colour and its rank (``data-card``: its canonical name)."""
    suit, rank = divmod(card, CARDS_PER_SUIT)
    icon = "" if rank_only else suit_icon(suit)
    return f'<span class="c s{suit}" data-card="{card_name(card)}">{icon}{RANKS[rank]}</span>'


def page(title: str, body: str, *, script: str = "step.js", extra_head: str = "") -> str:
    """A whole page: the head with its style sheet and the suit symbols, ``body``, and
    the script that steps through the plays (none if ``script`` is empty)."""
    scripts = f"<script>{asset(script)}</script>" if script else ""
    return ("<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"{GENERATOR}<title>{esc(title)}</title><style>{asset('page.css')}</style>{extra_head}</head>"
            '<body><svg width="0" height="0" style="position:absolute" aria-hidden="true">'
            f"<defs>{SUIT_SYMBOLS}</defs></svg><main>{body}</main>{scripts}</body></html>\n")


def sections_page(command: str, legend: str, sections: Sequence[tuple[str, str]]) -> str:
    """The page of ``dobbm COMMAND`` over several inputs: its heading, ``legend`` (HTML), and
    each ``(section, title)``; the page is titled by the one input's title or their count."""
    body = [f"<h1>dobbm {esc(command)}</h1>", f'<p class="legend">{legend}</p>'] + [s for s, _ in sections]
    noun = "hands" if command == "review" else "deals"
    title = sections[0][1] if len(sections) == 1 else f"{len(sections)} {noun}"
    return page(f"dobbm {command}: {title}", "".join(body))
