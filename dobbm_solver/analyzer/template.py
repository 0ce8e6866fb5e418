"""The one sampling-and-ranking path of the analyses: sample in batches, estimate, race, stop, rank.

An analysis (:class:`Analysis`) supplies its options, what a worker solves on
a sample for them (:mod:`.work`, the payload of each work item), how its
estimates are made from the solved samples (:meth:`Analysis.rank`), and its
``info`` and ``notes``.  :func:`run_analysis` does the rest, the same for
every analysis:

* the arguments checked: the samples, the seed, the target standard error;
* the samples solved on the worker pool (:class:`~.runner.SampleRunner`),
  with control variates from cheap draws unless the analysis does without;
* the batches (:func:`sample`): all ``samples`` at once, or adaptively a
  first batch and then batches of :data:`~.estimate.BATCH`, the next batch
  started on the workers while the last is judged, until the leader's
  expected points have standard error at most ``target_stderr``
  (:meth:`Analysis.precise`) or the cap is reached
  (:func:`~.estimate.next_batch`);
* a time budget (``budget``, seconds; None: none): the batches are then
  :data:`TIMED_BATCH` samples and the run stops after the first batch that
  ends past the deadline (``stopped`` ``"time"``), so its result depends on
  the samples it reached alone: with a fixed count it is that of a run of as
  many samples without a budget; adaptively, that of any timed run that
  reached as many;
* the race (:meth:`Analysis.race`): an option whose paired difference in
  expected units from the leader exceeds :attr:`Analysis.race_z` standard
  errors is no longer sampled;
* the result: the options best first, each with its paired difference
  from the recommendation on the samples both have (:func:`compared`);
  those with too few samples to be ranked beside it
  (:func:`~.estimate.rankable`) after the others; the leader's margin over
  the runner-up; and the :class:`~.advice.Advice`.

The analyses differ only in their hooks: ``bid`` races its bids, each a
solve of its own; ``double`` and ``play`` value every option on one solve
of a sample; ``discard`` first prunes hundreds of lay-aways in stages
(:meth:`Analysis.prepare`), races also to a fixed sample count, lets a
lay-away left behind rejoin the race (:meth:`Analysis.rejoin`) and ranks
the rest through the leader (:meth:`Analysis.result`).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from typing import Any, Callable, ClassVar, Generic, Hashable, Mapping, Sequence

from .advice import Advice, Command, OptionEstimate, OptT
from .arguments import check_target, check_view, resolve_samples, resolve_seed
from .estimate import BATCH, CV_MIN_SAMPLES, TARGET_STDERR, PlainMean, next_batch, paired_difference, rankable
from .runner import Item, Progress, SampleRunner
from .view import View

Margin = tuple[float | None, float | None]

#: With a time budget the samples come in batches of this many (the run stops between
#: batches once its time is used).
TIMED_BATCH = 4


@dataclass(frozen=True)
class Ranking(Generic[OptT]):
    """The estimates of the options, best first, and each option's payments (units) by
    sample index, for the paired differences (:meth:`Analysis.result`'s: every option's)."""

    estimates: list[OptionEstimate[OptT]]
    pays: Mapping[OptT, Mapping[int, float]]


@dataclass(frozen=True)
class Settings:
    """An analysis's arguments, checked: ``fixed`` samples (None: adaptive), the seed,
    the target standard error (points)."""

    fixed: int | None
    seed: int
    target: float
    budget: float | None = None


class Analysis(ABC, Generic[OptT]):
    """One analysis for :func:`run_analysis`: its options and what it does with a sample.

    Subclasses set the class attributes and :meth:`rank`, and override the
    other hooks where they differ.  ``options`` are those solved on the
    samples (an option that plays no game, as Pass, can be added by
    :meth:`rank` itself).  With :attr:`per_option` each option is one solve
    of a sample and the work item's payload is the options still sampled;
    otherwise one solve of a sample values every option (the payload is
    None) and every option has the same samples.
    """

    command: ClassVar[Command]
    #: adaptive sampling: the first batch, and the cap
    first: ClassVar[int]
    cap: ClassVar[int]
    #: an option trailing the leader by more standard errors than this is dropped (None: no race)
    race_z: float | None = None
    per_option: ClassVar[bool] = False
    #: whether control variates are used (else plain means)
    control_variates: ClassVar[bool] = True
    #: whether a fixed sample count is raced to as well (else every option gets every sample)
    race_fixed: ClassVar[bool] = False
    #: whether the next batch starts on the workers while the last is judged
    solve_ahead: ClassVar[bool] = True

    def __init__(self, view: View, options: Sequence[OptT], result_key: Hashable | None = None) -> None:
        self.view = view
        self.options = list(options)
        self.active = list(options)                     # the options still sampled
        self.solved: dict[OptT, list[int]] = {o: [] for o in options}
        self.result_key = result_key                    # what a sample's results hold (per_option: the option)
        self.start = 0                                  # samples 0 .. start-1 handed out so far
        self.stopped = "samples"
        self.fixed: int | None = None
        self.target = TARGET_STDERR
        self.deadline: float | None = None             # time.perf_counter() past which no batch starts

    # -- the arguments
    def fixed_samples(self, samples: int | None) -> int | None:
        """The sample count asked for, checked (None: adaptive)."""
        return resolve_samples(samples)

    def configure(self, s: Settings) -> None:
        """Take the checked arguments (an analysis with arguments of its own checks them here)."""
        self.fixed = s.fixed
        self.target = s.target

    # -- the batches
    def prepare(self, runner: SampleRunner) -> bool:
        """Work before the batches; False if Ctrl-C stopped it (the batches are then skipped)."""
        return True

    def batches(self, fixed: int | None) -> tuple[int, int]:
        """The samples of the first batch, and the cap."""
        return (fixed, fixed) if fixed is not None else (self.first, self.cap)

    def payload(self) -> Any:
        """The payload of a work item: the options still sampled, or None (one solve for all);
        an analysis may hand its work function something else."""
        return tuple(self.active) if self.per_option else None

    def items(self, runner: SampleRunner, n: int) -> list[Item]:
        """The work items that solve the options still sampled on samples up to ``n``."""
        payload = self.payload()
        return [(i, payload) for i in range(self.start, n)]

    def cost(self, payload: Any) -> int:
        """The solves a work item counts for progress."""
        return len(payload) if payload is not None else 1

    def plan(self, runner: SampleRunner, n: int, fixed: int | None) -> None:
        """Announce the solves to samples ``n`` (and, adaptively, of the next batch) for progress."""
        per_sample = self.cost(self.payload())
        runner.plan((n - self.start) * per_sample + (0 if fixed else BATCH * per_sample))

    def record(self, runner: SampleRunner, n: int) -> None:
        """Note which of the samples handed out up to ``n`` each option still sampled was solved on."""
        for o in self.active:
            key = o if self.per_option else self.result_key
            self.solved[o].extend(i for i in range(self.start, n) if runner.has(i, key))
        self.start = n

    def nothing_solved(self) -> bool:
        return not any(self.solved.values())

    # -- estimates, race, stop
    @abstractmethod
    def rank(self, runner: SampleRunner) -> Ranking[OptT]:
        """Every option's estimate on the samples it was solved on, best first."""

    def race(self, runner: SampleRunner, ranking: Ranking[OptT]) -> None:
        """Stop sampling the options whose paired difference from the leader exceeds
        :attr:`race_z` standard errors."""
        z = self.race_z
        if z is None:
            return
        best = ranking.estimates[0]
        for e in ranking.estimates[1:]:
            if e.option in self.active:
                diff, se = paired_difference(runner.fit, ranking.pays[best.option], ranking.pays[e.option])
                if se is not None and diff > z * max(se, 1e-9):
                    self.active.remove(e.option)

    def precise(self, ranking: Ranking[OptT]) -> bool:
        """Whether the target is reached: the leader's points within it."""
        best = ranking.estimates[0]
        return best.stderr is not None and best.stderr <= self.target

    def rejoin(self, runner: SampleRunner, ranking: Ranking[OptT]) -> list[OptT]:
        """Options to take back into the race when it would stop (solved then to the same count)."""
        return []

    # -- the result
    def result(self, runner: SampleRunner) -> Ranking[OptT]:
        """The options as reported, best first."""
        return self.rank(runner)

    def margin(self, runner: SampleRunner, ranking: Ranking[OptT]) -> Margin:
        """The leader's lead in units over the runner-up, and its standard error: their paired
        difference on the samples both have (None with a single option)."""
        ests = ranking.estimates
        if len(ests) < 2:
            return None, None
        return paired_difference(runner.fit, ranking.pays[ests[0].option], ranking.pays[ests[1].option])

    def most_samples(self) -> int:
        """The most samples any option was solved on."""
        return max((len(v) for v in self.solved.values()), default=0)

    def info(self, runner: SampleRunner, ranking: Ranking[OptT]) -> dict[str, Any]:
        return {}

    def notes(self, ranking: Ranking[OptT]) -> tuple[str, ...]:
        return ()

    def samples(self) -> list[int]:
        """The samples solved (one solve for all: every option's)."""
        return self.solved[self.options[0]]

    def time_is_up(self) -> bool:
        """Whether the time budget (if any) is used."""
        return self.deadline is not None and time.perf_counter() >= self.deadline


def sample(runner: SampleRunner, analysis: Analysis[OptT], fixed: int | None) -> None:
    """Solve batches of samples until the run stops: the fixed count, the target, the cap
    or Ctrl-C (``analysis.stopped`` says which).  After each batch the options clearly
    behind the leader drop out of the race, and the next batch starts on the workers
    while this one is judged (a batch not needed is cancelled, its results, if any,
    never used)."""
    n, cap = analysis.batches(fixed)
    timed = analysis.deadline is not None
    if timed:
        n = min(n, analysis.start + TIMED_BATCH)
    while True:
        analysis.plan(runner, n, fixed)
        runner.run(analysis.items(runner, n), analysis.cost)
        analysis.record(runner, n)
        if fixed is None and analysis.solve_ahead and not timed:
            runner.start_ahead(analysis.items(runner, min(cap, n + BATCH)), analysis.cost)
        if runner.interrupted:      # (nothing was started ahead then)
            if analysis.nothing_solved():
                raise KeyboardInterrupt
            analysis.stopped = "interrupted"
            return
        if n < cap and analysis.time_is_up():
            analysis.stopped = "time"
            return
        if fixed is not None and not analysis.race_fixed:
            if not timed or n >= cap:
                return
            n = min(cap, n + TIMED_BATCH)
            continue
        ranking = analysis.rank(runner)
        analysis.race(runner, ranking)
        following, why = next_batch(n, cap, analysis.precise(ranking) or not analysis.active)
        if why:
            runner.cancel_ahead()
            back = analysis.rejoin(runner, ranking)
            if back:
                analysis.active.extend(back)
                continue
            analysis.stopped = "samples" if fixed is not None else why
            return
        n = min(following, n + TIMED_BATCH) if timed else following


def compared(fit_for: Callable[[Sequence[int]], PlainMean], ranking: Ranking[OptT]) -> Ranking[OptT]:
    """The options with their paired differences from the first (the recommendation) and
    whether each can be ranked beside it; the options ranked first (in their order), then
    the others (in theirs).

    The difference is the mean of ``option - recommendation`` over the samples both were
    solved on, by the same estimator as the options' own units (control variates from
    enough samples on).  That estimator is linear in the values, so the difference is
    exactly the option's mean on those samples minus the recommendation's (both kept,
    ``shared_units`` and ``shared_recommendation_units``), and where the option has every
    sample of the recommendation it is the difference of their expected units."""
    ests = ranking.estimates
    best = ests[0]
    lead = ranking.pays[best.option]
    out = [replace(best, difference=0.0, difference_stderr=None, difference_samples=len(lead),
                   shared_units=best.ev_units, shared_recommendation_units=best.ev_units)]
    for e in ests[1:]:
        mine = ranking.pays[e.option]
        common = sorted(set(mine) & set(lead))
        diff, se = paired_difference(fit_for, mine, lead)
        own: float | None
        theirs: float | None
        if len(common) >= 2:
            fit = fit_for(common)
            own, theirs = fit.mean([mine[i] for i in common])[0], fit.mean([lead[i] for i in common])[0]
        elif common:        # a single shared sample: its values and their difference, no error
            (i,) = common
            own, theirs = mine[i], lead[i]
            diff = own - theirs
        else:
            own = theirs = None
        out.append(replace(e, difference=diff, difference_stderr=se, difference_samples=len(common),
                           shared_units=own, shared_recommendation_units=theirs,
                           ranked=rankable(len(common), len(lead))))
    ordered = out[:1] + [e for e in out[1:] if e.ranked] + [e for e in out[1:] if not e.ranked]
    return Ranking(ordered, ranking.pays)


def run_analysis(analysis: Analysis[OptT], samples: int | None, seed: int | None, jobs: int | None,
                 progress: Progress | None, target_stderr: float, budget: float | None = None) -> Advice[OptT]:
    """Run ``analysis`` (its view checked for its command) and rank its options; ``budget``:
    the seconds it may sample for (stopping between batches), None for no limit."""
    t0 = time.perf_counter()
    check_view(analysis.view, analysis.command)
    fixed = analysis.fixed_samples(samples)
    s = Settings(fixed, resolve_seed(seed), check_target(target_stderr),
                 None if budget is None else check_target(budget, "budget", "number of seconds"))
    analysis.configure(s)
    if s.budget is not None:
        analysis.deadline = t0 + s.budget
    with SampleRunner(analysis.view, s.seed, jobs, progress) as runner:
        if not analysis.control_variates:
            runner.start_cv(count=0, needed=False)
        else:
            runner.start_cv(needed=fixed is None or fixed >= CV_MIN_SAMPLES)
        if analysis.prepare(runner):
            sample(runner, analysis, fixed)
        ranking = compared(runner.fit, analysis.result(runner))
        margin = analysis.margin(runner, ranking)
    opts = ranking.estimates
    return Advice(command=analysis.command, me=analysis.view.me, role=analysis.view.role,
                  recommendation=opts[0].option, options=tuple(opts), samples=analysis.most_samples(),
                  seed=s.seed, jobs=runner.jobs, seconds=time.perf_counter() - t0,
                  margin=margin[0], margin_stderr=margin[1],
                  info=analysis.info(runner, ranking), notes=analysis.notes(ranking))
