"""Types of the compiled lay-away scorer (``_discard.pyx``); private: use
:func:`dobbm_solver.models.discard_rule.heuristic_discard` and
:func:`dobbm_solver.models.discard_rule.calibrated_discard`.

Every lay-away of a 12-card hand (Sau rule obeyed) is scored as the sum of a
term per card laid away and a term per plain suit kept, added in a fixed
order: the cards' terms by ascending card, then the suits' in the order of
``plain_suits``.  Lay-aways come in ``itertools.combinations`` order over the
hand's cards by ascending card number.  Holdings are one suit's cards as
nine rank bits.
"""

from typing import Callable, Iterable

class Tables:
    """One lay-away rule's terms, each asked for once when built.

    ``top_run(holding)``: the holding's top cards (a subset of it; at most 16
    distinct sets); ``card_term(card, top)``: the term of laying ``card`` away,
    ``top`` whether it is a top card; ``suit_term(kept, top)``: the term of a
    plain suit kept with the holding ``kept`` (not empty), ``top`` its top cards in
    the hand; ``void_term(hearts)``: a plain suit kept void with ``hearts`` (0..9)
    hearts kept.  ``plain_suits``: the suits whose kept holdings are scored, in
    the order their terms are added; ``trumps``, ``plain_saus``: the cards of the
    Sau rule (no more plain Saus laid away than trumps)."""

    def __init__(
        self,
        top_run: Callable[[int], int],
        card_term: Callable[[int, bool], float],
        suit_term: Callable[[int, int], float],
        void_term: Callable[[int], float],
        plain_suits: Iterable[int],
        trumps: int,
        plain_saus: int,
    ) -> None: ...
    def scores(self, hand: int, exclude: int = 0, require: int = 0) -> list[tuple[int, float]]:
        """Every lay-away of the 12 cards of ``hand`` (none of ``exclude``, all of
        ``require``) with its score, in order.  ``ValueError`` unless 12 cards."""
    def first_best(self, hand: int, exclude: int, require: int, tie: float) -> int:
        """The best lay-away, a later one replacing the best so far only if it scores
        more than ``tie`` above it; 0 if there is none."""
    def near_best(self, hand: int, exclude: int, require: int, margin: float) -> list[int]:
        """The lay-aways scoring at least the best score less ``margin``, in order."""
