"""The results of an analysis: one :class:`OptionEstimate` per option, and the :class:`Advice`.

Options are typed, never text: a bid (:data:`~dobbm_solver.models.bidding.Bid`), a
lay-away (a card set), a doubling decision (:data:`DoublingDecision`) or a card.
They are named for people only where the advice is printed (``dobbm_solver.report``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Hashable, Literal, Mapping, TypeVar

#: What ``double`` weighs: play on, or say the next doubling (a Schwacher, or a Retour).
DoublingDecision = Literal["play on", "double", "retour"]
#: The analyses, by the command that runs each.
Command = Literal["bid", "discard", "double", "play"]

#: An analysis's option: a bid (:data:`~dobbm_solver.models.bidding.Bid`), a lay-away (a card
#: set), a doubling decision (:data:`DoublingDecision`) or a card.
OptT = TypeVar("OptT", bound=Hashable)

#: Ties in expected units go to the option that risks less (lower first).
OPTION_ORDER: dict[str, int] = {"pass": 0, "play on": 0, "dobbm": 1, "solo": 2, "double": 1, "retour": 1}


@dataclass(frozen=True, kw_only=True)
class OptionEstimate(Generic[OptT]):
    """One option's Monte Carlo estimate, for the person asking.

    ``ev_units``: expected units received (negative: paid), ``stderr_units``
    its standard error.  ``expected_points``: the declarer's expected final
    points when the option is played, ``stderr`` its standard error (points).
    ``win_probability``: the declarer's chance of 61 or more.  The last three
    are None where the option plays no game (Pass).  ``samples``: the deals
    the option was solved on.  ``alike``: other options that are the same in
    play and so have the same estimate (lay-aways differing only in
    interchangeable 6-9 cards, cards next to each other), reported in this one.

    ``difference``: the option's expected units minus the recommendation's,
    paired (on the samples both were solved on, ``difference_samples`` of
    them), ``difference_stderr`` its standard error (None on fewer than two
    shared samples); the recommendation's own is 0.  ``shared_units`` and
    ``shared_recommendation_units``: the option's and the recommendation's
    expected units on those shared samples (by the same estimator), whose
    difference ``difference`` is.  ``ranked``: False for
    an option with too few samples to be ranked beside the recommendation
    (see :func:`~.estimate.rankable`).
    """

    option: OptT
    ev_units: float
    win_probability: float | None = None
    expected_points: float | None = None
    stderr: float | None = None
    samples: int
    stderr_units: float | None = None
    alike: tuple[OptT, ...] = ()
    difference: float = 0.0
    difference_stderr: float | None = None
    difference_samples: int = 0
    shared_units: float | None = None
    shared_recommendation_units: float | None = None
    ranked: bool = True


@dataclass(frozen=True, kw_only=True)
class Advice(Generic[OptT]):
    """The answer of one analysis: the options best first, and the recommendation.

    ``recommendation`` is ``options[0].option``; the options ranked come
    first, best first, then those with too few samples to be ranked
    (``ranked`` False).  ``margin`` is its lead in
    expected units over the runner-up and ``margin_stderr`` the standard error
    of that lead, computed on the samples both share.  ``samples`` is the
    most samples any option was solved on, ``seed`` the seed used (reproduce
    the run with it), ``jobs`` the worker processes, ``seconds`` the wall
    time.  ``info`` holds command-specific facts (see each ``analyze_*``),
    ``notes`` plain-text remarks on the method and its approximations.
    """

    command: Command
    me: str
    role: str
    recommendation: OptT
    options: tuple[OptionEstimate[OptT], ...]
    samples: int
    seed: int
    jobs: int
    seconds: float
    margin: float | None = None
    margin_stderr: float | None = None
    info: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def partial(self) -> bool:
        """True when Ctrl-C stopped the sampling: the estimates rest on the samples solved so far."""
        return bool(self.info.get("stopped") == "interrupted")


def rounded(x: float | None, nd: int) -> float | None:
    """``x`` rounded to ``nd`` digits; None stays None."""
    return None if x is None else round(float(x), nd)
