"""One practice hand at a table with hidden cards: one seat is the player's, the
computer plays the other three with the advice of ``bid``, ``discard``,
``double`` and ``play``.

The hand runs as an arena table does (:mod:`dobbm_solver.arena.game`): the
auction from forehand, the exchange, one doubling round (a Schwacher from the
first defender who says it, then the declarer's answer), the eight tricks and
the settlement.  The computer's seats decide with the arena's advice
strategies (:mod:`dobbm_solver.arena.decisions`), each seeded by the deal,
the seat and the decision; where the player is to decide, the player is
asked (an :class:`Ask`), and the advice for the player's own view is what
the computer would decide in that seat (:meth:`Ask.advice`, the ``hint``);
the player's last card, the only one left, plays itself.  What happens is
told as :data:`Event` values.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import Callable, Generic, Literal, Protocol, Sequence, TypeVar, Union

from ..arena.decisions import (
    Bids,
    Board,
    Env,
    bid_options,
    decide_bid,
    decide_discard,
    decide_double,
    play_strategy,
)
from ..arena.game import bidding_order
from ..arena.results import TableResult
from ..cards import Card, CardSet, card_points, trick_winner
from ..deal import Deal, final_points, replay, trick_seats
from ..playout import SeatView, Strategy, play_hand
from ..rules import units

__all__ = ["Ask", "AskKind", "BidSaid", "CardPlayed", "Decision", "DoublingSaid", "Event", "HandPlayed",
           "LaidAway", "Player", "ThrownIn", "TrickWon", "play_practice_hand", "DOUBLE", "GOOD", "RETOUR"]

A = TypeVar("A")
AskKind = Literal["bid", "discard", "double", "play"]

#: The words of a doubling: the defenders' Schwacher is ``double``, an answer to one
#: ``retour``; ``good`` plays on.
DOUBLE = "double"
RETOUR = "retour"
GOOD = "good"


@dataclass(kw_only=True, eq=False)
class Ask(Generic[A]):
    """A decision the player is asked, with what the player's seat sees.

    ``hand``: the seat's cards now (a Dobbm declarer about to lay away: its
    12 cards); ``options``: the bids open, or the doubling word and ``good``;
    ``legal``: the cards it may play (play); ``view``: the seat's view of the
    play so far (play).  ``dobb`` is the Dobb when the seat has seen it.
    The answers: a bid (``str``), four cards (a card set), whether to double
    (``bool``), a card.
    """

    kind: AskKind
    seat: str
    hand: CardSet
    bids: Bids
    options: tuple[str, ...] = ()
    declarer: str | None = None
    contract: str | None = None
    doublings: int = 0
    dobb: CardSet | None = None
    legal: CardSet = 0
    view: SeatView | None = None
    advise: Callable[[], A]
    _advice: list[A] = field(default_factory=list)

    def advice(self) -> A:
        """What the advice chooses from this view (the computer's choice in this seat);
        computed once."""
        if not self._advice:
            self._advice.append(self.advise())
        return self._advice[0]


class Player(Protocol):
    """The player: the answer to an :class:`Ask` (a bid, four cards, a bool, a card)."""

    def __call__(self, ask: Ask[A]) -> A: ...


@dataclass(frozen=True, kw_only=True)
class Decision:
    """One decision of the player: what was asked and the answer given."""

    ask: Ask[object]
    answer: object


@dataclass(frozen=True)
class BidSaid:
    seat: str
    bid: str


@dataclass(frozen=True)
class ThrownIn:
    """All four passed: the cards are thrown in, the same dealer deals again."""

    dealer: str


@dataclass(frozen=True)
class LaidAway:
    """The Dobbm declarer took the Dobb and laid four cards away (``cards``: known to
    the player only when the player laid them away)."""

    seat: str
    cards: CardSet | None


@dataclass(frozen=True)
class DoublingSaid:
    """A seat asked to double: ``said`` or not (good); ``number`` the doubling it would be."""

    seat: str
    number: int
    said: bool


@dataclass(frozen=True)
class CardPlayed:
    seat: str
    card: Card
    trick: int   # 1-based


@dataclass(frozen=True)
class TrickWon:
    """A trick complete: its leader, cards, winner and points, and each side's trick points so far."""

    trick: int
    order: tuple[str, ...]   # the seats in play order, the leader first
    cards: tuple[Card, ...]
    winner: str
    points: int
    declarer_points: int
    defender_points: int


Event = Union[BidSaid, ThrownIn, LaidAway, DoublingSaid, CardPlayed, TrickWon]
Tell = Callable[[Event], None]


@dataclass(frozen=True, kw_only=True)
class HandPlayed:
    """A practice hand played: the board, the result at the table (as the arena's),
    the finished deal (None: thrown in) and the player's decisions in order."""

    board: Board
    me: str
    result: TableResult
    deal: Deal | None
    decisions: tuple[Decision, ...]

    @property
    def thrown_in(self) -> bool:
        return self.deal is None


class _Table:
    """The state of one hand while it is played: the board, the player, what was decided."""

    def __init__(self, board: Board, env: Env, me: str, player: Player, tell: Tell) -> None:
        self.board = board
        self.env = env
        self.me = me
        self.player = player
        self.tell = tell
        self.decisions: list[Decision] = []

    def ask(self, ask: Ask[A]) -> A:
        answer = self.player(ask)
        self.decisions.append(Decision(ask=ask, answer=answer))   # type: ignore[arg-type]
        return answer

    def bid(self, seat: str, bids: Bids) -> str:
        board, env = self.board, self.env
        advise = partial(decide_bid, "advice", board, env, seat, bids)
        if seat != self.me:
            return advise()
        dobbm_said = any(b == "dobbm" for _, b in bids)
        return self.ask(Ask(kind="bid", seat=seat, hand=board.hands[seat], bids=bids,
                            options=bid_options(dobbm_said), advise=advise))

    def discard(self, declarer: str, bids: Bids) -> CardSet:
        board = self.board
        advise = partial(decide_discard, "advice", board, self.env, declarer, bids)
        if declarer != self.me:
            return advise()
        return self.ask(Ask(kind="discard", seat=declarer, hand=board.hands[declarer] | board.dobb, bids=bids,
                            declarer=declarer, contract="dobbm", dobb=board.dobb, advise=advise))

    def double(self, seat: str, deal: Deal, bids: Bids) -> bool:
        advise = partial(decide_double, "advice", self.board, self.env, deal, seat, bids)
        if seat != self.me:
            said = advise()
        else:
            word = RETOUR if (seat == deal.declarer or deal.doublings) else DOUBLE
            seen = deal.dobb if seat == deal.declarer and deal.contract == "dobbm" else None
            said = self.ask(Ask(kind="double", seat=seat, hand=deal.hands[seat], bids=bids, options=(word, GOOD),
                                declarer=deal.declarer, contract=deal.contract, doublings=deal.doublings,
                                dobb=seen, advise=advise))
        self.tell(DoublingSaid(seat, deal.doublings + 1, said))
        return said

    def card_player(self, seat: str) -> Strategy:
        """``seat``'s card player, telling each card played and each trick won."""
        strategy = play_strategy("advice", self.board, self.env, seat)
        if seat == self.me:
            mine = strategy

            def strategy(view: SeatView) -> Card:
                if view.hand & (view.hand - 1) == 0:   # the last card plays itself
                    return mine(view)
                return self.ask(Ask(kind="play", seat=seat, hand=view.hand, bids=(), declarer=view.declarer,
                                    contract=view.contract, doublings=view.doublings, legal=view.legal,
                                    view=view, advise=partial(mine, view)))

        def telling(view: SeatView) -> Card:
            card = strategy(view)
            trick = view.trick + (card,)
            number = len(view.tricks) + (0 if view.trick else 1)
            self.tell(CardPlayed(seat, card, number))
            if len(trick) == 4:
                winner = trick_seats(view.seats, view.leader)[trick_winner(trick)]
                before = [t for t in view.tricks if len(t) == 4]
                decl, defs = _trick_points(view, before)
                won = sum(card_points(c) for c in trick)
                if winner == view.declarer:
                    decl += won
                else:
                    defs += won
                self.tell(TrickWon(number, trick_seats(view.seats, view.leader), trick, winner, won, decl, defs))
            return card
        return telling


def _trick_points(view: SeatView, tricks: Sequence[tuple[Card, ...]]) -> tuple[int, int]:
    """The points in the finished ``tricks`` for the declarer and for the defenders."""
    decl = defs = 0
    for leader, t in zip(view.leaders, tricks):
        pts = sum(card_points(c) for c in t)
        if trick_seats(view.seats, leader)[trick_winner(t)] == view.declarer:
            decl += pts
        else:
            defs += pts
    return decl, defs


def play_practice_hand(board: Board, env: Env, me: str, player: Player, tell: Tell) -> HandPlayed:
    """Play ``board`` with the player at seat ``me`` and the computer's advice elsewhere.

    ``player`` answers each :class:`Ask`; ``tell`` hears each event.  An exception
    the player raises (the input ended, say) ends the hand unfinished.
    """
    table = _Table(board, env, me, player, tell)
    bids: Bids = ()
    for seat in bidding_order(board):
        bid = table.bid(seat, bids)
        bids += ((seat, bid),)
        tell(BidSaid(seat, bid))
        if bid == "solo":
            break
    said = [(s, b) for s, b in bids if b != "pass"]
    if not said:
        tell(ThrownIn(board.dealer))
        return HandPlayed(board=board, me=me, result=TableResult(bids=bids, units={s: 0 for s in board.seats}),
                          deal=None, decisions=tuple(table.decisions))
    declarer, contract = said[-1]
    deal = board.open_deal(declarer, contract)
    if contract == "dobbm":
        deal = deal.with_discard(table.discard(declarer, bids))
        tell(LaidAway(declarer, deal.discard if declarer == me else None))
    doubled_by: tuple[str, ...] = ()
    for seat in bidding_order(board):
        if seat != declarer and table.double(seat, deal, bids):
            doubled_by = (seat,)
            break
    if doubled_by:
        deal = replace(deal, doublings=1)
        if table.double(declarer, deal, bids):
            doubled_by += (declarer,)
            deal = replace(deal, doublings=2)
    finished = play_hand(deal, {s: table.card_player(s) for s in board.seats})
    points = final_points(finished, replay(finished, check=False))
    u = units(points, contract, deal.doublings)
    result = TableResult(bids=bids, declarer=declarer, contract=contract, discard=deal.discard,
                         doubled_by=doubled_by, doublings=deal.doublings, points=points, tricks=finished.tricks,
                         units={s: (3 * u if s == declarer else -u) for s in board.seats})
    return HandPlayed(board=board, me=me, result=result, deal=finished, decisions=tuple(table.decisions))
