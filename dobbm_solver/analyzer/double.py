"""Double or play on: :func:`analyze_double`."""

from __future__ import annotations

import time

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
             "the other side's answer to a double (a Retour back) is not modelled"]
    if view.role == "defender":
        notes.append("a defender's units are their own settlement with the declarer")
    return tuple(notes)
