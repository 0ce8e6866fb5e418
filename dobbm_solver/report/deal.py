"""``dobbm deal``: random deals (:class:`~dobbm_solver.dealer.DealtDeal`) written in the dealt form.

Each deal is written as a hand file, a deal line or a JSON object, each in the
dealt form (the 8 cards each seat was dealt) with the dealer, the auction and,
in a Dobbm, the lay-away: so every command that reads deals reads it back.
No click here: the ``deal`` command echoes what these renderers return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import cards_text
from ..dealer import DealtDeal
from ..dealt import dealt_hands
from ..handfile import HandSpec, dump_spec_yaml
from ..notation import format_spec_line
from ..solver import BestPlay
from .solve import solve_dict, solve_text

if TYPE_CHECKING:   # the analyzer is loaded only when a view is asked for
    from ..analyzer.view import View

__all__ = ["FORMATS", "deal_spec", "deal_yaml", "deal_line", "deal_dict", "view_yaml", "view_line", "view_dict",
           "solution_text", "commented"]

#: The formats ``dobbm deal --format`` writes.
FORMATS: tuple[str, ...] = ("yaml", "line", "json")


def deal_spec(dd: DealtDeal) -> HandSpec:
    """The hand-file spec of a dealt deal: the deal at the opening lead with its auction."""
    d = dd.deal
    return HandSpec(seats=d.seats, declarer=d.declarer, contract=d.contract, hands=d.hands, dobb=d.dobb,
                    discard=d.discard, dealer=d.dealer, bids=dd.bids)


def deal_yaml(dd: DealtDeal) -> str:
    """One YAML document in the dealt form (key ``dealt``), ``bids`` last."""
    return dump_spec_yaml(deal_spec(dd), dealt=True)


def deal_line(dd: DealtDeal) -> str:
    """The deal line in the dealt form (head ``CONTRACT DECLARER dealt``), ``bids`` last."""
    return format_spec_line(deal_spec(dd), dealt=True)


def deal_dict(dd: DealtDeal, best: BestPlay | None = None) -> dict[str, Any]:
    """The JSON object of one deal: ``deal`` its line, the keys of the YAML form, ``draws``
    (deals drawn to find it) and, with ``best``, ``solution`` (as ``dobbm solve --json``)."""
    d = dd.deal
    obj: dict[str, Any] = {
        "deal": deal_line(dd),
        "dealer": d.dealer,
        "declarer": d.declarer,
        "contract": d.contract,
        "bids": [{seat: bid} for seat, bid in dd.bids],
        "dealt": {s: cards_text(cs) for s, cs in dealt_hands(d).items()},
        "dobb": cards_text(d.dobb),
        "discard": None if d.discard is None else cards_text(d.discard),
        "draws": dd.draws,
    }
    if best is not None:
        obj["solution"] = solve_dict(best)
    return obj


def view_yaml(view: View) -> str:
    """One seat's view of a dealt deal as a YAML document, as the advice commands read it."""
    return dump_spec_yaml(view.spec())


def view_line(view: View) -> str:
    """One seat's view of a dealt deal in the one-line notation."""
    return format_spec_line(view.spec())


def view_dict(dd: DealtDeal, view: View, best: BestPlay | None = None) -> dict[str, Any]:
    """The JSON object of one deal cut to a view: ``view`` its line, ``command`` the advice
    command that reads it and ``me``, then the whole deal as :func:`deal_dict` gives it."""
    return {"view": view_line(view), "command": view.command, "me": view.me, **deal_dict(dd, best)}


def solution_text(best: BestPlay, title: str) -> str:
    """One deal's solution in the lesson: as ``dobbm solve --no-diagram`` prints it."""
    return solve_text(best, title, diagram=False)


def commented(text: str) -> str:
    """``text`` with every line a YAML comment (``# ``), so a hand file stays readable."""
    return "\n".join(f"# {line}".rstrip() for line in text.split("\n"))
