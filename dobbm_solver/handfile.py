"""Hand files: deals written in YAML, one deal per document.

A hand file holds one or more YAML documents separated by ``---``; each
document is a mapping with these keys::

    seats: [Anna, Bert, Cora, Dave]   # clockwise; optional, else the order of `hands`
    declarer: Anna
    contract: dobbm                   # dobbm | solo (case-insensitive)
    hands:                            # the cards each seat holds now (list or string)
      Anna: HA H10 HK HO EA E10 L9 S7
      ...
    dobb: E6 L6 S6 HU                 # the four cards dealt to the middle
    discard: L9 S7 E6 L6              # Dobbm only; absent: a discard study
    tricks:                           # optional, each in play order; the last may be unfinished
      - HA H6 H7 H8
    doublings: 0                      # optional
    dealer: Dave                      # optional; with five seats the dealer sits out

and, for the hand analyzer, ``me: SEAT``, ``bids: [{Bert: pass}, ...]`` and
``must: true|false``.

Loading is two steps.  :func:`parse_spec` turns one YAML document into a
:class:`HandSpec`, checking keys, types, card text and seat names but not
the rules (its ``hands`` may be partial: only what ``me`` can see).
:func:`spec_to_deal` turns a complete spec into a :class:`~dobbm_solver.deal.Deal`
checked by :func:`~dobbm_solver.deal.validate`.  Every problem raises
:class:`HandFileError`, whose text reads ``FILE: key: what is wrong``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, TextIO

import yaml

from .cards import Card, CardError, CardSet, card_name, cardset, parse_card, set_names
from .deal import Deal, DealError, validate
from .errors import DobbmError
from .rules import CONTRACTS

BIDS: tuple[str, ...] = ("pass", "dobbm", "solo")
KEYS: tuple[str, ...] = (
    "seats", "declarer", "contract", "hands", "dobb", "discard", "tricks",
    "doublings", "dealer", "me", "bids", "must",
)
# PyYAML's safe loader (no arbitrary Python objects), its C implementation
# where libyaml is available: ten times faster on large files.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SEAT_NAME = re.compile(r"[^\s|:,]+")


class HandFileError(DobbmError):
    """A hand file that cannot be read or does not describe a valid deal.

    ``path`` is the file as given (``<stdin>`` for standard input), ``doc``
    the 1-based document number in a multi-document file (else None), ``key``
    the offending key such as ``hands.Bert`` (None for file-level problems).
    """

    def __init__(self, path: str, key: str | None, message: str, doc: int | None = None) -> None:
        self.path = path
        self.key = key
        self.message = message
        self.doc = doc
        where = f"{path}[{doc}]" if doc is not None else path
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")


@dataclass(frozen=True)
class HandSpec:
    """One document of a hand file, typed but not yet checked against the rules.

    Card sets are bitboards; ``hands`` maps each seat given to its cards and
    may be partial.  ``declarer``, ``contract`` and ``dobb`` are None when
    absent.  ``path`` and ``doc`` say where the spec came from.
    """

    seats: tuple[str, ...]
    declarer: str | None
    contract: str | None
    hands: Mapping[str, CardSet]
    dobb: CardSet | None = None
    discard: CardSet | None = None
    tricks: tuple[tuple[Card, ...], ...] = ()
    doublings: int = 0
    dealer: str | None = None
    me: str | None = None
    bids: tuple[tuple[str, str], ...] = ()
    must: bool | None = None
    path: str = field(default="<string>", compare=False)
    doc: int | None = field(default=None, compare=False)


# --------------------------------------------------------------------------
# raw parse: one YAML document -> HandSpec


class _Fail(Exception):
    def __init__(self, key: str, message: str) -> None:
        self.key = key
        self.message = message


def _describe(value: object) -> str:
    return f"{type(value).__name__} {value!r}"


def is_seat_name(name: str) -> bool:
    """A seat name: no spaces, none of ``| : ,``, and not ``-`` (the notation's empty hand)."""
    return bool(_SEAT_NAME.fullmatch(name)) and name != "-"


def _seat_name(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise _Fail(key, f"a seat name must be text, not {_describe(value)} (quote it)")
    if not is_seat_name(value):
        raise _Fail(key, f"bad seat name {value!r} (no spaces and none of | : ,)")
    return value


def _cards(value: object, key: str) -> tuple[Card, ...]:
    """A list of card texts or a space-separated string; a card given twice is an error."""
    if value is None:
        items: list[object] = []
    elif isinstance(value, str):
        items = list(value.split())
    elif isinstance(value, list):
        items = value
    else:
        raise _Fail(key, f"must be a list of cards or a string of cards, not {_describe(value)}")
    cards: list[Card] = []
    for item in items:
        try:
            c = parse_card(item)  # type: ignore[arg-type]
        except CardError as e:
            raise _Fail(key, str(e)) from None
        if c in cards:
            raise _Fail(key, f"{card_name(c)} is listed twice")
        cards.append(c)
    return tuple(cards)


def _cardset(value: object, key: str) -> CardSet:
    return cardset(_cards(value, key))


def _text(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise _Fail(key, f"must be text, not {_describe(value)}")
    return value


def _one_of(value: object, key: str, choices: tuple[str, ...]) -> str:
    low = _text(value, key).strip().lower()
    if low not in choices:
        raise _Fail(key, f"must be one of {' | '.join(choices)}, not {value!r}")
    return low


def _member(seat: str, seats: tuple[str, ...], key: str) -> str:
    if seat not in seats:
        raise _Fail(key, f"{seat!r} is not a seat (seats: {' '.join(seats)})")
    return seat


def _tricks(raw_tricks: object) -> list[tuple[Card, ...]]:
    tricks: list[tuple[Card, ...]] = []
    if not isinstance(raw_tricks, list):
        raise _Fail("tricks", f"must be a list of tricks, not {_describe(raw_tricks)}")
    for n, t in enumerate(raw_tricks, 1):
        try:
            tricks.append(_cards(t, "tricks"))
        except _Fail as e:
            raise _Fail("tricks", f"trick {n}: {e.message}") from None
    return tricks


def _bids(raw_bids: object, seats: tuple[str, ...]) -> list[tuple[str, str]]:
    bids: list[tuple[str, str]] = []
    if not isinstance(raw_bids, list):
        raise _Fail("bids", f"must be a list like [{{Bert: pass}}, {{Cora: dobbm}}], not {_describe(raw_bids)}")
    for n, b in enumerate(raw_bids, 1):
        if not isinstance(b, dict) or len(b) != 1:
            raise _Fail("bids", f"bid {n}: must be one SEAT: BID pair like {{Bert: pass}}, not {b!r}")
        ((who, bid),) = b.items()
        try:
            who = _member(_seat_name(who, "bids"), seats, "bids")
            bid = _one_of(bid, "bids", BIDS)
        except _Fail as e:
            raise _Fail("bids", f"bid {n}: {e.message}") from None
        bids.append((who, bid))
    return bids


def _parse(doc: object) -> HandSpec:
    if not isinstance(doc, dict):
        raise _Fail("document", f"must be a mapping of keys (seats, declarer, ...), not {_describe(doc)}")
    for k in doc:
        if k not in KEYS:
            raise _Fail(str(k), f"unknown key (known: {', '.join(KEYS)})")
    d = {k: v for k, v in doc.items() if v is not None}

    if "hands" not in d:
        raise _Fail("hands", "missing")
    raw_hands = d["hands"]
    if not isinstance(raw_hands, dict):
        raise _Fail("hands", f"must map each seat to its cards, not {_describe(raw_hands)}")
    hand_seats = tuple(_seat_name(s, "hands") for s in raw_hands)

    if "seats" in d:
        raw_seats = d["seats"]
        if isinstance(raw_seats, str):
            raw_seats = raw_seats.split()
        if not isinstance(raw_seats, list):
            raise _Fail("seats", f"must be a list of seat names, not {_describe(raw_seats)}")
        seats = tuple(_seat_name(s, "seats") for s in raw_seats)
    else:
        seats = hand_seats
    if len(seats) not in (4, 5):
        raise _Fail("seats", f"need 4 seats, or 5 with a dealer who sits out, not {len(seats)}")
    if len(set(seats)) != len(seats):
        raise _Fail("seats", "a seat is named twice")

    dealer = _member(_seat_name(d["dealer"], "dealer"), seats, "dealer") if "dealer" in d else None
    hands: dict[str, CardSet] = {}
    for s in hand_seats:
        key = f"hands.{s}"
        _member(s, seats, key)
        cs = _cardset(raw_hands[s], key)
        if len(seats) == 5 and s == dealer:
            if cs:
                raise _Fail(key, f"{s} is the dealer and sits out, so holds no cards")
            continue
        hands[s] = cs

    declarer = _member(_seat_name(d["declarer"], "declarer"), seats, "declarer") if "declarer" in d else None
    contract = _one_of(d["contract"], "contract", CONTRACTS) if "contract" in d else None
    me = _member(_seat_name(d["me"], "me"), seats, "me") if "me" in d else None

    tricks = _tricks(d.get("tricks", []))

    doublings = d.get("doublings", 0)
    if not isinstance(doublings, int) or isinstance(doublings, bool) or doublings < 0:
        raise _Fail("doublings", f"must be a whole number 0 or more, not {doublings!r}")

    bids = _bids(d.get("bids", []), seats)

    must = d.get("must")
    if must is not None and not isinstance(must, bool):
        raise _Fail("must", f"must be true or false, not {must!r}")

    return HandSpec(
        seats=seats, declarer=declarer, contract=contract, hands=hands,
        dobb=_cardset(d["dobb"], "dobb") if "dobb" in d else None,
        discard=_cardset(d["discard"], "discard") if "discard" in d else None,
        tricks=tuple(tricks), doublings=doublings, dealer=dealer, me=me,
        bids=tuple(bids), must=must,
    )


def parse_spec(doc: object, path: str = "<string>", doc_index: int | None = None) -> HandSpec:
    """Type-check one loaded YAML document (a dict) and return its :class:`HandSpec`."""
    try:
        spec = _parse(doc)
    except _Fail as e:
        raise HandFileError(path, e.key, e.message, doc_index) from None
    return replace(spec, path=path, doc=doc_index)


def spec_to_deal(spec: HandSpec, *, allow_revokes: bool = False) -> Deal:
    """The validated :class:`Deal` of a complete spec (all hands, declarer, contract, dobb).

    ``allow_revokes`` accepts revokes in ``tricks`` (for scoring a played hand).
    """
    def fail(key: str, message: str) -> HandFileError:
        return HandFileError(spec.path, key, message, spec.doc)

    for key in ("declarer", "contract", "dobb"):
        if getattr(spec, key) is None:
            raise fail(key, "missing")
    assert spec.declarer is not None and spec.contract is not None and spec.dobb is not None
    deal = Deal(
        seats=spec.seats, declarer=spec.declarer, contract=spec.contract,
        hands=dict(spec.hands), dobb=spec.dobb, discard=spec.discard,
        tricks=spec.tricks, doublings=spec.doublings, dealer=spec.dealer,
    )
    try:
        validate(deal, allow_revokes=allow_revokes)
    except DealError as e:
        raise fail(e.key, e.message) from None
    return deal


# --------------------------------------------------------------------------
# loading text, streams and files


MAX_TEXT = 32 * 1024 * 1024      # characters in one hand file
MAX_NESTING = 64                  # open [ and { at once; a deal needs 2
_BRACKETS = re.compile(r"[\[\]{}]")


def _nesting(text: str) -> int:
    """The deepest nesting of flow brackets (quoted ones counted too: a safe over-estimate)."""
    depth = deepest = 0
    for m in _BRACKETS.finditer(text):
        if m.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif depth:
            depth -= 1
    return deepest


def parse_specs(text: str, path: str = "<string>") -> list[HandSpec]:
    """All specs of a YAML text; empty documents (a stray ``---``) are skipped."""
    if len(text) > MAX_TEXT:
        raise HandFileError(path, None, f"too large ({len(text)} characters; at most {MAX_TEXT})")
    if _nesting(text) > MAX_NESTING:
        # libyaml's parser recurses without a limit: refuse before it overflows the stack
        raise HandFileError(path, None, f"nested more than {MAX_NESTING} levels deep: not a hand file")
    try:
        docs = list(yaml.load_all(text, Loader=_SAFE_LOADER))
    except RecursionError:
        raise HandFileError(path, None, "nested too deeply: not a hand file") from None
    except UnicodeEncodeError:   # lone surrogates: bytes that were not UTF-8, escaped
        raise HandFileError(path, None, "is not UTF-8 text") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        raise HandFileError(path, None, f"{where}not valid YAML: {problem}") from None
    except (ValueError, TypeError, AttributeError) as e:
        # a scalar with an explicit or implied tag that does not convert: !!int 1x, 2001-13-01
        raise HandFileError(path, None, f"not valid YAML: {e}") from None
    numbered = [(n, doc) for n, doc in enumerate(docs, 1) if doc is not None]
    if not numbered:
        raise HandFileError(path, None, "holds no deal")
    many = len(docs) > 1
    return [parse_spec(doc, path, n if many else None) for n, doc in numbered]


def parse_deal_text(text: str, path: str = "<string>") -> list[Deal]:
    """All deals of a YAML text, validated."""
    return [spec_to_deal(s) for s in parse_specs(text, path)]


def _read(path: str | Path) -> str:
    name = str(path)
    try:
        if Path(path).stat().st_size > 4 * MAX_TEXT:
            raise HandFileError(name, None, f"too large ({Path(path).stat().st_size} bytes)")
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HandFileError(name, None, "no such file") from None
    except IsADirectoryError:
        raise HandFileError(name, None, "is a directory, not a hand file") from None
    except UnicodeDecodeError:
        raise HandFileError(name, None, "is not UTF-8 text") from None
    except OSError as e:
        raise HandFileError(name, None, e.strerror or str(e)) from None
    except ValueError:   # a NUL character: no file can have that name
        raise HandFileError(name, None, "is not a file name (it holds a NUL character)") from None


def load_specs(path: str | Path) -> list[HandSpec]:
    """The specs of a hand file (for the analyzer: hands may be partial)."""
    return parse_specs(_read(path), str(path))


def load_hand_file(path: str | Path) -> list[Deal]:
    """The validated deals of a hand file."""
    return parse_deal_text(_read(path), str(path))


def load_stream_specs(stream: TextIO | None = None, path: str = "<stdin>") -> list[HandSpec]:
    """The specs read from a text stream (standard input by default; hands may be partial)."""
    try:
        text = (stream if stream is not None else sys.stdin).read()
    except UnicodeDecodeError:
        raise HandFileError(path, None, "is not UTF-8 text") from None
    return parse_specs(text, path)


# --------------------------------------------------------------------------
# writing


def _names(cs: CardSet) -> str:
    return " ".join(set_names(cs))


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    """The YAML form of a deal: canonical card names, trumps first.

    Tricks keep their play order; ``doublings`` and ``dealer`` appear only
    when set, ``discard`` only when given.
    """
    d: dict[str, Any] = {
        "seats": list(deal.seats),
        "declarer": deal.declarer,
        "contract": deal.contract,
        "hands": {s: _names(deal.hands[s]) for s in deal.active_seats if s in deal.hands},
        "dobb": _names(deal.dobb),
    }
    if deal.discard is not None:
        d["discard"] = _names(deal.discard)
    if deal.tricks:
        d["tricks"] = [" ".join(card_name(c) for c in t) for t in deal.tricks]
    if deal.doublings:
        d["doublings"] = deal.doublings
    if deal.dealer is not None:
        d["dealer"] = deal.dealer
    return d


class _Dumper(yaml.SafeDumper):
    """Block style, except the seat list, which reads best on one line."""


class _FlowList(list[str]):
    pass


_Dumper.add_representer(
    _FlowList, lambda dumper, data: dumper.represent_sequence(
        "tag:yaml.org,2002:seq", data, flow_style=True))


def dump_deals_yaml(deals: Iterable[Deal]) -> str:
    """Deals as a YAML hand file, documents separated by ``---``."""
    docs = []
    for deal in deals:
        d = deal_to_dict(deal)
        d["seats"] = _FlowList(d["seats"])
        docs.append(d)
    return yaml.dump_all(docs, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                         default_flow_style=False, width=1000)


def dump_deal_yaml(deal: Deal) -> str:
    """One deal as a YAML document."""
    return dump_deals_yaml([deal])
