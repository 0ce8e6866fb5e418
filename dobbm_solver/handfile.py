"""Hand files: deals written in YAML, one deal per document.

A hand file holds one or more YAML documents separated by ``---``; each
document is a mapping with these keys::

    seats: [Anna, Bert, Cora, Dave]   # clockwise; optional, else the order of `hands`
    declarer: Anna
    contract: dobbm                   # dobbm | solo (case-insensitive)
    hands:                            # held now (list or string); or dealt: as dealt (see .dealt)
      Anna: HA H10 HK HO EA E10 L9 S7
      ...
    dobb: E6 L6 S6 HU                 # the four cards dealt to the middle
    discard: L9 S7 E6 L6              # Dobbm only; absent: a discard study
    tricks: [HA H6 H7 H8]             # optional, each in play order; the last may be unfinished
    doublings: 0                      # optional
    dealer: Dave                      # optional; with five seats the dealer sits out

and, for the hand analyzer, ``me: SEAT``, ``bids: [{Bert: pass}, ...]`` and
``must: true|false``.  In such a view a seat left out of ``hands`` (or given
as ``'?'``) is not known; ``[]``, ``''`` or ``'-'`` is a hand with no cards --
the same as ``?`` and ``-`` in the one-line notation.

Seat names follow one rule (:func:`seat_name_error`), here and in the
notation; they are case-insensitive where used (``declarer: dave`` names the
seat ``Dave``), so two seats may not differ only in case.  A key given twice
in a mapping is an error.  ``doublings`` is a whole number from 0 to
:data:`~dobbm_solver.deal.MAX_DOUBLINGS`.  Reading costs in proportion to the
input: at most :data:`MAX_BYTES` bytes are read from any file or stream, and
the YAML limits of :mod:`dobbm_solver.safe_yaml` apply.

A file (or stream) may instead hold deal lines in the one-line notation of
:mod:`dobbm_solver.notation`, one deal a line, blank lines and ``#`` comments
aside: :func:`parse_specs` reads it so when its first such line is a deal
line (:func:`deal_lines_of`), and every reader here takes either form.

Loading is two steps.  :func:`parse_spec` turns one YAML document into a
:class:`HandSpec`, checking keys, types, card text and seat names but not
the rules (its ``hands`` may be partial: only what ``me`` can see).
:func:`spec_to_deal` turns a complete spec into a :class:`~dobbm_solver.deal.Deal`
checked by :func:`~dobbm_solver.deal.validate`.  Every problem raises
:class:`HandFileError`, whose text reads ``FILE: key: what is wrong``.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Mapping

import yaml

from .cards import Card, CardError, CardSet, card_name, cards_text, cardset, parse_card
from .deal import Deal, DealError, check_doublings, find_revokes, validate
from .dealt import dealt_hands, hands_from_dealt, seat_order_reading
from .echo import brief, describe
from .errors import DobbmError
from .rules import CONTRACTS
from .safe_yaml import MAX_DOCUMENTS, MAX_NESTING, YamlLimit, load_documents

BIDS: tuple[str, ...] = ("pass", "dobbm", "solo")
KEYS: tuple[str, ...] = (
    "seats", "declarer", "contract", "hands", "dobb", "discard", "tricks",
    "doublings", "dealer", "me", "bids", "must", "dealt",
)
# Words of the one-line notation that cannot name a seat, in any case: segment
# keywords, and ``out`` (the dealer's hand).  ``-`` and ``?`` are hands too.
RESERVED_NAMES: tuple[str, ...] = (
    "dobb", "discard", "tricks", "doublings", "dealer", "me", "bids", "must", "seats", "out",
)
_SEAT_NAME = re.compile(r"[^\s|:,]+")
UNKNOWN_HAND = "?"      # a hand given as "?": not known (as if left out)
EMPTY_HAND = "-"        # a hand given as "-": no cards


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
    #: written in the one-line notation (its errors are told in the notation's words)
    line: bool = field(default=False, compare=False)

    @property
    def is_view(self) -> bool:
        """An advice view (it names ``me``): one seat's cards, for bid, discard, double or play."""
        return self.me is not None


# --------------------------------------------------------------------------
# raw parse: one YAML document -> HandSpec


class _Fail(DobbmError):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


_describe = describe


def seat_name_error(name: str) -> str | None:
    """Why ``name`` cannot name a seat, or None if it can.

    The one rule for seat names, in YAML and in the notation: no spaces and none
    of ``| : ,``; not ``-`` or ``?`` (hands of the notation); not a word of the
    notation (:data:`RESERVED_NAMES`) in any case.
    """
    if not _SEAT_NAME.fullmatch(name) or name in (EMPTY_HAND, UNKNOWN_HAND):
        return f"bad seat name {brief(name)} (no spaces, none of | : , and not - or ?)"
    if name.lower() in RESERVED_NAMES:
        return (f"{brief(name)} cannot name a seat: it is a keyword of the one-line notation "
                f"({', '.join(RESERVED_NAMES)}, in any case)")
    return None


def is_seat_name(name: str) -> bool:
    """True if ``name`` may name a seat (see :func:`seat_name_error`)."""
    return seat_name_error(name) is None


def _seat_name(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise _Fail(key, f"a seat name must be text, not {_describe(value)} (quote it)")
    why = seat_name_error(value)
    if why:
        raise _Fail(key, why)
    return value


def _cards(value: object, key: str) -> tuple[Card, ...]:
    """A list of card texts or a space-separated string; a card given twice is an error."""
    if value is None or value == EMPTY_HAND:
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
        raise _Fail(key, f"must be one of {' | '.join(choices)}, not {brief(value)}")
    return low


def _member(seat: str, seats: tuple[str, ...], key: str) -> str:
    """The seat of ``seats`` that ``seat`` names; seat names are case-insensitive."""
    if seat in seats:
        return seat
    for s in seats:
        if s.casefold() == seat.casefold():
            return s
    raise _Fail(key, f"{brief(seat)} is not a seat (seats: {' '.join(seats)})")


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
            raise _Fail("bids", f"bid {n}: must be one SEAT: BID pair like {{Bert: pass}}, not {brief(b)}")
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
            raise _Fail(brief(k).strip("'\""), f"unknown key (known: {', '.join(KEYS)})")
    d = {k: v for k, v in doc.items() if v is not None}

    root = "dealt" if "dealt" in d else "hands"
    if "dealt" in d and "hands" in d:
        raise _Fail("dealt", "give hands (the cards held now) or dealt (the 8 cards dealt), not both")
    if root not in d:
        raise _Fail("hands", "missing")
    raw_hands = d[root]
    if not isinstance(raw_hands, dict):
        raise _Fail(root, f"must map each seat to its cards, not {_describe(raw_hands)}")
    hand_seats = tuple(_seat_name(s, root) for s in raw_hands)

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
    if len({s.casefold() for s in seats}) != len(seats):
        raise _Fail("seats", "a seat is named twice (seat names are case-insensitive)")

    dealer = _member(_seat_name(d["dealer"], "dealer"), seats, "dealer") if "dealer" in d else None
    hands = _hand_map(raw_hands, seats, dealer, root)

    declarer = _member(_seat_name(d["declarer"], "declarer"), seats, "declarer") if "declarer" in d else None
    contract = _one_of(d["contract"], "contract", CONTRACTS) if "contract" in d else None
    me = _member(_seat_name(d["me"], "me"), seats, "me") if "me" in d else None

    tricks = _tricks(d.get("tricks", []))

    doublings = d.get("doublings", 0)
    try:
        check_doublings(doublings)
    except DealError as e:
        raise _Fail(e.key, e.message) from None

    bids = _bids(d.get("bids", []), seats)

    must = d.get("must")
    if must is not None and not isinstance(must, bool):
        raise _Fail("must", f"must be true or false, not {brief(must)}")

    spec = HandSpec(
        seats=seats, declarer=declarer, contract=contract, hands=hands,
        dobb=_cardset(d["dobb"], "dobb") if "dobb" in d else None,
        discard=_cardset(d["discard"], "discard") if "discard" in d else None,
        tricks=tuple(tricks), doublings=doublings, dealer=dealer, me=me,
        bids=tuple(bids), must=must,
    )
    try:   # dealt: the hands held now follow from the dealt ones
        return replace(spec, hands=hands_from_dealt(spec)) if root == "dealt" else spec
    except DealError as e:
        seat_order = seat_order_reading(spec)
        if seat_order is not None and _holds(lambda: hands_from_dealt(replace(spec, tricks=seat_order.tricks))):
            raise _Fail("tricks", seat_order.message()) from None
        raise _Fail(e.key, e.message) from None


def _holds(check: Callable[[], object]) -> bool:
    """Whether ``check()`` passes without a :class:`~dobbm_solver.deal.DealError`."""
    try:
        check()
    except DealError:
        return False
    return True


def _hand_map(raw_hands: dict[Any, Any], seats: tuple[str, ...], dealer: str | None, root: str) -> dict[str, CardSet]:
    """The cards of each seat given under ``root`` (hands or dealt); ``?``: not known."""
    hands: dict[str, CardSet] = {}
    done: set[str] = set()
    for given in raw_hands:   # names checked by _seat_name
        s = _member(given, seats, f"{root}.{given}")
        key = f"{root}.{s}"
        if s in done:
            raise _Fail(key, "given twice (seat names are case-insensitive)")
        done.add(s)
        if raw_hands[given] == UNKNOWN_HAND:
            continue
        cs = _cardset(raw_hands[given], key)
        if len(seats) == 5 and s == dealer:
            if cs:
                raise _Fail(key, f"{s} is the dealer and sits out, so holds no cards")
            continue
        hands[s] = cs
    return hands


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
        _refuse_seat_order(deal, fail)
        raise fail(e.key, e.message) from None
    if allow_revokes and deal.tricks and find_revokes(deal):
        _refuse_seat_order(deal, fail)
    return deal


def _refuse_seat_order(deal: Deal, fail: Callable[[str, str], HandFileError]) -> None:
    """Raise the error that says each trick starts with its leader if ``deal``'s tricks,
    illegal or inconsistent as written, are a legal play read in seat order."""
    seat_order = seat_order_reading(deal)
    if seat_order is None:
        return
    read = replace(deal, tricks=seat_order.tricks)
    if _holds(lambda: validate(read)):
        raise fail("tricks", seat_order.message()) from None


# --------------------------------------------------------------------------
# loading text, streams and files


MAX_TEXT = 32 * 1024 * 1024      # characters in one hand file
MAX_BYTES = 4 * MAX_TEXT          # bytes read from one file or stream, whatever it is
_READ_CHUNK = 1024 * 1024
_BRACKETS = re.compile(r"[\[\]{}]")
_BOM = "\ufeff"   # a byte order mark a text editor may put first


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


def _yaml_problem(e: yaml.YAMLError) -> str:
    mark = getattr(e, "problem_mark", None)
    problem = getattr(e, "problem", None) or (str(e).splitlines() or ["?"])[0]
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return f"{where}not valid YAML: {problem[:200]}"


def is_deal_line(line: str) -> bool:
    """Whether a line of text is written in the one-line notation rather than YAML: it has
    segments separated by ``|`` and a ``NAME: VALUE`` segment after the first ``|``.

    No YAML hand file has such a line: a ``|`` in YAML starts a block scalar at a line's
    end (``key: |``), with no ``:`` after it on the line.
    """
    head, bar, rest = line.partition("|")
    return bool(bar) and ":" in rest


def deal_lines_of(text: str) -> list[tuple[int, str]] | None:
    """The deal lines of a text in the one-line notation, each with its line number
    (blank lines and ``#`` comments skipped), or None when the text is YAML (its first
    line that is not blank or a comment is no deal line)."""
    lines = [(n, line.strip()) for n, line in enumerate(text.removeprefix(_BOM).splitlines(), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines or not is_deal_line(lines[0][1]):
        return None
    return lines


def _parse_line_specs(lines: list[tuple[int, str]], path: str) -> list[HandSpec]:
    """The specs of a file of deal lines, one a line; an error names the line."""
    from .notation import parse_spec_line  # the notation builds on this module

    if len(lines) > MAX_DOCUMENTS:
        raise HandFileError(path, None, f"more than {MAX_DOCUMENTS} deal lines: split the file")
    specs = []
    many = len(lines) > 1
    for k, (n, line) in enumerate(lines, 1):
        if not is_deal_line(line):
            raise HandFileError(path, f"line {n}", "not a deal line: a file in the one-line notation "
                                                   "holds one deal a line (blank lines and # comments aside)")
        try:
            spec = parse_spec_line(line)
        except DobbmError as e:
            raise HandFileError(path, f"line {n}", str(e)) from None
        specs.append(replace(spec, path=path, doc=k if many else None))
    return specs


def parse_specs(text: str, path: str = "<string>") -> list[HandSpec]:
    """All specs of a hand file's text: YAML documents (empty ones, a stray ``---``, are
    skipped), or deal lines in the one-line notation, one deal a line (see
    :func:`deal_lines_of`; such a spec has ``line`` set).

    The cost is bounded by the text's size: see :mod:`dobbm_solver.safe_yaml`
    for the limits on nodes, aliases, nesting and documents.
    """
    if len(text) > MAX_TEXT:
        raise HandFileError(path, None, f"too large ({len(text)} characters; at most {MAX_TEXT})")
    lines = deal_lines_of(text)
    if lines is not None:
        return _parse_line_specs(lines, path)
    if _nesting(text) > MAX_NESTING:
        # libyaml's parser recurses without a limit: refuse before it overflows the stack
        raise HandFileError(path, None, f"nested more than {MAX_NESTING} levels deep: not a hand file")
    try:
        docs = load_documents(text)
    except YamlLimit as e:
        raise HandFileError(path, None, str(e)) from None
    except RecursionError:
        raise HandFileError(path, None, "nested too deeply: not a hand file") from None
    except UnicodeEncodeError:   # lone surrogates: bytes that were not UTF-8, escaped
        raise HandFileError(path, None, "is not UTF-8 text") from None
    except yaml.YAMLError as e:
        raise HandFileError(path, None, _yaml_problem(e)) from None
    numbered = [(n, doc) for n, doc in enumerate(docs, 1) if doc is not None]
    if not numbered:
        raise HandFileError(path, None, "holds no deal")
    many = len(docs) > 1
    return [parse_spec(doc, path, n if many else None) for n, doc in numbered]


def parse_deal_text(text: str, path: str = "<string>") -> list[Deal]:
    """All deals of a YAML text, validated."""
    return [spec_to_deal(s) for s in parse_specs(text, path)]


def _read_limited(read: Any, name: str) -> bytes | str:
    """At most :data:`MAX_BYTES` bytes (or characters, from a text stream) from ``read``,
    or an error if there are more."""
    chunks: list[Any] = []
    size = 0
    while True:
        chunk = read(_READ_CHUNK)
        if not chunk:
            return "".join(chunks) if chunks and isinstance(chunks[0], str) else b"".join(chunks)
        size += len(chunk)
        if size > MAX_BYTES:
            raise HandFileError(name, None, f"too large (more than {MAX_BYTES} bytes)")
        chunks.append(chunk)


def _decode(data: bytes | str, name: str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise HandFileError(name, None, "is not UTF-8 text") from None


def _read(path: str | Path) -> str:
    """The text of a hand file: a regular file, or a pipe or FIFO, read up to :data:`MAX_BYTES`.

    Devices, sockets and directories are refused before anything is read.
    """
    name = str(path)
    try:
        kind = os.stat(path).st_mode
        if stat.S_ISDIR(kind):
            raise HandFileError(name, None, "is a directory, not a hand file")
        if not (stat.S_ISREG(kind) or stat.S_ISFIFO(kind)):
            what = "a device" if stat.S_ISCHR(kind) or stat.S_ISBLK(kind) else "not a regular file"
            raise HandFileError(name, None, f"is {what}, not a hand file")
        with open(path, "rb") as f:
            return _decode(_read_limited(f.read, name), name)
    except FileNotFoundError:
        raise HandFileError(name, None, "no such file") from None
    except IsADirectoryError:
        raise HandFileError(name, None, "is a directory, not a hand file") from None
    except OSError as e:
        raise HandFileError(name, None, e.strerror or "cannot be read") from None
    except ValueError as e:
        if isinstance(e, HandFileError):
            raise
        # a NUL character: no file can have that name
        raise HandFileError(name, None, "is not a file name (it holds a NUL character)") from None


def load_specs(path: str | Path) -> list[HandSpec]:
    """The specs of a hand file (for the analyzer: hands may be partial)."""
    return parse_specs(_read(path), str(path))


def load_hand_file(path: str | Path) -> list[Deal]:
    """The validated deals of a hand file."""
    return parse_deal_text(_read(path), str(path))


def load_stream_specs(stream: IO[Any] | None = None, path: str = "<stdin>") -> list[HandSpec]:
    """The specs read from a stream (standard input by default; hands may be partial).

    A binary stream, or a text stream's underlying ``buffer``, is read as UTF-8
    bytes; at most :data:`MAX_BYTES` are read, whatever the stream is.
    """
    stream = stream if stream is not None else sys.stdin
    if stream is None or getattr(stream, "closed", False):
        raise HandFileError(path, None, "standard input is closed: give a FILE")
    source = getattr(stream, "buffer", stream)
    try:
        data = _read_limited(source.read, path)
    except UnicodeDecodeError:
        raise HandFileError(path, None, "is not UTF-8 text") from None
    except OSError as e:   # a closed or unreadable descriptor
        raise HandFileError(path, None, e.strerror or "cannot be read") from None
    except ValueError as e:   # I/O on a closed file
        if isinstance(e, HandFileError):
            raise
        raise HandFileError(path, None, "standard input is closed: give a FILE") from None
    return parse_specs(_decode(data, path), path)


# --------------------------------------------------------------------------
# writing



def deal_to_dict(deal: Deal, *, dealt: bool = False) -> dict[str, Any]:
    """The YAML form of a deal: canonical card names, trumps first.

    Tricks keep their play order; ``doublings`` and ``dealer`` appear only
    when set, ``discard`` only when given; ``dealt``: the dealt form (key ``dealt``).
    """
    hands = dealt_hands(deal) if dealt else deal.hands
    d: dict[str, Any] = {
        "seats": list(deal.seats),
        "declarer": deal.declarer,
        "contract": deal.contract,
        "dealt" if dealt else "hands": {s: cards_text(hands[s]) for s in deal.active_seats if s in hands},
        "dobb": cards_text(deal.dobb),
    }
    if deal.discard is not None:
        d["discard"] = cards_text(deal.discard)
    if deal.tricks:
        d["tricks"] = [" ".join(card_name(c) for c in t) for t in deal.tricks]
    if deal.doublings:
        d["doublings"] = deal.doublings
    if deal.dealer is not None:
        d["dealer"] = deal.dealer
    return d


def spec_to_dict(spec: HandSpec, *, dealt: bool = False) -> dict[str, Any]:
    """The YAML form of a spec, a player's partial view too: ``me`` first, then only the
    keys it gives; a seat whose hand is not known is left out (``dealt``: the dealt form)."""
    d: dict[str, Any] = {}
    if spec.me is not None:
        d["me"] = spec.me
    d["seats"] = list(spec.seats)
    for key in ("declarer", "contract"):
        if getattr(spec, key) is not None:
            d[key] = getattr(spec, key)
    hands = dealt_hands(spec) if dealt else spec.hands
    d["dealt" if dealt else "hands"] = {s: cards_text(hands[s]) for s in spec.seats if s in hands}
    for key in ("dobb", "discard"):
        if getattr(spec, key) is not None:
            d[key] = cards_text(getattr(spec, key))
    if spec.tricks:
        d["tricks"] = [" ".join(card_name(c) for c in t) for t in spec.tricks]
    if spec.doublings:
        d["doublings"] = spec.doublings
    if spec.dealer is not None:
        d["dealer"] = spec.dealer
    if spec.bids:
        d["bids"] = [{who: bid} for who, bid in spec.bids]
    if spec.must is not None:
        d["must"] = spec.must
    return d


class _Dumper(yaml.SafeDumper):
    """Block style, except the seat list, which reads best on one line."""


class _FlowList(list[str]):
    pass


_Dumper.add_representer(
    _FlowList, lambda dumper, data: dumper.represent_sequence(
        "tag:yaml.org,2002:seq", data, flow_style=True))


def dump_deals_yaml(deals: Iterable[Deal], *, dealt: bool = False) -> str:
    """Deals as a YAML hand file, documents separated by ``---`` (``dealt``: in the dealt form)."""
    docs = []
    for deal in deals:
        d = deal_to_dict(deal, dealt=dealt)
        d["seats"] = _FlowList(d["seats"])
        docs.append(d)
    return yaml.dump_all(docs, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                         default_flow_style=False, width=1000)


def dump_deal_yaml(deal: Deal, *, dealt: bool = False) -> str:
    """One deal as a YAML document (``dealt``: in the dealt form)."""
    return dump_deals_yaml([deal], dealt=dealt)


def dump_spec_yaml(spec: HandSpec, *, dealt: bool = False) -> str:
    """One spec (a player's view too) as a YAML document (``dealt``: in the dealt form)."""
    d = spec_to_dict(spec, dealt=dealt)
    d["seats"] = _FlowList(d["seats"])
    return yaml.dump(d, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=1000)
