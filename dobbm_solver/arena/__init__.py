"""The arena: strategies playing seeded deals end to end with hidden cards.

    >>> from dobbm_solver.arena import ArenaConfig, parse_player, run_arena, summarize
    >>> config = ArenaConfig(parse_player("advice"), parse_player("rule"), seed=1)
    >>> run = run_arena(config, deals=20, output="arena.jsonl", jobs=2)
    >>> run.summary.difference

The modules, in the order a deal flows through them:

* :mod:`.strategies` -- players (:class:`Player`: a strategy per decision),
  their names (:func:`parse_player`), the advice's sample counts;
* :mod:`.decisions` -- each strategy's bid, lay-away, doubling and card player;
* :mod:`.game` -- one deal dealt (:func:`deal_board`) and played end to end at one table;
* :mod:`.duplicate` -- the tables a deal is replayed at, and the paired differences;
* :mod:`.results` -- a table's result and a deal's row, typed (and their JSON);
* :mod:`.rows`, :mod:`.run` -- the resumable result file, and the run on the worker pool;
* :mod:`.summary` -- units a hand with standard errors, overall and per decision.
"""

from __future__ import annotations

from .results import DealRow, TableKey, TableResult
from .run import ArenaConfig, ArenaRun, run_arena
from .strategies import DECISIONS, ArenaError, ArenaSamples, Player, parse_player
from .summary import ArenaSummary, summarize

__all__ = [
    "DECISIONS", "Player", "parse_player", "ArenaSamples", "ArenaConfig", "ArenaError",
    "run_arena", "ArenaRun", "summarize", "ArenaSummary", "DealRow", "TableKey", "TableResult",
]
