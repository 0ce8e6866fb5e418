"""Scoring and contract rules of Dobbm (see RULES.md): lay-away, outcome, payment."""

from __future__ import annotations

import math
from enum import Enum

from .cards import (
    BB_PLAIN_SAUS,
    BB_TRUMPS,
    DOBB_SIZE,
    CardSet,
    cards_text,
    popcount,
)
from .errors import DobbmError

CONTRACTS: tuple[str, ...] = ("dobbm", "solo")
WIN_THRESHOLD = 61
STANDOFF = 60
MATCH_UNITS = 12


class RuleError(DobbmError):
    """Raised when something breaks a rule of the game."""


class Outcome(str, Enum):
    WIN = "win"
    STANDOFF = "standoff"
    LOSS = "loss"


def outcome(declarer_points: int) -> Outcome:
    """Win with 61 or more, standoff at exactly 60, loss with 59 or less."""
    if declarer_points >= WIN_THRESHOLD:
        return Outcome.WIN
    if declarer_points == STANDOFF:
        return Outcome.STANDOFF
    return Outcome.LOSS


def base_units(declarer_points: int) -> int:
    """``ceil(|points - 60| / 5)``: 61-65 -> 1, ..., 116-120 -> 12."""
    if not 0 <= declarer_points <= 120:
        raise RuleError(f"declarer points must be 0..120, not {declarer_points}")
    return math.ceil(abs(declarer_points - STANDOFF) / 5)


def multiplier(contract: str, doublings: int = 0) -> int:
    """Solo x2; each Schwacher or Retour x2."""
    if contract not in CONTRACTS:
        raise RuleError(f"unknown contract {contract!r}")
    if doublings < 0:
        raise RuleError(f"doublings must be 0 or more, not {doublings}")
    factor: int = 2 ** doublings
    return (2 if contract == "solo" else 1) * factor


def units(declarer_points: int, contract: str, doublings: int = 0) -> int:
    """Units each defender pays the declarer (negative: the declarer pays each defender)."""
    u = base_units(declarer_points) * multiplier(contract, doublings)
    return u if declarer_points > STANDOFF else -u


def revoke_units(contract: str, doublings: int = 0) -> int:
    """A revoke costs the offender half a match (6 units) times the multipliers, to each opponent."""
    return (MATCH_UNITS // 2) * multiplier(contract, doublings)


def discard_error(cards: CardSet) -> str | None:
    """Why four cards may not be laid away, or None if they may.

    A plain-suit Sau (EA, LA, SA) may be laid away only together with a trump:
    the number of plain Saus laid away must not exceed the number of hearts
    laid away (HA counts as a heart).
    """
    n = popcount(cards)
    if n != DOBB_SIZE:
        return f"must lay away exactly {DOBB_SIZE} cards, not {n}"
    if not sau_rule_ok(cards):
        hearts = popcount(cards & BB_TRUMPS)
        return (f"cannot lay away {cards_text(cards & BB_PLAIN_SAUS)} with only "
                f"{hearts} heart{'s' if hearts != 1 else ''} (Sau rule)")
    return None


def sau_rule_ok(cards: CardSet) -> bool:
    """Whether ``cards`` lay away no more plain Saus than hearts (the Sau rule alone)."""
    return popcount(cards & BB_PLAIN_SAUS) <= popcount(cards & BB_TRUMPS)


def legal_discard(cards: CardSet) -> bool:
    return discard_error(cards) is None
