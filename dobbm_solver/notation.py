"""A one-line deal notation, for pasting into a shell or a chat.

Example (one line)::

    dobbm Bert | Anna: EK L10 L6 L7 L9 LA LU SO | Bert: E6 E7 EA H6 H8 HA S7 SA
    | Cora: ... | Dave: ... | dobb: EO E6 E10 S7 | discard: E10 EO S6 S9
    | tricks: HA H6 H7 H8, E6 E7 | doublings: 1

An advice view (for ``bid``, ``discard``, ``double``, ``play``) is written the same
way, with a ``me`` segment, ``?`` for the hands not seen, and no head before the
bidding is over::

    me: Bert | Anna: ? | Bert: HA H10 HK EA E9 L8 L7 S6 | Cora: ? | Dave: ?
    | dealer: Dave | bids: Anna pass

or, with the seats given whole in a ``seats`` segment, leaving the unseen seats out::

    me: Bert | seats: Anna Bert Cora Dave | Bert: HA H10 HK EA E9 L8 L7 S6
    | dealer: Dave | bids: Anna pass

Grammar (spaces around ``|``, ``:`` and ``,`` are optional)::

    line      = [ head "|" ] segment { "|" segment }
    head      = CONTRACT DECLARER [ "dealt" ]   CONTRACT: dobbm | solo (any case); a deal needs
              | "dealt"                      it, a view leaves it out before the bidding ends;
                                             "dealt": the seat segments give the 8 cards each
                                             seat was dealt (the YAML key dealt), not the
                                             cards held now
    segment   = SEAT ":" hand                one per seat, clockwise: they give the seat order
              | "dobb" ":" cards             the four cards dealt to the middle (required)
              | "discard" ":" cards          Dobbm: the four laid away; absent: a discard study
              | "tricks" ":" trick { "," trick }   each in play order; the last may be unfinished
              | "doublings" ":" NUMBER       Schwacher and Retour said (default 0)
              | "dealer" ":" SEAT
              | "me" ":" SEAT                (analyzer) whose view this is
              | "bids" ":" SEAT BID { "," SEAT BID }   (analyzer) BID: pass | dobbm | solo
              | "must" ":" ( yes | no )      (analyzer) a must round
              | "seats" ":" SEAT { " " SEAT }   the seats clockwise, when not every seat has a
                                             segment: a view may then leave out the seats it
                                             does not see, as a YAML view may
    hand      = cards | "-" | "?" | "out"    "-": no cards left; "?": not known (analyzer only,
                                             as if the seat's hand were left out of a YAML view);
                                             "out": the dealer who sits out
    cards     = CARD { " " CARD }
    trick     = CARD { " " CARD }

With ``dealt`` the hands held now follow from the Dobb, the lay-away and
the tricks, as for ``dealt:`` in YAML (:mod:`dobbm_solver.dealt`)::

    dobbm Anna dealt | Anna: HA HK EA EU SU S7 L6 SK | Bert: ... | dobb: HU E6 LU SA
    | discard: EU LU L6 SK | tricks: HA H6 HO H7, ...

Keywords are written in lower case; no seat may be named like a keyword or
``out`` in any case (``Me: ...`` is an error, not a seat), nor contain spaces,
``|``, ``:`` or ``,``: the rule of :func:`~dobbm_solver.handfile.seat_name_error`,
the same in YAML.  Seat names are case-insensitive where they are used
(``dobbm anna`` names the seat ``Anna``).  Numbers are ASCII digits.
Contract, cards and bids may be written in any case, cards
with the aliases of the rule book.  Keyword segments may come in any order,
also between seat segments.  With five seats the dealer's own segment is
``SEAT: out`` (``dealer: SEAT`` may be given too, and must agree).

:func:`format_deal_line` writes the canonical form: seat segments in seat
order then ``dobb``, ``discard``, ``tricks``, ``doublings``, ``dealer``, each
only when it says something; cards sorted trumps first, tricks in play order.
``parse_deal_line(format_deal_line(deal)) == deal`` for every valid deal;
:func:`format_spec_line` writes any spec, a partial view too, and
``parse_spec_line(format_spec_line(spec)) == spec`` for every spec it writes;
both write the dealt form with ``dealt=True``, and it round-trips the same way.
The parse builds the same raw mapping as a YAML hand file and checks it with
:mod:`dobbm_solver.handfile`, so both forms obey exactly the same rules.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Sequence

from .cards import Card, CardSet, card_name, cards_text
from .deal import Deal
from .dealt import dealt_hands
from .echo import brief
from .errors import DobbmError
from .handfile import (
    EMPTY_HAND,
    UNKNOWN_HAND,
    HandFileError,
    HandSpec,
    parse_spec,
    seat_name_error,
    spec_to_deal,
)

KEYWORDS: tuple[str, ...] = ("dobb", "discard", "tricks", "doublings", "dealer", "me", "bids", "must", "seats")
_MAX_DIGITS = 30   # a longer number is kept as text: its key's check rejects it
_HEAD = "head"
DEALT = "dealt"   # the head word (alone, or after CONTRACT DECLARER) of the dealt form
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
    if key.startswith(("hands.", "dealt.")):
        return key[len("hands."):]
    if key in ("declarer", "contract"):
        return _HEAD
    if key in ("hands", "dealt", "seats", "document"):
        return _SEATS
    return key


def _check_seat(name: str, segment: str) -> None:
    why = seat_name_error(name)
    if why:
        raise NotationError(segment, why)


def _line_to_raw(text: str) -> dict[str, Any]:
    """Split a deal line into the raw mapping of a hand-file document."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("line", "empty deal line")
    try:   # a command line's bytes that are not UTF-8 arrive as lone surrogates
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise NotationError("line", "is not valid UTF-8 text") from None
    parts = [s.strip() for s in text.strip().split("|")]
    raw: dict[str, Any] = {"hands": {}}
    if ":" in parts[0]:   # no head: a view before the bidding ends
        segments, first = parts, 1
    else:
        words = parts[0].split()
        if words[-1:] == [DEALT] and len(words) in (1, 3):   # the seat segments give the dealt hands
            raw = {DEALT: raw["hands"]}
            words = words[:-1]
        if len(words) not in (0, 2) or not words and DEALT not in raw:
            raise NotationError(_HEAD, f"must be CONTRACT DECLARER like 'dobbm Anna', not {brief(parts[0])}")
        if words:
            raw["contract"], raw["declarer"] = words
        segments, first = parts[1:], 2
    seats: list[str] = []
    out: list[str] = []
    for n, seg in enumerate(segments, first):
        name, colon, value = seg.partition(":")
        name, value = name.strip(), value.strip()
        if not seg:
            raise NotationError(f"#{n}", "empty segment (a stray | ?)")
        if not colon or not name:
            raise NotationError(brief(seg).strip("'\""), "must be NAME: VALUE (segments are separated by |)")
        if ":" in value:
            raise NotationError(brief(name).strip("'\""), f"a second ':' in {brief(value)} (a | missing?)")
        if name in KEYWORDS:
            if name in raw:
                raise NotationError(name, "given twice")
            raw[name] = _keyword_value(name, value)
            continue
        _check_seat(name, name)
        if name.casefold() in (s.casefold() for s in seats):
            raise NotationError(name, "seat given twice (seat names are case-insensitive)")
        seats.append(name)
        if value.lower() == "out":
            out.append(name)
        else:   # "-": no cards, "?": not known -- read as in a YAML hand file
            raw[DEALT if DEALT in raw else "hands"][name] = value
    if "seats" in raw:   # the seat order given whole: a view may leave the unseen seats out
        seats = raw["seats"]
    elif not seats:
        raise NotationError(_SEATS, "no seat segments (like 'Anna: HA H10 ...')")
    elif len(seats) < 4:
        raise NotationError(_SEATS, f"need 4 seats, not {len(seats)} seat segment{'s' if len(seats) > 1 else ''}: "
                                    "give every seat one, clockwise ('?' for a hand not seen), or the seats "
                                    "whole like 'seats: Anna Bert Cora Dave', leaving the unseen out")
    raw["seats"] = seats
    if out:
        if len(out) > 1:
            raise NotationError(out[1], "only the dealer sits out")
        if str(raw.setdefault("dealer", out[0])).casefold() != out[0].casefold():
            raise NotationError("dealer", f"{brief(raw['dealer'])} is the dealer, but {out[0]} sits out")
        if len(seats) != 5:
            raise NotationError(out[0], "only with five seats does the dealer sit out")
    return raw


def _keyword_value(kw: str, value: str) -> Any:
    if kw in ("dobb", "discard"):
        return value
    if kw == "seats":
        return [w.strip() for w in value.replace(",", " ").split()]
    if kw == "tricks":
        return [t.strip() for t in value.split(",")] if value not in ("", "-") else []
    if kw == "doublings":
        # ASCII digits only ("١٢" and "²" are digits but no number here); anything else is
        # kept as text, and the hand-file check words the error as for YAML
        if value.isascii() and value.isdigit() and len(value) <= _MAX_DIGITS:
            return int(value)
        return value
    if kw == "must":
        flag = {"yes": True, "true": True, "no": False, "false": False}.get(value.lower())
        if flag is None:
            raise NotationError(kw, f"must be yes or no, not {brief(value)}")
        return flag
    if kw == "bids":
        bids: list[dict[str, str]] = []
        if value in ("", EMPTY_HAND):
            return bids
        for item in (b.strip() for b in value.split(",")):
            parts = item.split()
            if len(parts) != 2:
                raise NotationError(kw, f"each bid must be SEAT BID like 'Bert pass', not {brief(item)}")
            bids.append({parts[0]: parts[1]})
        return bids
    return value  # dealer, me: a seat name


def in_notation_words(e: HandFileError) -> NotationError:
    """A hand-file error in the words of the notation: ``hands.Anna`` is segment ``Anna``."""
    message = re.sub(r"\bhands\.(\S+)", r"\1's hand", e.message)
    return NotationError(_segment_of(e.key), re.sub(r"\bdealt\.(\S+)", r"\1's dealt hand", message))


def parse_spec_line(text: str) -> HandSpec:
    """The :class:`HandSpec` of a deal line (hands may be partial, for the analyzer)."""
    raw = _line_to_raw(text)
    try:
        return replace(parse_spec(raw, "<line>"), line=True)
    except HandFileError as e:
        raise in_notation_words(e) from None


def parse_deal_line(text: str, *, allow_revokes: bool = False) -> Deal:
    """The validated :class:`Deal` of a deal line (``allow_revokes``: see :func:`spec_to_deal`)."""
    spec = parse_spec_line(text)
    if spec.declarer is None or spec.contract is None:
        raise NotationError(_HEAD, "missing: a deal line begins with CONTRACT DECLARER like 'dobbm Anna |'")
    try:
        return spec_to_deal(spec, allow_revokes=allow_revokes)
    except HandFileError as e:
        raise in_notation_words(e) from None


def format_deal_line(deal: Deal, *, dealt: bool = False) -> str:
    """The canonical one-line form of a deal (``dealt``: the dealt form, head ``... dealt``)."""
    for s in deal.seats:
        _check_seat(s, s)
    five = len(deal.seats) == 5 and deal.dealer in deal.seats
    hands = dealt_hands(deal) if dealt else deal.hands
    parts = [f"{deal.contract} {deal.declarer}" + (f" {DEALT}" if dealt else "")]
    for s in deal.seats:
        if five and s == deal.dealer:
            parts.append(f"{s}: out")
        else:
            parts.append(f"{s}: {cards_text(hands.get(s, 0)) or '-'}")
    return " | ".join(parts + _later_segments(deal.dobb, deal.discard, deal.tricks, deal.doublings,
                                              None if five else deal.dealer))


def _later_segments(dobb: CardSet | None, discard: CardSet | None, tricks: Sequence[Sequence[Card]],
                    doublings: int, dealer: str | None) -> list[str]:
    """The segments after the hands: ``dobb``, ``discard``, ``tricks``, ``doublings``,
    ``dealer`` (each only when there is one)."""
    parts = [f"{key}: {cards_text(cs) or EMPTY_HAND}"
             for key, cs in (("dobb", dobb), ("discard", discard)) if cs is not None]
    if tricks:
        parts.append("tricks: " + ", ".join(" ".join(card_name(c) for c in t) for t in tricks))
    if doublings:
        parts.append(f"doublings: {doublings}")
    if dealer is not None:
        parts.append(f"dealer: {dealer}")
    return parts


def format_spec_line(spec: HandSpec, *, dealt: bool = False) -> str:
    """The one-line form of any spec, a player's partial view too (unseen hands ``?``).

    The head comes only when declarer and contract are known; ``me``, ``bids`` and
    ``must`` (only when true) follow the deal's segments.  With ``dealt``, the dealt
    form: the head ends in ``dealt`` (or is just ``dealt``).
    """
    for s in spec.seats:
        _check_seat(s, s)
    five = len(spec.seats) == 5 and spec.dealer in spec.seats
    head = [f"{spec.contract} {spec.declarer}"] if spec.declarer and spec.contract else []
    parts = [" ".join([*head, DEALT])] if dealt else head
    hands = dealt_hands(spec) if dealt else spec.hands
    if spec.me is not None:
        parts.append(f"me: {spec.me}")
    for s in spec.seats:
        if five and s == spec.dealer:
            parts.append(f"{s}: out")
        elif s in hands:
            parts.append(f"{s}: {cards_text(hands[s]) or EMPTY_HAND}")
        else:
            parts.append(f"{s}: {UNKNOWN_HAND}")
    parts += _later_segments(spec.dobb, spec.discard, spec.tricks, spec.doublings,
                             None if five else spec.dealer)
    if spec.bids:
        parts.append("bids: " + ", ".join(f"{who} {bid}" for who, bid in spec.bids))
    if spec.must:
        parts.append("must: yes")
    return " | ".join(parts)
