"""Pass, Dobbm or Solo: :func:`analyze_bid`."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..models.bidding import model_bid
from ..models.strength import hand_strength
from .advice import OPTION_ORDER, Advice, OptionEstimate
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

#: With adaptive sampling an option whose expected units trail the best
#: by more than this many standard errors (paired) is no longer sampled.
RACE_Z = 3.0

Pays = dict[str, dict[int, float]]


@dataclass
class _BidRun:
    """The state of one bid analysis: the options, the samples each was solved on."""

    playable: list[str]                  # the options that play a game (not pass)
    has_pass: bool
    fixed: int | None                    # samples asked for (None: adaptive)
    target: float
    active: list[str] = field(default_factory=list)     # options still sampled
    solved: dict[str, list[int]] = field(default_factory=dict)   # sample indices per option
    stopped: str = "samples"

    def __post_init__(self) -> None:
        self.active = list(self.playable)
        self.solved = {o: [] for o in self.playable}


def analyze_bid(view: View, samples: int | None = None, seed: int | None = None,
                jobs: int | None = None, progress: Progress | None = None, *,
                target_stderr: float = TARGET_STDERR) -> Advice:
    """Pass, Dobbm or Solo for ``me`` holding 8 cards, about to bid.

    Per sample (the other hands and the Dobb dealt consistent with the bids
    so far) Dobbm, with the lay-away the calibrated rule
    :func:`~dobbm_solver.models.discard_rule.calibrated_discard` picks from
    the 12 cards (fitted to the solver, close to what ``discard`` would lay away),
    and Solo are solved with open cards.  Pass is worth 0 by
    definition (what a pass leads to -- defending another player's game, or
    a new deal -- is not valued).  A Dobbm can be overcalled by a later
    player's Solo: each sample's Dobbm counts with the chance that nobody
    does (the bidding model on their sampled cards); an overcalled Dobbm
    counts 0, like a pass, and Dobbm's ``expected_points`` and
    ``win_probability`` are those of the games you get to play.  In the must
    round only Dobbm and Solo are offered; after another player's Dobbm only
    pass and Solo.

    ``samples`` None: adaptive -- batches until the recommended option's
    points have standard error <= ``target_stderr`` (options clearly behind
    stop being sampled); a number: exactly that many samples for every
    option.  ``info``: ``model_bid`` (the bidding model's own choice),
    ``hand_strength``, ``overcall_probability``, ``stopped``.
    """
    t0 = time.perf_counter()
    check_view(view, "bid")
    fixed = resolve_samples(samples)
    seed = resolve_seed(seed)
    run = _BidRun([o for o in view.bid_options() if o != "pass"], "pass" in view.bid_options(),
                  fixed, check_target(target_stderr))
    with SampleRunner(view, seed, jobs, progress) as runner:
        runner.start_cv(needed=fixed is None or fixed >= CV_MIN_SAMPLES)
        _sample(runner, run)
        ests, pays_by = _estimates(runner, run)
        margin = mse = None
        if len(ests) > 1:
            margin, mse = paired_difference(runner.fit, pays_by[ests[0].option], pays_by[ests[1].option])
    samples_used = max(len(v) for v in run.solved.values()) if run.solved else 0
    return Advice("bid", view.me, view.role, ests[0].option, tuple(ests), samples_used, seed, runner.jobs,
                  time.perf_counter() - t0, margin, mse, _info(view, runner, run), _notes(run))


def _sample(runner: SampleRunner, run: _BidRun) -> None:
    """Solve batches of samples until the run stops (fixed count, target, cap, Ctrl-C)."""
    fixed = run.fixed
    n = fixed if fixed is not None else MIN_SAMPLES["bid"]
    cap = fixed if fixed is not None else MAX_SAMPLES["bid"]
    start = 0
    while True:
        runner.plan((n - start) * len(run.active) + (0 if fixed else BATCH * len(run.active)))
        runner.run([(i, tuple(run.active)) for i in range(start, n)], len)
        for o in run.active:
            run.solved[o].extend(i for i in range(start, n) if runner.has(i, o))
        start = n
        if fixed is None:
            # the next batch, with the options still in the race, starts on the
            # workers while this one is judged (an option dropped meanwhile just
            # has results that are never used)
            runner.start_ahead([(i, tuple(run.active)) for i in range(n, min(cap, n + BATCH))], len)
        if runner.interrupted:      # (nothing was started ahead then)
            if not any(run.solved.values()):
                raise KeyboardInterrupt
            run.stopped = "interrupted"
            return
        if fixed is not None:
            return
        ests, pays_by = _estimates(runner, run)
        _race(runner, run, ests, pays_by)
        n, why = next_batch(n, cap, _precise(run, ests))
        if why:
            runner.cancel_ahead()
            run.stopped = why
            return


def _option_series(runner: SampleRunner, run: _BidRun, o: str
                   ) -> tuple[list[int], list[float], list[int], list[float]]:
    """Option ``o``'s samples: indices, payments (weighted), points, weights."""
    idx = run.solved[o]
    w = [runner.results[i][o][0] for i in idx]
    p = [runner.results[i][o][1] for i in idx]
    pays = [wi * payment(pi, o, 0, True) for wi, pi in zip(w, p)]
    return idx, pays, p, w


def _estimates(runner: SampleRunner, run: _BidRun) -> tuple[list[OptionEstimate], Pays]:
    """Every option's estimate, best first, and its payments by sample index."""
    out = []
    pays_by: Pays = {}
    for o in run.playable:
        if not run.solved[o]:   # interrupted before this option was solved once
            continue
        idx, pays, p, w = _option_series(runner, run, o)
        fit = runner.fit(idx)
        out.append(estimate_option(o, fit, pays, p, w if o == "dobbm" else None))
        pays_by[o] = dict(zip(idx, pays))
    if run.has_pass:
        m = max((len(run.solved[o]) for o in run.playable), default=0)
        out.append(OptionEstimate("pass", 0.0, None, None, None, m, 0.0))
        pays_by["pass"] = {i: 0.0 for i in range(m)}
    out.sort(key=lambda e: (-e.ev_units, OPTION_ORDER[e.option]))
    return out, pays_by


def _race(runner: SampleRunner, run: _BidRun, ests: list[OptionEstimate], pays_by: Pays) -> None:
    """Stop sampling the options clearly behind the best."""
    best = ests[0]
    for e in ests[1:]:
        if e.option in run.active:
            diff, se = paired_difference(runner.fit, pays_by[best.option], pays_by[e.option])
            if se is not None and diff > RACE_Z * max(se, 1e-9):
                run.active.remove(e.option)


def _precise(run: _BidRun, ests: list[OptionEstimate]) -> bool:
    """Whether the target is reached: the best option's points (if Pass leads: every option
    still sampled), or no option is left to sample."""
    best = ests[0]
    if best.option == "pass":
        done = all(e.stderr is not None and e.stderr <= run.target for e in ests if e.option in run.active)
    else:
        done = best.stderr is not None and best.stderr <= run.target
    return done or not run.active


def _info(view: View, runner: SampleRunner, run: _BidRun) -> dict[str, Any]:
    info: dict[str, Any] = {
        "model_bid": model_bid(view.my_hand, dobbm_said=view.dobbm_said, must=view.must,
                               turn=None if view.must else len(view.bids)),
        "hand_strength": hand_strength(view.my_hand),
        "stopped": run.stopped,
        "target_stderr": run.target,
    }
    if "dobbm" in run.playable and run.solved["dobbm"]:
        w = [runner.results[i]["dobbm"][0] for i in run.solved["dobbm"]]
        info["overcall_probability"] = round(1.0 - sum(w) / len(w), 4)
    return info


def _notes(run: _BidRun) -> tuple[str, ...]:
    notes = ["open-card play of each sample is the standard Monte Carlo approximation: "
             "once play starts every player is assumed to know all hands",
             "Pass counts 0 by definition; doubling after the bid is not modelled"]
    if "dobbm" in run.playable:
        notes.append("Dobbm: in each sample the 12 cards are laid away by models.discard_rule."
                     "calibrated_discard, a rule fitted to the solver (from the 12 cards alone, no peeking), "
                     "which lays away about 1.3 points a hand worse than discard's analysis; "
                     "a later Solo overcall counts 0, like a pass")
    return tuple(notes)
