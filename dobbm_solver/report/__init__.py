"""Results as plain data (for JSON) and as text: everything the ``dobbm`` commands print.

No click here: ``cli.py`` reads the options and echoes what these functions return.

* ``solve``: :func:`solve_dict`, :func:`solve_text` (a :class:`~dobbm_solver.solver.BestPlay`);
* ``check``: :func:`check_dict`, :func:`check_text`;
* ``score``: :func:`score_dict`, :func:`score_text`;
* ``bid``, ``discard``, ``double``: :func:`advice_dict`, :func:`advice_text`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import yaml

from ..cards import Card, card_name, display_key, set_names, trick_winner
from ..deal import Deal, replay, trick_seats
from ..handfile import HandSpec, deal_to_dict, dump_deal_yaml, dump_spec_yaml, spec_to_dict
from ..notation import format_deal_line, format_spec_line
from ..scoring import Score
from ..solver import Analysis, BestPlay, DiscardResult
from .diagram import deal_diagram

if TYPE_CHECKING:   # the analyzer is imported only when one of its commands runs
    from ..analyzer import Advice


def heading(deal: Deal, title: str) -> str:
    """The first line of a report on a deal: ``TITLE: Dobbm by Anna, 1 doubling``."""
    kind = "Dobbm" if deal.contract == "dobbm" else "Solo"
    d = deal.doublings
    return f"{title}: {kind} by {deal.declarer}" + (f", {d} doubling{'s' if d != 1 else ''}" if d else "")


# --------------------------------------------------------------------------
# dobbm solve


def line_tricks(deal: Deal, line: tuple[Card, ...]) -> list[tuple[str, list[Card], str]]:
    """Group a line of play into tricks: ``(leader, cards, winner)``, the first maybe begun."""
    active = deal.active_seats
    state = replay(deal, check=False)
    leader = state.leader
    cards = list(state.trick)
    out = []
    for c in line:
        cards.append(c)
        if len(cards) == 4:
            winner = trick_seats(active, leader)[trick_winner(cards)]
            out.append((leader, cards, winner))
            leader, cards = winner, []
    return out


def analysis_dict(deal: Deal, an: Analysis) -> dict[str, Any]:
    """The JSON object of one solved deal."""
    return {
        "deal": format_deal_line(deal),
        "declarer": deal.declarer,
        "contract": deal.contract,
        "doublings": deal.doublings,
        "declarer_points": an.declarer_points,
        "defender_points": an.defender_points,
        "outcome": an.outcome.value,
        "units": an.units,
        "to_move": an.to_move,
        "cards": {card_name(c): v for c, v in sorted(an.cards.items(), key=lambda kv: display_key(kv[0]))},
        "line": [card_name(c) for c in an.line],
        "nodes": an.nodes,
    }


def discards_dict(results: Sequence[DiscardResult]) -> list[dict[str, Any]]:
    return [{"cards": set_names(r.cards), "declarer_points": r.declarer_points} for r in results]


def _payment_text(an: Analysis, deal: Deal) -> str:
    u = an.units
    if u > 0:
        return f"each defender pays {deal.declarer} {u} unit{'s' if u != 1 else ''}"
    if u < 0:
        return f"{deal.declarer} pays each defender {-u} unit{'s' if u != -1 else ''}"
    return "nobody pays"


def analysis_text(deal: Deal, an: Analysis, title: str, diagram: bool = False) -> str:
    """A readable report of one solved deal; with ``diagram``, the hands and the tricks
    (played, then the best line) with running totals in place of the plain best line."""
    outcome = {"win": "wins", "standoff": "stands off (60)", "loss": "loses"}[an.outcome.value]
    lines = [
        heading(deal, title),
        f"  best play: {deal.declarer} {outcome} with {an.declarer_points} points, "
        f"defenders {an.defender_points}; {_payment_text(an, deal)}",
    ]
    if an.to_move is not None:
        sign = -1 if an.to_move == deal.declarer else 1      # the mover's best first
        cards = sorted(an.cards.items(), key=lambda kv: (sign * kv[1], display_key(kv[0])))
        lines.append(f"  {an.to_move} to play; each card (declarer's final points): "
                     + "  ".join(f"{card_name(c)} {v}" for c, v in cards))
    if diagram:
        lines += deal_diagram(deal, an.line, at_lead=an.to_move is None)
    elif an.to_move is not None:
        lines.append("  best line:")
        state = replay(deal, check=False)
        first = state.declarer_tricks + state.defender_tricks + 1
        for n, (leader, cards_, winner) in enumerate(line_tricks(deal, an.line), first):
            lines.append(f"    {n}. {leader:>6} leads  " + " ".join(f"{card_name(c):>3}" for c in cards_)
                         + f"   won by {winner}")
    lines.append(f"  nodes searched: {an.nodes}")
    return "\n".join(lines)


def discards_text(results: Sequence[DiscardResult], limit: int | None = 10) -> str:
    shown = results if limit is None else results[:limit]
    out = [f"  lay-aways, best first ({len(results)} legal"
           + (f", top {len(shown)} shown" if len(shown) < len(results) else "") + "):"]
    for r in shown:
        out.append(f"    {' '.join(set_names(r.cards)):<16} {r.declarer_points:>3}")
    return "\n".join(out)


def solve_dict(best: BestPlay, ident: str | None = None) -> dict[str, Any]:
    """The JSON object of one deal solved (``dobbm solve --json``): ``id`` (``FILE#N``, as
    ``study`` writes it) first, ``discard`` the lay-away played (None in a Solo), and
    every lay-away ranked if studied."""
    obj: dict[str, Any] = {} if ident is None else {"id": ident}
    obj.update(analysis_dict(best.deal, best.analysis))
    obj["discard"] = None if best.deal.discard is None else set_names(best.deal.discard)
    if best.studied is not None:
        obj["discards"] = discards_dict(best.studied)
    return obj


def solve_text(best: BestPlay, title: str, limit: int | None = 10, diagram: bool = False) -> str:
    """The report of one deal solved (``dobbm solve``): the lay-away analysed and the best
    ``limit`` lay-aways if studied; ``diagram``: see :func:`analysis_text`."""
    text = analysis_text(best.deal, best.analysis, title, diagram)
    if best.studied is not None:
        assert best.deal.discard is not None
        lines = text.split("\n")
        laid = " ".join(set_names(best.deal.discard))
        lines.insert(2, f"  lay-away analysed: {laid} (the best of {len(best.studied)} legal)")
        text = "\n".join(lines) + "\n" + discards_text(best.studied, limit)
    return text


# --------------------------------------------------------------------------
# dobbm check


def check_dict(deal: Deal) -> dict[str, Any]:
    """The YAML form of a deal and its one-line notation (``dobbm check --json``), then
    ``dealt`` (the 8 cards each seat was dealt) and ``deal_dealt`` (the notation's dealt form)."""
    return {**deal_to_dict(deal), "deal": format_deal_line(deal),
            "dealt": deal_to_dict(deal, dealt=True)["dealt"], "deal_dealt": format_deal_line(deal, dealt=True)}


def _dealt_comment(dealt: dict[str, str], line: str) -> str:
    """The dealt form as a comment after the YAML: its notation, then the ``dealt:`` that
    may stand for ``hands:``."""
    block = yaml.safe_dump({"dealt": dealt}, sort_keys=False, default_flow_style=False, width=1000)
    return ("\n# as dealt, the 8 cards each seat was dealt (dealt: instead of hands:):\n# " + line + "\n"
            + "\n".join(f"# {b}" for b in block.rstrip("\n").split("\n")))


def check_text(deal: Deal, title: str, diagram: bool = False) -> str:
    """A deal checked: a comment with its notation, then its normalised YAML document, then
    the dealt form (:func:`_dealt_comment`); with ``diagram``, the hands and the tricks so
    far after it, as YAML comments."""
    text = (f"# {title}: ok\n# {format_deal_line(deal)}\n" + dump_deal_yaml(deal).rstrip("\n")
            + _dealt_comment(deal_to_dict(deal, dealt=True)["dealt"], format_deal_line(deal, dealt=True)))
    if diagram:
        text += "\n" + "\n".join("#" + line for line in deal_diagram(deal, at_lead=replay(deal, check=False).finished))
    return text


VIEW_COMMANDS = {"bid": "dobbm bid", "discard": "dobbm discard", "double": "dobbm double",
                 "play": "a view during play"}


def check_view_dict(spec: HandSpec, command: str) -> dict[str, Any]:
    """An advice view checked (``dobbm check --json`` on a document with ``me``): its YAML
    form, its one-line notation and the command it is a view for; ``dealt`` and
    ``deal_dealt`` as in :func:`check_dict`."""
    return {**spec_to_dict(spec), "deal": format_spec_line(spec), "command": command,
            "dealt": spec_to_dict(spec, dealt=True)["dealt"], "deal_dealt": format_spec_line(spec, dealt=True)}


def check_view_text(spec: HandSpec, command: str, title: str) -> str:
    """An advice view checked: a comment with what it is for and its notation, then its YAML,
    then the dealt form."""
    return (f"# {title}: ok, a view for {VIEW_COMMANDS[command]}\n# {format_spec_line(spec)}\n"
            + dump_spec_yaml(spec).rstrip("\n")
            + _dealt_comment(spec_to_dict(spec, dealt=True)["dealt"], format_spec_line(spec, dealt=True)))


# --------------------------------------------------------------------------
# dobbm score


def score_dict(deal: Deal, sc: Score, match_cost: float | None = None) -> dict[str, Any]:
    """The JSON object of a scored hand; ``money`` too when a match costs ``match_cost``."""
    pay = sc.payments(deal.active_seats)
    obj: dict[str, Any] = {
        "declarer": sc.declarer,
        "contract": sc.contract,
        "doublings": sc.doublings,
        "declarer_points": sc.declarer_points,
        "defender_points": sc.defender_points,
        "declarer_tricks": sc.declarer_tricks,
        "outcome": sc.outcome.value if sc.outcome else "void",
        "units": sc.units,
        "payments": pay,
        "revokes": [{"trick": r.trick, "seat": r.seat, "card": card_name(r.card),
                     "could_play": set_names(r.legal)} for r in sc.revokes],
    }
    if match_cost is not None:
        obj["money"] = {s: round(u * match_cost / 12, 2) for s, u in pay.items()}
    return obj


def score_text(deal: Deal, sc: Score, title: str, match_cost: float | None = None,
               diagram: bool = False) -> str:
    """A scored hand: points, outcome, revokes, and every seat's payment; with ``diagram``,
    then the hands at the opening lead, the tricks with running totals and the result split."""
    obj = score_dict(deal, sc, match_cost)
    lines = [heading(deal, title)]
    lines.append(f"  {sc.declarer} {sc.declarer_points} points ({sc.declarer_tricks} tricks), "
                 f"defenders {sc.defender_points}: " + (obj["outcome"] if not sc.void else "void by revoke"))
    for r in sc.revokes:
        lines.append(f"  revoke: trick {r.trick}, {r.seat} played {card_name(r.card)} "
                     f"(could play {' '.join(set_names(r.legal))})")
    for seat, u in obj["payments"].items():
        money = f"  ({obj['money'][seat]:+.2f})" if match_cost is not None else ""
        lines.append(f"  {seat:>8} {u:+d} units{money}")
    if diagram:
        lines += deal_diagram(deal, at_lead=True)
    return "\n".join(lines)


# --------------------------------------------------------------------------
# dobbm bid, discard, double


def advice_partial(advice: Advice) -> bool:
    """True when Ctrl-C stopped the sampling: the estimates rest on the samples solved so far."""
    return bool(advice.info.get("stopped") == "interrupted")


def advice_dict(advice: Advice) -> dict[str, Any]:
    """The JSON object of an advice, with ``partial`` (see :func:`advice_partial`)."""
    return {**advice.to_json(), "partial": advice_partial(advice)}


def advice_text(advice: Advice, title: str, limit: int | None = None) -> str:
    """A small table: option, expected units, win %, expected points, error.

    With ``limit``, only the first ``limit`` options and a line saying how many more.
    Options that play the same show as one row (``+N alike``).
    """
    opts = advice.options if limit is None else advice.options[:limit]
    if advice.command == "discard":
        names = [_option_name(o.option) + (f" +{len(o.alike)} alike" if o.alike else "") for o in opts]
    else:
        names = [" ".join([_option_name(o.option), *map(_option_name, o.alike)]) for o in opts]
    width = max(8, *(len(n) for n in names))
    rows = [f"{title}: {advice.command} for {advice.me} ({advice.role}), "
            f"{advice.samples} samples, seed {advice.seed}",
            f"  {'option':<{width}}  {'units':>7}  {'win %':>6}  {'points':>6}  {'± error':>7}  samples",
            "  (units: your expected units; win % and points: the declarer's; error: of the points)"]
    for o, name in zip(opts, names):
        win = "-" if o.win_probability is None else f"{100 * o.win_probability:.1f}"
        pts = "-" if o.expected_points is None else f"{o.expected_points:.1f}"
        err = "-" if o.stderr is None else f"{o.stderr:.2f}"
        rows.append(f"  {name:<{width}}  {o.ev_units:>+7.2f}  {win:>6}  {pts:>6}  "
                    f"{err:>7}  {o.samples:>7}")
    rows.append(f"  recommendation: {_option_name(advice.recommendation)}")
    if len(opts) < len(advice.options):
        more = advice.options[len(opts):]
        count = sum(1 + len(o.alike) for o in more)
        shown = f"{len(more)} more rows, {count} lay-aways" if count != len(more) else f"{count} more lay-aways"
        rows.append(f"  ({shown}: --all shows every one)")
    return "\n".join(rows)


def _option_name(option: object) -> str:
    return " ".join(option) if isinstance(option, (tuple, list)) else str(option)
