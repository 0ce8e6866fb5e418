"""A deal explored card by card with open cards: play, take back, replay, and every card's value.

>>> from dobbm_solver.explore import Explorer
>>> explorer = Explorer(deal, Solver())
>>> explorer.position().cards          # each legal card's value, best first
>>> explorer.play(card); explorer.undo(); explorer.redo()
>>> explorer.goto(3); explorer.best(); explorer.line()

A hand played to the end (all eight tricks given) is explored from its
opening lead with the cards played waiting ahead, as on a redo stack:
:meth:`Explorer.redo` plays the next of them, and a card other than that one
branches off and drops the rest.  Any other deal is explored from where it
stands (the opening lead, or a position in mid-play), and the cards played
before it can be taken back: :meth:`Explorer.undo` puts the last card played
on the stack ahead, down to the opening lead.

A card's value is the declarer's final points under best play after it
(:meth:`Solver.solve_all_cards`); its cost is judged as
:func:`~dobbm_solver.review.card_review` judges a card played, so a card
stepped through here costs what ``review`` says it cost.  Units follow
:func:`dobbm_solver.rules.units`: what each defender pays the declarer, one
payment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .cards import HAND_SIZE, Card, card_name, card_points, cards_text, display_key, legal_cards
from .deal import Deal, PlayState, final_points, replay, validate
from .errors import DobbmError
from .playout import play_card
from .review import card_review, deal_before_play
from .rules import units
from .solver import Solver

__all__ = ["ExploreError", "CardValue", "Position", "Explorer", "card_values"]

CARDS_PER_TRICK = 4


class ExploreError(DobbmError):
    """A step the position does not allow: an illegal card, nothing to undo, a trick not reached."""


@dataclass(frozen=True, kw_only=True)
class CardValue:
    """One legal card of the seat to play and its value under best play after it.

    ``points`` are the declarer's final points, ``units`` what each defender
    then pays the declarer (negative: the declarer pays each); ``cost`` is what
    the card loses its own side against the best card, in points and in units
    of one payment (0 for a best card).
    """

    card: Card
    points: int
    units: int
    cost: int
    units_cost: int

    @property
    def best(self) -> bool:
        return self.cost == 0


@dataclass(frozen=True, kw_only=True)
class Position:
    """Where the exploration stands.

    ``deal`` is the deal with the cards ``played`` so far (from the opening
    lead); ``value`` the declarer's final points under best play from here
    (the result when the hand is over); ``cards`` every legal card's value,
    best first for the seat to play (ties in the hand's order); ``ahead`` the
    cards that :meth:`Explorer.redo` plays in turn; ``last`` the value of the
    last card played, judged in the position before it, and ``last_seat`` who
    played it (None at the opening lead).
    """

    deal: Deal
    state: PlayState
    played: tuple[Card, ...]
    value: int
    cards: tuple[CardValue, ...]
    ahead: tuple[Card, ...]
    last: CardValue | None
    last_seat: str | None

    @property
    def to_play(self) -> str | None:
        """The seat to play, None when the hand is over."""
        return self.state.to_move

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def trick(self) -> int:
        """The number of the trick in play (1 to 8; 8 when the hand is over)."""
        return min(len(self.played) // CARDS_PER_TRICK + 1, HAND_SIZE)

    @property
    def units(self) -> int:
        """What each defender pays the declarer for :attr:`value`."""
        return units(self.value, self.deal.contract, self.deal.doublings)

    @property
    def points_taken(self) -> tuple[int, int]:
        """Each side's card points in the tricks finished so far: ``(declarer, defenders)``."""
        finished = self.played[:len(self.played) - len(self.state.trick)]
        total = sum(card_points(c) for c in finished)
        return self.state.declarer_trick_points, total - self.state.declarer_trick_points

    @property
    def groups(self) -> tuple[tuple[CardValue, ...], ...]:
        """:attr:`cards` grouped by equal points, best first."""
        out: list[list[CardValue]] = []
        for value in self.cards:
            if out and out[-1][0].points == value.points:
                out[-1].append(value)
            else:
                out.append([value])
        return tuple(tuple(g) for g in out)


def card_values(deal: Deal, values: Mapping[Card, int], state: PlayState | None = None) -> tuple[CardValue, ...]:
    """Each legal card of the seat to play in ``deal`` judged by ``values`` (the declarer's
    final points after each, :meth:`Solver.solve_all_cards`), best first (ties in the hand's
    order); () when the hand is over."""
    if state is None:
        state = replay(deal, check=False)
    if state.finished or not values:
        return ()
    trick = len(state.leaders) + (0 if state.trick else 1)
    out = []
    for card in values:
        judged = card_review(deal, trick, state, card, values)
        out.append(CardValue(card=card, points=judged.after,
                             units=units(judged.after, deal.contract, deal.doublings),
                             cost=judged.cost, units_cost=judged.units_cost))
    out.sort(key=lambda v: (v.cost, display_key(v.card)))
    return tuple(out)


class Explorer:
    """A deal explored from its opening lead: the cards played so far, the cards ahead
    (the play as recorded, or what :meth:`undo` took back) and every position's values.

    ``at_lead``: start at the opening lead with the cards of ``deal.tricks``
    ahead (True), or at the position after them (False); by default at the
    opening lead for a hand played to the end, else where the deal stands.
    The values of each position met are kept, so stepping back and forth costs
    no search.  ``deal`` must be valid (as a hand file is read) and not a Dobbm
    whose lay-away is still to be chosen.
    """

    def __init__(self, deal: Deal, solver: Solver, *, at_lead: bool | None = None) -> None:
        if deal.needs_discard:
            raise ExploreError("discard: a Dobbm is explored with its lay-away given "
                               "(dobbm solve studies every lay-away and names the best)")
        validate(deal)
        self.solver = solver
        self.start = deal_before_play(deal)
        self.recorded: tuple[Card, ...] = tuple(c for trick in deal.tricks for c in trick)
        if at_lead is None:
            at_lead = replay(deal, check=False).finished
        self._played: list[Card] = [] if at_lead else list(self.recorded)
        self._ahead: list[Card] = list(self.recorded) if at_lead else []
        self._deals: dict[tuple[Card, ...], Deal] = {(): self.start}
        self._values: dict[tuple[Card, ...], dict[Card, int]] = {}
        self._lines: dict[tuple[Card, ...], tuple[Card, ...]] = {}

    # -- where it stands -------------------------------------------------------
    @property
    def played(self) -> tuple[Card, ...]:
        return tuple(self._played)

    @property
    def ahead(self) -> tuple[Card, ...]:
        return tuple(self._ahead)

    @property
    def ahead_recorded(self) -> bool:
        """Whether the cards ahead are the deal's own play (not cards of a branch taken back)."""
        return bool(self._ahead) and self.played + self.ahead == self.recorded

    def deal(self, played: tuple[Card, ...] | None = None) -> Deal:
        """The deal after ``played`` (default: the cards played so far)."""
        key = self.played if played is None else played
        known = self._deals.get(key)
        if known is None:
            before = self.deal(key[:-1])
            known = self._deals[key] = play_card(before, key[-1])
        return known

    def values(self, played: tuple[Card, ...] | None = None) -> dict[Card, int]:
        """The declarer's final points after each legal card of the seat to play ({} when over)."""
        key = self.played if played is None else played
        known = self._values.get(key)
        if known is None:
            known = self._values[key] = self.solver.solve_all_cards(self.deal(key))
        return known

    def position(self) -> Position:
        """The position now with every legal card's value."""
        played = self.played
        deal = self.deal(played)
        state = replay(deal, check=False)
        values = self.values(played)
        cards = self._card_values(deal, state, values)
        if state.finished:
            value = final_points(deal, state)
        else:
            value = cards[0].points
        last = last_seat = None
        if played:
            before = self.deal(played[:-1])
            before_state = replay(before, check=False)
            last_seat = before_state.to_move
            last = next(v for v in self._card_values(before, before_state, self.values(played[:-1]))
                        if v.card == played[-1])
        return Position(deal=deal, state=state, played=played, value=value, cards=cards,
                        ahead=self.ahead, last=last, last_seat=last_seat)

    def _card_values(self, deal: Deal, state: PlayState, values: dict[Card, int]) -> tuple[CardValue, ...]:
        return card_values(deal, values, state)

    def played_values(self) -> tuple[CardValue, ...]:
        """Each card played so far, valued in the position before it (its points after it
        and what it cost its side), in play order."""
        played = self.played
        out = []
        for n, card in enumerate(played):
            before = self.deal(played[:n])
            state = replay(before, check=False)
            out.append(next(v for v in self._card_values(before, state, self.values(played[:n]))
                            if v.card == card))
        return tuple(out)

    def line(self) -> tuple[Card, ...]:
        """A best line from here to the end of the hand (every seat playing its best)."""
        played = self.played
        known = self._lines.get(played)
        if known is None:
            deal = self.deal(played)
            known = () if replay(deal, check=False).finished else self.solver.analyze(deal).line
            self._lines[played] = known
        return known

    # -- the steps -------------------------------------------------------------
    def play(self, card: Card) -> None:
        """The seat to play plays ``card``.  The next card ahead is taken off the stack;
        another card branches off, and the cards ahead are dropped."""
        deal = self.deal()
        state = replay(deal, check=False)
        seat = state.to_move
        if seat is None:
            raise ExploreError(f"the hand is over: {card_name(card)} cannot be played")
        hand = deal.hands[seat]
        if not hand >> card & 1:
            raise ExploreError(f"{seat} does not hold {card_name(card)} (holds {cards_text(hand)})")
        legal = legal_cards(hand, state.trick[0] if state.trick else None)
        if not legal >> card & 1:
            raise ExploreError(f"{seat} may not play {card_name(card)} (legal: {cards_text(legal)})")
        if self._ahead and self._ahead[0] == card:
            self._ahead.pop(0)
        else:
            self._ahead.clear()
        self._played.append(card)

    def undo(self) -> Card:
        """Take the last card back (it goes ahead, for :meth:`redo`); the card taken back."""
        if not self._played:
            raise ExploreError("nothing to undo: this is the opening lead")
        card = self._played.pop()
        self._ahead.insert(0, card)
        return card

    def redo(self) -> Card:
        """Play the next card ahead (the next card as recorded, or the last one taken back)."""
        if not self._ahead:
            raise ExploreError("nothing to redo: no card ahead")
        card = self._ahead[0]
        self.play(card)
        return card

    def goto(self, trick: int) -> None:
        """Go to the start of trick ``trick`` (1 to 8) along the cards played and ahead."""
        if not 1 <= trick <= HAND_SIZE:
            raise ExploreError(f"goto: a trick from 1 to {HAND_SIZE}, not {trick}")
        target = (trick - 1) * CARDS_PER_TRICK
        reach = len(self._played) + len(self._ahead)
        if target > reach:
            where = "the play ends" if not self._ahead else "the cards ahead end"
            raise ExploreError(f"goto: trick {trick} is not reached yet ({where} in trick "
                               f"{reach // CARDS_PER_TRICK + 1}): play on to it")
        while len(self._played) > target:
            self.undo()
        while len(self._played) < target:
            self.redo()

    def best(self) -> Card:
        """Play the first card of a best line (a best card); the card played."""
        line = self.line()
        if not line:
            raise ExploreError("the hand is over: no card to play")
        self.play(line[0])
        return line[0]

