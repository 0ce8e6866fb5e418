"""Double or play on: :func:`analyze_double`."""

from __future__ import annotations

import time

from ..deal import MAX_DOUBLINGS
from ..models.doubling import DECLARER, DEFENDER, answer_chance, sequence_payment
from .advice import OPTION_ORDER, Advice, OptionEstimate, rounded
from .arguments import check_target, check_view, resolve_samples, resolve_seed
from .estimate import (
    CV_MIN_SAMPLES,
    MAX_SAMPLES,
    MIN_SAMPLES,
    TARGET_STDERR,
    estimate_option,
    paired_difference,
)
from .payment import payment
from .runner import Progress, SampleRunner
from .view import View


def analyze_double(view: View, samples: int | None = None, seed: int | None = None,
                   jobs: int | None = None, progress: Progress | None = None, *,
                   target_stderr: float = TARGET_STDERR) -> Advice:
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
    """
    t0 = time.perf_counter()
    check_view(view, "double")
    fixed = resolve_samples(samples)
    seed = resolve_seed(seed)
    target = check_target(target_stderr)
    declarer = view.role == "declarer"
    d = view.doublings
    double_name = "retour" if (declarer or d > 0) else "double"
    contract = view.contract
    assert contract is not None
    with SampleRunner(view, seed, jobs, progress) as runner:
        runner.start_cv(needed=fixed is None or fixed >= CV_MIN_SAMPLES)
        idx, on, stopped = _sample(runner, view, fixed, target)
        pts = [runner.results[i]["points"] for i in idx]
        seq = [_doubling_value(view, runner.results[i]) for i in idx]
        pays_by = {"play on": {i: float(payment(p, contract, d, declarer)) for i, p in zip(idx, pts)},
                   double_name: {i: v for i, (v, _, _) in zip(idx, seq)}}
        dbl = estimate_option(double_name, runner.fit(idx), list(pays_by[double_name].values()), pts)
        ests = sorted([on, dbl], key=lambda e: (-e.ev_units, OPTION_ORDER[e.option]))
        margin, mse = paired_difference(runner.fit, pays_by[ests[0].option], pays_by[ests[1].option])
    n = max(1, len(seq))
    info = {"declarer_win_probability": rounded(on.win_probability, 4),
            "declarer_expected_points": rounded(on.expected_points, 3),
            "answer_probability": rounded(sum(a for _, a, _ in seq) / n, 4),
            "expected_doublings": rounded(sum(k for _, _, k in seq) / n, 3),
            "contract": contract, "doublings": d, "stopped": stopped, "target_stderr": target}
    return Advice("double", view.me, view.role, ests[0].option, tuple(ests), len(idx), seed, runner.jobs,
                  time.perf_counter() - t0, margin, mse, info, _notes(view))


def _doubling_value(view: View, result: dict) -> tuple[float, float, float]:
    """One sample's value of saying the next doubling: the expected payment over the
    answers, the chance that the other side answers it, and the doublings it ends with."""
    assert view.contract is not None
    mine = DECLARER if view.role == "declarer" else DEFENDER
    other = DEFENDER if mine == DECLARER else DECLARER
    answers = result["answers"]
    pay = [float(payment(result["points"], view.contract, k, mine == DECLARER)) for k in range(MAX_DOUBLINGS + 1)]
    value, doublings = sequence_payment(pay, view.doublings + 1, answers[other], answers[mine])
    return value, answer_chance(view.doublings + 1, answers[other]), doublings


def _sample(runner: SampleRunner, view: View, fixed: int | None, target: float
            ) -> tuple[list[int], OptionEstimate, str]:
    """Solve batches of samples until playing on has its points within ``target``; return
    the samples solved, the estimate of playing on, and why the run stopped."""
    def precise(idx: list[int]) -> bool:
        on = _play_on(runner, view, idx)
        return on.stderr is not None and on.stderr <= target

    idx, why = runner.sample_in_batches(MIN_SAMPLES["double"], MAX_SAMPLES["double"], fixed, "points", precise)
    return idx, _play_on(runner, view, idx), why


def _play_on(runner: SampleRunner, view: View, idx: list[int]) -> OptionEstimate:
    """The estimate of playing on over the samples ``idx``."""
    assert view.contract is not None
    pts = [runner.results[i]["points"] for i in idx]
    pays = [float(payment(p, view.contract, view.doublings, view.role == "declarer")) for p in pts]
    return estimate_option("play on", runner.fit(idx), pays, pts)


def _notes(view: View) -> tuple[str, ...]:
    notes = ["open-card play of each sample is the standard Monte Carlo approximation",
             "the answers to a doubling (a Retour, a Retour back) follow the doubling model, "
             "calibrated on this analysis's own answers; later answers are not valued"]
    if view.role == "defender":
        notes.append("a defender's units are their own settlement with the declarer")
    return tuple(notes)
