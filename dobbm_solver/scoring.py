"""Scoring a hand as it was played: points, outcome, payment, revokes (``dobbm score``);
and a session of hands: each player's running total, the dealer as the rule book has it.

The JSON and text forms of a :class:`Score` and a :class:`SessionScore` are in
:mod:`dobbm_solver.report`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

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


class SessionError(ScoreError):
    """Hands that do not follow one another as a session does: ``hand`` (1-based) is the
    one that breaks the rule, ``key`` what is wrong in it."""

    def __init__(self, hand: int, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.hand = hand
        self.key = key
        self.message = message


@dataclass(frozen=True, kw_only=True)
class SessionHand:
    """One hand of a session: its dealer (as given, or else the declarer of the hand
    before, as the rule book has it; None for a first hand that names none), its
    score, each player's payment and the running totals after it."""

    number: int
    dealer: str | None
    dealer_given: bool
    score: Score
    payments: Mapping[str, int]
    totals: Mapping[str, int]


@dataclass(frozen=True, kw_only=True)
class SessionScore:
    """A session: its hands in order and each player's total (players in the order
    they first sit at the table)."""

    hands: tuple[SessionHand, ...]
    players: tuple[str, ...]

    @property
    def totals(self) -> Mapping[str, int]:
        return self.hands[-1].totals if self.hands else {}


def check_dealer(deals: Sequence[Deal], k: int) -> str | None:
    """The dealer of hand ``k`` (0-based) of a session by the rule book: the declarer of
    the hand before (a hand thrown in leaves it to the same dealer, so it is not written);
    the first hand's as given.  :class:`SessionError` if ``deals[k]`` names another dealer.
    None where it is not known (a first hand naming none, a table the declarer before is not at)."""
    deal = deals[k]
    if k == 0:
        return deal.dealer
    before = deals[k - 1].declarer
    if deal.dealer is not None and deal.dealer != before:
        raise SessionError(k + 1, "dealer", f"{deal.dealer} deals hand {k + 1}, but the declarer of hand {k}, "
                                            f"{before}, deals the next hand (the rule book)")
    return deal.dealer if deal.dealer is not None else before if before in deal.seats else None


def score_session(deals: Sequence[Deal], scores: Sequence[Score]) -> SessionScore:
    """The session of ``deals`` in order (each scored in ``scores``): the dealers
    checked against the rule book (:func:`check_dealer`), the running totals."""
    players: list[str] = []
    totals: dict[str, int] = {}
    hands = []
    for k, (deal, sc) in enumerate(zip(deals, scores)):
        dealer = check_dealer(deals, k)
        pay = sc.payments(deal.active_seats)
        for seat in deal.seats:
            if seat not in totals:
                players.append(seat)
                totals[seat] = 0
        for seat, u in pay.items():
            totals[seat] += u
        hands.append(SessionHand(number=k + 1, dealer=dealer, dealer_given=deal.dealer is not None, score=sc,
                                 payments=pay, totals=dict(totals)))
    return SessionScore(hands=tuple(hands), players=tuple(players))
