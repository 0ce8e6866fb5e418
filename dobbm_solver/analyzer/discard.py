"""Every legal lay-away of a Dobbm ranked: :func:`analyze_discard`."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from ..cards import CardSet
from ..models.discard_rule import discard_score, heuristic_discard
from .advice import Advice, OptionEstimate
from .arguments import check_target, check_view, resolve_samples
from .discard_classes import discard_classes
from .estimate import (
    BATCH,
    MAX_SAMPLES,
    MIN_SAMPLES,
    TARGET_STDERR,
    Series,
    estimate_option,
    relative_estimate,
)
from .payment import payment
from .runner import Progress, SampleRunner
from .template import Ranking, finish, margin_of, settings, start_control_variates
from .view import View

#: Pruning stages of ``discard``: ``(lay-aways kept, samples they have after
#: the stage)``.  Stage one solves every distinct lay-away on the first
#: sample; each later stage keeps the best so far (the first cut also keeps
#: the :data:`DISCARD_HEURISTIC_KEEP` best by the rule of thumb) and solves
#: them on more of the same samples.  The last stage's lay-aways then race
#: (:data:`RACE_Z`) to the full sample count (adaptive: until the leader's
#: standard error meets the target).
DISCARD_STAGES: tuple[tuple[int | None, int], ...] = ((None, 1), (32, 4), (8, 16))
DISCARD_HEURISTIC_KEEP = 8
#: In the race a lay-away whose paired difference from the leader exceeds this
#: many standard errors is no longer sampled.
RACE_Z = 2.5

Stages = Sequence[tuple[int | None, int]]


@dataclass
class _DiscardRun:
    """The state of one lay-away analysis: the lay-aways, the samples each was solved on."""

    hand12: CardSet
    fixed: int | None                    # samples asked for (None: adaptive)
    target: float
    classes: list[tuple[CardSet, tuple[CardSet, ...]]] = field(default_factory=list)
    reps: list[CardSet] = field(default_factory=list)          # one lay-away per class
    heur: dict[CardSet, float] = field(default_factory=dict)   # the rule of thumb's score
    heur_order: list[CardSet] = field(default_factory=list)
    solved: dict[CardSet, int] = field(default_factory=dict)   # samples 0..k-1 solved
    group: list[CardSet] = field(default_factory=list)         # the lay-aways still sampled
    stopped: str = "samples"

    def __post_init__(self) -> None:
        self.classes = discard_classes(self.hand12)
        self.reps = [r for r, _ in self.classes]
        self.heur = {r: discard_score(self.hand12, r) for r in self.reps}
        self.heur_order = sorted(self.reps, key=lambda r: -self.heur[r])
        self.solved = {r: 0 for r in self.reps}
        self.group = list(self.reps)

    @property
    def final_cap(self) -> int:
        return self.fixed if self.fixed is not None else MAX_SAMPLES["discard"]


def analyze_discard(view: View, samples: int | None = None, seed: int | None = None,
                    jobs: int | None = None, progress: Progress | None = None, *,
                    target_stderr: float = TARGET_STDERR,
                    stages: Stages = DISCARD_STAGES,
                    race_z: float = RACE_Z) -> Advice[CardSet]:
    """Every legal lay-away of a Dobbm ranked by the declarer's expected units.

    Lay-aways that leave the same cards to play (:func:`discard_classes`)
    are solved once and reported each.  Pruning on shared samples (common
    random numbers): every distinct lay-away is solved on the first sample;
    the best go on to more samples in ``stages``; the last stage's lay-aways
    race to ``samples`` (None: adaptive, until the leader's expected points
    have standard error <= ``target_stderr``), each dropped once its paired
    difference from the leader exceeds ``race_z`` standard errors.  The
    leader is the best of those that went the distance; every other
    lay-away is estimated through it (:func:`~.estimate.relative_estimate`:
    the leader's estimate plus the paired difference on the samples the
    lay-away has), and one whose estimate would not be below the leader's
    rejoins the race.  So the table is ranked by the estimates it shows,
    the recommendation first; ``samples`` on each says how many deals it
    was solved on.  One option per class, the class's other lay-aways in
    its ``alike``.  The difference's spread of a lay-away solved on fewer
    than 4 samples is the largest spread per sample of the better-sampled ones.

    ``info``: ``lay_aways``, ``classes`` (distinct in play), ``finalists``
    (the lay-aways that went the distance),
    ``heuristic_discard`` (the rule of thumb's choice) and its ``heuristic_rank``
    (1-based) in the ranking, ``stopped``.
    """
    t0 = time.perf_counter()
    check_view(view, "discard")
    s = settings(resolve_samples(samples, minimum=1), seed, target_stderr)
    fixed = s.fixed
    race_z = check_target(race_z, "race_z", "number of standard errors")
    assert view.dobb is not None
    run = _DiscardRun(view.my_hand | view.dobb, fixed, s.target)
    with SampleRunner(view, s.seed, jobs, progress) as runner:
        start_control_variates(runner, fixed, True)
        final_n = fixed if fixed is not None else max([MIN_SAMPLES["discard"]] + [s for _, s in stages])
        runner.plan(_planned(run, stages, final_n))
        _prune(runner, run, stages)
        if runner.interrupted:
            _keep_solved(run)
        else:
            _race(runner, run, final_n, race_z)
        leader, est_by = _estimates(runner, run)
        order = sorted(run.reps, key=lambda r: (r != leader, tuple(-x for x in _key(est_by[r], run.heur[r]))))
        # the margin: the leader's paired difference from the runner-up on the samples both have
        # (none when the runner-up has a single sample)
        ranking = Ranking([est_by[r] for r in order],
                          {r: dict(enumerate(_pays(runner, r, run.solved[r]))) for r in order[:2]})
        margin = margin_of(runner, ranking) if len(order) > 1 and run.solved[order[1]] > 1 else (None, None)
    options = _options(run, est_by, order)
    most = max(run.solved.values())
    return finish(view, "discard", t0, runner, s.seed, options, most, margin,
                  _info(run, options), _notes(run, options, most))


def _mean_units(runner: SampleRunner, run: _DiscardRun, r: CardSet) -> tuple[float, float, float]:
    """Lay-away ``r`` so far: mean units, mean points, the rule of thumb's score."""
    k = run.solved[r]
    return sum(_pays(runner, r, k)) / k, sum(_points(runner, r, k)) / k, run.heur[r]


def _best_first(runner: SampleRunner, run: _DiscardRun, group: Sequence[CardSet]) -> list[CardSet]:
    return sorted(group, key=lambda r: tuple(-x for x in _mean_units(runner, run, r)))


def _extend(runner: SampleRunner, run: _DiscardRun, group: Sequence[CardSet], upto: int) -> None:
    """Solve every lay-away of ``group`` on samples ``0 .. upto-1``."""
    items = []
    for r in group:
        for i in range(run.solved[r], upto):
            items.append((i, r))
    # one item per (sample, piece of the group): keeps every worker busy
    by_index: dict[int, list[CardSet]] = {}
    for i, r in items:
        by_index.setdefault(i, []).append(r)
    work = []
    piece = max(1, -(-len(items) // (runner.jobs * 6)))
    for i, rs in sorted(by_index.items()):
        for a in range(0, len(rs), piece):
            work.append((i, tuple(rs[a:a + piece])))
    runner.run(work, len)
    for r in group:
        k = run.solved[r]
        while k < upto and runner.has(k, r):   # samples 0..k-1 solved, also when interrupted
            k += 1
        run.solved[r] = k


def _planned(run: _DiscardRun, stages: Stages, final_n: int) -> int:
    """The solves the stages and the race will take at least (for progress)."""
    planned, width, have = 0, len(run.reps), 0
    for keep, upto in stages:
        width = min(width, keep) if keep is not None else width
        upto = min(upto, run.final_cap)
        planned += width * max(0, upto - have)
        have = max(have, upto)
    return planned + min(width, 2) * max(0, final_n - have)


def _prune(runner: SampleRunner, run: _DiscardRun, stages: Stages) -> None:
    """The pruning stages: keep the best so far, solve them on more samples."""
    for stage, (keep, upto) in enumerate(stages):
        upto = min(upto, run.final_cap)
        if keep is not None and keep < len(run.group):
            chosen = _best_first(runner, run, run.group)[:keep]
            if stage == 1:
                for r in run.heur_order[:DISCARD_HEURISTIC_KEEP]:
                    if r not in chosen:
                        chosen.append(r)
            run.group = chosen
        _extend(runner, run, run.group, upto)
        if runner.interrupted:
            break


def _keep_solved(run: _DiscardRun) -> None:
    """After Ctrl-C: rank what was solved; lay-aways not solved once are left out."""
    run.reps = [r for r in run.reps if run.solved[r] > 0]
    if not run.reps:
        raise KeyboardInterrupt
    run.stopped = "interrupted"
    run.classes = [(r, m) for r, m in run.classes if r in run.reps]
    run.group = [r for r in run.group if r in run.reps] or run.reps[:1]


def _key(e: OptionEstimate, heur: float) -> tuple[float, float, float]:
    """The ranking key: expected units, then expected points, then the rule of thumb."""
    return (e.ev_units, e.expected_points or 0.0, heur)


def _race(runner: SampleRunner, run: _DiscardRun, first: int, race_z: float) -> None:
    """The race of the last stage's lay-aways on shared samples, batch by batch: a lay-away
    whose paired difference from the leader exceeds ``race_z`` standard errors is no longer
    sampled.  It stops at the sample count asked for, or (adaptive) once the leader's points
    meet the target or at the cap.  A lay-away left behind that, on its own samples, is
    not below the final leader rejoins the race (so the table ranks by its estimates)."""
    n = min(first, run.final_cap)
    while True:
        _extend(runner, run, run.group, n)
        if runner.interrupted:
            run.stopped = "interrupted"
            return
        leader, est_by = _race_step(runner, run, n, race_z)
        se = est_by[leader].stderr
        done = n >= run.final_cap or (run.fixed is None and se is not None and se <= run.target)
        if done:
            back = _rejoining(runner, run, leader, est_by[leader])
            if not back:
                run.stopped = "samples" if run.fixed is not None else (
                    "target" if n < run.final_cap else "max_samples")
                return
            run.group.extend(back)
            runner.plan(sum(n - run.solved[r] for r in back))
            continue
        n = min(run.final_cap, n + BATCH)
        runner.plan(len(run.group) * (n - run.solved[run.group[0]]))


def _race_step(runner: SampleRunner, run: _DiscardRun, n: int, race_z: float
               ) -> tuple[CardSet, dict[CardSet, OptionEstimate]]:
    """The group's estimates on samples ``0 .. n-1``, its leader; drop those clearly behind."""
    fit = runner.fit(list(range(n)))
    est_by = {r: estimate_option(r, fit, _pays(runner, r, n), _points(runner, r, n)) for r in run.group}
    leader = max(run.group, key=lambda r: _key(est_by[r], run.heur[r]))
    lead = _pays(runner, leader, n)
    kept = []
    for r in run.group:
        if r != leader:
            diff, se = fit.mean([a - b for a, b in zip(lead, _pays(runner, r, n))])
            if se is not None and diff > race_z * max(se, 1e-9):
                continue
        kept.append(r)
    run.group = kept
    return leader, est_by


def _rejoining(runner: SampleRunner, run: _DiscardRun, leader: CardSet, lead_est: OptionEstimate) -> list[CardSet]:
    """The lay-aways not in the race whose estimate through the leader is not below it."""
    n = run.solved[leader]
    lead = _series(runner, leader, n)
    back = []
    for r in run.reps:
        k = run.solved[r]
        if r in run.group or not 0 < k < n:
            continue
        e = relative_estimate(r, lead_est, lead, _series(runner, r, k), runner.fit(list(range(k))))
        if _key(e, run.heur[r]) >= _key(lead_est, run.heur[leader]):
            back.append(r)
    return back


def _pays(runner: SampleRunner, r: CardSet, k: int) -> list[float]:
    return [float(payment(runner.results[i][r], "dobbm", 0, True)) for i in range(k)]


def _points(runner: SampleRunner, r: CardSet, k: int) -> list[int]:
    return [runner.results[i][r] for i in range(k)]


def _series(runner: SampleRunner, r: CardSet, k: int) -> Series:
    return Series(_pays(runner, r, k), _points(runner, r, k))


def _pooled_spread(runner: SampleRunner, run: _DiscardRun) -> tuple[float, float] | None:
    """The spread per sample of points and of units taken for a lay-away solved on fewer
    than 4 samples: the largest of the lay-aways with 4 samples or more (the poor
    lay-aways left behind at the first cut spread more than the good ones, see
    ``benchmarks/measure_errors.py``)."""
    sp = su = 0.0
    for r in run.reps:
        k = run.solved[r]
        if k < 4:
            continue
        pts, pays = _points(runner, r, k), _pays(runner, r, k)
        mp, mu_ = sum(pts) / k, sum(pays) / k
        sp = max(sp, math.sqrt(sum((x - mp) ** 2 for x in pts) / (k - 1)))
        su = max(su, math.sqrt(sum((x - mu_) ** 2 for x in pays) / (k - 1)))
    return (sp, su) if sp > 0 or su > 0 else None


def _estimates(runner: SampleRunner, run: _DiscardRun) -> tuple[CardSet, dict[CardSet, OptionEstimate]]:
    """The leader (the best of the lay-aways with the most samples) and every lay-away's
    estimate: the leader's and those with as many samples directly, the others through
    the leader (:func:`relative_estimate`)."""
    n = max(run.solved[r] for r in run.reps)
    fit = runner.fit(list(range(n)))
    top = {r: estimate_option(r, fit, _pays(runner, r, n), _points(runner, r, n))
           for r in run.reps if run.solved[r] == n}
    leader = max(top, key=lambda r: _key(top[r], run.heur[r]))
    lead = _series(runner, leader, n)
    pooled = _pooled_spread(runner, run)
    est_by = dict(top)
    for r in run.reps:
        k = run.solved[r]
        if k < n:
            est_by[r] = relative_estimate(r, top[leader], lead, _series(runner, r, k),
                                          runner.fit(list(range(k))), pooled)
    return leader, est_by


def _options(run: _DiscardRun, est_by: dict[CardSet, OptionEstimate[CardSet]],
             order: list[CardSet]) -> list[OptionEstimate[CardSet]]:
    """One option per class of lay-aways that play the same, its other members ``alike``."""
    members = dict(run.classes)
    return [replace(est_by[r], alike=tuple(m for m in members[r] if m != r)) for r in order]


def _info(run: _DiscardRun, options: list[OptionEstimate[CardSet]]) -> dict[str, Any]:
    hd = heuristic_discard(run.hand12)
    rank = next((k + 1 for k, o in enumerate(options) if hd == o.option or hd in o.alike), None)
    return {"lay_aways": sum(1 + len(o.alike) for o in options), "classes": len(run.reps),
            "finalists": len(run.group), "heuristic_discard": hd, "heuristic_rank": rank,
            "stopped": run.stopped, "target_stderr": run.target}


def _notes(run: _DiscardRun, options: list[OptionEstimate], most: int) -> tuple[str, ...]:
    lay_aways = sum(1 + len(o.alike) for o in options)
    return ("open-card play of each sample is the standard Monte Carlo approximation",
            f"all {lay_aways} legal lay-aways ({len(run.reps)} distinct in play) were solved on the "
            f"first sample; the best went on to more of the same samples and raced, "
            f"{len(run.group)} going the distance to {most}",
            "a lay-away solved on fewer samples is estimated through the leader: the leader's "
            "estimate plus the paired difference on the samples it has; below 4 samples its "
            "difference's spread is taken as the largest spread of those with 4 or more",
            "ranked by the estimates shown; a lay-away that would not rank below the leader "
            "rejoins the race",
            "lay-aways that differ only in interchangeable 6-9 cards play the same: one row, the others "
            "listed as alike")
