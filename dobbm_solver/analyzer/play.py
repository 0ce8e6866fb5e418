"""Which card now? Monte Carlo card play from a player's own view: :func:`analyze_play`.

The unseen cards are dealt consistent with everything known (the auction,
an unseen Dobbm declarer's lay-away rule, the cards played and the voids
they showed); every sample is solved with open cards from the current
position, every legal card of ``me`` valued on one table; the cards are
ranked by expected units on the same samples (paired).  Each sample is
played as if all cards were open: where a guess is to be made later the
advice can be too optimistic (strategy fusion), the standard limit of the
method.

With ``inference`` each sample is also weighted by the chance of the cards
the other seats have played so far, under the model of play
(:mod:`dobbm_solver.models.play_model`): the estimates are then weighted
means (self-normalised importance weights), the posterior given the play.

With ``method="alphamu"`` the declarer's cards in the first tricks are chosen
by alpha-mu search over a few sampled worlds instead
(:mod:`.alphamu`: one strategy for all worlds the declarer cannot tell apart).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any, Literal, Sequence

from .._pool import worker_solver
from ..cards import BB_ALL, Card, CardSet, cardset, display_key, legal_cards, scan_forward, trick_winner
from ..deal import trick_seats
from ..errors import OptionError
from ..models.play_model import PLAY_TEMPERATURE
from .advice import Advice, OptionEstimate
from .alphamu import ALPHAMU_DEPTH, ALPHAMU_TRICKS, ALPHAMU_WORLDS, AlphaMuResult, alphamu
from .arguments import check_target, check_view, resolve_samples, resolve_seed
from .estimate import MAX_SAMPLES, MIN_SAMPLES, TARGET_STDERR, PlainMean, estimate_option
from .payment import payment
from .runner import Progress, SampleRunner
from .sampling import sample_deals
from .template import Analysis, Ranking, compared, run_analysis
from .view import AnalyzerError, View

#: How ``play`` chooses a card: perfect-information Monte Carlo, or alpha-mu search for
#: the declarer's first tricks (:mod:`.alphamu`).
PlayMethod = Literal["pimc", "alphamu"]
PLAY_METHODS: tuple[str, ...] = ("pimc", "alphamu")
#: With a time budget the alpha-mu search starts on this many worlds and doubles them
#: while time is left, up to :data:`ALPHAMU_MAX_WORLDS`.
ALPHAMU_FIRST_WORLDS = 4
ALPHAMU_MAX_WORLDS = 32


@dataclass(frozen=True)
class PlayTurn:
    """Where the play stands in a view: who is to move, the trick so far, the legal cards."""

    to_move: str
    trick: tuple[Card, ...]
    legal: tuple[Card, ...]


def play_turn(view: View) -> PlayTurn:
    """The seat to move (the declarer leads to the first trick, the winner of each to the
    next), the cards of the trick in play, and ``me``'s legal cards; an
    :class:`AnalyzerError` unless ``me`` is to move."""
    assert view.declarer is not None
    leader = view.declarer
    tricks = view.tricks
    for trick in tricks:
        if len(trick) == 4:
            leader = trick_seats(view.active, leader)[trick_winner(trick)]
    current = tricks[-1] if tricks and len(tricks[-1]) < 4 else ()
    if len(tricks) == 8 and not current:
        raise AnalyzerError(view.path, "tricks", "the hand is finished: there is no card to play", view.doc)
    to_move = trick_seats(view.active, leader)[len(current)]
    if to_move != view.me:
        raise AnalyzerError(view.path, "me", f"it is {to_move}'s turn to play, not {view.me}'s (me)", view.doc)
    legal = legal_cards(view.my_hand, current[0] if current else None)
    if not legal:
        raise AnalyzerError(view.path, f"hands.{view.me}", "no card to play: the hand is empty", view.doc)
    return PlayTurn(to_move, tuple(current), tuple(sorted(scan_forward(legal), key=display_key)))


def _everything_seen(view: View) -> bool:
    seen: CardSet = cardset(c for t in view.tricks for c in t)
    for h in view.hands.values():
        seen |= h
    for known in (view.dobb, view.discard):
        seen |= known or 0
    return seen == BB_ALL


class PlayAnalysis(Analysis[Card]):
    """``me``'s legal cards: one solve of a sample values every card."""

    command = "play"
    first = MIN_SAMPLES["play"]
    cap = MAX_SAMPLES["play"]
    # no control variates: the cards are compared on the same samples anyway, and their
    # 1024 cheap draws cost more than the solves where the auction is rare (a Solo)
    control_variates = False

    def __init__(self, view: View, temperature: float | None = None) -> None:
        self.turn = play_turn(view)
        self.temperature = temperature          # None: no inference from the play
        super().__init__(view, list(self.turn.legal), result_key="cards")

    def payload(self) -> float | None:
        """The play model's temperature when the samples are weighted by the play (else None)."""
        return self.temperature

    def cost(self, payload: Any) -> int:
        return 1

    def weights(self, runner: SampleRunner, idx: Sequence[int]) -> list[float] | None:
        """Each sample's weight, its play's likelihood relative to the likeliest's (None: no
        inference)."""
        if self.temperature is None:
            return None
        logs = [runner.results[i]["log_likelihood"] for i in idx]
        top = max(logs, default=0.0)
        return [math.exp(x - top) for x in logs]

    def fixed_samples(self, samples: int | None) -> int | None:
        """A view that shows every card is solved once."""
        return 1 if _everything_seen(self.view) else resolve_samples(samples)

    def rank(self, runner: SampleRunner) -> Ranking[Card]:
        """Each legal card's estimate, best first (cards worth the same in every sample as one)."""
        view = self.view
        assert view.contract is not None
        idx = self.samples()
        declarer = view.role == "declarer"
        fit = runner.fit(idx)
        w = self.weights(runner, idx)
        ests: list[OptionEstimate[Card]] = []
        pays_by: dict[Card, dict[int, float]] = {}
        for c in self.turn.legal:
            pts = [runner.results[i]["cards"][c] for i in idx]
            pays = [float(payment(p, view.contract, view.doublings, declarer)) for p in pts]
            if w is None:
                ests.append(estimate_option(c, fit, pays, pts))
            else:
                pays = _weighted(pays, w)
                ests.append(_weighted_estimate(c, fit, pays, pts, w))
            pays_by[c] = dict(zip(idx, pays))
        sign = -1 if declarer else 1        # my side's points first on ties in units
        rank = {c: k for k, c in enumerate(self.turn.legal)}
        ests.sort(key=lambda e: (-e.ev_units, sign * (e.expected_points or 0.0), rank[e.option]))
        return Ranking(_group_alike(ests, runner, idx), pays_by)

    def info(self, runner: SampleRunner, ranking: Ranking[Card]) -> dict[str, Any]:
        info: dict[str, Any] = {"to_move": self.turn.to_move, "trick": self.turn.trick, "stopped": self.stopped,
                                "target_stderr": self.target}
        w = self.weights(runner, self.samples())
        if w is not None:
            info["play_temperature"] = self.temperature
            info["effective_samples"] = round(math.fsum(w) ** 2 / math.fsum(x * x for x in w), 1)
        return info

    def notes(self, ranking: Ranking[Card]) -> tuple[str, ...]:
        notes = ["every sample is played as if all cards were open once it is dealt: where a guess is "
                 "still to be made the advice can be too optimistic (strategy fusion)",
                 "win % and points are the declarer's final points after the card"]
        if self.view.role == "defender":
            notes.append("a defender's units are their own settlement with the declarer")
        return tuple(notes)


def analyze_play(view: View, samples: int | None = None, seed: int | None = None,
                 jobs: int | None = None, progress: Progress | None = None, *,
                 target_stderr: float = TARGET_STDERR,
                 budget_s: float | None = None, inference: bool = False,
                 temperature: float = PLAY_TEMPERATURE, method: PlayMethod = "pimc") -> Advice[Card]:
    """``me``'s legal cards ranked by expected units, on shared samples.

    ``samples`` None: adaptive, batches until the leading card's expected
    points have a standard error of at most ``target_stderr``.  A view that
    shows every card is solved once: its values are the open-card solver's.
    ``info``: ``to_move``, ``trick`` (the cards in play), ``stopped``.  ``inference``:
    weight each sample by the likelihood of the other seats' cards played so far under
    :mod:`~dobbm_solver.models.play_model` at ``temperature`` (``info``: ``play_temperature``,
    ``effective_samples``, the weights' ``(sum w)^2 / sum w^2``).
    ``budget_s``: seconds to sample for, None: no limit (stopping between batches,
    ``stopped`` ``"time"``; see :func:`~.template.run_analysis`).
    ``method`` ``"alphamu"``: the declarer's cards in tricks 1 to
    :data:`~.alphamu.ALPHAMU_TRICKS` by :func:`alphamu_play` (``samples``: its worlds), every
    other decision as ``"pimc"``.
    """
    check_view(view, "play")
    if method not in PLAY_METHODS:
        raise OptionError(f"method must be one of {', '.join(PLAY_METHODS)}, not {method!r}")
    temp = check_target(temperature, "temperature", "number of points") if inference else None
    if method == "alphamu" and alphamu_applies(view):
        return alphamu_play(view, samples, seed, budget_s=budget_s)
    return run_analysis(PlayAnalysis(view, temp), samples, seed, jobs, progress, target_stderr, budget_s)


def alphamu_applies(view: View) -> bool:
    """Whether ``view`` is a decision alpha-mu search takes: the declarer's, in tricks 1 to
    :data:`~.alphamu.ALPHAMU_TRICKS`, with cards unseen and more than one legal card."""
    done = sum(1 for t in view.tricks if len(t) == 4)
    return (view.role == "declarer" and done < ALPHAMU_TRICKS and not _everything_seen(view)
            and len(play_turn(view).legal) > 1)


def alphamu_play(view: View, worlds: int | None = None, seed: int | None = None, *,
                 budget_s: float | None = None, depth: int = ALPHAMU_DEPTH) -> Advice[Card]:
    """The declarer's legal cards ranked by alpha-mu search (:func:`~.alphamu.alphamu`) of
    ``depth`` declarer moves over the view's first ``worlds`` samples (None:
    :data:`~.alphamu.ALPHAMU_WORLDS`; the samples of :func:`analyze_play`'s with the same seed).

    Each card's estimate is that of its best vector (the declarer's points per world
    under one strategy for every world): its mean payment, points and win chance over the
    worlds.  ``budget_s``: search on :data:`ALPHAMU_FIRST_WORLDS` worlds, then twice as
    many, until a search ends past the deadline (or ``worlds``, else
    :data:`ALPHAMU_MAX_WORLDS`, is reached): the answer is that of the last search,
    which depends only on the worlds it had.  ``info``: ``to_move``, ``trick``,
    ``stopped``, ``method``, ``depth``, ``solves``.
    """
    t0 = time.perf_counter()
    check_view(view, "play")
    if view.role != "declarer":
        raise AnalyzerError(view.path, "me", "alpha-mu search decides the declarer's cards", view.doc)
    turn = play_turn(view)
    seed = resolve_seed(seed)
    fixed = resolve_samples(worlds, minimum=1)
    if budget_s is not None:
        budget_s = check_target(budget_s, "budget", "number of seconds")
    solver = worker_solver()
    assert view.contract is not None
    if budget_s is None:
        n = ALPHAMU_WORLDS if fixed is None else fixed
        result = alphamu(solver, sample_deals(view, n, seed), view.contract, view.doublings, depth)
        stopped = "samples"
    else:
        cap = ALPHAMU_MAX_WORLDS if fixed is None else fixed
        n = min(ALPHAMU_FIRST_WORLDS, cap)
        while True:
            result = alphamu(solver, sample_deals(view, n, seed), view.contract, view.doublings, depth)
            if time.perf_counter() - t0 > budget_s:
                stopped = "time"
                break
            if n >= cap:
                stopped = "samples"
                break
            n = min(2 * n, cap)
    pays = {c: dict(enumerate(_pays(view, v))) for c, v in result.best.items()}
    ests = compared(lambda idx: PlainMean(), Ranking(_alphamu_estimates(view, result, turn), pays)).estimates
    margin: tuple[float | None, float | None] = (None, None)
    if len(ests) > 1:
        lead, second = (pays[e.option] for e in ests[:2])
        margin = PlainMean().mean([lead[i] - second[i] for i in lead])
    return Advice(command="play", me=view.me, role=view.role, recommendation=ests[0].option, options=tuple(ests),
                  samples=n, seed=seed, jobs=1, seconds=time.perf_counter() - t0,
                  margin=margin[0], margin_stderr=margin[1],
                  info={"to_move": turn.to_move, "trick": turn.trick, "stopped": stopped, "method": "alphamu",
                        "depth": depth, "solves": result.solves},
                  notes=("alpha-mu search: the declarer plays one strategy in every sampled world it cannot "
                         f"tell apart for its next {depth} moves, the defenders are assumed to see the cards; "
                         "open-card play after that",
                         "win % and points are the declarer's final points after the card, under the "
                         "card's best strategy"))


def _pays(view: View, points: Sequence[int]) -> list[float]:
    assert view.contract is not None
    return [float(payment(p, view.contract, view.doublings, True)) for p in points]


def _alphamu_estimates(view: View, result: AlphaMuResult, turn: PlayTurn) -> list[OptionEstimate[Card]]:
    """Each class of alike cards' estimate from its best vector, best first (ties: the higher
    open-card mean, then the order shown)."""
    order = {c: k for k, c in enumerate(turn.legal)}
    ests = []
    for c, vector in result.best.items():
        e = estimate_option(c, PlainMean(), _pays(view, vector), list(vector))
        ests.append(replace(e, alike=result.alike[c][1:]))
    ests.sort(key=lambda e: (-result.score[e.option], -sum(result.open_values[e.option]), order[e.option]))
    # cards worth the same in every world, searched and open, as one row (as Monte Carlo's rows)
    rows: list[OptionEstimate[Card]] = []
    seen: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    for e in ests:
        key = (result.best[e.option], result.open_values[e.option])
        if key in seen:
            k = seen[key]
            rows[k] = replace(rows[k], alike=rows[k].alike + (e.option,) + e.alike)
        else:
            seen[key] = len(rows)
            rows.append(e)
    return rows


def _weighted(pays: Sequence[float], w: Sequence[float]) -> list[float]:
    """``w_i * pays_i / mean(w)``: their plain mean is the weighted mean (the paired
    differences of two cards' too)."""
    wbar = math.fsum(w) / len(w)
    return [wi * p / wbar for wi, p in zip(w, pays)]


def _weighted_estimate(c: Card, fit: PlainMean, pays: Sequence[float], pts: Sequence[int],
                       w: Sequence[float]) -> OptionEstimate[Card]:
    """A card's estimate with sample weights ``w`` (``pays`` already :func:`_weighted`): the
    weighted means of units, points and wins, the units' error by the delta method."""
    e = estimate_option(c, fit, pays, pts, w)
    ev = math.fsum(pays) / len(pays)
    wbar = math.fsum(w) / len(w)
    _, se = fit.mean([p - wi * ev / wbar for p, wi in zip(pays, w)])
    return replace(e, ev_units=ev, stderr_units=se)


def _group_alike(ests: list[OptionEstimate[Card]], runner: SampleRunner, idx: list[int]) -> list[OptionEstimate[Card]]:
    """Cards worth the same in every sample (e.g. adjacent 6-9 of a suit) as one option,
    the others in its ``alike``."""
    rows: list[OptionEstimate[Card]] = []
    seen: dict[tuple[int, ...], int] = {}
    for e in ests:
        key = tuple(runner.results[i]["cards"][e.option] for i in idx)
        if key in seen:
            k = seen[key]
            rows[k] = replace(rows[k], alike=rows[k].alike + (e.option,))
        else:
            seen[key] = len(rows)
            rows.append(e)
    return rows
