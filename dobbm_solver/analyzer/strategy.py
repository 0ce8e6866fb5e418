"""The Monte Carlo card player: a :data:`~dobbm_solver.playout.Strategy` that sees only its own view.

Each decision builds the seat's play view (its own cards, the lay-away if it
is the Dobbm declarer, the contract, the doublings and the tricks so far;
the auction the contract implies) and plays :func:`analyze_play`'s
recommendation.  It never sees ``SeatView.open_deal``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card, card_name, parse_card, set_names
from ..handfile import parse_spec
from ..playout import SeatView
from .advice import Advice
from .checks import make_view
from .estimate import TARGET_STDERR
from .play import analyze_play


def view_document(view: SeatView) -> dict[str, Any]:
    """The hand-file document of a seat's play view (what :func:`make_view` reads)."""
    doc: dict[str, Any] = {
        "seats": list(view.seats), "me": view.seat, "declarer": view.declarer,
        "contract": view.contract, "doublings": view.doublings,
        "hands": {view.seat: " ".join(set_names(view.hand))},
        "tricks": [" ".join(card_name(c) for c in t) for t in view.tricks],
    }
    if view.discard is not None:
        doc["discard"] = " ".join(set_names(view.discard))
    return doc


@dataclass(frozen=True)
class MonteCarloStrategy:
    """Plays the card :func:`analyze_play` recommends from the seat's own view.

    ``samples`` None: adaptive to ``target_stderr``; the seed of a decision
    is ``seed`` plus the cards played so far, so a hand replays exactly.
    """

    samples: int | None = None
    seed: int = 0
    jobs: int | None = 1
    target_stderr: float = TARGET_STDERR
    sees_all_cards = False

    def __call__(self, view: SeatView) -> Card:
        return self.advise(view)[0]

    def advise(self, view: SeatView) -> tuple[Card, Advice | None]:
        """The card to play and the analysis behind it (None: a single legal card, nothing
        to weigh)."""
        legal = view.legal
        if legal & (legal - 1) == 0:
            return parse_card(set_names(legal)[0]), None
        play_view = make_view(parse_spec(view_document(view), "<table>"), "play")
        played = sum(len(t) for t in view.tricks)
        advice = analyze_play(play_view, samples=self.samples, seed=self.seed + played, jobs=self.jobs,
                              target_stderr=self.target_stderr)
        return parse_card(advice.recommendation), advice


def monte_carlo_strategy(samples: int | None = None, seed: int = 0, jobs: int | None = 1,
                         target_stderr: float = TARGET_STDERR) -> MonteCarloStrategy:
    """The Monte Carlo card player (see :class:`MonteCarloStrategy`)."""
    return MonteCarloStrategy(samples, seed, jobs, target_stderr)
