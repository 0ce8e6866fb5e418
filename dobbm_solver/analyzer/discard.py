"""The lay-away analysis (``dobbm discard``): every legal lay-away of a Dobbm ranked by Monte Carlo
(:func:`analyze_discard`).

The rules of thumb that lay away without solving (the arena's, the sampler's
and ``bid``'s) are :mod:`dobbm_solver.models.discard_rule`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Sequence

from ..cards import CardSet
from ..models.discard_rule import discard_score, heuristic_discard
from .advice import Advice, OptionEstimate
from .arguments import check_target, check_view, resolve_samples
from .discard_classes import discard_classes
from .estimate import (
    MAX_SAMPLES,
    MIN_SAMPLES,
    TARGET_STDERR,
    Series,
    estimate_option,
    paired_difference,
    relative_estimate,
)
from .payment import payment
from .runner import Item, Progress, SampleRunner
from .template import Analysis, Margin, Ranking, Settings, run_analysis
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



class DiscardAnalysis(Analysis[CardSet]):
    """Every distinct lay-away of the declarer's 12 cards: pruned in stages, then raced.

    ``solved_to[r]``: lay-away ``r`` is solved on samples ``0 .. solved_to[r]-1``
    (common random numbers: every lay-away on the same samples); ``active`` is
    the group still sampled.
    """

    command = "discard"
    first = MIN_SAMPLES["discard"]
    cap = MAX_SAMPLES["discard"]
    per_option = True
    race_fixed = True
    solve_ahead = False

    def __init__(self, view: View, stages: Stages, race_z: float) -> None:
        assert view.dobb is not None
        self.hand12 = view.my_hand | view.dobb
        self.classes = discard_classes(self.hand12)
        self.reps = [r for r, _ in self.classes]                         # one lay-away per class
        self.heur = {r: discard_score(self.hand12, r) for r in self.reps}    # the rule of thumb's score
        self.heur_order = sorted(self.reps, key=lambda r: -self.heur[r])
        self.solved_to = {r: 0 for r in self.reps}
        self.stages = stages
        self.race_z_given = race_z
        self.racing = False
        super().__init__(view, self.reps)

    def fixed_samples(self, samples: int | None) -> int | None:
        return resolve_samples(samples, minimum=1)

    def configure(self, s: Settings) -> None:
        super().configure(s)
        self.race_z = check_target(self.race_z_given, "race_z", "number of standard errors")

    @property
    def final_cap(self) -> int:
        return self.fixed if self.fixed is not None else self.cap

    # -- the pruning stages
    def prepare(self, runner: SampleRunner) -> bool:
        """The pruning stages: keep the best so far, solve them on more samples.  After
        Ctrl-C what was solved is ranked (lay-aways not solved once are left out)."""
        runner.plan(self._planned())
        for stage, (keep, upto) in enumerate(self.stages):
            upto = min(upto, self.final_cap)
            if keep is not None and keep < len(self.active):
                chosen = self._best_first(runner, self.active)[:keep]
                if stage == 1:
                    for r in self.heur_order[:DISCARD_HEURISTIC_KEEP]:
                        if r not in chosen:
                            chosen.append(r)
                self.active = chosen
            runner.run(self.items(runner, upto), self.cost)
            self.record(runner, upto)
            if runner.interrupted:
                self._keep_solved()
                return False
            if self.time_is_up() and stage + 1 < len(self.stages):
                self.stopped = "time"    # every lay-away has the first sample: rank what was solved
                return False
        return True

    def _final_n(self) -> int:
        return self.fixed if self.fixed is not None else max([self.first] + [s for _, s in self.stages])

    def _planned(self) -> int:
        """The solves the stages and the race will take at least (for progress)."""
        planned, width, have = 0, len(self.reps), 0
        for keep, upto in self.stages:
            width = min(width, keep) if keep is not None else width
            upto = min(upto, self.final_cap)
            planned += width * max(0, upto - have)
            have = max(have, upto)
        return planned + min(width, 2) * max(0, self._final_n() - have)

    def _mean_units(self, runner: SampleRunner, r: CardSet) -> tuple[float, float, float]:
        """Lay-away ``r`` so far: mean units, mean points, the rule of thumb's score."""
        k = self.solved_to[r]
        return sum(_pays(runner, r, k)) / k, sum(_points(runner, r, k)) / k, self.heur[r]

    def _best_first(self, runner: SampleRunner, group: Sequence[CardSet]) -> list[CardSet]:
        return sorted(group, key=lambda r: tuple(-x for x in self._mean_units(runner, r)))

    def _keep_solved(self) -> None:
        self.reps = [r for r in self.reps if self.solved_to[r] > 0]
        if not self.reps:
            raise KeyboardInterrupt
        self.stopped = "interrupted"
        self.classes = [(r, m) for r, m in self.classes if r in self.reps]
        self.active = [r for r in self.active if r in self.reps] or self.reps[:1]

    # -- the batches: every lay-away of the group on the same samples
    def batches(self, fixed: int | None) -> tuple[int, int]:
        return min(self._final_n(), self.final_cap), self.final_cap

    def items(self, runner: SampleRunner, n: int) -> list[Item]:
        """Every lay-away of the group on samples up to ``n``: one item per (sample, piece of
        the group), which keeps every worker busy."""
        by_index: dict[int, list[CardSet]] = {}
        count = 0
        for r in self.active:
            for i in range(self.solved_to[r], n):
                by_index.setdefault(i, []).append(r)
                count += 1
        work: list[Item] = []
        piece = max(1, -(-count // (runner.jobs * 6)))
        for i, rs in sorted(by_index.items()):
            for a in range(0, len(rs), piece):
                work.append((i, tuple(rs[a:a + piece])))
        return work

    def plan(self, runner: SampleRunner, n: int, fixed: int | None) -> None:
        if self.racing:         # (the first batch of the race is planned with the stages)
            runner.plan(sum(n - self.solved_to[r] for r in self.active))
        self.racing = True

    def record(self, runner: SampleRunner, n: int) -> None:
        for r in self.active:
            k = self.solved_to[r]
            while k < n and runner.has(k, r):   # samples 0..k-1 solved, also when interrupted
                k += 1
            self.solved_to[r] = k
        self.start = n

    def nothing_solved(self) -> bool:
        return not any(self.solved_to.values())

    # -- the race
    def rank(self, runner: SampleRunner) -> Ranking[CardSet]:
        """The group's estimates on the samples they share, the leader (by :func:`_key`) first."""
        n = self.start
        fit = runner.fit(list(range(n)))
        est_by = {r: estimate_option(r, fit, _pays(runner, r, n), _points(runner, r, n)) for r in self.active}
        leader = max(self.active, key=lambda r: _key(est_by[r], self.heur[r]))
        order = [leader] + [r for r in self.active if r != leader]
        return Ranking([est_by[r] for r in order], {r: dict(enumerate(_pays(runner, r, n))) for r in order})

    def precise(self, ranking: Ranking[CardSet]) -> bool:
        """Adaptively: the leader's points within the target before the cap."""
        se = ranking.estimates[0].stderr
        return self.fixed is None and se is not None and se <= self.target and self.start < self.final_cap

    def rejoin(self, runner: SampleRunner, ranking: Ranking[CardSet]) -> list[CardSet]:
        """The lay-aways not in the race whose estimate through the leader is not below it
        (so the table ranks by its estimates)."""
        lead_est = ranking.estimates[0]
        leader = lead_est.option
        n = self.solved_to[leader]
        lead = _series(runner, leader, n)
        back = []
        for r in self.reps:
            k = self.solved_to[r]
            if r in self.active or not 0 < k < n:
                continue
            e = relative_estimate(r, lead_est, lead, _series(runner, r, k), runner.fit(list(range(k))))
            if _key(e, self.heur[r]) >= _key(lead_est, self.heur[leader]):
                back.append(r)
        return back

    # -- the result
    def result(self, runner: SampleRunner) -> Ranking[CardSet]:
        """The leader (the best of the lay-aways with the most samples) and every lay-away's
        estimate: the leader's and those with as many samples directly, the others through
        the leader (:func:`~.estimate.relative_estimate`); one option per class of lay-aways
        that play the same, its other members ``alike``."""
        n = max(self.solved_to[r] for r in self.reps)
        fit = runner.fit(list(range(n)))
        top = {r: estimate_option(r, fit, _pays(runner, r, n), _points(runner, r, n))
               for r in self.reps if self.solved_to[r] == n}
        leader = max(top, key=lambda r: _key(top[r], self.heur[r]))
        lead = _series(runner, leader, n)
        pooled = self._pooled_spread(runner)
        est_by = dict(top)
        for r in self.reps:
            k = self.solved_to[r]
            if k < n:
                est_by[r] = relative_estimate(r, top[leader], lead, _series(runner, r, k),
                                              runner.fit(list(range(k))), pooled)
        order = sorted(self.reps, key=lambda r: (r != leader, tuple(-x for x in _key(est_by[r], self.heur[r]))))
        members = dict(self.classes)
        options = [replace(est_by[r], alike=tuple(m for m in members[r] if m != r)) for r in order]
        return Ranking(options, {r: dict(enumerate(_pays(runner, r, self.solved_to[r]))) for r in order})

    def _pooled_spread(self, runner: SampleRunner) -> tuple[float, float] | None:
        """The spread per sample of points and of units taken for a lay-away solved on fewer
        than 4 samples: the largest of the lay-aways with 4 samples or more (the poor
        lay-aways left behind at the first cut spread more than the good ones)."""
        sp = su = 0.0
        for r in self.reps:
            k = self.solved_to[r]
            if k < 4:
                continue
            pts, pays = _points(runner, r, k), _pays(runner, r, k)
            mp, mu_ = sum(pts) / k, sum(pays) / k
            sp = max(sp, math.sqrt(sum((x - mp) ** 2 for x in pts) / (k - 1)))
            su = max(su, math.sqrt(sum((x - mu_) ** 2 for x in pays) / (k - 1)))
        return (sp, su) if sp > 0 or su > 0 else None

    def margin(self, runner: SampleRunner, ranking: Ranking[CardSet]) -> Margin:
        """As every analysis's, but none when the runner-up has a single sample."""
        ests = ranking.estimates
        if len(ests) < 2 or self.solved_to[ests[1].option] <= 1:
            return None, None
        return paired_difference(runner.fit, ranking.pays[ests[0].option], ranking.pays[ests[1].option])

    def most_samples(self) -> int:
        return max(self.solved_to.values())

    def info(self, runner: SampleRunner, ranking: Ranking[CardSet]) -> dict[str, Any]:
        options = ranking.estimates
        hd = heuristic_discard(self.hand12)
        rank = next((k + 1 for k, o in enumerate(options) if hd == o.option or hd in o.alike), None)
        return {"lay_aways": sum(1 + len(o.alike) for o in options), "classes": len(self.reps),
                "finalists": len(self.active), "heuristic_discard": hd, "heuristic_rank": rank,
                "stopped": self.stopped, "target_stderr": self.target}

    def notes(self, ranking: Ranking[CardSet]) -> tuple[str, ...]:
        options = ranking.estimates
        count = sum(1 + len(o.alike) for o in options)
        return ("open-card play of each sample is the standard Monte Carlo approximation",
                f"all {count} legal lay-aways ({len(self.reps)} distinct in play) were solved on the "
                f"first sample; the best went on to more of the same samples and raced, "
                f"{len(self.active)} going the distance to {self.most_samples()}",
                "a lay-away solved on fewer samples is estimated through the leader: the leader's "
                "estimate plus the paired difference on the samples it has; below 4 samples its "
                "difference's spread is taken as the largest spread of those with 4 or more",
                "ranked by the estimates shown; a lay-away that would not rank below the leader "
                "rejoins the race",
                "lay-aways that differ only in interchangeable 6-9 cards play the same: one row, the others "
                "listed as alike")


def analyze_discard(view: View, samples: int | None = None, seed: int | None = None,
                    jobs: int | None = None, progress: Progress | None = None, *,
                    target_stderr: float = TARGET_STDERR,
                    budget_s: float | None = None,
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
    (1-based): its row in the table, the ranked lay-aways first and those with too
    few samples to rank after them, ``stopped``.  ``budget_s``: seconds to sample for
    (see :func:`~.template.run_analysis`), checked between the stages too.
    """
    check_view(view, "discard")
    return run_analysis(DiscardAnalysis(view, stages, race_z), samples, seed, jobs, progress, target_stderr,
                        budget_s)


def _key(e: OptionEstimate[CardSet], heur: float) -> tuple[float, float, float]:
    """The ranking key: expected units, then expected points, then the rule of thumb."""
    return (e.ev_units, e.expected_points or 0.0, heur)


def _pays(runner: SampleRunner, r: CardSet, k: int) -> list[float]:
    return [float(payment(runner.results[i][r], "dobbm", 0, True)) for i in range(k)]


def _points(runner: SampleRunner, r: CardSet, k: int) -> list[int]:
    return [runner.results[i][r] for i in range(k)]


def _series(runner: SampleRunner, r: CardSet, k: int) -> Series:
    return Series(_pays(runner, r, k), _points(runner, r, k))
