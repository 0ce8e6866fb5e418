"""``dobbm deal``: random deals for practice and teaching, to constraints on the hands as dealt."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

import click

from ..dealer import FOREHAND, Constraints, DealtDeal, SeatRange, deal_random
from ..echo import brief
from ..report.deal import FORMATS, commented, deal_dict, deal_line, deal_yaml, solution_text
from ..rules import CONTRACTS
from ..solver import DEFAULT_TT_MB
from .boundary import BadInput
from .options import CONTEXT, SEED, open_solver
from .output import echo, echo_json

__all__ = ["deal", "SeatRangeType"]

if TYPE_CHECKING:   # generic from click 8.2 on; the package asks for 8.1 or later
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
@click.option("--solutions", is_flag=True,
              help="The lesson: after the deals, each one solved with open cards and its best line "
                   "(yaml and line: as # comments; json: under \"solution\").")
def deal(count: int, seed: int, fmt: str, dealer: str | None, declarer: str | None, contract: str | None,
         trumps: tuple[SeatRange, ...], points: tuple[SeatRange, ...], strength: tuple[SeatRange, ...],
         solutions: bool) -> None:
    """Deal random hands for practice and teaching, in the dealt form that every command reads.

    Each deal has its dealer, the auction of the bidding model (a deal all four pass is dealt
    again) and, in a Dobbm, the lay-away of the calibrated rule. The constraints are on the 8
    cards each seat is dealt, before the exchange; SEAT may be `forehand`, the player after the
    dealer. Each deal is drawn uniformly from the deals that meet them (deals are drawn and
    thrown in until one fits); a constraint that no deal of the first 100,000
    drawn meets is refused (exit 2). The same --seed gives the same deals.
    """
    constraints = Constraints(dealer=dealer, declarer=declarer, contract=contract,
                              trumps=trumps, points=points, strength=strength)
    rng = random.Random(seed)
    deals = [deal_random(rng, constraints) for _ in range(count)]   # all dealt before the first is written
    solver = open_solver(DEFAULT_TT_MB) if solutions else None
    bests = [solver.solve_best(dd.deal, analyze=True) for dd in deals] if solver is not None else None
    if fmt == "json":
        for n, dd in enumerate(deals):
            echo_json(deal_dict(dd, None if bests is None else bests[n]))
        return
    echo(("\n" if fmt == "line" else "\n---\n").join(_written(dd, fmt) for dd in deals))
    if bests is not None:
        for n, best in enumerate(bests, 1):
            echo("")
            echo(commented(solution_text(best, f"deal {n}")))


def _written(dd: DealtDeal, fmt: str) -> str:
    return deal_line(dd) if fmt == "line" else deal_yaml(dd).rstrip("\n")
