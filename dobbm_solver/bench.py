"""The benchmark of the search: its node count on fixed deals, a signature, and its speed.

>>> from dobbm_solver.bench import run_bench
>>> result = run_bench()                    # the shipped deals, one thread, a 64 MiB table
>>> result.signature == result.expected     # the search is the one these figures were made with

The deals (``data/bench.yaml``, the 120 deals of ``hands/benchmark.yaml``) and
their committed figures (``data/bench_nodes.json``) are shipped in the package.
Each deal is solved from the opening lead, in file order, by one :class:`Solver`
(one thread, a table of ``tt_mb`` MiB, kept from deal to deal): first its value
(:meth:`Solver.solve`), then every legal card's value and a best line
(:meth:`Solver.analyze`).  Node counts are deterministic, so the two totals of
nodes are a signature of the search: equal on every machine for the same
search and table size, different when the search changed.  The committed
figures are for :data:`BENCH_TT_MB`; the node guard (``benchmarks/check_nodes.py``)
measures with :func:`run_bench` and checks the same file, deal by deal.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .cards import card_name
from .deal import Deal
from .handfile import parse_deal_text
from .solver import DEFAULT_TT_MB, Solver

__all__ = ["BENCH_TT_MB", "BenchResult", "DealFigures", "Signature", "bench_deals", "committed_figures",
           "expected_signature", "run_bench"]

#: The table size the committed figures are for (node counts depend on it).
BENCH_TT_MB = DEFAULT_TT_MB
PACKAGE = "dobbm_solver"
DEALS_FILE = "bench.yaml"
FIGURES_FILE = "bench_nodes.json"


@dataclass(frozen=True, kw_only=True)
class DealFigures:
    """One deal's figures: its value and nodes, and every legal card's value and the analysis's nodes."""

    declarer_points: int
    cards: dict[str, int]     # card name -> the declarer's final points after it, in card order
    value_nodes: int
    analysis_nodes: int


@dataclass(frozen=True, kw_only=True)
class Signature:
    """The search's signature: the nodes of the value solves and of the analyses, in total."""

    deals: int
    value_nodes: int
    analysis_nodes: int

    @property
    def nodes(self) -> int:
        return self.value_nodes + self.analysis_nodes


@dataclass(frozen=True, kw_only=True)
class BenchResult:
    """What :func:`run_bench` measured, with the committed signature to compare with.

    ``expected`` is None when the table size is not :data:`BENCH_TT_MB` (no
    committed figures are for that size)."""

    tt_mb: int
    figures: tuple[DealFigures, ...]
    seconds: float            # wall time of the solves (not of loading the deals)
    expected: Signature | None

    @property
    def signature(self) -> Signature:
        return Signature(deals=len(self.figures), value_nodes=sum(f.value_nodes for f in self.figures),
                         analysis_nodes=sum(f.analysis_nodes for f in self.figures))

    @property
    def deals(self) -> int:
        return len(self.figures)

    @property
    def value_nodes(self) -> int:
        return self.signature.value_nodes

    @property
    def analysis_nodes(self) -> int:
        return self.signature.analysis_nodes

    @property
    def matches(self) -> bool | None:
        """Whether the signature is the committed one (None: none committed for this table size)."""
        return None if self.expected is None else self.signature == self.expected

    @property
    def seconds_per_deal(self) -> float:
        return self.seconds / self.deals if self.deals else 0.0

    @property
    def nodes_per_second(self) -> float:
        return self.signature.nodes / self.seconds if self.seconds > 0 else 0.0


def bench_deals() -> list[Deal]:
    """The shipped benchmark deals, in file order."""
    text = (resources.files(PACKAGE) / "data" / DEALS_FILE).read_text(encoding="utf-8")
    return parse_deal_text(text, f"{PACKAGE}/data/{DEALS_FILE}")


def committed_figures() -> dict[str, Any]:
    """The committed figures as stored: ``deals``, ``total`` (the signature's two totals) and
    ``results`` (each deal's :class:`DealFigures` as a dict)."""
    text = (resources.files(PACKAGE) / "data" / FIGURES_FILE).read_text(encoding="utf-8")
    figures: dict[str, Any] = json.loads(text)
    return figures


def expected_signature() -> Signature:
    """The committed signature (for :data:`BENCH_TT_MB`)."""
    figures = committed_figures()
    total = figures["total"]
    return Signature(deals=int(figures["deals"]), value_nodes=int(total["value_nodes"]),
                     analysis_nodes=int(total["analysis_nodes"]))


def run_bench(*, tt_mb: int = BENCH_TT_MB) -> BenchResult:
    """Solve every benchmark deal (its value, then every card's value and a line) on one
    thread with one table of ``tt_mb`` MiB; the figures, the time and the committed signature."""
    deals = bench_deals()
    solver = Solver(tt_mb)
    figures = []
    start = time.perf_counter()
    for deal in deals:
        solution = solver.solve(deal)
        analysis = solver.analyze(deal)
        figures.append(DealFigures(declarer_points=solution.declarer_points,
                                   cards={card_name(c): v for c, v in sorted(analysis.cards.items())},
                                   value_nodes=solution.nodes, analysis_nodes=analysis.nodes))
    seconds = time.perf_counter() - start
    return BenchResult(tt_mb=tt_mb, figures=tuple(figures), seconds=seconds,
                       expected=expected_signature() if tt_mb == BENCH_TT_MB else None)
