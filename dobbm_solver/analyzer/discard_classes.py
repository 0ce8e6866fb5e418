"""Lay-aways that are the same in play (:func:`discard_classes`): solved once, reported each."""

from __future__ import annotations

from ..cards import Card, CardSet, scan_forward
from ..models.discard_rule import legal_discards


def _zero_runs(hand12: CardSet) -> dict[Card, Card]:
    """Map each zero-point card (6-9) of ``hand12`` to the lowest card of its run.

    A run is a set of zero-point cards of one suit in ``hand12`` with no card
    of another holder between them: in play they are interchangeable.
    """
    rep: dict[Card, Card] = {}
    for s in range(4):
        first = None
        for rank in range(4):          # 6 7 8 9
            c = s * 9 + rank
            if (hand12 >> c) & 1:
                if first is None:
                    first = c
                rep[c] = first
            else:
                first = None
    return rep


def discard_classes(hand12: CardSet) -> list[tuple[CardSet, tuple[CardSet, ...]]]:
    """Legal lay-aways of ``hand12`` grouped by what is left to play.

    Two lay-aways that differ only by which of some interchangeable zero-point
    cards (adjacent 6-9 of one suit, none held elsewhere between them) go away
    leave hands that play identically and bank the same points, so they have
    the same value in every deal.  Returns ``[(representative, members)]`` in
    ``legal_discards`` order of the representatives (the first member).
    """
    rep = _zero_runs(hand12)
    groups: dict[tuple[tuple[Card, ...], tuple[tuple[Card, int], ...]], list[CardSet]] = {}
    for d in legal_discards(hand12):
        # canonical form: zero cards replaced by their run's count taken from the run bottom
        key_cards = []
        counts: dict[Card, int] = {}
        for c in scan_forward(d):
            if c in rep:
                counts[rep[c]] = counts.get(rep[c], 0) + 1
            else:
                key_cards.append(c)
        key = (tuple(key_cards), tuple(sorted(counts.items())))
        groups.setdefault(key, []).append(d)
    return [(ms[0], tuple(ms)) for ms in groups.values()]
