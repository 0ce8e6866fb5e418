"""The arena's players: one strategy per decision (bid, discard, double, play).

A player is written as a *player name*:

* ``rule``, ``advice``, ``pimc``, ``infer``, ``alphamu`` or ``open``: that strategy for all four decisions;
* a base name and overrides, comma-separated: ``advice,play=rule`` is the
  advice for bid, discard and double and the rule of thumb for the card play;
* all four decisions named: ``bid=advice,discard=rule,double=rule,play=rule``
  (a decision left out takes the base; with no base every decision must be named).

The strategies per decision:

======== ============================== ============================== ==============================
decision ``rule`` (the heuristics)      ``advice`` (the analyzer)      ``open`` (sees every hand)
======== ============================== ============================== ==============================
bid      ``model_bid``, noiseless       ``analyze_bid``                the best of pass (0), the
                                                                       seat's Dobbm (best lay-away)
                                                                       and Solo, solved open
discard  ``heuristic_discard``          ``analyze_discard``            the best lay-away of
                                                                       ``Solver.study_discards``
double   never (no Schwacher, no        ``analyze_double``             when open-card play of the
         Retour)                                                       real deal says the other
                                                                       side loses
play     ``rule_of_thumb_strategy``     the Monte Carlo card player    ``open_card_strategy``
======== ============================== ============================== ==============================

``pimc`` is the advice as it was before it valued the pass: perfect-information
Monte Carlo for all four decisions, its bid counting a pass as 0.  It stays a
player by name so that every new method is measured against it (``advice
pimc --per-decision``).  ``infer`` is the advice whose card player reads the
play (:mod:`dobbm_solver.models.play_model`; measured, not yet the
advice's).  ``alphamu`` is the advice whose declarer chooses its cards in
tricks 1 to 3 by alpha-mu search (:mod:`dobbm_solver.analyzer.alphamu`; its
other cards as ``advice``).  Where two of them decide alike they are one method
(:func:`method`): a comparison swaps only the decisions whose methods differ.

The advice strategies run with the fixed sample counts of
:class:`ArenaSamples` (fewer than at the table, so that an arena of a few
hundred deals takes minutes); every report states them.  With a time budget
in milliseconds per analysis (``ArenaConfig.budget_ms``) each analysis stops
between batches once it has used its time, the counts (by default
:data:`TIMED_SAMPLES`) its caps, and the samples each used are recorded.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..analyzer.estimate import MAX_SAMPLES
from ..errors import DobbmError

DECISIONS: tuple[str, ...] = ("bid", "discard", "double", "play")
STRATEGY_NAMES: tuple[str, ...] = ("rule", "advice", "pimc", "infer", "open", "alphamu")
#: The strategies that sample (the analyzer's): their sample counts and budgets apply.
SAMPLING: tuple[str, ...] = ("advice", "pimc", "infer", "alphamu")
#: The decisions where each strategy of the analyzer decides as ``advice`` does.
AS_ADVICE: dict[str, tuple[str, ...]] = {"pimc": ("discard", "double", "play"),
                                         "infer": ("bid", "discard", "double"),
                                         "alphamu": ("bid", "discard", "double")}


def method(decision: str, strategy: str) -> str:
    """The method behind ``strategy`` for ``decision``: ``pimc``, ``infer`` and ``alphamu`` are ``advice``
    where they decide alike (:data:`AS_ADVICE`), else each strategy is its own."""
    return "advice" if decision in AS_ADVICE.get(strategy, ()) else strategy


class ArenaError(DobbmError):
    """Bad arena input: a player name, a number of deals, a seed, a result file."""


@dataclass(frozen=True)
class ArenaSamples:
    """Fixed sample counts of the advice strategies in the arena (one analysis each)."""

    bid: int = 12
    discard: int = 6
    double: int = 12
    play: int = 8

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    def text(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.as_dict().items())


#: The sample counts the arena uses unless told otherwise.
ARENA_SAMPLES = ArenaSamples()
#: The caps with a time budget: each analysis's adaptive cap (the budget binds first).
TIMED_SAMPLES = ArenaSamples(**{d: MAX_SAMPLES[d] for d in DECISIONS})


@dataclass(frozen=True)
class Player:
    """A strategy name for each decision."""

    bid: str
    discard: str
    double: str
    play: str

    def of(self, decision: str) -> str:
        return {"bid": self.bid, "discard": self.discard, "double": self.double, "play": self.play}[decision]

    def with_decision(self, decision: str, strategy: str) -> "Player":
        """This player with ``decision`` taken by ``strategy``."""
        parts = {d: self.of(d) for d in DECISIONS}
        parts[decision] = strategy
        return Player(**parts)

    @property
    def name(self) -> str:
        """The canonical player name: one strategy name, or the base (the most used)
        and the decisions that differ from it."""
        names = [self.of(d) for d in DECISIONS]
        base = max(STRATEGY_NAMES, key=lambda s: (names.count(s), -STRATEGY_NAMES.index(s)))
        rest = [f"{d}={self.of(d)}" for d in DECISIONS if self.of(d) != base]
        return ",".join([base] + rest)

    @property
    def uses_advice(self) -> bool:
        return any(self.of(d) in SAMPLING for d in DECISIONS)

    def __str__(self) -> str:
        return self.name


def _check_strategy(name: str, where: str) -> str:
    if name not in STRATEGY_NAMES:
        raise ArenaError(f"player {where!r}: no strategy {name!r} (strategies: {', '.join(STRATEGY_NAMES)})")
    return name


def parse_player(text: str) -> Player:
    """A :class:`Player` from its name (see the module's doc); :class:`ArenaError` if bad."""
    base: str | None = None
    parts: dict[str, str] = {}
    items = [t.strip().lower() for t in str(text).split(",")]
    if not text or not any(items):
        raise ArenaError(f"player {text!r}: empty; give a strategy ({', '.join(STRATEGY_NAMES)})")
    for item in items:
        if not item:
            raise ArenaError(f"player {text!r}: an empty part between commas")
        if "=" not in item:
            if base is not None:
                raise ArenaError(f"player {text!r}: two base strategies ({base}, {item}); "
                                 f"name the others as DECISION=STRATEGY")
            base = _check_strategy(item, text)
            continue
        decision, _, strategy = (s.strip() for s in item.partition("="))
        if decision not in DECISIONS:
            raise ArenaError(f"player {text!r}: no decision {decision!r} (decisions: {', '.join(DECISIONS)})")
        if decision in parts:
            raise ArenaError(f"player {text!r}: {decision} named twice")
        parts[decision] = _check_strategy(strategy, text)
    missing = [d for d in DECISIONS if d not in parts]
    if missing and base is None:
        raise ArenaError(f"player {text!r}: no strategy for {', '.join(missing)} "
                         f"(give a base, e.g. 'rule,{items[0]}', or name all four decisions)")
    return Player(**{d: parts.get(d, base or "") for d in DECISIONS})

