"""The results of an analysis: one :class:`OptionEstimate` per option, and the :class:`Advice`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

#: Ties in expected units go to the option that risks less (lower first).
OPTION_ORDER = {"pass": 0, "play on": 0, "dobbm": 1, "solo": 2, "double": 1, "retour": 1}


@dataclass(frozen=True)
class OptionEstimate:
    """One option's Monte Carlo estimate, for the person asking.

    ``ev_units``: expected units received (negative: paid), ``stderr_units``
    its standard error.  ``expected_points``: the declarer's expected final
    points when the option is played, ``stderr`` its standard error (points).
    ``win_probability``: the declarer's chance of 61 or more.  The last three
    are None where the option plays no game (Pass).  ``samples``: the deals
    the option was solved on.  ``alike``: other options that are the same in
    play and so have the same estimate (lay-aways differing only in
    interchangeable 6-9 cards), reported in this one.
    """

    option: Any
    ev_units: float
    win_probability: float | None
    expected_points: float | None
    stderr: float | None
    samples: int
    stderr_units: float | None = None
    alike: tuple[Any, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``option`` (a list of four card names for a lay-away), ``ev_units``,
        ``win_probability``, ``expected_points``, ``stderr``, ``stderr_units``, ``samples``,
        ``alike`` (a list of options, see the class)."""
        return {
            "option": jsonable(self.option),
            "ev_units": rounded(self.ev_units, 4),
            "win_probability": rounded(self.win_probability, 4),
            "expected_points": rounded(self.expected_points, 3),
            "stderr": rounded(self.stderr, 3),
            "stderr_units": rounded(self.stderr_units, 4),
            "samples": self.samples,
            "alike": [jsonable(a) for a in self.alike],
        }


def jsonable(x: Any) -> Any:
    """A tuple (a lay-away) as a list; anything else as it is."""
    return list(x) if isinstance(x, tuple) else x


def rounded(x: float | None, nd: int) -> float | None:
    """``x`` rounded to ``nd`` digits; None stays None."""
    return None if x is None else round(float(x), nd)


@dataclass(frozen=True)
class Advice:
    """The answer of one analysis: the options best first, and the recommendation.

    ``recommendation`` is ``options[0].option``.  ``margin`` is its lead in
    expected units over the runner-up and ``margin_stderr`` the standard error
    of that lead, computed on the samples both share.  ``samples`` is the
    most samples any option was solved on, ``seed`` the seed used (reproduce
    the run with it), ``jobs`` the worker processes, ``seconds`` the wall
    time.  ``info`` holds command-specific facts (see each ``analyze_*``),
    ``notes`` plain-text remarks on the method and its approximations.
    """

    command: str
    me: str
    role: str
    recommendation: Any
    options: tuple[OptionEstimate, ...]
    samples: int
    seed: int
    jobs: int
    seconds: float
    margin: float | None = None
    margin_stderr: float | None = None
    info: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """One JSON-ready object: ``recommendation``, ``options`` (each
        :meth:`OptionEstimate.to_json`), and the rest."""
        return {
            "command": self.command,
            "me": self.me,
            "role": self.role,
            "recommendation": jsonable(self.recommendation),
            "options": [o.to_json() for o in self.options],
            "samples": self.samples,
            "seed": self.seed,
            "jobs": self.jobs,
            "seconds": round(self.seconds, 3),
            "margin": rounded(self.margin, 4),
            "margin_stderr": rounded(self.margin_stderr, 4),
            "info": {k: jsonable(v) for k, v in self.info.items()},
            "notes": list(self.notes),
        }
