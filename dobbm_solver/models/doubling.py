"""The doubling model: how likely a side holding given cards is to say another doubling.

A model of the players, not an analysis: ``dobbm double``'s analysis is
:mod:`dobbm_solver.analyzer.double`.

After "I lie" the defenders may say Schwacher, the declarer may answer with
Retour, the defenders with Retour again, and so on (RULES.md, Doubling).
The model gives the chance that a side answers with one more doubling from
cheap facts of its cards: with ``s`` :func:`~dobbm_solver.models.strength.fast_hand_strength`
and ``t`` the number of trumps,

    P(a player doubles) = sig(a + b * s + c * t)

with ``(a, b, c)`` in :data:`DOUBLING_MODEL` by the situation and the
contract: a defender's Schwacher (:data:`SCHWACHER`), the declarer's Retour
(:data:`RETOUR`, also for a later answer of the declarer) and the defenders'
Retour back (:data:`RETOUR_BACK`, for every later answer of theirs).  A
defender is rated on the 8 cards held; the declarer of a Solo on the 8
cards, of a Dobbm on the 12 (the 8 dealt and the Dobb).  The defenders as a
side double when any of them would: ``1 - prod(1 - p_i)``.  The constants
are calibrated against :func:`~dobbm_solver.analyzer.analyze_double` itself
(``benchmarks/calibrate_doubling.py``): logistic fits of what it answers on
views sampled as at a table, a defender after "I lie", the declarer facing
a Schwacher, a defender facing the Retour.

The model serves twice:

* :func:`sequence_payment` values a doubling as the sequence it starts:
  the other side answers with the model's chance, then one's own side
  (:data:`SEQUENCE_ANSWERS`), within :data:`~dobbm_solver.deal.MAX_DOUBLINGS`;
* :func:`doubling_likelihood` is the chance of the doublings a view shows
  (a Schwacher, a Retour...), which the sampler uses as it uses the bids:
  a deal is kept in proportion to it.  As with bids, a small lapse
  :data:`DOUBLING_LAPSE` at the base rate :data:`DOUBLING_BASE_RATE` keeps
  every doubling possible for every hand.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..cards import BB_TRUMPS, CardSet, popcount
from ..deal import MAX_DOUBLINGS
from .bidding import logistic
from .strength import fast_hand_strength

__all__ = ["DEFENDER", "DECLARER", "SCHWACHER", "RETOUR", "RETOUR_BACK",
           "DOUBLING_MODEL", "DOUBLING_LAPSE", "DOUBLING_BASE_RATE",
           "player_doubles", "side_doubles", "answer_probabilities", "answer_chance", "sequence_payment",
           "doubling_likelihood", "declarer_cards", "situation_of", "SEQUENCE_ANSWERS"]

#: the sides, as keys of :func:`answer_probabilities`
DEFENDER = "defender"
DECLARER = "declarer"
#: the situations of the model: the first doubling, the declarer's answer, the defenders'
SCHWACHER = "schwacher"
RETOUR = "retour"
RETOUR_BACK = "retour back"

#: ``(situation, contract) -> (a, b, c)``: a player doubles with chance
#: ``sig(a + b * strength + c * trumps)``.  Fitted by
#: ``benchmarks/calibrate_doubling.py --views 300 --rounds 8 --samples 48 --pool``
#: to what ``analyze_double`` answers (48 samples each) on 2,400 views per
#: situation and contract, dealt by the bidding model on its bid and Solo
#: scores (``models.bidding``).  The analysis values a doubling with these
#: constants and samples with the signal they give, so the fit is iterated:
#: each round answers 300 fresh views per situation with the fit of every
#: round before, pooled (the plain iteration oscillates: declarers who answer
#: often make the defenders double less, and the next fit the other way).
#: This is the iteration's fixed point as far as 300 views can tell: in rounds
#: 7 and 8 the constants in place predicted each situation's count of
#: doublings on its fresh views within 1.8 standard errors, and these on 300
#: views none of the rounds saw (``--start 100000 --rounds 1``) within the
#: figures of ``docs/methods.md``.
DOUBLING_MODEL: dict[tuple[str, str], tuple[float, float, float]] = {
    (SCHWACHER, "dobbm"): (-10.13, 0.590, 0.378),
    (SCHWACHER, "solo"): (-4.77, 0.277, 0.083),
    (RETOUR, "dobbm"): (-15.12, 0.769, 0.210),
    (RETOUR, "solo"): (-14.84, 0.913, -0.605),
    (RETOUR_BACK, "dobbm"): (-7.86, 0.365, 0.375),
    (RETOUR_BACK, "solo"): (-4.76, 0.286, -0.064),
}
#: The chance that a doubling (or the lack of one) ignores the model, as in
#: :data:`~dobbm_solver.models.bidding.BID_LAPSE`; only the sampler uses it.
DOUBLING_LAPSE = 0.05
#: How often a side says a doubling under the model, over the calibration's
#: views (``benchmarks/calibrate_doubling.py``, the last round's fit): the
#: lapse's rate.
DOUBLING_BASE_RATE: dict[tuple[str, str], float] = {
    (SCHWACHER, "dobbm"): 0.175, (SCHWACHER, "solo"): 0.277,
    (RETOUR, "dobbm"): 0.395, (RETOUR, "solo"): 0.632,
    (RETOUR_BACK, "dobbm"): 0.194, (RETOUR_BACK, "solo"): 0.264,
}


def declarer_cards(contract: str, dealt: CardSet, dobb: CardSet) -> CardSet:
    """The cards the declarer is rated on: a Solo's 8, a Dobbm's 12 (with the Dobb)."""
    return dealt | dobb if contract == "dobbm" else dealt


def player_doubles(situation: str, contract: str, cards: CardSet) -> float:
    """The model's chance that a player holding ``cards`` says one more doubling in
    ``situation`` (:data:`SCHWACHER`, :data:`RETOUR`, :data:`RETOUR_BACK`)."""
    a, b, c = DOUBLING_MODEL[(situation, contract)]
    return logistic(a + b * fast_hand_strength(cards) + c * popcount(cards & BB_TRUMPS))


def side_doubles(situation: str, contract: str, hands: Iterable[CardSet]) -> float:
    """The chance that a side doubles: any of its players (the declarer: one hand)."""
    stay = 1.0
    for h in hands:
        stay *= 1.0 - player_doubles(situation, contract, h)
    return 1.0 - stay


def situation_of(k: int) -> str:
    """The situation of doubling number ``k``: the Schwacher, then Retours in turn."""
    return SCHWACHER if k == 1 else RETOUR if k % 2 == 0 else RETOUR_BACK


def answer_probabilities(contract: str, declarer: CardSet, defenders: Sequence[CardSet]) -> dict[str, float]:
    """Each side's chance of answering a doubling with another, on one deal:
    ``{"declarer": ..., "defender": ...}`` (a Retour, a Retour back; ``declarer``:
    see :func:`declarer_cards`)."""
    return {DECLARER: player_doubles(RETOUR, contract, declarer),
            DEFENDER: side_doubles(RETOUR_BACK, contract, defenders)}


#: The answers a doubling's value follows: the other side's (a Retour) and one's own
#: side's to that (a Retour back).  Each further answer would double the stake again
#: with the model's chances unchanged, which ignore what the doublings in between tell;
#: with both sides' chances high the value then grows with every step up to the cap.
SEQUENCE_ANSWERS = 2


def answer_chance(level: int, answer: float) -> float:
    """The chance that doubling number ``level`` is answered, the other side answering
    with chance ``answer``: none once it reaches
    :data:`~dobbm_solver.deal.MAX_DOUBLINGS` (the cap :func:`sequence_payment` keeps)."""
    return answer if level < MAX_DOUBLINGS else 0.0


def sequence_payment(pay: Sequence[float], level: int, answer: float, answer_back: float
                     ) -> tuple[float, float]:
    """The expected payment of saying doubling number ``level`` (1 for the Schwacher):
    the other side answers with chance ``answer``, one's own side then answers
    back with chance ``answer_back`` (:data:`SEQUENCE_ANSWERS` answers), never
    beyond :data:`~dobbm_solver.deal.MAX_DOUBLINGS` doublings.

    ``pay[k]``: what the deal pays with ``k`` doublings (``k`` up to
    ``MAX_DOUBLINGS``).  Returns the expected payment and the expected number
    of doublings the sequence ends with.
    """
    top = min(MAX_DOUBLINGS, level + SEQUENCE_ANSWERS)
    value, doublings = pay[top], float(top)
    for k in range(top - 1, level - 1, -1):
        # at k doublings the side that did not say the k-th answers
        p = answer if (k - level) % 2 == 0 else answer_back
        value = (1.0 - p) * pay[k] + p * value
        doublings = (1.0 - p) * k + p * doublings
    return value, doublings


def doubling_likelihood(doublings: int, contract: str, declarer: CardSet, defenders: Sequence[CardSet]) -> float:
    """The chance of ``doublings`` said so far (odd ones by the defenders, even ones by
    the declarer), lapses included: the sampler's weight of a deal."""
    out = 1.0
    for k in range(1, doublings + 1):
        situation = situation_of(k)
        p = (player_doubles(situation, contract, declarer) if situation == RETOUR
             else side_doubles(situation, contract, defenders))
        out *= (1.0 - DOUBLING_LAPSE) * p + DOUBLING_LAPSE * DOUBLING_BASE_RATE[(situation, contract)]
    return out
