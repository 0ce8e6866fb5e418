"""One arena deal played end to end at one table, with hidden cards.

:func:`deal_board` deals the cards of deal ``index`` of a run seeded ``seed``
(the same cards whatever else the run does); :func:`play_table` plays them
with a :class:`~.strategies.Player` in each seat:

1. **the auction**: forehand (left of the dealer) first, each seat once:
   pass, Dobbm or Solo (after a Dobbm only pass or Solo); a Solo ends it.
   When all four pass the cards are thrown in and the hand counts 0 for
   every seat (as a redeal would; no must round is played);
2. **the exchange**: a Dobbm declarer takes the Dobb and lays away four cards;
3. **the doublings**, one round: each defender in turn from forehand is asked
   once whether to say Schwacher, until one does; after a Schwacher the
   declarer is asked once whether to answer with Retour (so 0, 1 or 2 doublings);
4. **the 8 tricks** by :func:`~dobbm_solver.playout.play_hand`, each seat's
   card player seeing only its own view (the ``open`` player sees every hand);
5. **settlement** by :func:`~dobbm_solver.rules.units`: each seat's own
   units, the declarer ``3 * units`` and each defender ``-units`` (so the
   four seats sum to 0).

With a time budget a table also records the samples each analysis used.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial
from typing import Callable, Mapping, Sequence, TypeVar

from ..cards import NUM_CARDS, CardSet
from ..deal import Deal, final_points, replay
from ..dealer import DEFAULT_SEATS, deal_cards
from ..playout import play_hand
from ..rules import units
from .decisions import Bids, Board, Env, decide_bid, decide_discard, decide_double, play_strategy
from .results import TableResult
from .strategies import Player

A = TypeVar("A")   # an answer: a bid, a lay-away, whether to double

SEATS: tuple[str, ...] = DEFAULT_SEATS[:4]
#: The dealer of every arena deal (the deal does not rotate); forehand is the seat after.
DEALER = SEATS[-1]


def deal_board(seed: int, index: int) -> Board:
    """Deal ``index`` of the run seeded ``seed``: one shuffle of the 36 cards by
    ``random.Random(f"arena:{seed}:{index}")``, dealt by :func:`deal_cards`."""
    rng = random.Random(f"arena:{seed}:{index}")
    order = list(range(NUM_CARDS))
    rng.shuffle(order)
    hands, dobb = deal_cards(order, len(SEATS))
    return Board(index=index, seats=SEATS, dealer=DEALER, hands=dict(zip(SEATS, hands)), dobb=dobb,
                 seed=rng.randrange(2 ** 31))


def bidding_order(board: Board) -> tuple[str, ...]:
    i = board.seats.index(board.dealer)
    return tuple(board.seats[(i + 1 + k) % len(board.seats)] for k in range(len(board.seats)))


class Asked:
    """What each seat was asked at one table: ``(seat, decision)`` -> the answer given
    and a function giving another strategy's answer at that same point.

    A seat is asked its bid, its lay-away and its doubling at most once a table, so
    a table where one seat's strategy for one of them is swapped plays out the same
    whenever the swapped strategy answers the same (see :mod:`.duplicate`)."""

    def __init__(self) -> None:
        self.record: dict[tuple[str, str], tuple[object, Callable[[str], object]]] = {}

    def ask(self, seat: str, decision: str, strategy: str, answer_of: Callable[[str], A]) -> A:
        answer = answer_of(strategy)
        self.record[(seat, decision)] = (answer, answer_of)
        return answer


def auction(board: Board, env: Env, players: Mapping[str, Player], asked: Asked) -> Bids:
    """The bids, forehand first, up to a Solo or the fourth bid."""
    bids: Bids = ()
    for seat in bidding_order(board):
        bid = asked.ask(seat, "bid", players[seat].bid, partial(_bid, board, env, seat, bids))
        bids += ((seat, bid),)
        if bid == "solo":
            break
    return bids


def _bid(board: Board, env: Env, seat: str, bids: Bids, strategy: str) -> str:
    return decide_bid(strategy, board, env, seat, bids)


def _double(board: Board, env: Env, deal: Deal, seat: str, bids: Bids, strategy: str) -> bool:
    return decide_double(strategy, board, env, deal, seat, bids)


def _discard(board: Board, env: Env, declarer: str, bids: Bids, strategy: str) -> CardSet:
    return decide_discard(strategy, board, env, declarer, bids)


def doublings(board: Board, env: Env, players: Mapping[str, Player], deal: Deal, bids: Bids,
              asked: Asked) -> tuple[str, ...]:
    """The doubling round; returns who doubled, in order (a Schwacher, then a Retour)."""
    said: tuple[str, ...] = ()
    for seat in bidding_order(board):
        if seat != deal.declarer and asked.ask(seat, "double", players[seat].double,
                                               partial(_double, board, env, deal, seat, bids)):
            said = (seat,)
            break
    if said:
        deal = _doubled(deal, 1)
        if asked.ask(deal.declarer, "double", players[deal.declarer].double,
                     partial(_double, board, env, deal, deal.declarer, bids)):
            said += (deal.declarer,)
    return said


def _doubled(deal: Deal, n: int) -> Deal:
    return replace(deal, doublings=n)


def play_table(board: Board, env: Env, players: Sequence[Player], asked: Asked | None = None) -> TableResult:
    """Play ``board`` at one table with ``players[i]`` at ``board.seats[i]``.
    ``asked``: where to record the decisions asked (see :class:`Asked`)."""
    asked = Asked() if asked is None else asked
    first_used = len(env.used)

    def samples_used() -> tuple[tuple[str, str, int], ...]:
        # recorded with a time budget only: without one each analysis has its fixed count
        return tuple(env.used[first_used:]) if env.budget_s is not None else ()

    by_seat = dict(zip(board.seats, players))
    bids = auction(board, env, by_seat, asked)
    said = [(s, b) for s, b in bids if b != "pass"]
    if not said:
        return TableResult(bids=bids, units={s: 0 for s in board.seats}, samples=samples_used())
    declarer, contract = said[-1]
    deal = board.open_deal(declarer, contract)
    if contract == "dobbm":
        lay = asked.ask(declarer, "discard", by_seat[declarer].discard, partial(_discard, board, env, declarer, bids))
        deal = deal.with_discard(lay)
    doubled_by = doublings(board, env, by_seat, deal, bids, asked)
    deal = _doubled(deal, len(doubled_by))
    finished = play_hand(deal, {s: play_strategy(by_seat[s].play, board, env, s) for s in board.seats})
    points = final_points(finished, replay(finished, check=False))
    u = units(points, contract, deal.doublings)
    return TableResult(bids=bids, declarer=declarer, contract=contract, discard=deal.discard,
                       doubled_by=doubled_by, doublings=deal.doublings, points=points, tricks=finished.tricks,
                       units={s: (3 * u if s == declarer else -u) for s in board.seats}, samples=samples_used())
