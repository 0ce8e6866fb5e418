"""The bid analysis (``dobbm bid``): Pass, Dobbm or Solo, ranked by Monte Carlo (:func:`analyze_bid`).

The model of how the other players bid, which the sampler deals by and which
values a later overcall, is :mod:`dobbm_solver.models.bidding`.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from ..errors import OptionError
from ..models.bidding import Bid, model_bid
from ..models.strength import hand_strength
from .advice import OPTION_ORDER, Advice, OptionEstimate
from .arguments import check_view
from .estimate import MAX_SAMPLES, MIN_SAMPLES, TARGET_STDERR, estimate_option
from .payment import payment
from .runner import Progress, SampleRunner
from .template import Analysis, Ranking, run_analysis
from .view import View

#: With adaptive sampling an option whose expected units trail the best
#: by more than this many standard errors (paired) is no longer sampled.
RACE_Z = 3.0
#: The pass's precision: its units' error counts as this many points.  A declarer's option
#: at the target (points) has about 3 / 5 of it as an error in units (a unit every 5
#: points, from each of 3 defenders), so the pass is asked for the same error in units.
POINTS_PER_PASS_UNIT = 5.0 / 3.0

#: What a pass is worth: ``defend``, the game the others then play against you
#: (:func:`~.work.pass_value`); ``zero``, 0 by definition (the advice before it valued
#: the pass: the arena's ``pimc`` bidder).
PassValue = Literal["defend", "zero"]
PASS_VALUES: tuple[PassValue, ...] = ("defend", "zero")


class BidAnalysis(Analysis[Bid]):
    """The bids, each one solve of a sample (a pass: a solve of each game it may lead to;
    with ``pass_value`` ``zero``, no solve: worth 0)."""

    command = "bid"
    first = MIN_SAMPLES["bid"]
    cap = MAX_SAMPLES["bid"]
    race_z = RACE_Z
    per_option = True

    def __init__(self, view: View, pass_value: PassValue = "defend") -> None:
        offered = view.bid_options()
        self.has_pass = "pass" in offered
        self.pass_value = pass_value
        solved = [o for o in offered if o != "pass" or pass_value == "defend"]
        super().__init__(view, [cast(Bid, o) for o in solved])

    def _series(self, runner: SampleRunner, o: Bid) -> tuple[list[int], list[float], list[int], list[float]]:
        """Option ``o``'s samples: indices, payments (weighted), points, weights."""
        idx = self.solved[o]
        w = [runner.results[i][o][0] for i in idx]
        p = [runner.results[i][o][1] for i in idx]
        pays = [wi * payment(pi, o, 0, True) for wi, pi in zip(w, p)]
        return idx, pays, p, w

    def rank(self, runner: SampleRunner) -> Ranking[Bid]:
        out: list[OptionEstimate[Bid]] = []
        pays_by: dict[Bid, dict[int, float]] = {}
        for o in self.options:
            if not self.solved[o]:   # interrupted before this option was solved once
                continue
            idx = self.solved[o]
            if o == "pass":     # (chance that someone plays, expected units): no points of its own
                pays = [runner.results[i][o][1] for i in idx]
                out.append(estimate_option(o, runner.fit(idx), pays, None))
            else:
                idx, pays, p, w = self._series(runner, o)
                out.append(estimate_option(o, runner.fit(idx), pays, p, w if o == "dobbm" else None))
            pays_by[o] = dict(zip(idx, pays))
        if self.has_pass and self.pass_value == "zero":
            m = max((len(self.solved[o]) for o in self.options), default=0)
            out.append(OptionEstimate(option="pass", ev_units=0.0, samples=m, stderr_units=0.0))
            pays_by["pass"] = {i: 0.0 for i in range(m)}
        out.sort(key=lambda e: (-e.ev_units, OPTION_ORDER[e.option]))
        return Ranking(out, pays_by)

    def precise(self, ranking: Ranking[Bid]) -> bool:
        """The best option's points within the target (a pass's error in units counts
        :data:`POINTS_PER_PASS_UNIT` points each; a pass worth 0 has none, so when it leads
        every option still sampled must be within it)."""
        ests = ranking.estimates
        if ests[0].option == "pass":
            if self.pass_value == "zero":
                return all(e.stderr is not None and e.stderr <= self.target
                           for e in ests if e.option in self.active)
            return _points_error(ests[0]) <= self.target
        return super().precise(ranking)

    def info(self, runner: SampleRunner, ranking: Ranking[Bid]) -> dict[str, Any]:
        view = self.view
        info: dict[str, Any] = {
            "model_bid": model_bid(view.my_hand, dobbm_said=view.dobbm_said, must=view.must,
                                   turn=None if view.must else len(view.bids)),
            "hand_strength": hand_strength(view.my_hand),
            "stopped": self.stopped,
            "target_stderr": self.target,
        }
        if "dobbm" in self.options and self.solved["dobbm"]:
            w = [runner.results[i]["dobbm"][0] for i in self.solved["dobbm"]]
            info["overcall_probability"] = round(1.0 - sum(w) / len(w), 4)
        if "pass" in self.options and self.solved["pass"]:
            w = [runner.results[i]["pass"][0] for i in self.solved["pass"]]
            info["game_after_pass_probability"] = round(sum(w) / len(w), 4)
        return info

    def notes(self, ranking: Ranking[Bid]) -> tuple[str, ...]:
        notes = ["open-card play of each sample is the standard Monte Carlo approximation: "
                 "once play starts every player is assumed to know all hands"]
        if self.pass_value == "zero":
            notes.append("Pass counts 0 by definition; doubling after the bid is not modelled")
        elif self.has_pass:
            notes.append("Pass: the others then bid by the bidding model on their sampled cards, and the game "
                         "they lead to is solved with you defending (a Dobbm laid away by the calibrated rule); "
                         "all passing throws the hand in: 0. Doubling after the bid is not modelled")
        else:
            notes.append("doubling after the bid is not modelled")
        if "dobbm" in self.options:
            notes.append("Dobbm: in each sample the 12 cards are laid away by the calibrated lay-away rule, "
                         "a rule fitted to the solver (from the 12 cards alone, no peeking), "
                         "which lays away about 1.3 points a hand worse than discard's analysis; "
                         "a later Solo overcall counts 0 (the Solo you would then defend is not valued)")
        return tuple(notes)


def _points_error(e: OptionEstimate[Bid]) -> float:
    """A pass's standard error in points (its units', see :data:`POINTS_PER_PASS_UNIT`)."""
    return float("inf") if e.stderr_units is None else e.stderr_units * POINTS_PER_PASS_UNIT


def analyze_bid(view: View, samples: int | None = None, seed: int | None = None,
                jobs: int | None = None, progress: Progress | None = None, *,
                target_stderr: float = TARGET_STDERR,
                budget_s: float | None = None, pass_value: PassValue = "defend") -> Advice[Bid]:
    """Pass, Dobbm or Solo for ``me`` holding 8 cards, about to bid.

    Per sample (the other hands and the Dobb dealt consistent with the bids
    so far) Dobbm, with the lay-away the calibrated rule
    :func:`~dobbm_solver.models.discard_rule.calibrated_discard` picks from
    the 12 cards (fitted to the solver, close to what ``discard`` would lay away),
    and Solo are solved with open cards.  Pass (``pass_value`` ``defend``) is
    worth the game the others then play against you: on each sample the later
    players bid by the bidding model on their sampled cards, each game that can
    follow (a Dobbm laid away by the same calibrated rule from its declarer's 12
    cards, a Solo) is solved with you defending, and your ``-units`` are weighted
    by its chance; everyone passing throws the hand in and counts 0
    (:func:`~.work.pass_value`).  ``pass_value`` ``zero``: Pass is worth 0 by
    definition (the advice before it valued the pass).  A Dobbm can be overcalled by a later
    player's Solo: each sample's Dobbm counts with the chance that nobody
    does (the bidding model on their sampled cards); an overcalled Dobbm
    counts 0 (the Solo you would then defend is not valued), and Dobbm's ``expected_points`` and
    ``win_probability`` are those of the games you get to play.  In the must
    round only Dobbm and Solo are offered; after another player's Dobbm only
    pass and Solo.

    ``samples`` None: adaptive -- batches until the recommended option's
    points have standard error <= ``target_stderr`` (options clearly behind
    stop being sampled); a number: exactly that many samples for every
    option.  ``info``: ``model_bid`` (the bidding model's own choice),
    ``hand_strength``, ``overcall_probability``, ``game_after_pass_probability``
    (the chance that someone plays after your pass), ``stopped``.
    ``budget_s``: seconds to sample for, None: no limit (stopping between batches,
    ``stopped`` ``"time"``; see :func:`~.template.run_analysis`).
    """
    check_view(view, "bid")
    if pass_value not in PASS_VALUES:
        raise OptionError(f"pass_value must be one of {', '.join(PASS_VALUES)}, not {pass_value!r}")
    return run_analysis(BidAnalysis(view, pass_value), samples, seed, jobs, progress, target_stderr, budget_s)
