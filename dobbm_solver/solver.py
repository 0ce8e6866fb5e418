"""The public face of the exact open-card solver.

>>> from dobbm_solver.solver import Solver
>>> solver = Solver()                       # owns a 64 MiB transposition table
>>> solution = solver.solve(deal)           # value of the position under best play
>>> solver.solve_all_cards(deal)            # value after each legal card of the player to move
>>> solver.analyze(deal)                    # value, card values and the best line
>>> solver.study_discards(dobbm)            # every lay-away of a Dobbm, best first
>>> solver.solve_best(dobbm, analyze=True)  # the best lay-away, then the deal solved with it
>>> solver.solve_batch(deals, jobs=2)       # many deals on threads of the compiled core

``jobs`` everywhere: :func:`dobbm_solver.jobs.resolve_jobs` (None or 0: one per core).

Every value is the declarer's *final* points (0..120): points already taken,
the Dobb's (Solo) or the lay-away's (Dobbm) points and the Match rule included.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence, TypeVar

from .cards import Card, CardSet
from .deal import Deal, replay
from .errors import DobbmError
from .jobs import resolve_jobs
from .models.discard_rule import legal_discards
from .rules import Outcome, outcome, units

try:
    from . import _search
except ImportError as exc:  # pragma: no cover - a broken install, not a code path
    raise ImportError(
        "dobbm_solver's compiled search core (_search) is missing: build it in this source folder "
        "with 'pip install -e .', or after 'pip install .' run from outside the source folder "
        "(which otherwise shadows the installed package)"
    ) from exc

DEFAULT_TT_MB = 64
R = TypeVar("R")
MAX_TT_MB = 65536       # 64 GiB: the largest table a solver may ask for


class SolveError(DobbmError):
    """A deal the solver cannot search (e.g. a Dobbm whose lay-away is not chosen)."""


@dataclass(frozen=True)
class Solution:
    """The result of best play from a position.  Points are the declarer's."""

    declarer: str
    declarer_points: int
    to_move: str | None
    nodes: int
    contract: str
    doublings: int

    @property
    def defender_points(self) -> int:
        return 120 - self.declarer_points

    @property
    def outcome(self) -> Outcome:
        return outcome(self.declarer_points)

    @property
    def units(self) -> int:
        """Units each defender pays the declarer (negative: the declarer pays each)."""
        return units(self.declarer_points, self.contract, self.doublings)


def _solution(declarer: str, declarer_points: int, to_move: str | None, nodes: int, contract: str,
              doublings: int) -> Solution:
    """``Solution(...)`` with these fields, made with one update of its ``__dict__``: a
    frozen dataclass's ``__init__`` sets each field by ``object.__setattr__``, which
    took a fifth of a small solve's fixed cost."""
    solution = object.__new__(Solution)
    solution.__dict__.update(declarer=declarer, declarer_points=declarer_points, to_move=to_move,
                             nodes=nodes, contract=contract, doublings=doublings)
    return solution


@dataclass(frozen=True)
class Analysis(Solution):
    """A solution with the value of every legal card and a best line to the end."""

    cards: Mapping[Card, int] = field(default_factory=dict)
    line: tuple[Card, ...] = ()


@dataclass(frozen=True)
class DiscardResult:
    """One lay-away of a Dobbm and the declarer's final points with it under best play."""

    cards: CardSet
    declarer_points: int
    nodes: int


@dataclass(frozen=True)
class BestPlay:
    """A deal solved as it will be played: a Dobbm whose lay-away is not chosen yet
    is studied first and played with its best lay-away (see :meth:`Solver.solve_best`).

    ``deal`` is the deal played (with the chosen lay-away), ``studied`` every
    legal lay-away ranked best first (None when the deal needed no study),
    ``value`` the deal's solution (an :class:`Analysis` when analysed) and
    ``nodes`` the positions searched for all of it, the study included.
    """

    deal: Deal
    studied: tuple[DiscardResult, ...] | None
    value: Solution | Analysis
    nodes: int

    @property
    def analysis(self) -> Analysis:
        """The value with card values and a best line (``solve_best(..., analyze=True)``)."""
        if not isinstance(self.value, Analysis):
            raise TypeError("solve_best(..., analyze=False) gives no card values and no line")
        return self.value


class Solver:
    """An exact solver with its own transposition table (``tt_mb`` MiB); reuse it."""

    def __init__(self, tt_mb: int = DEFAULT_TT_MB) -> None:
        if not isinstance(tt_mb, int) or not 1 <= tt_mb <= MAX_TT_MB:
            raise SolveError(f"table size must be a whole number of MiB, 1 to {MAX_TT_MB}, not {tt_mb!r}")
        self.tt_mb = tt_mb
        self._core = _search.Core(tt_mb)
        self._extra_cores: list[_search.Core] = []      # more tables for study_discards(jobs > 1)

    # -- setting up the core -------------------------------------------------
    def _load(self, deal: Deal, keep_table: bool = False, core: _search.Core | None = None) -> str | None:
        """Set ``deal``'s position as the root of ``core`` (this solver's by default);
        the seat to move, None when every trick is played (then the core's
        ``final_points`` is the value).  The core replays the tricks itself: the
        fixed cost of a small solve is this call."""
        if deal.needs_discard:
            raise SolveError("discard: a Dobbm needs its lay-away to be solved (or use study_discards)")
        active = deal.active_seats
        d = active.index(deal.declarer)
        order = active[d:] + active[:d]         # relative seat 0 = declarer
        seat = (core or self._core).set_play(deal.hands, order, deal.tricks, deal.bonus_points, keep_table)
        return None if seat < 0 else order[seat]

    # -- the verbs -----------------------------------------------------------
    def solve(self, deal: Deal) -> Solution:
        """The declarer's final points under best play from the deal's position."""
        to_move = self._load(deal)
        core = self._core
        value = core.final_points if to_move is None else core.value()
        return _solution(deal.declarer, value, to_move, core.nodes, deal.contract, deal.doublings)

    def solve_all_cards(self, deal: Deal) -> dict[Card, int]:
        """Final declarer points after each legal card of the player to move."""
        if self._load(deal) is None:
            return {}
        return dict(self._core.card_values())

    def analyze(self, deal: Deal) -> Analysis:
        """Value, every legal card's value and a best line to the end of the hand."""
        to_move = self._load(deal)
        if to_move is None:
            return Analysis(deal.declarer, self._core.final_points, None, 0, deal.contract,
                            deal.doublings, {}, ())
        cards = dict(self._core.card_values())
        value = max(cards.values()) if to_move == deal.declarer else min(cards.values())
        line = tuple(self._core.line(value))
        return Analysis(deal.declarer, value, to_move, self._core.nodes, deal.contract,
                        deal.doublings, cards, line)

    def solve_best(self, deal: Deal, *, analyze: bool, jobs: int | None = None) -> BestPlay:
        """Solve a deal as it will be played: a Dobbm with no lay-away yet is studied first
        (:meth:`study_discards` with ``jobs``) and its best lay-away played.

        ``analyze`` gives an :class:`Analysis` (card values and a best line) of the
        deal played; else a :class:`Solution`, which after a study is the best
        lay-away's value from the study itself, with no second search.
        """
        studied = None
        nodes = 0
        if deal.needs_discard:
            studied = tuple(self.study_discards(deal, jobs))
            nodes = sum(r.nodes for r in studied)
            deal = deal.with_discard(studied[0].cards)
        value: Solution
        if analyze:
            value = self.analyze(deal)
            nodes += value.nodes
        elif studied is not None:
            best = studied[0]
            value = Solution(deal.declarer, best.declarer_points, replay(deal, check=False).to_move,
                             best.nodes, deal.contract, deal.doublings)
        else:
            value = self.solve(deal)
            nodes += value.nodes
        return BestPlay(deal, studied, value, nodes)

    def study_discards(self, deal: Deal, jobs: int | None = None) -> list[DiscardResult]:
        """Every legal lay-away of a Dobbm (declarer holding the 8 dealt cards), best first.

        The lay-aways are split into ``jobs`` runs of consecutive ones (its meaning:
        :func:`~dobbm_solver.jobs.resolve_jobs`), each solved in a thread of its own with a
        table of its own (``jobs - 1`` tables of ``tt_mb`` MiB more, kept for
        the next study); the search releases the GIL.  Within a run the
        lay-aways share their table.  The values do not depend on ``jobs``
        (the node counts do); ``jobs=1`` uses this solver's table alone.
        Ties keep the lay-aways in ``combinations`` order.
        """
        if not deal.needs_discard:
            raise SolveError("discard: the study needs a Dobbm with the Dobb not yet taken")
        workers = resolve_jobs(jobs)
        discards = legal_discards(deal.hands[deal.declarer] | deal.dobb)
        jobs = min(workers, len(discards))
        if jobs <= 1:
            results = self._study_run(self._core, deal, discards)
        else:
            cores = self._cores(jobs)
            size = -(-len(discards) // jobs)
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                runs = pool.map(lambda i: self._study_run(cores[i], deal,
                                                          discards[i * size:(i + 1) * size]),
                                range(jobs))
                results = [r for run in runs for r in run]
        results.sort(key=lambda r: -r.declarer_points)
        return results

    # -- batches ---------------------------------------------------------------
    def solve_batch(self, deals: Sequence[Deal], jobs: int | None = None) -> list[Solution]:
        """:meth:`solve` of every deal, in order, on ``jobs`` threads of the compiled core.

        The deals are split into ``jobs`` runs of consecutive ones, each solved
        in a thread with a table of its own (``jobs - 1`` more tables of
        ``tt_mb`` MiB, kept for the next batch); the search releases the GIL,
        so the threads run on separate cores with no process and no pickling.
        Values never depend on ``jobs`` (node counts do); its meaning:
        :func:`~dobbm_solver.jobs.resolve_jobs`.
        """
        return self._batch(deals, jobs, self._solve_on)

    def solve_all_cards_batch(self, deals: Sequence[Deal], jobs: int | None = None) -> list[dict[Card, int]]:
        """:meth:`solve_all_cards` of every deal, in order, as :meth:`solve_batch` runs them."""
        return self._batch(deals, jobs, self._all_cards_on)

    def _solve_on(self, core: _search.Core, deal: Deal) -> Solution:
        to_move = self._load(deal, core=core)
        value = core.final_points if to_move is None else core.value()
        return _solution(deal.declarer, value, to_move, core.nodes, deal.contract, deal.doublings)

    def _all_cards_on(self, core: _search.Core, deal: Deal) -> dict[Card, int]:
        return {} if self._load(deal, core=core) is None else dict(core.card_values())

    def _batch(self, deals: Sequence[Deal], jobs: int | None, one: Callable[[_search.Core, Deal], R]) -> list[R]:
        deals = list(deals)
        jobs = max(1, min(resolve_jobs(jobs), len(deals)))
        cores = self._cores(jobs)
        if jobs == 1:
            return [one(self._core, d) for d in deals]
        size = -(-len(deals) // jobs)

        def run(i: int) -> list[R]:
            return [one(cores[i], d) for d in deals[i * size:(i + 1) * size]]

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return [r for part in pool.map(run, range(jobs)) for r in part]

    def _cores(self, n: int) -> list[_search.Core]:
        """This solver's core and ``n - 1`` more, each with a table of its own."""
        while len(self._extra_cores) < n - 1:
            self._extra_cores.append(_search.Core(self.tt_mb))
        return [self._core, *self._extra_cores[:n - 1]]

    def _study_run(self, core: _search.Core, deal: Deal, discards: list[CardSet]) -> list[DiscardResult]:
        """Solve each lay-away on ``core``; they share its table (its bounds hold for any bonus)."""
        out: list[DiscardResult] = []
        for discard in discards:
            self._load(deal.with_discard(discard), keep_table=bool(out), core=core)
            out.append(DiscardResult(discard, core.value(), core.nodes))
        return out

