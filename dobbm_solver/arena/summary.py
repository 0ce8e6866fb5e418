"""What an arena's rows say: units a hand with standard errors, paired differences.

Every figure is a mean over deals of a per-deal value (see :mod:`.duplicate`)
with its standard error ``stdev / sqrt(deals)`` over the deals (None with
fewer than two deals).  Units are a seat's net units a hand (the declarer's
three payments added, a defender's own one).  A difference within
:data:`SIGNIFICANT_Z` standard errors of 0 is not significant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable

from .duplicate import deal_difference, decision_value, swapped_decisions
from .game import SEATS
from .results import BASE, DealRow
from .strategies import DECISIONS

if TYPE_CHECKING:   # the run module imports this one
    from .run import ArenaConfig


#: A difference within this many standard errors of 0 is not significant.
SIGNIFICANT_Z = 2.0


@dataclass(frozen=True, kw_only=True)
class Mean:
    """A mean over deals with its standard error (None: fewer than two deals)."""

    units_per_hand: float
    stderr: float | None
    deals: int

    @property
    def significant(self) -> bool | None:
        """Whether the mean is more than :data:`SIGNIFICANT_Z` standard errors from 0
        (None: no standard error, fewer than two deals)."""
        if self.stderr is None:
            return None
        return abs(self.units_per_hand) > SIGNIFICANT_Z * self.stderr

    def as_dict(self) -> dict[str, Any]:
        return {"units_per_hand": round(self.units_per_hand, 4),
                "stderr": None if self.stderr is None else round(self.stderr, 4)}

    def difference_dict(self) -> dict[str, Any]:
        """:meth:`as_dict` with ``significant`` (a difference's)."""
        return {**self.as_dict(), "significant": self.significant}


def _sqrt(q: Fraction) -> float:
    """The square root of ``q`` >= 0, correctly rounded to a float (as ``statistics.stdev``
    rounds it): the root to 55 more bits than a float holds, its last bit set if inexact
    (round to odd), then one rounding to a float."""
    n, d = q.numerator, q.denominator
    shift = (n.bit_length() - d.bit_length() - 2 * 53 - 3) // 2
    if shift >= 0:
        a = math.isqrt(n // (d << 2 * shift))
        root = (a | (a * a * (d << 2 * shift) != n)) << shift
        return float(root)
    a = math.isqrt((n << -2 * shift) // d)
    return (a | (a * a * d != n << -2 * shift)) / (1 << -shift)


@dataclass
class Running:
    """A mean and its standard error kept exactly as the values come, in any order:
    their count, sum and sum of squares as fractions (each value is a float, so each
    is exact).  :meth:`mean` gives what ``math.fsum`` and ``statistics.stdev`` give
    on the list of values, without keeping the list."""

    n: int = 0
    total: Fraction = field(default_factory=Fraction)
    squares: Fraction = field(default_factory=Fraction)

    def add(self, value: float) -> None:
        x = Fraction(value)
        self.n += 1
        self.total += x
        self.squares += x * x

    def mean(self) -> Mean:
        n = self.n
        if n == 0:
            return Mean(units_per_hand=0.0, stderr=None, deals=0)
        m = float(self.total) / n
        if n == 1:
            return Mean(units_per_hand=m, stderr=None, deals=1)
        variance = (n * self.squares - self.total * self.total) / n / (n - 1)
        return Mean(units_per_hand=m, stderr=_sqrt(variance) / math.sqrt(n), deals=n)


def mean_of(values: Iterable[float]) -> Mean:
    """The mean of ``values`` and its standard error ``stdev / sqrt(n)``."""
    running = Running()
    for v in values:
        running.add(v)
    return running.mean()


@dataclass(frozen=True, kw_only=True)
class ArenaSummary:
    """``a`` and ``b``: each player's units a hand; ``difference``: A - B, paired;
    ``per_decision``: what A's strategy for each decision is worth over B's (None:
    not measured, i.e. no ``per_decision`` tables; 0 exactly when A and B use the
    same strategy for it); ``contracts``: how the base and A tables were declared."""

    config: ArenaConfig
    deals: int
    a: Mean
    b: Mean
    difference: Mean
    per_decision: dict[str, Mean | None]
    contracts: dict[str, int]
    #: with a time budget: the mean samples an analysis of each decision used, A's (in its
    #: seat at the A tables) and B's (at the all-B table); decisions never analysed left out
    samples_used: dict[str, dict[str, float]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        c = self.config
        return {
            "a": c.a.name, "b": c.b.name, "seed": c.seed, "deals": self.deals,
            "scheme": "one seat replaced: A in each seat in turn at a table of B's, against the all-B table",
            "units": "a seat's net units a hand (the declarer's three payments added, a defender's own "
                     "one), the mean over the four seats and the deals",
            "samples": c.samples.as_dict(),
            "a_units": self.a.as_dict(), "b_units": self.b.as_dict(),
            "difference": self.difference.difference_dict(),
            "significant_z": SIGNIFICANT_Z,
            "per_decision": {d: (None if m is None else
                                 {**m.difference_dict(), "a": c.a.of(d), "b": c.b.of(d)})
                             for d, m in self.per_decision.items()},
            "contracts": self.contracts,
            **({"budget_ms": c.budget_ms, "samples_used": self.samples_used} if c.budget_ms is not None else {}),
        }


class Tally:
    """An arena's summary kept up to date row by row (rows in any order), so that a run
    keeps no row: :meth:`add` each deal's row, :meth:`summary` at any time."""

    def __init__(self, config: ArenaConfig) -> None:
        self.config = config
        self.deals = 0
        self.a, self.b, self.difference = Running(), Running(), Running()
        self.swapped = swapped_decisions(config.a, config.b)
        self.per_decision = {d: Running() for d in self.swapped}
        # contract -> how many tables, and where it first shows (deal, table in the row)
        self.contracts: dict[str, int] = {}
        self.first: dict[str, tuple[int, int]] = {}
        # player ("a", "b") -> decision -> [analyses, samples]
        self.used: dict[str, dict[str, list[int]]] = {"a": {}, "b": {}}

    def add(self, row: DealRow) -> None:
        self.deals += 1
        a, b, d = deal_difference(row.tables, SEATS)
        self.a.add(a)
        self.b.add(b)
        self.difference.add(d)
        if self.config.per_decision:
            for dec in self.swapped:
                self.per_decision[dec].add(decision_value(row.tables, SEATS, dec))
        for i, (key, t) in enumerate(row.tables.items()):
            if key.swapped is None:
                who = "b" if key == BASE else "a"
                for seat, decision, n in t.samples:
                    if who == "b" or seat == SEATS[key.seat or 0]:
                        count = self.used[who].setdefault(decision, [0, 0])
                        count[0] += 1
                        count[1] += n
            if key == BASE or key.swapped is None:
                name = t.contract or "thrown in"
                self.contracts[name] = self.contracts.get(name, 0) + 1
                self.first[name] = min(self.first.get(name, (row.deal, i)), (row.deal, i))

    def summary(self) -> ArenaSummary:
        n = self.deals
        per: dict[str, Mean | None] = {}
        for dec in DECISIONS:
            if dec not in self.swapped:
                per[dec] = Mean(units_per_hand=0.0, stderr=0.0 if n > 1 else None, deals=n)
            elif self.config.per_decision:
                per[dec] = self.per_decision[dec].mean()
            else:
                per[dec] = None
        # the contracts in the order they first show in deal order
        contracts = {k: self.contracts[k] for k in sorted(self.contracts, key=self.first.__getitem__)}
        used = {who: {d: round(c[1] / c[0], 1) for d in DECISIONS if (c := self.used[who].get(d))}
                for who in ("a", "b")}
        return ArenaSummary(config=self.config, deals=n, a=self.a.mean(), b=self.b.mean(),
                            difference=self.difference.mean(), per_decision=per, contracts=contracts,
                            samples_used=used)


def summarize(rows: Iterable[DealRow], config: ArenaConfig) -> ArenaSummary:
    """The summary of ``rows`` (one per deal, as :func:`~.run.run_arena` plays them)."""
    tally = Tally(config)
    for row in rows:
        tally.add(row)
    return tally.summary()
