"""An arena table's play as a deal: what ``review`` and ``explore`` replay, and ``--html`` shows."""

from __future__ import annotations

from ..deal import Deal
from ..playout import play_card
from .results import DealRow, TableResult

__all__ = ["table_deal"]


def table_deal(row: DealRow, table: TableResult, seats: tuple[str, ...], dealer: str) -> Deal | None:
    """The deal one table played: the hands after the exchange with the tricks played (the
    cards left in hand, the rest in the tricks); None when all passed."""
    if table.declarer is None or table.contract is None:
        return None
    hands = dict(row.hands)
    discard = table.discard if table.contract == "dobbm" else None
    if discard is not None:
        hands[table.declarer] = (hands[table.declarer] | row.dobb) & ~discard
    deal = Deal(seats=seats, declarer=table.declarer, contract=table.contract, hands=hands, dobb=row.dobb,
                discard=discard, tricks=(), doublings=table.doublings, dealer=dealer)
    for trick in table.tricks:
        for card in trick:
            deal = play_card(deal, card)
    return deal
