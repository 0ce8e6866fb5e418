"""Scoring a hand as it was played: points, outcome, payment, revokes (``dobbm score``).

The JSON and text forms of a :class:`Score` are in :mod:`dobbm_solver.report`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import HAND_SIZE
from .deal import Deal, Revoke, final_points, find_revokes, replay
from .errors import DobbmError
from .rules import Outcome, outcome, revoke_units, units


class ScoreError(DobbmError):
    """A hand that cannot be scored (not finished)."""


@dataclass(frozen=True)
class Score:
    """The result of a finished hand.  ``units`` are per defender, + when the declarer collects."""

    declarer: str
    contract: str
    doublings: int
    declarer_points: int
    declarer_tricks: int
    revokes: tuple[Revoke, ...]

    @property
    def defender_points(self) -> int:
        return 120 - self.declarer_points

    @property
    def void(self) -> bool:
        """A revoke voids the hand: only the revoke penalty is paid."""
        return bool(self.revokes)

    @property
    def outcome(self) -> Outcome | None:
        return None if self.void else outcome(self.declarer_points)

    @property
    def units(self) -> int:
        """Per defender: + the declarer collects from each, - the declarer pays each.

        With a revoke the first revoke decides: the offending side pays half a
        match times the multipliers to each opponent.
        """
        if self.revokes:
            penalty = revoke_units(self.contract, self.doublings)
            return -penalty if self.revokes[0].seat == self.declarer else penalty
        return units(self.declarer_points, self.contract, self.doublings)

    def payments(self, seats: tuple[str, ...]) -> dict[str, int]:
        """Net units for every active seat (they sum to zero)."""
        out = {s: -self.units for s in seats if s != self.declarer}
        out[self.declarer] = self.units * len(out)
        return out


def score_hand(deal: Deal) -> Score:
    """Score a deal whose eight tricks are all in ``tricks`` (revokes allowed and charged)."""
    if len(deal.tricks) != HAND_SIZE or any(len(t) != 4 for t in deal.tricks):
        raise ScoreError(f"tricks: a finished hand has {HAND_SIZE} tricks of 4 cards, "
                         f"not {len(deal.tricks)} ({sum(len(t) for t in deal.tricks)} cards)")
    state = replay(deal, check=False)
    return Score(deal.declarer, deal.contract, deal.doublings, final_points(deal, state),
                 state.declarer_tricks, tuple(find_revokes(deal)))
