"""A practice session: hands dealt in turn, the dealer as the rule book says, running totals.

Deal ``n`` of a session seeded ``seed`` is the arena's deal ``n`` of that seed
(:func:`~dobbm_solver.arena.game.deal_board`: the same cards whatever is
played), dealt by the session's dealer: the first hand by the seat before the
first seat (so the first seat is forehand), each later hand by the declarer
of the hand before; when all four pass the same dealer deals again (a new
deal, not counted as a hand).  The same seed and the same answers give the
same session.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..arena.decisions import Board, Env
from ..arena.game import SEATS, deal_board
from ..arena.strategies import ArenaSamples
from ..solver import Solver
from .game import Player, Tell, play_practice_hand
from .judge import PracticeReview, judge_hand

__all__ = ["PRACTICE_SAMPLES", "SEATS", "Session"]

#: The computer's sample counts, per decision: each decision of the computer well
#: under a second on 2 cores (``benchmarks/bench_practice.py`` measures it).
PRACTICE_SAMPLES = ArenaSamples(bid=96, discard=24, double=96, play=48)


@dataclass
class Session:
    """The state of a session: the next deal and dealer, the hands played, the totals.

    ``me`` is the player's seat; ``totals`` each seat's own units so far (the
    declarer of a hand receives or pays three payments, each defender one).
    """

    seed: int
    me: str
    solver: Solver
    samples: ArenaSamples = PRACTICE_SAMPLES
    dealer: str = SEATS[-1]
    deals: int = 0
    thrown_in: int = 0
    reviews: list[PracticeReview] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SEATS})

    def __post_init__(self) -> None:
        self.env = Env(self.solver, self.samples)

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    def next_board(self) -> Board:
        """The next deal, dealt by the session's dealer."""
        return replace(deal_board(self.seed, self.deals), dealer=self.dealer)

    def play(self, player: Player, tell: Tell) -> PracticeReview:
        """Deal and play the next deal (the player answers, ``tell`` hears each event);
        judge the player's decisions; move the deal on and add up the totals."""
        board = self.next_board()
        hand = play_practice_hand(board, self.env, self.me, player, tell)
        self.deals += 1
        review = judge_hand(self.solver, self.env, hand)
        if hand.deal is None:
            self.thrown_in += 1
            return review
        self.dealer = hand.deal.declarer
        for seat, u in hand.result.units.items():
            self.totals[seat] += u
        self.reviews.append(review)
        return review
