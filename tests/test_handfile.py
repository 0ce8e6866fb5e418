"""Tests of dobbm_solver.handfile: YAML hand files in and out."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
import yaml
from helpers import oracle_deals
from hypothesis import given, settings
from hypothesis import strategies as st
from randdeals import random_deal

from dobbm_solver.cards import (
    cardset,
    parse_cards,
)
from dobbm_solver.deal import validate
from dobbm_solver.handfile import (
    HandFileError,
    HandSpec,
    deal_to_dict,
    dump_deal_yaml,
    dump_deals_yaml,
    load_hand_file,
    load_specs,
    load_stream_specs,
    parse_deal_text,
    parse_spec,
    parse_specs,
    spec_to_deal,
)

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = ("example.yaml", "midplay.yaml", "discard_study.yaml", "five_players.yaml")

GOOD = """\
seats: [Anna, Bert, Cora, Dave]
declarer: Bert
contract: dobbm
hands:
  Anna: EK L10 L6 L7 L9 LA LU SO
  Bert: [E6, E7, EA, H6, H8, HA, S7, SA]
  Cora: EU H10 H7 HO LK LO S8 SK
  Dave: E8 E9 H9 HK HU L8 S10 SU
dobb: EO E6 E10 S7
discard: E10 EO S6 S9
"""


def good(**changes: object) -> dict:
    """The GOOD document as a dict, with keys replaced (None deletes a key)."""
    d = yaml.safe_load(GOOD)
    for k, v in changes.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return d


def error_of(doc: object, path: str = "hands/x.yaml") -> HandFileError:
    text = doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False)
    with pytest.raises(HandFileError) as info:
        parse_deal_text(text, path)
    return info.value


# --------------------------------------------------------------------------
# good input


def test_good_document() -> None:
    [deal] = parse_deal_text(GOOD)
    assert deal.seats == ("Anna", "Bert", "Cora", "Dave")
    assert deal.declarer == "Bert" and deal.contract == "dobbm"
    assert deal.hands["Bert"] == cardset(parse_cards("E6 E7 EA H6 H8 HA S7 SA"))
    assert deal.discard == cardset(parse_cards("E10 EO S6 S9"))
    assert deal.tricks == () and deal.doublings == 0 and deal.dealer is None


def test_aliases_case_and_seats_from_hands() -> None:
    d = good(seats=None, contract="DOBBM")
    d["hands"]["Anna"] = "ek gz l6 l7 l9 la lu so"
    [deal] = parse_deal_text(yaml.safe_dump(d, sort_keys=False))
    assert deal.seats == ("Anna", "Bert", "Cora", "Dave")
    assert deal.contract == "dobbm"
    assert deal == parse_deal_text(GOOD)[0]


def test_null_optional_keys_are_absent() -> None:
    [deal] = parse_deal_text(GOOD + "tricks: []\ndoublings:\ndealer:\n")
    assert deal == parse_deal_text(GOOD)[0]


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_files_validate(name: str) -> None:
    deals = load_hand_file(REPO / "hands" / name)
    assert len(deals) == 1
    validate(deals[0])


def test_example_kinds() -> None:
    ex, mid, study, five = (load_hand_file(REPO / "hands" / n)[0] for n in EXAMPLES)
    assert ex.contract == "dobbm" and ex.discard is not None and not ex.tricks
    assert mid.contract == "solo" and len(mid.tricks) == 4 and len(mid.tricks[-1]) < 4
    assert study.needs_discard
    assert len(five.seats) == 5 and five.dealer not in five.hands


def test_partial_spec_for_the_analyzer() -> None:
    text = """\
seats: [Anna, Bert, Cora, Dave]
me: Cora
hands:
  Cora: EU H10 H7 HO LK LO S8 SK
bids:
  - {Anna: pass}
  - {Bert: DOBBM}
must: false
"""
    [spec] = parse_specs(text, "a.yaml")
    assert spec.me == "Cora" and spec.must is False
    assert spec.bids == (("Anna", "pass"), ("Bert", "dobbm"))
    assert spec.declarer is None and spec.contract is None and spec.dobb is None
    assert list(spec.hands) == ["Cora"]
    with pytest.raises(HandFileError) as info:
        spec_to_deal(spec)
    assert str(info.value) == "a.yaml: declarer: missing"


def test_parse_spec_from_dict() -> None:
    spec = parse_spec(good(), "x.yaml")
    assert isinstance(spec, HandSpec) and spec.path == "x.yaml"
    assert spec_to_deal(spec) == parse_deal_text(GOOD)[0]


def test_five_seats_dealer_hand_may_be_listed_empty() -> None:
    d = good(seats=["Anna", "Bert", "Cora", "Dave", "Eve"], dealer="Eve")
    d["hands"]["Eve"] = []
    [deal] = parse_deal_text(yaml.safe_dump(d))
    assert "Eve" not in deal.hands and deal.active_seats == ("Anna", "Bert", "Cora", "Dave")


def test_multi_document_file(tmp_path: Path) -> None:
    f = tmp_path / "many.yaml"
    f.write_text(GOOD + "---\n" + GOOD + "---\n")
    deals = load_hand_file(f)
    assert len(deals) == 2 and deals[0] == deals[1]
    assert [s.doc for s in load_specs(f)] == [1, 2]


def test_stream_is_stdin() -> None:
    assert load_stream_specs(io.StringIO(GOOD)) == parse_specs(GOOD)
    with pytest.raises(HandFileError) as info:
        load_stream_specs(io.StringIO(GOOD.replace("dobb:", "dob:")))
    assert str(info.value).startswith("<stdin>: dob: unknown key")


def test_stream_that_is_not_utf8() -> None:
    """Bytes that do not decode: raised by the stream, or escaped as lone surrogates."""
    strict = io.TextIOWrapper(io.BytesIO(b"\xff\xfe hands:"), encoding="utf-8", errors="strict")
    escaped = io.TextIOWrapper(io.BytesIO(b"\xff\xfe hands:"), encoding="utf-8", errors="surrogateescape")
    for stream in (strict, escaped):
        with pytest.raises(HandFileError) as info:
            load_stream_specs(stream, "<stdin>")
        assert str(info.value) == "<stdin>: is not UTF-8 text"


@pytest.mark.parametrize("text", [
    "hands: {Anna: 2001-13-45}",          # an implied timestamp that is no date
    "hands: {Anna: !!int 12x}",
    "hands: {Anna: !!float abc}",
    "hands: {Anna: !!timestamp abc}",
    "hands: {Anna: !!int '²'}",
])
def test_yaml_scalar_that_does_not_convert(text: str) -> None:
    with pytest.raises(HandFileError) as info:
        parse_specs(text, "x.yaml")
    assert re.match(r"x\.yaml: line 1, column \d+: not valid YAML: '.*' does not read as \w+$", str(info.value))


@pytest.mark.parametrize("digits", [11, 4301, 5000, 20000])
def test_a_number_too_long_for_python_is_a_clear_doublings_error(digits: int) -> None:
    with pytest.raises(HandFileError) as info:
        parse_specs("seats: [A, B, C, D]\nhands: {A: ''}\ndoublings: " + "9" * digits, "x.yaml")
    msg = str(info.value)
    assert msg.startswith("x.yaml: doublings: must be a whole number from 0 to ") and len(msg) < 200


def test_file_name_with_a_nul() -> None:
    with pytest.raises(HandFileError, match="NUL"):
        load_specs("a\0b.yaml")


# --------------------------------------------------------------------------
# round trips


def test_deal_to_dict_is_canonical() -> None:
    [deal] = parse_deal_text(GOOD)
    d = deal_to_dict(deal)
    assert d["hands"]["Bert"] == "HA H8 H6 EA E7 E6 SA S7"   # trumps first, high first
    assert d["dobb"] == "E10 EO E6 S7"
    assert "tricks" not in d and "doublings" not in d and "dealer" not in d


def test_yaml_round_trip_oracle() -> None:
    for deal in oracle_deals():
        text = dump_deal_yaml(deal)
        assert parse_deal_text(text) == [deal]
        assert dump_deal_yaml(parse_deal_text(text)[0]) == text


def test_dump_many_round_trip() -> None:
    rng = random.Random(7)
    deals = [random_deal(rng) for _ in range(20)]
    assert parse_deal_text(dump_deals_yaml(deals)) == deals


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_yaml_round_trip_random(seed: int) -> None:
    deal = random_deal(random.Random(seed))
    text = dump_deal_yaml(deal)
    assert parse_deal_text(text) == [deal]
    assert dump_deal_yaml(parse_deal_text(text)[0]) == text


# --------------------------------------------------------------------------
# bad input: each error names its key


def test_message_format() -> None:
    d = good()
    d["hands"]["Bert"] = "E6 E7 EA H6 H8 HA S7 XY"
    assert str(error_of(d)) == "hands/x.yaml: hands.Bert: unknown card 'XY'"


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(HandFileError) as info:
        load_hand_file(missing)
    assert str(info.value) == f"{missing}: no such file"
    with pytest.raises(HandFileError, match="is a directory"):
        load_hand_file(tmp_path)


def test_yaml_syntax_error_one_line() -> None:
    e = error_of("seats: [Anna, Bert\ndeclarer: Bert\n")
    assert "line 2" in str(e) and "not valid YAML" in str(e)
    assert "\n" not in str(e)


def test_empty_file() -> None:
    assert "holds no deal" in str(error_of("# nothing\n"))


@pytest.mark.parametrize("doc", ["- a\n- b\n", "just text\n", "42\n"])
def test_document_not_a_mapping(doc: str) -> None:
    e = error_of(doc)
    assert e.key == "document" and "mapping" in str(e)


def test_multi_document_error_names_document(tmp_path: Path) -> None:
    f = tmp_path / "x.yaml"
    f.write_text(GOOD + "---\n" + GOOD + "---\n" + yaml.safe_dump(good(dobb="EO E6 E10")))
    with pytest.raises(HandFileError) as info:
        load_hand_file(f)
    assert info.value.doc == 3 and info.value.key == "dobb"
    assert str(info.value) == f"{f}[3]: dobb: must hold 4 cards, not 3"


def test_revoke_in_tricks() -> None:
    d = good()
    # Bert leads E6; Cora holds EU but plays HO: a revoke
    d["tricks"] = ["E6 HO"]
    d["hands"]["Bert"] = "E7 EA H6 H8 HA S7 SA"
    d["hands"]["Cora"] = "EU H10 H7 LK LO S8 SK"
    e = error_of(d)
    assert e.key == "tricks"
    assert str(e).startswith("hands/x.yaml: tricks: trick 1: Cora plays HO, a revoke")


@pytest.mark.parametrize("changes, key, words", [
    ({"colour": "red"}, "colour", "unknown key"),
    ({"hands": None}, "hands", "missing"),
    ({"declarer": None}, "declarer", "missing"),
    ({"contract": None}, "contract", "missing"),
    ({"dobb": None}, "dobb", "missing"),
    ({"declarer": "Zed"}, "declarer", "not a seat"),
    ({"contract": "bettel"}, "contract", "dobbm | solo"),
    ({"contract": 3}, "contract", "must be text"),
    ({"seats": "Anna Bert Cora"}, "seats", "need 4 seats"),
    ({"seats": ["Anna", "Bert", "Cora", "Anna"]}, "seats", "twice"),
    ({"seats": {"Anna": 1}}, "seats", "list of seat names"),
    ({"seats": ["Anna", "Bert", "Cora", True]}, "seats", "quote it"),
    ({"seats": ["Anna", "Bert", "Cora", "Da ve"]}, "seats", "bad seat name"),
    ({"seats": ["Anna", "Bert", "Cora", "Dave", "Eve"]}, "dealer", "five seats"),
    ({"dealer": "Zed"}, "dealer", "not a seat"),
    ({"hands": "Anna"}, "hands", "must map each seat"),
    ({"dobb": "EO E6 E10"}, "dobb", "4 cards"),
    ({"dobb": 7}, "dobb", "list of cards"),
    ({"discard": "E10 EO S6 S9 S8"}, "discard", ""),
    ({"contract": "solo"}, "discard", "a Solo has no lay-away"),
    ({"tricks": "HA H6"}, "tricks", "list of tricks"),
    ({"tricks": ["S7 ZZ"]}, "tricks", "trick 1: unknown card 'ZZ'"),
    ({"doublings": "two"}, "doublings", "whole number"),
    ({"doublings": -1}, "doublings", "whole number"),
    ({"doublings": True}, "doublings", "whole number"),
    ({"me": "Zed"}, "me", "not a seat"),
    ({"must": "maybe"}, "must", "true or false"),
    ({"bids": {"Anna": "pass"}}, "bids", "must be a list"),
    ({"bids": [{"Anna": "pass", "Bert": "solo"}]}, "bids", "bid 1"),
    ({"bids": [{"Anna": "pass"}, {"Zed": "pass"}]}, "bids", "bid 2: 'Zed' is not a seat"),
    ({"bids": [{"Anna": "double"}]}, "bids", "pass | dobbm | solo"),
])
def test_bad_keys(changes: dict, key: str, words: str) -> None:
    e = error_of(good(**changes))
    assert e.key == key, str(e)
    assert f"hands/x.yaml: {key}: " in str(e) and words in str(e)


def test_hand_seat_not_seated() -> None:
    d = good()
    d["hands"]["Zed"] = d["hands"].pop("Dave")
    e = error_of(d)
    assert e.key == "hands.Zed" and "'Zed' is not a seat" in str(e)


def test_hand_missing_for_a_seat() -> None:
    d = good()
    del d["hands"]["Dave"]
    e = error_of(d)
    assert e.key == "hands" and "no hand for Dave" in str(e)


def test_card_listed_twice_in_one_hand() -> None:
    d = good()
    d["hands"]["Anna"] = "EK EK L6 L7 L9 LA LU SO"
    e = error_of(d)
    assert e.key == "hands.Anna" and "EK is listed twice" in str(e)


def test_card_in_two_hands() -> None:
    d = good()
    d["hands"]["Anna"] = "EK L10 L6 L7 L9 LA LU HA"   # HA is Bert's; SO goes missing
    e = error_of(d)
    assert e.key.startswith("hands.") and "HA is also in hands." in str(e)


def test_card_missing() -> None:
    d = good()
    d["hands"]["Anna"] = "EK L10 L6 L7 L9 LA LU"
    e = error_of(d)
    assert e.key == "hands" and "cards missing: SO" in str(e)


def test_wrong_hand_size() -> None:
    d = good()
    d["hands"]["Anna"] = "EK L10 L6 L7 L9 LA LU SO SK"
    d["hands"]["Cora"] = "EU H10 H7 HO LK LO S8"
    e = error_of(d)
    assert e.key == "hands.Anna" and "holds 9 cards, should hold 8" in str(e)


def test_illegal_discard_sau_rule() -> None:
    d = good()
    d["hands"]["Bert"] = "E6 E7 EO H6 H8 HA S7 S9"
    d["discard"] = "E10 EA SA S6"
    e = error_of(d)
    assert e.key == "discard" and "Sau rule" in str(e)


def test_dealer_sitting_out_holds_cards() -> None:
    d = good(seats=["Anna", "Bert", "Cora", "Dave", "Eve"], dealer="Eve")
    d["hands"]["Eve"] = "HA"
    e = error_of(d)
    assert e.key == "hands.Eve" and "sits out" in str(e)


def test_errors_are_value_errors() -> None:
    assert issubclass(HandFileError, ValueError)


@pytest.mark.parametrize("doublings", [-1, 11, 1100, 99999999999, True, 2.0])
def test_a_deal_cannot_hold_doublings_out_of_range(doublings: object) -> None:
    from dobbm_solver.deal import MAX_DOUBLINGS, Deal, DealError

    with pytest.raises(DealError, match=f"^doublings: must be a whole number from 0 to {MAX_DOUBLINGS}"):
        Deal(seats=("A", "B", "C", "D"), declarer="A", contract="solo", hands={}, dobb=0, doublings=doublings)  # type: ignore[arg-type]
