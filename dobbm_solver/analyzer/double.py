"""Double or play on: :func:`analyze_double`."""

from __future__ import annotations

import time
from typing import Any

from .advice import OPTION_ORDER, Advice, OptionEstimate, rounded
from .arguments import check_target, check_view, resolve_samples, resolve_seed
from .estimate import (
    BATCH,
    CV_MIN_SAMPLES,
    MAX_SAMPLES,
    MIN_SAMPLES,
    TARGET_STDERR,
    estimate_option,
    next_batch,
    paired_difference,
)
from .payment import payment
from .runner import Progress, SampleRunner
from .view import View


def analyze_double(view: View, samples: int | None = None, seed: int | None = None,
                   jobs: int | None = None, progress: Progress | None = None, *,
                   target_stderr: float = TARGET_STDERR) -> Advice:
    """Double or play on: as a defender after "I lie", or as the declarer facing a Schwacher.

    One open-card solve per sample gives the declarer's points; both options
    are scored on it, with and without one more doubling.  Options: a
    defender ``double`` (``retour`` when the declarer already answered with
    a Retour) or ``play on``; the declarer ``retour`` or ``play on``.  The
    other side's answer to the double is not modelled.  The declarer's hand
    (when unseen) is dealt consistent with the contract chosen, the bids and
    the bidding model; a Dobbm declarer's lay-away is ``heuristic_discard``.

    ``samples`` None: adaptive until the expected points have standard error
    <= ``target_stderr``.  ``info``: ``declarer_win_probability``,
    ``declarer_expected_points``, ``contract``, ``doublings``, ``stopped``.
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
        pays_by = {"play on": {i: float(payment(p, contract, d, declarer)) for i, p in zip(idx, pts)},
                   double_name: {i: float(payment(p, contract, d + 1, declarer)) for i, p in zip(idx, pts)}}
        dbl = estimate_option(double_name, runner.fit(idx), list(pays_by[double_name].values()), pts)
        ests = sorted([on, dbl], key=lambda e: (-e.ev_units, OPTION_ORDER[e.option]))
        margin, mse = paired_difference(runner.fit, pays_by[ests[0].option], pays_by[ests[1].option])
    info = {"declarer_win_probability": rounded(on.win_probability, 4),
            "declarer_expected_points": rounded(on.expected_points, 3),
            "contract": contract, "doublings": d, "stopped": stopped, "target_stderr": target}
    return Advice("double", view.me, view.role, ests[0].option, tuple(ests), len(idx), seed, runner.jobs,
                  time.perf_counter() - t0, margin, mse, info, _notes(view))


def _sample(runner: SampleRunner, view: View, fixed: int | None, target: float
            ) -> tuple[list[int], OptionEstimate, str]:
    """Solve batches of samples until the run stops; return the samples solved, the estimate
    of playing on, and why the run stopped."""
    contract = view.contract
    assert contract is not None
    declarer = view.role == "declarer"
    n = fixed if fixed is not None else MIN_SAMPLES["double"]
    cap = fixed if fixed is not None else MAX_SAMPLES["double"]
    start = 0
    while True:
        runner.plan(n - start + (0 if fixed else BATCH))
        runner.run([(i, None) for i in range(start, n)], _one)
        start = n
        idx = [i for i in range(n) if runner.has(i, "points")]
        if runner.interrupted and not idx:
            raise KeyboardInterrupt
        pts = [runner.results[i]["points"] for i in idx]
        on = estimate_option("play on", runner.fit(idx),
                             [float(payment(p, contract, view.doublings, declarer)) for p in pts], pts)
        if runner.interrupted:
            return idx, on, "interrupted"
        if fixed is not None:
            return idx, on, "samples"
        n, why = next_batch(n, cap, on.stderr is not None and on.stderr <= target)
        if why:
            return idx, on, why


def _one(payload: Any) -> int:
    """A double work item is one solve."""
    return 1


def _notes(view: View) -> tuple[str, ...]:
    notes = ["open-card play of each sample is the standard Monte Carlo approximation",
             "the other side's answer to a double (a Retour back) is not modelled"]
    if view.role == "defender":
        notes.append("a defender's units are their own settlement with the declarer")
    return tuple(notes)
