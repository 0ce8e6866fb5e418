"""Tests of dobbm_solver.notation: the one-line deal notation."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import oracle_deals
from hypothesis import given, settings
from hypothesis import strategies as st
from randdeals import random_deal

from dobbm_solver.cards import (
    cardset,
    parse_cards,
)
from dobbm_solver.deal import Deal, validate
from dobbm_solver.handfile import load_hand_file
from dobbm_solver.notation import (
    KEYWORDS,
    NotationError,
    format_deal_line,
    parse_deal_line,
    parse_spec_line,
)

REPO = Path(__file__).resolve().parents[1]

LINE = ("dobbm Bert | Anna: EK L10 L6 L7 L9 LA LU SO | Bert: E6 E7 EA H6 H8 HA S7 SA"
        " | Cora: EU H10 H7 HO LK LO S8 SK | Dave: E8 E9 H9 HK HU L8 S10 SU"
        " | dobb: EO E6 E10 S7 | discard: E10 EO S6 S9")
CANONICAL = ("dobbm Bert | Anna: EK LA L10 LU L9 L7 L6 SO | Bert: HA H8 H6 EA E7 E6 SA S7"
             " | Cora: H10 HO H7 EU LK LO SK S8 | Dave: HK HU H9 E9 E8 L8 S10 SU"
             " | dobb: E10 EO E6 S7 | discard: E10 EO S9 S6")


def error_of(line: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse_deal_line(line)
    return info.value


# --------------------------------------------------------------------------
# good input


def test_parse_and_canonical_form() -> None:
    deal = parse_deal_line(LINE)
    assert deal.seats == ("Anna", "Bert", "Cora", "Dave")
    assert deal.declarer == "Bert" and deal.contract == "dobbm"
    assert deal.hands["Bert"] == cardset(parse_cards("HA H8 H6 EA E7 E6 SA S7"))
    assert format_deal_line(deal) == CANONICAL
    assert parse_deal_line(CANONICAL) == deal


def test_lenient_input() -> None:
    loose = LINE.replace("dobbm Bert", "  DOBBM   Bert").replace(" | ", "|").replace("dobb:", "dobb :")
    loose = loose.replace("EK L10", "ek gz")
    assert parse_deal_line(loose) == parse_deal_line(LINE)


@pytest.mark.parametrize("name", ["example.yaml", "midplay.yaml", "discard_study.yaml", "five_players.yaml"])
def test_example_files_round_trip(name: str) -> None:
    [deal] = load_hand_file(REPO / "hands" / name)
    line = format_deal_line(deal)
    assert "\n" not in line
    assert parse_deal_line(line) == deal


def test_five_seats_dealer_is_out() -> None:
    [deal] = load_hand_file(REPO / "hands" / "five_players.yaml")
    line = format_deal_line(deal)
    assert "Eve: out" in line and "dealer:" not in line
    # the dealer may also be given by keyword, with an empty hand
    alt = line.replace("Eve: out", "Eve: -") + " | dealer: Eve"
    assert parse_deal_line(alt) == deal


def test_four_seat_dealer_keyword() -> None:
    [deal] = load_hand_file(REPO / "hands" / "example.yaml")
    assert format_deal_line(deal).endswith(" | dealer: Anna")


def test_midplay_tricks() -> None:
    [deal] = load_hand_file(REPO / "hands" / "midplay.yaml")
    line = format_deal_line(deal)
    assert "| tricks: HA H6 E7 E8, HK H9 E9 E6, SA S6 SO S8, SK S10" in line


def test_empty_hands_after_the_last_trick() -> None:
    rng = random.Random(3)
    while True:
        deal = random_deal(rng)
        if len(deal.tricks) == 8 and len(deal.tricks[-1]) == 4:
            break
    line = format_deal_line(deal)
    assert ": - |" in line
    assert parse_deal_line(line) == deal


def test_partial_spec_for_the_analyzer() -> None:
    spec = parse_spec_line("dobbm Bert | Anna: ? | Bert: HA HK | Cora: ? | Dave: ?"
                           " | me: Bert | bids: Anna pass, Bert Dobbm | must: yes")
    assert spec.seats == ("Anna", "Bert", "Cora", "Dave")
    assert list(spec.hands) == ["Bert"] and spec.me == "Bert" and spec.must is True
    assert spec.bids == (("Anna", "pass"), ("Bert", "dobbm"))


def test_analyzer_keys_are_dropped_by_parse_deal_line() -> None:
    assert parse_deal_line(LINE + " | me: Anna | must: no") == parse_deal_line(LINE)


# --------------------------------------------------------------------------
# round trips


def test_round_trip_oracle() -> None:
    for n, deal in enumerate(oracle_deals()):
        line = format_deal_line(deal)
        assert parse_deal_line(line) == deal, n
        assert format_deal_line(parse_deal_line(line)) == line, n


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_round_trip_random(seed: int) -> None:
    deal = random_deal(random.Random(seed))
    line = format_deal_line(deal)
    assert parse_deal_line(line) == deal
    assert format_deal_line(parse_deal_line(line)) == line


# --------------------------------------------------------------------------
# bad input: each error names its segment


@pytest.mark.parametrize("line, segment, words", [
    ("", "line", "empty"),
    (LINE.replace("dobbm Bert", "dobbm"), "head", "CONTRACT DECLARER"),
    (LINE.replace("dobbm Bert", "bettel Bert"), "head", "dobbm | solo"),
    (LINE.replace("dobbm Bert", "dobbm Zed"), "head", "'Zed' is not a seat"),
    (LINE.replace("SO |", "XY |"), "Anna", "unknown card 'XY'"),
    (LINE.replace("Anna: EK", "Anna: EK EK"), "Anna", "EK is listed twice"),
    (LINE.replace("Dave: E8", "Dave: E8 EK"), "Dave", "EK is also in Anna's hand"),
    (LINE.replace("Dave: E8", "Dave: E8 SK").replace("Cora: EU H10 H7 HO LK LO S8 SK",
                                                     "Cora: EU H10 H7 HO LK LO S8"),
     "Cora", "holds 7 cards, should hold 8"),
    (LINE.replace(" SO |", " |"), "seats", "cards missing: SO"),
    (LINE.replace("| Dave: E8 E9 H9 HK HU L8 S10 SU", ""), "seats", "need 4 seats"),
    (LINE.replace("Dave: E8 E9 H9 HK HU L8 S10 SU", "Dave: ?"), "seats", "no hand for Dave"),
    (LINE.replace("Anna:", "Bert:"), "Bert", "seat given twice"),
    (LINE + " | dobb: E6", "dobb", "given twice"),
    (LINE + " |", "#8", "empty segment"),
    (LINE.replace("| Dave", "Dave"), "Cora", "a | missing?"),
    (LINE.replace("| Dave:", "Dave"), "seats", "need 4 seats"),
    (LINE.replace("| dobb:", "| dobb"), "dobb EO E6 E10 S7", "NAME: VALUE"),
    (LINE.replace("dobb: EO E6 E10 S7", "dobb: EO E6 E10"), "dobb", "4 cards"),
    (LINE.replace("dobbm Bert", "solo Bert"), "discard", "a Solo has no lay-away"),
    (LINE.replace("discard: E10 EO S6 S9", "discard: EA SA E10 EO")
         .replace("Bert: E6 E7 EA H6 H8 HA S7 SA", "Bert: E6 E7 S6 H6 H8 HA S7 S9"),
     "discard", "Sau rule"),
    (LINE + " | tricks: S7 SK S10 SO, E8", "tricks", "S7 is also in Bert's hand"),
    (LINE.replace("Bert: E6 E7 EA", "Bert: E7 EA").replace("Cora: EU H10 H7 HO", "Cora: EU H10 H7")
     + " | tricks: E6 HO", "tricks", "trick 1: Cora plays HO, a revoke"),
    (LINE + " | doublings: x", "doublings", "whole number"),
    (LINE + " | doublings: ²", "doublings", "whole number"),          # a digit, but no number
    (LINE + " | doublings: " + "9" * 5000, "doublings", "whole number"),   # too long to convert
    (LINE + " | dealer: Zed", "dealer", "not a seat"),
    (LINE + " | me: Zed", "me", "not a seat"),
    (LINE + " | must: perhaps", "must", "yes or no"),
    (LINE + " | bids: Anna", "bids", "SEAT BID"),
    (LINE + " | bids: Anna double", "bids", "pass | dobbm | solo"),
    (LINE.replace("Dave:", "Dave Smith:"), "Dave Smith", "bad seat name"),
    (LINE.replace("Dave:", "Me:"), "Me", "keyword"),
    (LINE.replace("Dave:", "Bids:"), "Bids", "keyword"),
    (LINE.replace("Dave: E8 E9 H9 HK HU L8 S10 SU", "Dave: out"), "Dave", "five seats"),
    (LINE.replace("dobb:", "DOBB:"), "DOBB", "keyword"),
    (LINE + " | Eve: out | Fritz: out", "Fritz", "only the dealer"),
    (LINE + " | Eve: out | dealer: Anna", "dealer", "Eve sits out"),
])
def test_bad_lines(line: str, segment: str, words: str) -> None:
    e = error_of(line)
    assert e.segment == segment, str(e)
    assert words in str(e), str(e)
    assert str(e).startswith(f"segment {segment!r}: ")


def test_keyword_seat_cannot_be_formatted() -> None:
    deal = parse_deal_line(LINE)
    hands = dict(deal.hands)
    hands["dobb"] = hands.pop("Dave")
    odd = Deal(seats=("Anna", "Bert", "Cora", "dobb"), declarer=deal.declarer, contract=deal.contract, hands=hands,
               dobb=deal.dobb, discard=deal.discard)
    validate(odd)
    with pytest.raises(NotationError, match="keyword"):
        format_deal_line(odd)


def test_keywords() -> None:
    assert set(KEYWORDS) == {"dobb", "discard", "tricks", "doublings", "dealer", "me", "bids", "must", "seats"}
    assert issubclass(NotationError, ValueError)


# --------------------------------------------------------------------------
# one rule for seat names, one meaning for numbers, in YAML and in the notation

import json  # noqa: E402

from dobbm_solver.deal import MAX_DOUBLINGS  # noqa: E402
from dobbm_solver.handfile import (  # noqa: E402
    RESERVED_NAMES,
    HandFileError,
    dump_deal_yaml,
    is_seat_name,
    parse_deal_text,
)

EXAMPLE = load_hand_file(REPO / "hands" / "example.yaml")[0]


def _renamed(deal: Deal, old: str, new: str) -> Deal:
    ren = {s: (new if s == old else s) for s in deal.seats}
    return replace(deal, seats=tuple(ren[s] for s in deal.seats), declarer=ren[deal.declarer],
                   hands={ren[s]: cs for s, cs in deal.hands.items()},
                   dealer=None if deal.dealer is None else ren[deal.dealer])


def _yaml_with_seat(name: str) -> str:
    text = dump_deal_yaml(EXAMPLE)
    return "\n".join(line.replace("Dave", json.dumps(name)) if "Dave" in line else line
                     for line in text.splitlines()) + "\n"


SEAT_TEXT = st.one_of(
    st.sampled_from(RESERVED_NAMES).flatmap(
        lambda w: st.lists(st.booleans(), min_size=len(w), max_size=len(w)).map(
            lambda ups: "".join(c.upper() if u else c for c, u in zip(w, ups)))),
    # (the notation drops spaces around a segment's name, so none there)
    st.text(st.sampled_from(list("AaBbDdEe-?|:, ö\t")), min_size=1, max_size=8).filter(
        lambda t: t == t.strip()),
    st.sampled_from(["Dave", "dave", "anna", "Eve", "Out", "?", "-"]),
)


@given(SEAT_TEXT)
@settings(max_examples=200, deadline=None)
def test_one_seat_name_rule_in_yaml_and_notation(name: str) -> None:
    def accepted(parse, text) -> bool:
        try:
            parse(text)
        except ValueError as e:
            assert "\n" not in str(e)
            return False
        return True

    in_yaml = accepted(lambda t: parse_deal_text(t, "t.yaml"), _yaml_with_seat(name))
    line = format_deal_line(EXAMPLE).replace("Dave", name)
    in_line = accepted(parse_deal_line, line)
    clashes = name.casefold() in (s.casefold() for s in EXAMPLE.seats if s != "Dave")
    assert in_yaml == (is_seat_name(name) and not clashes)
    assert in_line == in_yaml, (name, line)
    if name.lower() in RESERVED_NAMES:
        assert not in_yaml


@pytest.mark.parametrize("word", RESERVED_NAMES)
def test_keyword_seat_names_are_one_clear_error(word: str) -> None:
    for name in (word, word.upper(), word.capitalize()):
        with pytest.raises(HandFileError, match="cannot name a seat: it is a keyword"):
            parse_deal_text(_yaml_with_seat(name), "t.yaml")
        # a segment keyword in lower case is that keyword in the notation, so the line is
        # wrong in another way ("given twice"); in any other case it is this error
        line = format_deal_line(EXAMPLE).replace("Dave", name)
        if name in KEYWORDS:
            with pytest.raises(NotationError):
                parse_deal_line(line)
        else:
            with pytest.raises(NotationError, match="cannot name a seat: it is a keyword"):
                parse_deal_line(line)


@given(st.lists(st.booleans(), min_size=12, max_size=12))
@settings(max_examples=60, deadline=None)
def test_seat_references_in_another_case_name_that_seat(flips: list[bool]) -> None:
    """Cards are case-insensitive, so are references to a seat: ``dave`` is ``Dave``."""
    it = iter(flips)

    def recase(name: str) -> str:
        return "".join(c.swapcase() if next(it, False) else c for c in name)

    deal = EXAMPLE
    text = dump_deal_yaml(deal)
    text = text.replace(f"declarer: {deal.declarer}", f"declarer: {recase(deal.declarer)}")
    text = text.replace(f"dealer: {deal.dealer}", f"dealer: {recase(deal.dealer)}")
    for s in deal.seats:
        text = text.replace(f"  {s}: ", f"  {recase(s)}: ")
    assert parse_deal_text(text, "t.yaml") == [deal]
    line = format_deal_line(deal).replace(f"{deal.contract} {deal.declarer} |",
                                          f"{deal.contract} {deal.declarer.lower()} |")
    assert parse_deal_line(line) == deal


def test_seats_that_differ_only_in_case_are_one_seat_named_twice() -> None:
    with pytest.raises(HandFileError, match="named twice"):
        parse_deal_text(dump_deal_yaml(_renamed(EXAMPLE, "Dave", "anna")), "t.yaml")


@given(st.text(st.characters(whitelist_categories=["Nd"]), min_size=1, max_size=4).filter(
    lambda t: not t.isascii()))
@settings(max_examples=60, deadline=None)
def test_only_ascii_digits_are_numbers(digits: str) -> None:
    with pytest.raises(NotationError, match=f"must be a whole number from 0 to {MAX_DOUBLINGS}"):
        parse_deal_line(format_deal_line(EXAMPLE) + f" | doublings: {digits}")
    with pytest.raises(HandFileError, match=f"must be a whole number from 0 to {MAX_DOUBLINGS}"):
        parse_deal_text(dump_deal_yaml(EXAMPLE) + f"doublings: {digits}\n", "t.yaml")


@given(st.integers(min_value=-5, max_value=10 ** 40))
@settings(max_examples=80, deadline=None)
def test_doublings_bound_is_the_same_in_yaml_and_notation(n: int) -> None:
    ok = 0 <= n <= MAX_DOUBLINGS
    for parse in (lambda: parse_deal_line(format_deal_line(EXAMPLE) + f" | doublings: {n}"),
                  lambda: parse_deal_text(dump_deal_yaml(EXAMPLE) + f"doublings: {n}\n", "t.yaml")[0]):
        if ok:
            assert parse().doublings == n
        else:
            with pytest.raises(ValueError, match=f"doublings.*must be a whole number from 0 to {MAX_DOUBLINGS}"):
                parse()


def test_a_view_line_needs_no_head_but_a_deal_does() -> None:
    spec = parse_spec_line("me: Bert | Anna: ? | Bert: HA H10 HK EA E9 L8 L7 S6 | Cora: ? | Dave: -")
    assert spec.declarer is None and spec.me == "Bert" and spec.hands["Dave"] == 0 and "Anna" not in spec.hands
    with pytest.raises(NotationError, match="segment 'head': missing"):
        parse_deal_line(format_deal_line(EXAMPLE).split("|", 1)[1])


def test_line_that_is_not_utf8_is_refused() -> None:
    # bytes of a command line that are not UTF-8 reach Python as lone surrogates
    line = b"dobbm An\xffna | An\xffna: HA H10".decode("utf-8", "surrogateescape")
    with pytest.raises(NotationError, match="not valid UTF-8"):
        parse_spec_line(line)
