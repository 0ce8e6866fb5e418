"""``dobbm deal``: random deals for practice and teaching, to constraints on the hands as dealt."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from ..dealer import DEFAULT_SEATS, FOREHAND, Constraints, DealtDeal, SeatRange, deal_random, play_until
from ..echo import brief
from ..pagefile import check_page_file, write_page
from ..report.deal import (
    FORMATS,
    commented,
    deal_dict,
    deal_line,
    deal_yaml,
    solution_text,
    view_dict,
    view_line,
    view_yaml,
)
from ..rules import CONTRACTS
from ..solver import DEFAULT_TT_MB, Solver
from .boundary import BadInput
from .options import CONTEXT, HTML, SEED, open_solver
from .output import echo, echo_json

__all__ = ["deal", "SeatRangeType", "ViewChoice", "ViewChoiceType"]

if TYPE_CHECKING:   # generic from click 8.2 on; the package asks for 8.1 or later
    from ..analyzer.view import View

    _RangeParam = click.ParamType[SeatRange]
else:
    _RangeParam = click.ParamType

_NUMBER = r"\d+(?:\.\d+)?"
_RANGE = re.compile(rf"(?P<seat>[^:\s]+):(?P<low>{_NUMBER})(?:-(?P<high>{_NUMBER}))?", re.ASCII)


class SeatRangeType(_RangeParam):
    """``SEAT:MIN-MAX`` (or ``SEAT:N``, exactly N) as a :class:`~dobbm_solver.dealer.SeatRange`;
    anything else is one line of bad input."""

    name = "SEAT:MIN-MAX"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> SeatRange:
        if isinstance(value, SeatRange):
            return value
        m = _RANGE.fullmatch(str(value).strip())
        name = param.opts[-1] if param is not None and param.opts else "the range"
        if m is None:
            raise BadInput(f"{name} must be SEAT:MIN-MAX like {FOREHAND}:5-8 (or SEAT:N), not {brief(value)}")
        low = float(m["low"])
        return SeatRange(seat=m["seat"], low=low, high=low if m["high"] is None else float(m["high"]))


RANGE = SeatRangeType()

#: The decisions ``--view`` cuts a deal for (the advice commands that read the views).
VIEW_DECISIONS: tuple[str, ...] = ("bid", "discard", "double", "play")
#: The seat word of ``--view`` that means the deal's declarer.
DECLARER = "declarer"


@dataclass(frozen=True, kw_only=True)
class ViewChoice:
    """``--view DECISION[:SEAT]``: each deal written as ``seat``'s view for ``decision``
    (``seat`` None: the decision's default seat)."""

    decision: str
    seat: str | None = None


if TYPE_CHECKING:
    _ViewParam = click.ParamType[ViewChoice]
else:
    _ViewParam = click.ParamType


class ViewChoiceType(_ViewParam):
    """``DECISION[:SEAT]`` as a :class:`ViewChoice`; anything else is one line of bad input."""

    name = "DECISION[:SEAT]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> ViewChoice:
        if isinstance(value, ViewChoice):
            return value
        decision, colon, seat = str(value).strip().partition(":")
        decision, seat = decision.strip().lower(), seat.strip()
        if decision not in VIEW_DECISIONS or (colon and not seat):
            raise BadInput(f"--view must be DECISION[:SEAT] with DECISION one of {' | '.join(VIEW_DECISIONS)} "
                           f"(bid:{FOREHAND}, discard, double:Bert, play:{DECLARER}), not {brief(value)}")
        if decision == "discard" and seat and seat.casefold() != DECLARER:
            raise BadInput(f"--view {brief(value)}: the lay-away is the declarer's: write --view discard")
        return ViewChoice(decision=decision, seat=seat or None)


def _view_seat(choice: ViewChoice, dd: DealtDeal) -> str:
    """The seat whose view ``choice`` asks for in ``dd``: the seat named (or forehand, or
    the declarer), else the decision's default: forehand to bid, the declarer to lay away
    and to lead, the first defender after the dealer to double."""
    d = dd.deal
    forehand = dd.bids[0][0]
    word = choice.seat
    if word is None:
        if choice.decision == "bid":
            return forehand
        if choice.decision == "double":
            i = d.seats.index(forehand)
            return next(s for s in d.seats[i:] + d.seats[:i] if s != d.declarer)
        return d.declarer
    if word.casefold() == FOREHAND:
        return forehand
    if word.casefold() == DECLARER:
        return d.declarer
    return next(s for s in d.seats if s.casefold() == word.casefold())


def _check_view_seat(choice: ViewChoice, seats: tuple[str, ...]) -> None:
    word = choice.seat
    if word is not None and word.casefold() not in (FOREHAND, DECLARER, *(s.casefold() for s in seats)):
        raise BadInput(f"--view {choice.decision}:{brief(word)}: not a seat at the table "
                       f"({', '.join(seats)}, or {FOREHAND} or {DECLARER})")


@click.command(context_settings=CONTEXT)
@click.option("--count", type=click.IntRange(1, 10000), default=1, show_default=True, metavar="N",
              help="How many deals, 1 to 10000.")
@SEED
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="yaml", show_default=True,
              help="yaml: a hand file, one document a deal; line: one deal line a deal (for --deal); "
                   "json: one JSON object a line, its deal line under \"deal\".")
@click.option("--dealer", metavar="SEAT", help="Who deals (default: a seat at random each deal).")
@click.option("--declarer", metavar="SEAT",
              help=f"Only deals that SEAT (a seat, or {FOREHAND}) declares by the bidding model's auction.")
@click.option("--contract", type=click.Choice(CONTRACTS),
              help="Only deals whose auction ends in this contract (with --declarer: that seat's).")
@click.option("--trumps", multiple=True, type=RANGE, metavar="SEAT:MIN-MAX",
              help=f"The hearts SEAT (or {FOREHAND}) is dealt, MIN to MAX (0 to 8); may be repeated.")
@click.option("--points", multiple=True, type=RANGE, metavar="SEAT:MIN-MAX",
              help="The card points SEAT is dealt, MIN to MAX (0 to 84); may be repeated.")
@click.option("--strength", multiple=True, type=RANGE, metavar="SEAT:MIN-MAX",
              help="The hand strength of SEAT's dealt cards (the bidding rule of thumb, see "
                   "docs/methods.md), MIN to MAX; may be repeated.")
@click.option("--view", "view_choice", type=ViewChoiceType(), metavar="DECISION[:SEAT]",
              help="Write each deal as one seat's view for an advice command: bid (the seat's 8 cards and "
                   f"the bids before its turn; default {FOREHAND}; only deals where it gets to bid), discard "
                   "(the declarer of a Dobbm: only Dobbm deals), double (default the first defender after the "
                   "dealer; the declarer: facing a Schwacher) or play (at the seat's first card, the cards "
                   "before it played as the open-card best line plays them; default the declarer, who leads). "
                   f"SEAT: a seat, {FOREHAND} or {DECLARER}.")
@click.option("--solutions", is_flag=True,
              help="The lesson: after the deals, each one solved with open cards and its best line "
                   "(yaml and line: as # comments; json: under \"solution\").")
@HTML
def deal(count: int, seed: int, fmt: str, dealer: str | None, declarer: str | None, contract: str | None,
         trumps: tuple[SeatRange, ...], points: tuple[SeatRange, ...], strength: tuple[SeatRange, ...],
         view_choice: ViewChoice | None, solutions: bool, html_file: str | None) -> None:
    """Deal random hands for practice and teaching, in the dealt form that every command reads.

    Each deal has its dealer, the auction of the bidding model (a deal all four pass is dealt
    again) and, in a Dobbm, the lay-away of the calibrated rule. The constraints are on the 8
    cards each seat is dealt, before the exchange; SEAT may be `forehand`, the player after the
    dealer. Each deal is drawn uniformly from the deals that meet them (deals are drawn and
    thrown in until one fits); a constraint that no deal of the first 100,000
    drawn meets is refused (exit 2). The same --seed gives the same deals. With --view each
    deal is written cut to one seat's view, which dobbm bid, discard, double or play reads.
    """
    if html_file is not None:
        check_page_file(html_file)
    bidder = None
    if view_choice is not None:
        _check_view_seat(view_choice, DEFAULT_SEATS)
        if view_choice.decision == "discard":
            if contract == "solo":
                raise BadInput("--view discard: a Solo lays nothing away; leave out --contract solo")
            contract = "dobbm"
        if view_choice.decision == "bid" and (view_choice.seat or "").casefold() != DECLARER:
            bidder = view_choice.seat or FOREHAND   # the declarer always bids
    constraints = Constraints(dealer=dealer, declarer=declarer, contract=contract,
                              trumps=trumps, points=points, strength=strength, bidder=bidder)
    rng = random.Random(seed)
    deals = [deal_random(rng, constraints) for _ in range(count)]   # all dealt before the first is written
    playing = view_choice is not None and view_choice.decision == "play"
    solver = open_solver(DEFAULT_TT_MB) if solutions or playing else None
    views = None if view_choice is None else [_cut(dd, view_choice, solver) for dd in deals]
    bests = [solver.solve_best(dd.deal, analyze=True) for dd in deals] if solver is not None and solutions else None
    if html_file is not None:
        from ..report.html import deal_page
        write_page(html_file, deal_page(deals, bests))
    if fmt == "json":
        for n, dd in enumerate(deals):
            best = None if bests is None else bests[n]
            echo_json(deal_dict(dd, best) if views is None else view_dict(dd, views[n], best))
        return
    written = [_written(dd, fmt) for dd in deals] if views is None else [_written_view(v, fmt) for v in views]
    echo(("\n" if fmt == "line" else "\n---\n").join(written))
    if bests is not None:
        for n, (dd, best) in enumerate(zip(deals, bests), 1):
            echo("")
            if views is not None:   # the lesson's key: the whole deal the view was cut from
                echo(commented(f"deal {n}, the whole deal: {deal_line(dd)}"))
            echo(commented(solution_text(best, f"deal {n}")))


def _cut(dd: DealtDeal, choice: ViewChoice, solver: Solver | None) -> View:
    """The view ``choice`` asks for of a dealt deal: to double, the declarer faces a Schwacher;
    to play, a seat other than the declarer sees the cards before its first one played as
    the open-card best line plays them."""
    from ..analyzer.view import View

    me = _view_seat(choice, dd)
    deal = dd.deal
    if choice.decision == "play" and me != deal.declarer:
        assert solver is not None
        deal = play_until(deal, me, solver.solve_best(deal, analyze=True, jobs=1).analysis.line)
    doublings = 1 if choice.decision == "double" and me == deal.declarer else None
    return View.cut(deal, choice.decision, me, bids=dd.bids, doublings=doublings, path="<dealt>")


def _written(dd: DealtDeal, fmt: str) -> str:
    return deal_line(dd) if fmt == "line" else deal_yaml(dd).rstrip("\n")


def _written_view(view: View, fmt: str) -> str:
    return view_line(view) if fmt == "line" else view_yaml(view).rstrip("\n")
