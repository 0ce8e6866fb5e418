"""The Monte Carlo card player: a :data:`~dobbm_solver.playout.Strategy` that sees only its own view.

Each decision builds the seat's play view (its own cards, the lay-away if it
is the Dobbm declarer, the contract, the doublings and the tricks so far;
the auction the contract implies) and plays :func:`analyze_play`'s
recommendation.  It never sees ``SeatView.open_deal``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, lowest_card
from ..playout import SeatView
from .advice import Advice
from .estimate import TARGET_STDERR
from .play import PlayMethod, analyze_play
from .view import View


@dataclass(frozen=True, kw_only=True)
class MonteCarloStrategy:
    """Plays the card :func:`analyze_play` recommends from the seat's own view.

    ``samples`` None: adaptive to ``target_stderr``; the seed of a decision
    is ``seed`` plus the cards played so far, so a hand replays exactly.
    """

    samples: int | None = None
    seed: int = 0
    jobs: int | None = 1
    target_stderr: float = TARGET_STDERR
    #: seconds each decision may sample for (None: ``samples`` alone)
    budget_s: float | None = None
    #: weight the samples by the play so far (:mod:`dobbm_solver.models.play_model`)
    inference: bool = False
    #: ``"alphamu"``: the declarer's first cards by alpha-mu search (:mod:`.alphamu`)
    method: PlayMethod = "pimc"
    sees_all_cards = False

    def __call__(self, view: SeatView) -> Card:
        return self.advise(view)[0]

    def advise(self, view: SeatView) -> tuple[Card, Advice[Card] | None]:
        """The card to play and the analysis behind it (None: a single legal card, nothing
        to weigh)."""
        legal = view.legal
        if legal & (legal - 1) == 0:
            return lowest_card(legal), None
        play_view = View.from_seat("play", seats=view.seats, me=view.seat, hand=view.hand,
                                   declarer=view.declarer, contract=view.contract, discard=view.discard,
                                   tricks=view.tricks, doublings=view.doublings, path="<table>")
        played = sum(len(t) for t in view.tricks)
        advice = analyze_play(play_view, samples=self.samples, seed=self.seed + played, jobs=self.jobs,
                              target_stderr=self.target_stderr, budget_s=self.budget_s,
                              inference=self.inference, method=self.method)
        return advice.recommendation, advice


def monte_carlo_strategy(samples: int | None = None, seed: int = 0, jobs: int | None = 1,
                         target_stderr: float = TARGET_STDERR) -> MonteCarloStrategy:
    """The Monte Carlo card player (see :class:`MonteCarloStrategy`)."""
    return MonteCarloStrategy(samples=samples, seed=seed, jobs=jobs, target_stderr=target_stderr)
