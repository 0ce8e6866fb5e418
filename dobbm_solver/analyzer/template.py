"""The one sampling-and-ranking path of the analyses: sample in batches, estimate, race, stop, rank.

An analysis (:class:`Analysis`) supplies its options, what a worker solves on
a sample for them (:mod:`.work`, the payload of each work item), how its
estimates are made from the solved samples (:meth:`Analysis.rank`), and its
``info`` and ``notes``.  The template does the rest, the same for every
analysis:

* the arguments checked (:func:`~.arguments.resolve_samples`,
  :func:`~.arguments.resolve_seed`, :func:`~.arguments.check_target`);
* the samples solved on the worker pool (:class:`~.runner.SampleRunner`):
  all ``samples`` at once, or adaptively a first batch and then batches of
  :data:`~.estimate.BATCH`, the next batch started while the last is judged,
  until the leader's expected points have standard error at most
  ``target_stderr`` (:meth:`Analysis.precise`) or the cap is reached
  (:func:`~.estimate.next_batch`);
* the race: an option whose paired difference in expected units from the
  leader exceeds :attr:`Analysis.race_z` standard errors is no longer sampled;
* the result: the options best first, the leader's margin over the runner-up
  as a paired difference on the samples both share, and the
  :class:`~.advice.Advice`.

``bid``, ``double`` and ``play`` run whole through :func:`run_analysis`.
``discard`` prunes hundreds of lay-aways in stages on shared samples before
its race, and estimates the lay-aways left behind through the leader
(:mod:`.discard`); it takes the arguments, the runner and the result from here.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Hashable, Mapping, Sequence

from .advice import Advice, Command, OptionEstimate, OptT
from .arguments import check_target, check_view, resolve_samples, resolve_seed
from .estimate import BATCH, CV_MIN_SAMPLES, TARGET_STDERR, next_batch, paired_difference
from .runner import Progress, SampleRunner
from .view import View


@dataclass(frozen=True)
class Ranking(Generic[OptT]):
    """The estimates of the options solved so far, best first, and each option's
    payments (units) by sample index, for the paired differences."""

    estimates: list[OptionEstimate[OptT]]
    pays: Mapping[OptT, Mapping[int, float]]


@dataclass(frozen=True)
class Settings:
    """An analysis's arguments, checked: ``fixed`` samples (None: adaptive), the seed,
    the target standard error (points)."""

    fixed: int | None
    seed: int
    target: float


class Analysis(ABC, Generic[OptT]):
    """One analysis for :func:`run_analysis`: its options and what it does with a sample.

    Subclasses set the class attributes and :meth:`rank`; ``options`` are
    those solved on the samples (an option that plays no game, as Pass, can
    be added by :meth:`rank` itself).  With :attr:`per_option` each option
    is one solve of a sample and the work item's payload is the options
    still sampled; otherwise one solve of a sample values every option (the
    payload is None) and every option has the same samples.
    """

    command: ClassVar[Command]
    #: adaptive sampling: the first batch, and the cap
    first: ClassVar[int]
    cap: ClassVar[int]
    #: an option trailing the leader by more standard errors than this is dropped (None: no race)
    race_z: ClassVar[float | None] = None
    per_option: ClassVar[bool] = False
    #: whether control variates are used (else plain means)
    control_variates: ClassVar[bool] = True

    def __init__(self, view: View, options: Sequence[OptT], result_key: Hashable | None = None) -> None:
        self.view = view
        self.options = list(options)
        self.active = list(options)                     # the options still sampled
        self.solved: dict[OptT, list[int]] = {o: [] for o in options}
        self.result_key = result_key                    # what a sample's results hold (per_option: the option)
        self.stopped = "samples"
        self.target = TARGET_STDERR

    # -- what the template asks of an analysis
    def fixed_samples(self, samples: int | None) -> int | None:
        """The sample count asked for, checked (None: adaptive)."""
        return resolve_samples(samples)

    def payload(self) -> tuple[OptT, ...] | None:
        """The payload of a work item: the options still sampled, or None (one solve for all)."""
        return tuple(self.active) if self.per_option else None

    @abstractmethod
    def rank(self, runner: SampleRunner) -> Ranking[OptT]:
        """Every option's estimate on the samples it was solved on, best first."""

    def precise(self, ranking: Ranking[OptT]) -> bool:
        """Whether the target is reached: the leader's points within it."""
        best = ranking.estimates[0]
        return best.stderr is not None and best.stderr <= self.target

    def info(self, runner: SampleRunner, ranking: Ranking[OptT]) -> dict[str, Any]:
        return {}

    def notes(self, ranking: Ranking[OptT]) -> tuple[str, ...]:
        return ()

    # -- used by the template
    def cost(self, payload: tuple[OptT, ...] | None) -> int:
        """The solves a work item counts for progress."""
        return len(payload) if payload is not None else 1

    def record(self, runner: SampleRunner, start: int, stop: int) -> None:
        """Note which of samples ``start .. stop-1`` each option still sampled was solved on."""
        for o in self.active:
            key = o if self.per_option else self.result_key
            self.solved[o].extend(i for i in range(start, stop) if runner.has(i, key))

    def samples(self) -> list[int]:
        """The samples solved (one solve for all: every option's)."""
        return self.solved[self.options[0]]

    def most_samples(self) -> int:
        return max((len(v) for v in self.solved.values()), default=0)


def settings(fixed: int | None, seed: int | None, target_stderr: float) -> Settings:
    """The arguments every analysis takes, checked: ``fixed`` (already checked), then the
    seed (None: a fresh one), then the target."""
    return Settings(fixed, resolve_seed(seed), check_target(target_stderr))


def start_control_variates(runner: SampleRunner, fixed: int | None, control_variates: bool) -> None:
    """Start the cheap draws of the control variates (not for a short fixed run; none at
    all without them: plain means)."""
    if control_variates:
        runner.start_cv(needed=fixed is None or fixed >= CV_MIN_SAMPLES)
    else:
        runner.start_cv(count=0, needed=False)


def margin_of(runner: SampleRunner, ranking: Ranking[Any]) -> tuple[float | None, float | None]:
    """The leader's lead in units over the runner-up, and its standard error: their paired
    difference on the samples both have (None with a single option)."""
    ests = ranking.estimates
    if len(ests) < 2:
        return None, None
    return paired_difference(runner.fit, ranking.pays[ests[0].option], ranking.pays[ests[1].option])


def finish(view: View, command: Command, t0: float, runner: SampleRunner, seed: int,
           options: Sequence[OptionEstimate[OptT]], samples: int, margin: tuple[float | None, float | None],
           info: Mapping[str, Any], notes: tuple[str, ...]) -> Advice[OptT]:
    """The :class:`~.advice.Advice` of a finished analysis, ``options`` best first."""
    return Advice(command=command, me=view.me, role=view.role,
                  recommendation=options[0].option, options=tuple(options), samples=samples,
                  seed=seed, jobs=runner.jobs, seconds=time.perf_counter() - t0,
                  margin=margin[0], margin_stderr=margin[1], info=info, notes=notes)


def sample(runner: SampleRunner, analysis: Analysis[OptT], fixed: int | None) -> None:
    """Solve batches of samples until the run stops: the fixed count, the target, the cap
    or Ctrl-C (``analysis.stopped`` says which).  Adaptively, after each batch the
    options clearly behind the leader drop out of the race, and the next batch starts
    on the workers while this one is judged (a batch not needed is cancelled, its
    results, if any, never used)."""
    n = fixed if fixed is not None else analysis.first
    cap = fixed if fixed is not None else analysis.cap
    start = 0
    while True:
        payload = analysis.payload()
        per_sample = analysis.cost(payload)
        runner.plan((n - start) * per_sample + (0 if fixed else BATCH * per_sample))
        runner.run([(i, payload) for i in range(start, n)], analysis.cost)
        analysis.record(runner, start, n)
        start = n
        if fixed is None:
            runner.start_ahead([(i, payload) for i in range(n, min(cap, n + BATCH))], analysis.cost)
        if runner.interrupted:      # (nothing was started ahead then)
            if not any(analysis.solved.values()):
                raise KeyboardInterrupt
            analysis.stopped = "interrupted"
            return
        if fixed is not None:
            return
        ranking = analysis.rank(runner)
        race(runner, analysis, ranking)
        n, why = next_batch(n, cap, analysis.precise(ranking) or not analysis.active)
        if why:
            runner.cancel_ahead()
            analysis.stopped = why
            return


def race(runner: SampleRunner, analysis: Analysis[OptT], ranking: Ranking[OptT]) -> None:
    """Stop sampling the options whose paired difference from the leader exceeds
    ``analysis.race_z`` standard errors."""
    z = analysis.race_z
    if z is None:
        return
    best = ranking.estimates[0]
    for e in ranking.estimates[1:]:
        if e.option in analysis.active:
            diff, se = paired_difference(runner.fit, ranking.pays[best.option], ranking.pays[e.option])
            if se is not None and diff > z * max(se, 1e-9):
                analysis.active.remove(e.option)


def run_analysis(analysis: Analysis[OptT], samples: int | None, seed: int | None, jobs: int | None,
                 progress: Progress | None, target_stderr: float) -> Advice[OptT]:
    """Run ``analysis`` (its view checked for its command) and rank its options."""
    t0 = time.perf_counter()
    check_view(analysis.view, analysis.command)
    s = settings(analysis.fixed_samples(samples), seed, target_stderr)
    analysis.target = s.target
    with SampleRunner(analysis.view, s.seed, jobs, progress) as runner:
        start_control_variates(runner, s.fixed, analysis.control_variates)
        sample(runner, analysis, s.fixed)
        ranking = analysis.rank(runner)
        margin = margin_of(runner, ranking)
    return finish(analysis.view, analysis.command, t0, runner, s.seed, ranking.estimates, analysis.most_samples(),
                  margin, analysis.info(runner, ranking), analysis.notes(ranking))
