"""dobbm: a double-dummy solver and hand analyzer for Dobbm, the Tarock game of the Stubai valley.

Read a deal, solve it with open cards, review a played hand, and ask for
advice from one seat's own view::

    >>> import dobbm_solver as dobbm
    >>> deal = dobbm.load_hand_file("hands/example.yaml")[0]
    >>> solver = dobbm.Solver()
    >>> solver.solve(deal).declarer_points      # best play from here: the declarer's final points
    76
    >>> dobbm.format_deal_line(deal)              # the one-line notation, read back by parse_deal_line
    'dobbm Bert | Anna: EO LA L8 L7 SK SO S7 S6 | Bert: HA HK HO H9 H6 EA LO LU | ...'
    >>> finished = dobbm.load_hand_file("hands/finished.yaml")[0]
    >>> dobbm.score_hand(finished).units          # what each defender pays the declarer
    8
    >>> view = dobbm.load_views("hands/bid.yaml", "bid")[0]
    >>> dobbm.analyze_bid(view, seed=1).recommendation
    'dobbm'

The verbs, by what they do:

* read and write deals: :func:`load_hand_file`, :func:`parse_deal_text`,
  :func:`parse_deal_line`, :func:`format_deal_line`, :func:`dump_deals_yaml`;
* solve with open cards: :class:`Solver` (``solve``, ``solve_all_cards``,
  ``analyze``, ``study_discards``, ``solve_batch``);
* judge and settle a hand: :func:`review_hand`, :func:`score_hand`, :func:`units`;
* play a hand out: :func:`play_hand` with :func:`open_card_strategy` or
  :func:`rule_of_thumb_strategy`, or one card at a time with :func:`play_card`;
  step through a deal with every card's value, undo and redo: :class:`Explorer`;
* advice from one seat's view (:class:`View`, from :func:`load_views` or
  :meth:`View.from_seat`): :func:`analyze_bid`, :func:`analyze_discard`,
  :func:`analyze_double`, :func:`analyze_play`, each returning an :class:`Advice`;
* many deals: :func:`collect_deals` and :func:`run_study`; self-play with hidden
  cards: :class:`ArenaConfig`, :func:`parse_player` and :func:`run_arena`.

Cards are ints 0..31 and sets of cards are ints with one bit per card: names
such as ``HA`` (the Ace of hearts, the highest trump) are read and written
only at the edges (:func:`parse_card`, :func:`card_name`, :func:`cards_text`).
Every error that bad input causes is a :class:`DobbmError`, a ``ValueError``.

The names load on first use, so that ``import dobbm_solver`` (and the
``dobbm`` command's start) stays quick.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: each public name and the module that defines it
_HOMES: dict[str, str] = {
    # cards and deals
    "Card": "cards", "CardSet": "cards", "parse_card": "cards", "parse_cards": "cards",
    "card_name": "cards", "cards_text": "cards",
    "Deal": "deal", "replay": "deal",
    # reading and writing deals
    "load_hand_file": "handfile", "parse_deal_text": "handfile", "dump_deals_yaml": "handfile",
    "parse_deal_line": "notation", "format_deal_line": "notation",
    # the solver
    "Solver": "solver", "Solution": "solver", "Analysis": "solver", "BestPlay": "solver",
    "DiscardResult": "solver",
    # judging, settling and playing a hand
    "review_hand": "review", "Review": "review", "score_hand": "scoring", "Score": "scoring",
    "units": "rules",
    "play_hand": "playout", "play_card": "playout", "SeatView": "playout",
    "open_card_strategy": "playout", "rule_of_thumb_strategy": "playout",
    "random_deal": "dealer", "Explorer": "explore",
    # advice from one seat's view
    "View": "analyzer", "load_views": "analyzer", "make_view": "analyzer",
    "analyze_bid": "analyzer", "analyze_discard": "analyzer", "analyze_double": "analyzer",
    "analyze_play": "analyzer", "Advice": "analyzer", "OptionEstimate": "analyzer",
    # batches and self-play
    "collect_deals": "study", "run_study": "study", "read_results": "study", "StudySummary": "study",
    "ArenaConfig": "arena", "parse_player": "arena", "run_arena": "arena", "ArenaSummary": "arena",
    # errors
    "DobbmError": "errors", "HandFileError": "handfile", "NotationError": "notation",
    "DealError": "deal", "SolveError": "solver", "AnalyzerError": "analyzer",
}

#: the same names as _HOMES (a test holds them equal), spelled out for tools that read it
__all__ = [
    "__version__", "Card", "CardSet", "parse_card", "parse_cards", "card_name", "cards_text",
    "Deal", "replay", "load_hand_file", "parse_deal_text", "dump_deals_yaml", "parse_deal_line",
    "format_deal_line", "Solver", "Solution", "Analysis", "BestPlay", "DiscardResult",
    "review_hand", "Review", "score_hand", "Score", "units", "play_hand", "play_card", "SeatView",
    "open_card_strategy", "rule_of_thumb_strategy", "random_deal", "Explorer", "View", "load_views",
    "make_view", "analyze_bid", "analyze_discard", "analyze_double", "analyze_play", "Advice",
    "OptionEstimate", "collect_deals", "run_study", "read_results", "StudySummary", "ArenaConfig",
    "parse_player", "run_arena", "ArenaSummary", "DobbmError", "HandFileError", "NotationError",
    "DealError", "SolveError", "AnalyzerError",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'dobbm_solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value   # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))


if TYPE_CHECKING:   # what the names are, for type checkers and editors
    from .analyzer import (
        Advice,
        AnalyzerError,
        OptionEstimate,
        View,
        analyze_bid,
        analyze_discard,
        analyze_double,
        analyze_play,
        load_views,
        make_view,
    )
    from .arena import ArenaConfig, ArenaSummary, parse_player, run_arena
    from .cards import Card, CardSet, card_name, cards_text, parse_card, parse_cards
    from .deal import Deal, DealError, replay
    from .dealer import random_deal
    from .errors import DobbmError
    from .explore import Explorer
    from .handfile import HandFileError, dump_deals_yaml, load_hand_file, parse_deal_text
    from .notation import NotationError, format_deal_line, parse_deal_line
    from .playout import SeatView, open_card_strategy, play_card, play_hand, rule_of_thumb_strategy
    from .review import Review, review_hand
    from .rules import units
    from .scoring import Score, score_hand
    from .solver import Analysis, BestPlay, DiscardResult, Solution, SolveError, Solver
    from .study import StudySummary, collect_deals, read_results, run_study
