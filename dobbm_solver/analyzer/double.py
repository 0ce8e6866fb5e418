"""The doubling analysis (``dobbm double``): double or play on, by Monte Carlo (:func:`analyze_double`).

The model of how each side answers a doubling, which values the sequence a
doubling starts and which the sampler deals by, is :mod:`dobbm_solver.models.doubling`.
"""

from __future__ import annotations

from typing import Any

from ..deal import MAX_DOUBLINGS
from ..models.doubling import DECLARER, DEFENDER, answer_chance, sequence_payment
from .advice import OPTION_ORDER, Advice, DoublingDecision, rounded
from .arguments import check_view
from .estimate import MAX_SAMPLES, MIN_SAMPLES, TARGET_STDERR, estimate_option
from .payment import payment
from .runner import Progress, SampleRunner
from .template import Analysis, Ranking, run_analysis
from .view import View
from .work import Results

PLAY_ON: DoublingDecision = "play on"


class DoubleAnalysis(Analysis[DoublingDecision]):
    """Play on, or say the next doubling: one solve of a sample values both."""

    command = "double"
    first = MIN_SAMPLES["double"]
    cap = MAX_SAMPLES["double"]

    def __init__(self, view: View) -> None:
        assert view.contract is not None
        self.contract = view.contract
        self.declarer = view.role == "declarer"
        self.double_name: DoublingDecision = "retour" if (self.declarer or view.doublings > 0) else "double"
        super().__init__(view, [PLAY_ON, self.double_name], result_key="points")

    def rank(self, runner: SampleRunner) -> Ranking[DoublingDecision]:
        idx = self.samples()
        pts = [runner.results[i]["points"] for i in idx]
        fit = runner.fit(idx)
        on_pays = [float(payment(p, self.contract, self.view.doublings, self.declarer)) for p in pts]
        seq = [_doubling_value(self.view, runner.results[i]) for i in idx]
        pays_by: dict[DoublingDecision, dict[int, float]] = {
            PLAY_ON: dict(zip(idx, on_pays)), self.double_name: {i: v for i, (v, _, _) in zip(idx, seq)}}
        on = estimate_option(PLAY_ON, fit, on_pays, pts)
        dbl = estimate_option(self.double_name, fit, list(pays_by[self.double_name].values()), pts)
        self.seq = seq
        self.on = on
        return Ranking(sorted([on, dbl], key=lambda e: (-e.ev_units, OPTION_ORDER[e.option])), pays_by)

    def precise(self, ranking: Ranking[DoublingDecision]) -> bool:
        """Playing on has its points within the target."""
        return self.on.stderr is not None and self.on.stderr <= self.target

    def info(self, runner: SampleRunner, ranking: Ranking[DoublingDecision]) -> dict[str, Any]:
        seq, on = self.seq, self.on
        n = max(1, len(seq))
        return {"declarer_win_probability": rounded(on.win_probability, 4),
                "declarer_expected_points": rounded(on.expected_points, 3),
                "answer_probability": rounded(sum(a for _, a, _ in seq) / n, 4),
                "expected_doublings": rounded(sum(k for _, _, k in seq) / n, 3),
                "contract": self.contract, "doublings": self.view.doublings, "stopped": self.stopped,
                "target_stderr": self.target}

    def notes(self, ranking: Ranking[DoublingDecision]) -> tuple[str, ...]:
        notes = ["open-card play of each sample is the standard Monte Carlo approximation",
                 "the answers to a doubling (a Retour, a Retour back) follow the doubling model, "
                 "calibrated on this analysis's own answers; later answers are not valued"]
        if self.view.role == "defender":
            notes.append("a defender's units are their own settlement with the declarer")
        return tuple(notes)


def analyze_double(view: View, samples: int | None = None, seed: int | None = None,
                   jobs: int | None = None, progress: Progress | None = None, *,
                   target_stderr: float = TARGET_STDERR,
                   budget_s: float | None = None) -> Advice[DoublingDecision]:
    """Double or play on: as a defender after "I lie", or as the declarer facing a Schwacher.

    One open-card solve per sample gives the declarer's points.  Playing on
    pays them at the doublings said; a doubling (``double``, or ``retour``
    when a Retour is said back) is valued as the sequence it starts: on each
    sample the other side answers with another doubling with the doubling
    model's chance for the hands of that sample, one's own side answers that
    likewise (two answers, within ``MAX_DOUBLINGS``:
    :func:`~dobbm_solver.models.doubling.sequence_payment`).  The
    declarer's hand (when unseen) is dealt consistent with the contract
    chosen, the bids, the bidding model and the doublings said (a Schwacher
    tells of a defender who would double); a Dobbm declarer's lay-away is
    ``heuristic_discard``.

    ``samples`` None: adaptive until the expected points have standard error
    <= ``target_stderr``.  ``info``: ``declarer_win_probability``,
    ``declarer_expected_points``, ``answer_probability`` (the mean chance
    that the other side answers the doubling), ``expected_doublings`` (the
    doublings a doubling ends with, on average), ``contract``,
    ``doublings``, ``stopped``, ``target_stderr``.
    ``budget_s``: seconds to sample for, None: no limit (stopping between batches,
    ``stopped`` ``"time"``; see :func:`~.template.run_analysis`).
    """
    check_view(view, "double")
    return run_analysis(DoubleAnalysis(view), samples, seed, jobs, progress, target_stderr, budget_s)


def _doubling_value(view: View, result: Results) -> tuple[float, float, float]:
    """One sample's value of saying the next doubling: the expected payment over the
    answers, the chance that the other side answers it, and the doublings it ends with."""
    assert view.contract is not None
    mine = DECLARER if view.role == "declarer" else DEFENDER
    other = DEFENDER if mine == DECLARER else DECLARER
    answers = result["answers"]
    pay = [float(payment(result["points"], view.contract, k, mine == DECLARER)) for k in range(MAX_DOUBLINGS + 1)]
    value, doublings = sequence_payment(pay, view.doublings + 1, answers[other], answers[mine])
    return value, answer_chance(view.doublings + 1, answers[other]), doublings
