"""Scoring a hand as it was played: points, outcome, payment, revokes (``dobbm score``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import HAND_SIZE, card_name, set_names
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


def heading(deal: Deal, title: str) -> str:
    """The first line of a report on a deal: ``TITLE: Dobbm by Anna, 1 doubling``."""
    kind = "Dobbm" if deal.contract == "dobbm" else "Solo"
    d = deal.doublings
    return f"{title}: {kind} by {deal.declarer}" + (f", {d} doubling{'s' if d != 1 else ''}" if d else "")


def score_dict(deal: Deal, sc: Score, match_cost: float | None = None) -> dict[str, Any]:
    pay = sc.payments(deal.active_seats)
    obj: dict[str, Any] = {
        "declarer": sc.declarer,
        "contract": sc.contract,
        "doublings": sc.doublings,
        "declarer_points": sc.declarer_points,
        "defender_points": sc.defender_points,
        "declarer_tricks": sc.declarer_tricks,
        "outcome": sc.outcome.value if sc.outcome else "void",
        "units": sc.units,
        "payments": pay,
        "revokes": [{"trick": r.trick, "seat": r.seat, "card": card_name(r.card),
                     "could_play": set_names(r.legal)} for r in sc.revokes],
    }
    if match_cost is not None:
        obj["money"] = {s: round(u * match_cost / 12, 2) for s, u in pay.items()}
    return obj


def score_text(deal: Deal, sc: Score, title: str, match_cost: float | None = None) -> str:
    obj = score_dict(deal, sc, match_cost)
    lines = [heading(deal, title)]
    lines.append(f"  {sc.declarer} {sc.declarer_points} points ({sc.declarer_tricks} tricks), "
                 f"defenders {sc.defender_points}: " + (obj["outcome"] if not sc.void else "void by revoke"))
    for r in sc.revokes:
        lines.append(f"  revoke: trick {r.trick}, {r.seat} played {card_name(r.card)} "
                     f"(could play {' '.join(set_names(r.legal))})")
    for seat, u in obj["payments"].items():
        money = f"  ({obj['money'][seat]:+.2f})" if match_cost is not None else ""
        lines.append(f"  {seat:>8} {u:+d} units{money}")
    return "\n".join(lines)
