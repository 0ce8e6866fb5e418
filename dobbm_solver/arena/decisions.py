"""Each decision of each strategy: what a seat bids, lays away, doubles and plays.

The functions take the hidden :class:`Board` (the deal as dealt) and an
:class:`Env` (the solver, the arena's sample counts, a cache of open-card
studies).  Only the ``open`` strategies read the other hands; ``rule`` and
``advice`` are given, or build, the seat's own view: its cards, the bids,
the contract, and the Dobb and lay-away only when the seat has seen them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..analyzer import Advice, View, analyze_bid, analyze_discard, analyze_double
from ..analyzer.advice import OptT
from ..analyzer.play import PlayMethod
from ..analyzer.strategy import MonteCarloStrategy
from ..cards import Card, CardSet
from ..deal import Deal
from ..models.bidding import model_bid
from ..models.discard_rule import heuristic_discard
from ..playout import SeatView, Strategy, open_card_strategy, rule_of_thumb_strategy
from ..rules import units
from ..solver import Solver
from .strategies import DECISIONS, SAMPLING, ArenaSamples, method

Bids = tuple[tuple[str, str], ...]


@dataclass(frozen=True, kw_only=True)
class Board:
    """A deal as dealt: the hidden truth of one arena deal.

    ``seed`` seeds the advice strategies' own sampling (each seat and decision
    its own offset), so a board replays exactly at every table.
    """

    index: int
    seats: tuple[str, ...]
    dealer: str
    hands: Mapping[str, CardSet]
    dobb: CardSet
    seed: int

    def open_deal(self, declarer: str, contract: str) -> Deal:
        """The deal with ``declarer`` playing ``contract`` (a Dobbm before its lay-away)."""
        return Deal(seats=self.seats, declarer=declarer, contract=contract, hands=dict(self.hands),
                    dobb=self.dobb, dealer=self.dealer)

    def seed_for(self, seat: str, decision: str) -> int:
        return self.seed * 64 + self.seats.index(seat) * len(DECISIONS) + DECISIONS.index(decision)


@dataclass
class Env:
    """What the strategies share within a deal: a solver, the sample counts and time
    budget, the open-card studies already made (the same deal is replayed at several
    tables), and the samples each analysis used."""

    solver: Solver
    samples: ArenaSamples
    #: the seconds each analysis may sample for (None: its sample count alone)
    budget_s: float | None = None
    #: every analysis made: (seat, decision, samples it used), in order
    used: list[tuple[str, str, int]] = field(default_factory=list)
    #: (deal index, declarer) -> the best lay-away of its Dobbm and its points
    discards: dict[tuple[int, str], tuple[CardSet, int]] = field(default_factory=dict)
    #: (deal index, declarer) -> the points of its Solo
    solos: dict[tuple[int, str], int] = field(default_factory=dict)

    def best_discard(self, board: Board, declarer: str) -> tuple[CardSet, int]:
        """The open-card best lay-away of ``declarer``'s Dobbm and its points."""
        key = (board.index, declarer)
        if key not in self.discards:
            best = self.solver.study_discards(board.open_deal(declarer, "dobbm"), jobs=1)[0]
            self.discards[key] = (best.cards, best.declarer_points)
        return self.discards[key]

    def solo_points(self, board: Board, declarer: str) -> int:
        """The open-card points of ``declarer``'s Solo."""
        key = (board.index, declarer)
        if key not in self.solos:
            self.solos[key] = self.solver.solve(board.open_deal(declarer, "solo")).declarer_points
        return self.solos[key]


def own_view(command: str, board: Board, me: str, bids: Bids, hand: CardSet, *, declarer: str | None = None,
             contract: str | None = None, doublings: int = 0, dobb: CardSet | None = None,
             discard: CardSet | None = None) -> View:
    """``me``'s checked view for ``command`` at ``board``: the seats, the dealer, the bids,
    ``me``'s ``hand`` and what else ``me`` has seen."""
    return View.from_seat(command, seats=board.seats, dealer=board.dealer, me=me, hand=hand, bids=bids,
                          declarer=declarer, contract=contract, doublings=doublings, dobb=dobb,
                          discard=discard, path="<arena>")


def whole(advice: Advice[OptT]) -> Advice[OptT]:
    """``advice``, unless Ctrl-C cut its sampling short: then ``KeyboardInterrupt``
    (the deal is dropped, not written with fewer samples than the arena states)."""
    if advice.info.get("stopped") == "interrupted":
        raise KeyboardInterrupt
    return advice


def used(env: Env, seat: str, decision: str, advice: Advice[OptT]) -> Advice[OptT]:
    """``advice`` (see :func:`whole`), its samples noted in ``env.used``."""
    whole(advice)
    env.used.append((seat, decision, advice.samples))
    return advice


# --------------------------------------------------------------------------
# bidding

def bid_options(dobbm_said: bool) -> tuple[str, ...]:
    return ("pass", "solo") if dobbm_said else ("pass", "dobbm", "solo")


def decide_bid(strategy: str, board: Board, env: Env, seat: str, bids: Bids) -> str:
    """``seat``'s bid after ``bids``: pass, dobbm or solo."""
    hand = board.hands[seat]
    dobbm_said = any(b == "dobbm" for _, b in bids)
    if strategy == "rule":
        return model_bid(hand, dobbm_said=dobbm_said, turn=len(bids))
    if strategy in SAMPLING:      # (pimc: a pass worth 0)
        view = own_view("bid", board, seat, bids, hand)
        advice = analyze_bid(view, samples=env.samples.bid, seed=board.seed_for(seat, "bid"), jobs=1,
                             budget_s=env.budget_s, pass_value="zero" if strategy == "pimc" else "defend")
        return used(env, seat, "bid", advice).recommendation
    # open: each option's units for the seat with open cards (pass: 0)
    values = {"pass": 0, "solo": 3 * units(env.solo_points(board, seat), "solo")}
    if not dobbm_said:
        values["dobbm"] = 3 * units(env.best_discard(board, seat)[1], "dobbm")
    return max(bid_options(dobbm_said), key=lambda b: (values[b], -bid_options(dobbm_said).index(b)))


# --------------------------------------------------------------------------
# the lay-away

def decide_discard(strategy: str, board: Board, env: Env, declarer: str, bids: Bids) -> CardSet:
    """The four cards the Dobbm declarer lays away from the 8 dealt and the Dobb."""
    twelve = board.hands[declarer] | board.dobb
    if strategy == "rule":
        return heuristic_discard(twelve)
    if method("discard", strategy) == "advice":
        view = own_view("discard", board, declarer, bids, board.hands[declarer], dobb=board.dobb)
        advice = analyze_discard(view, samples=env.samples.discard, seed=board.seed_for(declarer, "discard"),
                                 jobs=1, budget_s=env.budget_s)
        return used(env, declarer, "discard", advice).recommendation
    return env.best_discard(board, declarer)[0]


# --------------------------------------------------------------------------
# doubling

def decide_double(strategy: str, board: Board, env: Env, deal: Deal, seat: str, bids: Bids) -> bool:
    """Whether ``seat`` doubles now: a defender's Schwacher (``deal.doublings`` even)
    or the declarer's Retour (odd)."""
    strategy = method("double", strategy)
    if strategy == "rule":
        return False
    declarer = seat == deal.declarer
    if strategy == "open":
        points = env.solver.solve(deal).declarer_points
        return points > 60 if declarer else points < 60
    laid = declarer and deal.discard is not None
    view = own_view("double", board, seat, bids, deal.hands[seat], declarer=deal.declarer,
                    contract=deal.contract, doublings=deal.doublings,
                    dobb=deal.dobb if laid else None, discard=deal.discard if laid else None)
    advice = analyze_double(view, samples=env.samples.double, seed=board.seed_for(seat, "double"), jobs=1,
                            budget_s=env.budget_s)
    return used(env, seat, "double", advice).recommendation != "play on"


# --------------------------------------------------------------------------
# the card play

def play_strategy(strategy: str, board: Board, env: Env, seat: str) -> Strategy:
    """The card player of ``seat`` for :func:`~dobbm_solver.playout.play_hand`."""
    if strategy == "rule":
        return rule_of_thumb_strategy()
    if strategy in SAMPLING:
        return WholeMonteCarlo(env, seat, board.seed_for(seat, "play"), inference=strategy == "infer",
                               method="alphamu" if strategy == "alphamu" else "pimc")
    return open_card_strategy(env.solver)


class WholeMonteCarlo:
    """The Monte Carlo card player of :mod:`dobbm_solver.analyzer.strategy` (the same
    view, the same seeds: ``seed`` plus the cards played so far) at ``env``'s sample
    count and time budget, reading the play with ``inference``, the declarer's first
    cards by alpha-mu search with ``method`` ``"alphamu"``, except that an analysis Ctrl-C cut short stops the deal
    (see :func:`whole`) instead of playing the card it would have recommended."""

    sees_all_cards = False

    def __init__(self, env: Env, seat: str, seed: int, inference: bool = False,
                 method: PlayMethod = "pimc") -> None:
        self.env = env
        self.seat = seat
        self.seed = seed
        self.inference = inference
        self.method = method

    def __call__(self, view: SeatView) -> Card:
        env = self.env
        card, advice = MonteCarloStrategy(samples=env.samples.play, seed=self.seed, jobs=1,
                                          budget_s=env.budget_s, inference=self.inference,
                                          method=self.method).advise(view)
        if advice is not None:
            used(env, self.seat, "play", advice)
        return card
