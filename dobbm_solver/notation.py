"""A one-line deal notation, for pasting into a shell or a chat.

Example (one line)::

    dobbm Bert | Anna: EK L10 L6 L7 L9 LA LU SO | Bert: E6 E7 EA H6 H8 HA S7 SA
    | Cora: ... | Dave: ... | dobb: EO E6 E10 S7 | discard: E10 EO S6 S9
    | tricks: HA H6 H7 H8, E6 E7 | doublings: 1

Grammar (spaces around ``|``, ``:`` and ``,`` are optional)::

    line      = head { "|" segment }
    head      = CONTRACT DECLARER            CONTRACT: dobbm | solo (any case)
    segment   = SEAT ":" hand                one per seat, clockwise: they give the seat order
              | "dobb" ":" cards             the four cards dealt to the middle (required)
              | "discard" ":" cards          Dobbm: the four laid away; absent: a discard study
              | "tricks" ":" trick { "," trick }   each in play order; the last may be unfinished
              | "doublings" ":" NUMBER       Schwacher and Retour said (default 0)
              | "dealer" ":" SEAT
              | "me" ":" SEAT                (analyzer) whose view this is
              | "bids" ":" SEAT BID { "," SEAT BID }   (analyzer) BID: pass | dobbm | solo
              | "must" ":" ( yes | no )      (analyzer) a must round
    hand      = cards | "-" | "?" | "out"    "-": no cards left; "?": not known (analyzer only);
                                             "out": the dealer who sits out
    cards     = CARD { " " CARD }
    trick     = CARD { " " CARD }

Keywords are written in lower case; no seat may be named like a keyword in
any case (``Me: ...`` is an error, not a seat), nor contain spaces, ``|``,
``:`` or ``,``.  Contract, cards and bids may be written in any case, cards
with the aliases of the rule book.  Keyword segments may come in any order,
also between seat segments.  With five seats the dealer's own segment is
``SEAT: out`` (``dealer: SEAT`` may be given too, and must agree).

:func:`format_deal_line` writes the canonical form: seat segments in seat
order then ``dobb``, ``discard``, ``tricks``, ``doublings``, ``dealer``, each
only when it says something; cards sorted trumps first, tricks in play order.
``parse_deal_line(format_deal_line(deal)) == deal`` for every valid deal.
The parse builds the same raw mapping as a YAML hand file and checks it with
:mod:`dobbm_solver.handfile`, so both forms obey exactly the same rules.
"""

from __future__ import annotations

import re
from typing import Any

from .cards import card_name, set_names
from .deal import Deal
from .errors import DobbmError
from .handfile import HandFileError, HandSpec, is_seat_name, parse_spec, spec_to_deal

KEYWORDS: tuple[str, ...] = ("dobb", "discard", "tricks", "doublings", "dealer", "me", "bids", "must")
_HEAD = "head"
_SEATS = "seats"


class NotationError(DobbmError):
    """A deal line that does not parse or does not describe a valid deal.

    ``segment`` names the offending segment: a seat, a keyword, ``head``
    (contract and declarer) or ``seats`` (the seat segments as a whole).
    """

    def __init__(self, segment: str, message: str) -> None:
        self.segment = segment
        self.message = message
        super().__init__(f"segment {segment!r}: {message}")


def _segment_of(key: str | None) -> str:
    """The notation segment that a hand-file key comes from."""
    if key is None:
        return "line"
    if key.startswith("hands."):
        return key[len("hands."):]
    if key in ("declarer", "contract"):
        return _HEAD
    if key in ("hands", "seats", "document"):
        return _SEATS
    return key


def _check_seat(name: str, segment: str) -> None:
    if not is_seat_name(name):
        raise NotationError(segment, f"bad seat name {name!r} (no spaces and none of | : ,)")
    if name.lower() in KEYWORDS:
        raise NotationError(segment, f"{name!r} is a keyword (written in lower case) and "
                                     f"cannot name a seat; keywords: {', '.join(KEYWORDS)}")


def _line_to_raw(text: str) -> dict[str, Any]:
    """Split a deal line into the raw mapping of a hand-file document."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("line", "empty deal line")
    head, *segments = (s.strip() for s in text.strip().split("|"))
    words = head.split()
    if len(words) != 2 or ":" in head:
        raise NotationError(_HEAD, f"must be CONTRACT DECLARER like 'dobbm Anna', not {head!r}")
    raw: dict[str, Any] = {"contract": words[0], "declarer": words[1], "hands": {}}
    seats: list[str] = []
    out: list[str] = []
    for n, seg in enumerate(segments, 2):
        name, colon, value = seg.partition(":")
        name, value = name.strip(), value.strip()
        if not seg:
            raise NotationError(f"#{n}", "empty segment (a stray | ?)")
        if not colon or not name:
            raise NotationError(seg, "must be NAME: VALUE (segments are separated by |)")
        if ":" in value:
            raise NotationError(name, f"a second ':' in {value!r} (a | missing?)")
        if name in KEYWORDS:
            if name in raw:
                raise NotationError(name, "given twice")
            raw[name] = _keyword_value(name, value)
            continue
        _check_seat(name, name)
        if name in seats:
            raise NotationError(name, "seat given twice")
        seats.append(name)
        if value.lower() == "out":
            out.append(name)
        elif value != "?":
            raw["hands"][name] = "" if value == "-" else value
    if not seats:
        raise NotationError(_SEATS, "no seat segments (like 'Anna: HA H10 ...')")
    raw["seats"] = seats
    if out:
        if len(out) > 1:
            raise NotationError(out[1], "only the dealer sits out")
        if raw.setdefault("dealer", out[0]) != out[0]:
            raise NotationError("dealer", f"{raw['dealer']!r} is the dealer, but {out[0]} sits out")
        if len(seats) != 5:
            raise NotationError(out[0], "only with five seats does the dealer sit out")
    return raw


def _keyword_value(kw: str, value: str) -> Any:
    if kw in ("dobb", "discard"):
        return value
    if kw == "tricks":
        return [t.strip() for t in value.split(",")] if value not in ("", "-") else []
    if kw == "doublings":
        if value.isdecimal():   # not isdigit(): "²" is a digit but no number
            try:
                return int(value)
            except ValueError:   # more digits than Python turns into a number
                pass
        raise NotationError(kw, f"must be a whole number 0 or more, not {value!r}")
    if kw == "must":
        flag = {"yes": True, "true": True, "no": False, "false": False}.get(value.lower())
        if flag is None:
            raise NotationError(kw, f"must be yes or no, not {value!r}")
        return flag
    if kw == "bids":
        bids = []
        for item in (b.strip() for b in value.split(",")):
            parts = item.split()
            if len(parts) != 2:
                raise NotationError(kw, f"each bid must be SEAT BID like 'Bert pass', not {item!r}")
            bids.append({parts[0]: parts[1]})
        return bids
    return value  # dealer, me: a seat name


def _translate(e: HandFileError) -> NotationError:
    """A hand-file error in the words of the notation: ``hands.Anna`` is segment ``Anna``."""
    return NotationError(_segment_of(e.key), re.sub(r"\bhands\.(\S+)", r"\1's hand", e.message))


def parse_spec_line(text: str) -> HandSpec:
    """The :class:`HandSpec` of a deal line (hands may be partial, for the analyzer)."""
    raw = _line_to_raw(text)
    try:
        return parse_spec(raw, "<line>")
    except HandFileError as e:
        raise _translate(e) from None


def parse_deal_line(text: str) -> Deal:
    """The validated :class:`Deal` of a deal line."""
    spec = parse_spec_line(text)
    try:
        return spec_to_deal(spec)
    except HandFileError as e:
        raise _translate(e) from None


def format_deal_line(deal: Deal) -> str:
    """The canonical one-line form of a deal."""
    for s in deal.seats:
        _check_seat(s, s)
    five = len(deal.seats) == 5 and deal.dealer in deal.seats
    parts = [f"{deal.contract} {deal.declarer}"]
    for s in deal.seats:
        if five and s == deal.dealer:
            parts.append(f"{s}: out")
        else:
            parts.append(f"{s}: {' '.join(set_names(deal.hands.get(s, 0))) or '-'}")
    parts.append(f"dobb: {' '.join(set_names(deal.dobb))}")
    if deal.discard is not None:
        parts.append(f"discard: {' '.join(set_names(deal.discard))}")
    if deal.tricks:
        parts.append("tricks: " + ", ".join(" ".join(card_name(c) for c in t) for t in deal.tricks))
    if deal.doublings:
        parts.append(f"doublings: {deal.doublings}")
    if deal.dealer is not None and not five:
        parts.append(f"dealer: {deal.dealer}")
    return " | ".join(parts)
