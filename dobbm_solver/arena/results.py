"""What an arena deal gives: each table's result and the deal's row, typed, with their JSON.

* :class:`TableKey` -- which table of a deal's duplicate plan (``base``,
  ``A@k``, ``A-d@k``; see :mod:`.duplicate`);
* :class:`TableResult` -- one table's play: the bids, the contract, the
  lay-away, the doublings, the tricks and each seat's units;
* :class:`DealRow` -- one deal: its cards and every table's result.

``to_json`` gives the JSON object the result file holds (the one place the
cards become text); ``from_json`` reads one back, checking every field
(:class:`RowError` names the field).  A deal's row gives each table that
was played to a game its ``line`` too: the deal as dealt and its play in
the one-line notation (:meth:`DealRow.line`), which ``dobbm review`` and
``dobbm explore`` replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, TypeVar

from ..cards import Card, CardError, CardSet, card_name, cards_text, cardset, parse_cards
from ..echo import brief
from ..errors import DobbmError
from ..notation import format_deal_line
from ..rules import CONTRACTS
from .strategies import DECISIONS

BIDS: tuple[str, ...] = ("pass", "dobbm", "solo")
T = TypeVar("T")


class RowError(DobbmError):
    """A stored row that is not one the arena writes; ``key`` names the field."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True, order=True)
class TableKey:
    """A table of one deal: ``base`` (``seat`` None: B in every seat), ``A@k`` (A at seat
    ``k``, B elsewhere) or ``A-d@k`` (at seat ``k`` A with B's strategy for decision
    ``swapped``)."""

    seat: int | None = None
    swapped: str | None = None

    @property
    def name(self) -> str:
        """The table's name in a result file."""
        if self.seat is None:
            return "base"
        return f"A@{self.seat}" if self.swapped is None else f"A-{self.swapped}@{self.seat}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, name: str) -> TableKey:
        """The key of a table named ``name``; :class:`RowError` if it names none."""
        if name == "base":
            return BASE
        head, at, k = name.partition("@")
        if at and k in ("0", "1", "2", "3"):
            if head == "A":
                return cls(int(k))
            if head.startswith("A-") and head[2:] in DECISIONS:
                return cls(int(k), head[2:])
        raise RowError("tables", f"no table {brief(name)}")


#: The all-B table of every deal.
BASE = TableKey()


@dataclass(frozen=True, kw_only=True)
class TableResult:
    """One table's play of a deal.  All pass: no declarer, every seat's units 0.

    ``points`` are the declarer's; ``units`` each seat's own settlement (the
    declarer ``3 * units``, each defender ``-units``: the four sum to 0).
    """

    bids: tuple[tuple[str, str], ...]
    declarer: str | None = None
    contract: str | None = None
    discard: CardSet | None = None
    doubled_by: tuple[str, ...] = ()
    doublings: int = 0
    points: int | None = None
    tricks: tuple[tuple[Card, ...], ...] = ()
    units: Mapping[str, int]
    #: with a time budget: each analysis made at the table, (seat, decision, samples used)
    samples: tuple[tuple[str, str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bids": [list(b) for b in self.bids], "declarer": self.declarer,
                               "contract": self.contract,
                               "discard": cards_text(self.discard) if self.discard is not None else None,
                               "doubled_by": list(self.doubled_by), "doublings": self.doublings,
                               "points": self.points,
                               "tricks": [" ".join(card_name(c) for c in t) for t in self.tricks],
                               "units": dict(self.units)}
        if self.samples:
            out["samples"] = [list(u) for u in self.samples]
        return out

    @classmethod
    def from_json(cls, obj: object, seats: tuple[str, ...], key: str) -> TableResult:
        """A table's result as :meth:`to_json` writes it, every field checked (``key``: where)."""
        fields = _fields(obj, key, ("bids", "declarer", "contract", "discard", "doubled_by", "doublings",
                                    "points", "tricks", "units"), optional=("samples",))
        bids = tuple(_bid(b, seats, f"{key}.bids") for b in _list(fields["bids"], f"{key}.bids"))
        declarer = _optional(fields["declarer"], f"{key}.declarer", lambda v, k: _seat(v, seats, k))
        contract = _optional(fields["contract"], f"{key}.contract", lambda v, k: _word(v, CONTRACTS, k))
        discard = _optional(fields["discard"], f"{key}.discard", _read_card_set)
        doubled_by = tuple(_seat(s, seats, f"{key}.doubled_by") for s in _list(fields["doubled_by"],
                                                                               f"{key}.doubled_by"))
        doublings = _whole(fields["doublings"], f"{key}.doublings")
        points = _optional(fields["points"], f"{key}.points", _whole)
        tricks = tuple(tuple(_read_card_list(t, f"{key}.tricks")) for t in _list(fields["tricks"], f"{key}.tricks"))
        raw_units = fields["units"]
        if not isinstance(raw_units, dict):
            raise RowError(f"{key}.units", f"must map each seat to its units, not {brief(raw_units)}")
        units = {s: _whole(raw_units.get(s), f"{key}.units.{s}") for s in seats}
        if set(raw_units) != set(seats):
            raise RowError(f"{key}.units", f"must name the seats {', '.join(seats)}")
        samples = tuple(_used(u, seats, f"{key}.samples") for u in _list(fields.get("samples", []),
                                                                            f"{key}.samples"))
        return cls(bids=bids, declarer=declarer, contract=contract, discard=discard, doubled_by=doubled_by,
                   doublings=doublings, points=points, tricks=tricks, units=units, samples=samples)


@dataclass(frozen=True, kw_only=True)
class DealRow:
    """One arena deal: its index and seed, the cards dealt and every table's result
    (in the order they were played or read)."""

    deal: int
    seed: int
    hands: Mapping[str, CardSet]
    dobb: CardSet
    tables: Mapping[TableKey, TableResult]

    def to_json(self) -> dict[str, Any]:
        """The row as the result file holds it: each table with its ``line`` (see
        :meth:`line`)."""
        return {"deal": self.deal, "seed": self.seed,
                "hands": {s: cards_text(h) for s, h in self.hands.items()},
                "dobb": cards_text(self.dobb),
                "tables": {k.name: {**t.to_json(), "line": self.line(k)} for k, t in self.tables.items()}}

    def line(self, key: TableKey) -> str | None:
        """Table ``key``'s play in the one-line notation, dealt form (each seat's 8 dealt
        cards, the Dobb, the lay-away, the tricks, the doublings and the dealer); None for a
        table thrown in.  The arena's seats are those of ``hands``, its dealer the last."""
        from .replay import table_deal  # (replay builds on this module)
        seats = tuple(self.hands)
        deal = table_deal(self, self.tables[key], seats, seats[-1])
        return None if deal is None else format_deal_line(deal, dealt=True)

    @classmethod
    def from_json(cls, obj: object, seats: tuple[str, ...]) -> DealRow:
        """A row as :meth:`to_json` writes it, every field checked; :class:`RowError` if not."""
        fields = _fields(obj, "row", ("deal", "seed", "hands", "dobb", "tables"))
        deal = _whole(fields["deal"], "deal")
        seed = _whole(fields["seed"], "seed")
        raw_hands = fields["hands"]
        if not isinstance(raw_hands, dict) or set(raw_hands) != set(seats):
            raise RowError("hands", f"must give the cards of {', '.join(seats)}")
        hands = {s: _read_card_set(raw_hands[s], f"hands.{s}") for s in seats}
        dobb = _read_card_set(fields["dobb"], "dobb")
        raw_tables = fields["tables"]
        if not isinstance(raw_tables, dict) or not raw_tables:
            raise RowError("tables", f"must map each table to its result, not {brief(raw_tables)}")
        tables = {TableKey.parse(str(name)): TableResult.from_json(_without_line(t, f"tables.{name}"), seats,
                                                                   f"tables.{name}")
                  for name, t in raw_tables.items()}
        return cls(deal=deal, seed=seed, hands=hands, dobb=dobb, tables=tables)


def _without_line(table: object, key: str) -> object:
    """A table's fields without its ``line`` (written from the others, so the row read back
    must write it again the same: the result file's check)."""
    if not isinstance(table, dict):
        return table
    if "line" not in table:
        raise RowError(f"{key}.line", "missing")
    line = table["line"]
    if line is not None and not isinstance(line, str):
        raise RowError(f"{key}.line", f"must be a deal line or null, not {brief(line)}")
    return {k: v for k, v in table.items() if k != "line"}


# --------------------------------------------------------------------------
# field checks


def _fields(obj: object, key: str, names: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise RowError(key, f"must be a JSON object, not {brief(obj)}")
    for name in names:
        if name not in obj:
            raise RowError(name if key == "row" else f"{key}.{name}", "missing")
    extra = [k for k in obj if k not in names + optional]
    if extra:
        raise RowError(key, f"unknown field {brief(extra[0])}")
    return obj


def _whole(value: object, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RowError(key, f"must be a whole number, not {brief(value)}")
    return value


def _list(value: object, key: str) -> list[Any]:
    if not isinstance(value, list):
        raise RowError(key, f"must be a list, not {brief(value)}")
    return value


def _seat(value: object, seats: tuple[str, ...], key: str) -> str:
    if value not in seats:
        raise RowError(key, f"{brief(value)} is not a seat")
    assert isinstance(value, str)
    return value


def _word(value: object, words: tuple[str, ...], key: str) -> str:
    if value not in words:
        raise RowError(key, f"must be one of {' | '.join(words)}, not {brief(value)}")
    assert isinstance(value, str)
    return value


def _bid(value: object, seats: tuple[str, ...], key: str) -> tuple[str, str]:
    if not isinstance(value, list) or len(value) != 2:
        raise RowError(key, f"each bid must be [SEAT, BID], not {brief(value)}")
    return _seat(value[0], seats, key), _word(value[1], BIDS, key)


def _used(value: object, seats: tuple[str, ...], key: str) -> tuple[str, str, int]:
    if not isinstance(value, list) or len(value) != 3:
        raise RowError(key, f"each entry must be [SEAT, DECISION, SAMPLES], not {brief(value)}")
    n = _whole(value[2], key)
    if n < 1:
        raise RowError(key, f"samples must be 1 or more, not {n}")
    return _seat(value[0], seats, key), _word(value[1], DECISIONS, key), n


def _read_card_list(value: object, key: str) -> list[Card]:
    if not isinstance(value, str):
        raise RowError(key, f"must be card names, not {brief(value)}")
    try:
        return parse_cards(value)
    except CardError as e:
        raise RowError(key, str(e)) from None


def _read_card_set(value: object, key: str) -> CardSet:
    return cardset(_read_card_list(value, key))


def _optional(value: object, key: str, read: Callable[[object, str], T]) -> T | None:
    return None if value is None else read(value, key)
