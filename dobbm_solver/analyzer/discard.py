"""Every legal lay-away of a Dobbm ranked: :func:`analyze_discard`."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from ..cards import CardSet, set_names
from ..heuristics import discard_score, heuristic_discard
from .advice import Advice, OptionEstimate
from .arguments import check_target, check_view, resolve_samples, resolve_seed
from .estimate import (
    CV_MIN_SAMPLES,
    MAX_SAMPLES,
    MIN_SAMPLES,
    TARGET_STDERR,
    estimate_option,
    next_batch,
    paired_difference,
)
from .lay_aways import lay_away_classes
from .payment import payment
from .runner import Progress, SampleRunner
from .view import View

#: Pruning stages of ``discard``: ``(lay-aways kept, samples they have after
#: the stage)``.  Stage one solves every distinct lay-away on the first
#: sample; each later stage keeps the best so far (the first cut also keeps
#: the :data:`DISCARD_HEURISTIC_KEEP` best by the rule of thumb) and solves
#: them on more of the same samples.  The finalists then go on to the full
#: sample count (adaptive: until the leader's standard error meets the target).
DISCARD_STAGES: tuple[tuple[int | None, int], ...] = ((None, 1), (32, 4), (8, 16))
DISCARD_FINALISTS = 3
DISCARD_HEURISTIC_KEEP = 8

Stages = Sequence[tuple[int | None, int]]


def _names(cs: CardSet) -> tuple[str, ...]:
    return tuple(set_names(cs))


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
        self.classes = lay_away_classes(self.hand12)
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
                    finalists: int = DISCARD_FINALISTS) -> Advice:
    """Every legal lay-away of a Dobbm ranked by the declarer's expected units.

    Lay-aways that leave the same cards to play (:func:`lay_away_classes`)
    are solved once and reported each.  Pruning on shared samples (common
    random numbers): every distinct lay-away is solved on the first sample;
    the best go on to more samples in ``stages``; the ``finalists`` best go
    to ``samples`` (None: adaptive, until the leader's expected points have
    standard error <= ``target_stderr``).  Options are ranked by how far
    they got, then by expected units; ``samples`` on each says how many
    deals its estimate rests on.  One option per class, the class's other
    lay-aways in its ``alike``.  Standard errors of lay-aways solved on
    fewer than 4 samples are pooled from the spread of the better-sampled ones.

    ``info``: ``lay_aways``, ``classes`` (distinct in play), ``finalists``,
    ``heuristic_discard`` (the rule of thumb's choice) and its ``heuristic_rank``
    (1-based) in the ranking, ``stopped``.
    """
    t0 = time.perf_counter()
    check_view(view, "discard")
    fixed = resolve_samples(samples, minimum=1)
    seed = resolve_seed(seed)
    target = check_target(target_stderr)
    assert view.dobb is not None
    run = _DiscardRun(view.my_hand | view.dobb, fixed, target)
    with SampleRunner(view, seed, jobs, progress) as runner:
        runner.start_cv(needed=fixed is None or fixed >= CV_MIN_SAMPLES)
        final_n = fixed if fixed is not None else max([MIN_SAMPLES["discard"]] + [s for _, s in stages])
        runner.plan(_planned(run, stages, finalists, final_n))
        _prune(runner, run, stages)
        _choose_finalists(runner, run, finalists)
        _sample_finalists(runner, run, final_n)
        est_by, pays_by = _estimates(runner, run)
        order = sorted(run.reps, key=lambda r: (-run.solved[r], -est_by[r].ev_units,
                                                -(est_by[r].expected_points or 0.0), -run.heur[r]))
        margin = mse = None
        if len(order) > 1 and run.solved[order[1]] > 1:
            margin, mse = paired_difference(runner.fit, pays_by[order[0]], pays_by[order[1]])
    options = _options(run, est_by, order)
    most = max(run.solved.values())
    return Advice("discard", view.me, view.role, options[0].option, tuple(options),
                  most, seed, runner.jobs, time.perf_counter() - t0, margin, mse,
                  _info(run, options), _notes(run, options, most))


def _mean_units(runner: SampleRunner, run: _DiscardRun, r: CardSet) -> tuple[float, float, float]:
    """Lay-away ``r`` so far: mean units, mean points, the rule of thumb's score."""
    k = run.solved[r]
    pts = [runner.results[i][r] for i in range(k)]
    return (sum(payment(p, "dobbm", 0, True) for p in pts) / k, sum(pts) / k, run.heur[r])


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


def _planned(run: _DiscardRun, stages: Stages, finalists: int, final_n: int) -> int:
    """The solves the stages and the finalists will take (for progress)."""
    planned, width, have = 0, len(run.reps), 0
    for keep, upto in stages:
        width = min(width, keep) if keep is not None else width
        upto = min(upto, run.final_cap)
        planned += width * max(0, upto - have)
        have = max(have, upto)
    return planned + min(finalists, len(run.reps)) * max(0, final_n - have)


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


def _choose_finalists(runner: SampleRunner, run: _DiscardRun, finalists: int) -> None:
    if not runner.interrupted:
        run.group = _best_first(runner, run, run.group)[:max(1, finalists)]
        return
    # Ctrl-C: rank what was solved; lay-aways not solved once are left out
    run.reps = [r for r in run.reps if run.solved[r] > 0]
    if not run.reps:
        raise KeyboardInterrupt
    run.stopped = "interrupted"
    run.classes = [(r, m) for r, m in run.classes if r in run.reps]
    run.group = [r for r in run.group if r in run.reps] or run.reps[:1]


def _sample_finalists(runner: SampleRunner, run: _DiscardRun, final_n: int) -> None:
    """The finalists to ``final_n`` samples, then (adaptive) in batches until the leader's
    points meet the target."""
    n = final_n
    while not runner.interrupted:
        _extend(runner, run, run.group, n)
        if runner.interrupted:
            run.stopped = "interrupted"
            break
        if run.fixed is not None:
            break
        fit = runner.fit(list(range(n)))
        leader = max(run.group, key=lambda r: _mean_units(runner, run, r))
        pts = [runner.results[i][leader] for i in range(n)]
        _, se = fit.mean([float(p) for p in pts])
        n, why = next_batch(n, run.final_cap, se is not None and se <= run.target)
        if why:
            run.stopped = why
            break
        runner.plan(len(run.group) * (n - run.solved[run.group[0]]))


def _pooled_spread(runner: SampleRunner, run: _DiscardRun) -> tuple[float, float] | None:
    """The spread of points and of units per sample, pooled over lay-aways with 4 samples or more."""
    dof = 0
    sp = su = 0.0
    for r in run.reps:
        k = run.solved[r]
        if k >= 4:
            pts = [runner.results[i][r] for i in range(k)]
            pays = [payment(p, "dobbm", 0, True) for p in pts]
            mp, mu_ = sum(pts) / k, sum(pays) / k
            sp += sum((p - mp) ** 2 for p in pts)
            su += sum((u - mu_) ** 2 for u in pays)
            dof += k - 1
    if not dof:
        return None
    return math.sqrt(sp / dof), math.sqrt(su / dof)


def _estimates(runner: SampleRunner, run: _DiscardRun
               ) -> tuple[dict[CardSet, OptionEstimate], dict[CardSet, dict[int, float]]]:
    """Each distinct lay-away's estimate, and its payments by sample index."""
    pooled = _pooled_spread(runner, run)
    est_by: dict[CardSet, OptionEstimate] = {}
    pays_by: dict[CardSet, dict[int, float]] = {}
    for r in run.reps:
        k = run.solved[r]
        pts = [runner.results[i][r] for i in range(k)]
        pays = [float(payment(p, "dobbm", 0, True)) for p in pts]
        e = estimate_option(_names(r), runner.fit(list(range(k))), pays, pts)
        if k < 4 and pooled is not None:
            e = replace(e, stderr=pooled[0] / math.sqrt(k), stderr_units=pooled[1] / math.sqrt(k))
        est_by[r] = e
        pays_by[r] = dict(enumerate(pays))
    return est_by, pays_by


def _options(run: _DiscardRun, est_by: dict[CardSet, OptionEstimate],
             order: list[CardSet]) -> list[OptionEstimate]:
    """One option per class of lay-aways that play the same, its other members ``alike``."""
    members = dict(run.classes)
    return [replace(est_by[r], option=_names(r), alike=tuple(_names(m) for m in members[r] if m != r))
            for r in order]


def _info(run: _DiscardRun, options: list[OptionEstimate]) -> dict[str, Any]:
    hd_names = _names(heuristic_discard(run.hand12))
    rank = next((k + 1 for k, o in enumerate(options) if hd_names == o.option or hd_names in o.alike), None)
    return {"lay_aways": sum(1 + len(o.alike) for o in options), "classes": len(run.reps),
            "finalists": len(run.group), "heuristic_discard": hd_names, "heuristic_rank": rank,
            "stopped": run.stopped, "target_stderr": run.target}


def _notes(run: _DiscardRun, options: list[OptionEstimate], most: int) -> tuple[str, ...]:
    lay_aways = sum(1 + len(o.alike) for o in options)
    return ("open-card play of each sample is the standard Monte Carlo approximation",
            f"all {lay_aways} legal lay-aways ({len(run.reps)} distinct in play) were solved on the "
            f"first sample; the best went on to more of the same samples, the {len(run.group)} finalists "
            f"to {most}",
            "standard errors of lay-aways solved on fewer than 4 samples are pooled",
            "ranked by the samples each lay-away reached, then by units: one dropped at an early cut "
            "rests on fewer samples and can show more units than a finalist",
            "lay-aways that differ only in interchangeable 6-9 cards play the same: one row, the others "
            "listed as alike")

