"""What a game's result is worth to the person asking.

Points become units as in RULES.md: ``ceil(|points - 60| / 5)`` to the
winning side, 60 pays nothing, Solo x2, each Schwacher or Retour x2.  The
declarer settles with each of three defenders, so the expected value *for
the person asking* is ``3 x units`` as the declarer and ``-units`` as a
defender (a defender's own settlement with the declarer only).
"""

from __future__ import annotations

from ..rules import units


def payment(points: int, contract: str, doublings: int, declarer: bool) -> int:
    """Units the person asking receives (negative: pays) when the declarer ends with ``points``.

    The declarer settles with each of the three defenders: ``3 x units``; a
    defender only their own settlement: ``-units``.
    """
    u = units(points, contract, doublings)
    return 3 * u if declarer else -u
