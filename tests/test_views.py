"""Tests of dobbm_solver.analyzer.checks and .view: what is accepted, and bad input failing cleanly."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from views import BID_PASSED, DISCARD, DOUBLE_DEFENDER, RETOUR, bid_file, error_of, view_of

from dobbm_solver.analyzer import sample_deals
from dobbm_solver.cards import cardset
from dobbm_solver.deal import DealError, validate
from dobbm_solver.dealer import random_deal


def test_bid_view() -> None:
    v = view_of(BID_PASSED, "bid")
    assert v.role == "bidder" and v.order == ("Anna", "Bert", "Cora", "Dave")
    assert v.auction == (("Anna", "pass"),)
    assert v.bid_options() == ("pass", "dobbm", "solo") and v.later_bidders() == ("Cora", "Dave")
    v = view_of(bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: dobbm}\n"), "bid")
    assert v.bid_options() == ("pass", "solo") and v.auction == (("Anna", "dobbm"),)
    v = view_of(bid_file("HA H10 HK EA E9 L8 L7 S6", extra="must: true\n"), "bid")
    assert v.bid_options() == ("dobbm", "solo")
    v = view_of("seats: [Anna, Bert, Cora, Dave]\nme: Bert\nhands:\n  Bert: HA H10 HK EA E9 L8 L7 S6\n", "bid")
    assert v.order is None and v.later_bidders() == ("Cora", "Dave", "Anna")


def test_five_seats() -> None:
    text = ("seats: [Anna, Bert, Cora, Dave, Eve]\ndealer: Eve\nme: Bert\n"
            "hands:\n  Bert: HA H10 HK EA E9 L8 L7 S6\nbids:\n  - {Anna: pass}\n")
    v = view_of(text, "bid")
    assert v.active == ("Anna", "Bert", "Cora", "Dave") and v.order[0] == "Anna"
    for deal in sample_deals(v, 5, seed=2):
        validate(deal)
        assert "Eve" not in deal.hands
    e = error_of(text.replace("me: Bert", "me: Eve"), "bid")
    assert e.key == "me" and "sits this hand out" in e.message


def test_discard_and_double_views() -> None:
    v = view_of(DISCARD, "discard")
    assert v.role == "declarer" and v.declarer == "Dave" and v.contract == "dobbm"
    # Cora dealt: Dave is forehand, so the others passed after his Dobbm
    assert dict(v.auction) == {"Anna": "pass_over", "Bert": "pass_over", "Cora": "pass_over"}
    v = view_of(DOUBLE_DEFENDER, "double")
    assert v.role == "defender" and dict(v.auction) == {
        "Bert": "dobbm", "Dave": "pass_over", "Anna": "pass_over"}
    v = view_of(RETOUR, "double")
    assert v.role == "declarer"


def test_a_solo_over_a_dobbm_is_read_as_such() -> None:
    """The auction's kinds say whether a Solo or a pass came after a Dobbm, also where the
    Solo's bid is only implied by the contract."""
    def doc(bids: str) -> str:
        return ("seats: [Anna, Bert, Cora, Dave]\ndealer: Anna\nme: Dave\ndeclarer: Cora\n"
                "contract: solo\nhands:\n  Dave: HA H10 HK HU E10 EK S9 S7\n" + bids)
    kinds = dict(view_of(doc("bids: [{Bert: dobbm}, {Cora: solo}]\n"), "double").auction)
    assert kinds == {"Bert": "dobbm", "Cora": "solo_over"}
    assert dict(view_of(doc("bids: [{Bert: dobbm}]\n"), "double").auction)["Cora"] == "solo_over"
    kinds = dict(view_of(doc("bids: [{Bert: pass}, {Cora: solo}]\n"), "double").auction)
    assert kinds == {"Bert": "pass", "Cora": "solo"}
    assert dict(view_of(doc(""), "double").auction)["Cora"] == "solo"


BAD = [
    # (command, text, key, words in the message)
    ("bid", "hands:\n  Bert: HA H10 HK EA E9 L8 L7 S6\nseats: [Anna, Bert, Cora, Dave]\n", "me", "missing"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7"), "hands.Bert", "holds 7 cards"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6") + "  Anna: HA\n", "hands.Anna", "HA is also in hands.Bert"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Bert: pass}\n"), "bids", "out of turn"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: pass}\n  - {Cora: pass}\n"), "bids", "out of turn"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: solo}\n"), "bids", "ended with a Solo"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: pass}\n", "must: true\n"), "bids", "must round"),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6") + "declarer: Bert\n", "declarer", "bidding is not over"),
    ("discard", DISCARD.replace("dobb: EA E10 EU L10\n", ""), "dobb", "missing"),
    ("discard", DISCARD.replace("dobb: EA E10 EU L10", "dobb: EA E10 EU"), "dobb", "must hold 4 cards"),
    ("discard", DISCARD.replace("dobb: EA E10 EU L10", "dobb: EA E10 EU H10"), "dobb", "H10 is also in hands.Dave"),
    ("discard", DISCARD + "contract: solo\n", "contract", "Solo"),
    ("discard", DISCARD + "declarer: Anna\n", "declarer", "not me"),
    ("discard", DISCARD + "discard: EA E10 EU L10\n", "discard", "leave it out"),
    ("double", DOUBLE_DEFENDER.replace("declarer: Bert\n", ""), "declarer", "missing"),
    ("double", DOUBLE_DEFENDER + "doublings: 1\n", "doublings", "declarer's turn"),
    ("double", RETOUR.replace("doublings: 1", "doublings: 0"), "doublings", "must be odd"),
    ("double", RETOUR.replace("discard: L7 S6 E7 S8\n", ""), "discard", "missing"),
    ("double", RETOUR.replace("discard: L7 S6 E7 S8", "discard: EA LA E7 S8"), "discard", "Sau rule"),
    ("double", RETOUR.replace("dobb: HO E10 L7 S6", "dobb: HO E10 L7 S9"), "dobb", "S9 from the Dobb is not in your"),
    ("double", DOUBLE_DEFENDER.replace("  - {Bert: dobbm}", "  - {Bert: solo}"), "bids", "ended with the Solo"),
    ("double", DOUBLE_DEFENDER.split("bids:")[0] + "bids:\n  - {Bert: solo}\n", "bids", "contract is dobbm"),
    ("double", DOUBLE_DEFENDER.split("bids:")[0] + "bids:\n  - {Cora: pass}\n", "bids", "out of turn"),
    ("double", DOUBLE_DEFENDER + "tricks:\n  - HA H6 H7 H8\n", "tricks", "before the first card"),
    ("double", DOUBLE_DEFENDER.replace("contract: dobbm", "contract: dobbm\ndobb: HA E6 E7 E8"), "dobb",
     "HA from the Dobb cannot be with Cora"),
]


@pytest.mark.parametrize("command,text,key,words", BAD)
def test_bad_input_fails_cleanly(command: str, text: str, key: str, words: str) -> None:
    e = error_of(text, command)
    assert e.key == key, str(e)
    assert words in e.message, str(e)
    assert str(e).startswith(f"t.yaml: {key}: ")


def test_views_and_validate_share_their_checks() -> None:
    """A view and a whole deal that break the same rule get the same words (deal.check_*)."""
    deal = random_deal(random.Random(1), contract="solo")

    def deal_error(**changes) -> DealError:
        with pytest.raises(DealError) as info:
            validate(replace(deal, **changes))
        return info.value

    play = RETOUR.replace("doublings: 1\n", "")
    e = error_of(play + "tricks:\n  - HA H6\n  - E6 E7 E8 E9\n", "play")
    d = deal_error(tricks=((0, 1), (2, 3, 4, 5)))
    assert (e.key, e.message) == (d.key, d.message)
    assert (d.key, d.message) == ("tricks", "trick 1 has 2 cards; only the last may be unfinished")
    e = error_of(play.replace("dobb: HO E10 L7 S6", "dobb: HO E10 L7"), "play")
    d = deal_error(dobb=cardset([0, 1, 2]))
    assert (e.key, e.message) == (d.key, d.message) == ("dobb", "must hold 4 cards, not 3")
    e = error_of(play.replace("contract: dobbm", "contract: solo"), "play")
    d = deal_error(discard=cardset([0, 1, 2, 3]))
    assert (e.key, e.message) == (d.key, d.message) == ("discard", "a Solo has no lay-away")


# --------------------------------------------------------------------------
# views in the one-line notation, checked the same as in YAML


VIEW_TEXTS = {"bid": [BID_PASSED, bid_file("HA H10 HK EA E9 L8 L7 S6", extra="must: true\n")],
              "discard": [DISCARD], "double": [DOUBLE_DEFENDER, RETOUR]}


@pytest.mark.parametrize("command", list(VIEW_TEXTS))
def test_every_view_round_trips_through_the_notation(command: str) -> None:
    from dobbm_solver.analyzer import make_view
    from dobbm_solver.analyzer.checks import view_command
    from dobbm_solver.handfile import dump_spec_yaml, parse_specs
    from dobbm_solver.notation import format_spec_line, parse_spec_line

    for text in VIEW_TEXTS[command]:
        view = view_of(text, command)
        line = format_spec_line(view.spec())
        again = make_view(parse_spec_line(line), command)
        assert again == view, line
        [from_yaml] = parse_specs(dump_spec_yaml(view.spec()), "t.yaml")
        assert make_view(from_yaml, command) == view
        assert view_command(view.spec()) == command
        if command == "bid":
            assert not line.split("|")[0].strip().startswith(("dobbm", "solo"))   # no head


@given(st.sampled_from(["Anna", "Bert", "Cora"]), st.sampled_from(["-", "''", "[]", "?", "omitted"]))
@settings(max_examples=40, deadline=None)
def test_an_empty_or_unknown_hand_means_the_same_in_yaml_and_notation(seat: str, written: str) -> None:
    """In a view: a seat left out, or given as ``?``, is not known; ``-``, ``[]`` or '' is no cards."""
    from dobbm_solver.handfile import parse_specs
    from dobbm_solver.notation import parse_spec_line

    known = "HA H10 HK EA E9 L8 L7 S6"
    yaml_hand = {"-": "'-'", "''": "''", "[]": "[]", "?": "'?'"}.get(written)
    text = (f"seats: [Anna, Bert, Cora, Dave]\nme: Dave\nhands:\n  Dave: {known}\n"
            + (f"  {seat}: {yaml_hand}\n" if yaml_hand else ""))
    line_hand = {"''": "-", "[]": "-"}.get(written, written)
    line = "me: Dave | " + " | ".join(
        f"{s}: {known if s == 'Dave' else (line_hand if s == seat and written != 'omitted' else '?')}"
        for s in ("Anna", "Bert", "Cora", "Dave"))
    [from_yaml] = parse_specs(text, "t.yaml")
    from_line = parse_spec_line(line)
    assert from_yaml.hands == from_line.hands
    assert (seat in from_yaml.hands) == (written in ("-", "''", "[]"))
    if seat in from_yaml.hands:
        assert from_yaml.hands[seat] == 0


@pytest.mark.parametrize("doublings", [11, 1100, 10 ** 12])
def test_views_bound_doublings_like_deals(doublings: int) -> None:
    from dobbm_solver.analyzer import make_view
    from dobbm_solver.deal import MAX_DOUBLINGS
    from dobbm_solver.handfile import HandFileError, parse_specs

    [spec] = parse_specs(RETOUR, "t.yaml")
    with pytest.raises(HandFileError, match=f"doublings: must be a whole number from 0 to {MAX_DOUBLINGS}"):
        make_view(replace(spec, doublings=doublings), "double")
    with pytest.raises(HandFileError, match=f"doublings: must be a whole number from 0 to {MAX_DOUBLINGS}"):
        parse_specs(RETOUR.replace("doublings: 1", f"doublings: {doublings}"), "t.yaml")


# --------------------------------------------------------------------------
# a view from typed values: View.from_seat runs the checks of a hand file


def test_from_seat_gives_the_view_a_file_gives() -> None:
    from views import random_play_view

    from dobbm_solver.analyzer import View

    for command, texts in VIEW_TEXTS.items():
        for text in texts:
            v = view_of(text, command)
            typed = View.from_seat(command, seats=v.seats, me=v.me, hand=v.my_hand, declarer=v.spec().declarer,
                                   contract=v.spec().contract, dobb=v.dobb, discard=v.discard, tricks=v.tricks,
                                   doublings=v.doublings, dealer=v.dealer, bids=v.bids, must=v.must)
            assert typed == v
    for seed in range(20):
        v, _ = random_play_view(seed)
        if set(v.hands) != {v.me}:
            continue    # a card of another hand seen: not a seat's own view
        typed = View.from_seat("play", seats=v.seats, me=v.me, hand=v.my_hand, declarer=v.declarer,
                               contract=v.contract, dobb=v.dobb, discard=v.discard, tricks=v.tricks,
                               dealer=v.dealer)
        assert typed == v


@pytest.mark.parametrize("changes, key, words", [
    ({"me": "Eve"}, "me", "'Eve' is not a seat"),
    ({"seats": ("Anna", "Bert", "Cora")}, "seats", "need 4 seats"),
    ({"seats": ("Anna", "Bert", "Cora", "an na")}, "seats", "bad seat name"),
    ({"contract": "grand"}, "contract", "must be one of dobbm | solo"),
    ({"bids": (("Anna", "double"),)}, "bids", "bid 1"),
    ({"hand": 1 << 40}, "hands.Cora", "not a set of cards of the deck"),
    ({"tricks": ((36,),)}, "tricks", "trick 1: not cards of the deck"),
    ({"hand": 0b111}, "hands.Cora", "holds 3 cards, should hold 8"),
])
def test_from_seat_refuses_what_a_file_could_not_say(changes: dict, key: str, words: str) -> None:
    from dobbm_solver.analyzer import View
    from dobbm_solver.handfile import HandFileError

    v = view_of(DOUBLE_DEFENDER, "double")
    given = dict(seats=v.seats, me=v.me, hand=v.my_hand, declarer=v.declarer, contract=v.contract,
                 dealer=v.dealer, bids=v.bids)
    given.update(changes)
    with pytest.raises(HandFileError) as info:
        View.from_seat("double", **given)
    assert info.value.key == key and words in info.value.message, str(info.value)
    assert str(info.value).startswith(f"<view>: {key}: ")


# --------------------------------------------------------------------------
# input past the rules' end: one clean error, never an IndexError

FIVE_BIDS = "  - {Anna: pass}\n  - {Bert: pass}\n  - {Cora: pass}\n  - {Dave: pass}\n  - {Anna: pass}\n"
PLAYED_BIDS = ("  - {Bert: dobbm}\n  - {Cora: pass}\n  - {Dave: pass}\n  - {Anna: pass}\n")


@pytest.mark.parametrize("command, text", [
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", FIVE_BIDS)),
    ("bid", bid_file("HA H10 HK EA E9 L8 L7 S6", FIVE_BIDS * 3)),
    ("double", DOUBLE_DEFENDER + "  - {Bert: pass}\n"),
    ("play", DOUBLE_DEFENDER + "  - {Bert: pass}\n"),
    ("play", DOUBLE_DEFENDER.replace(PLAYED_BIDS, PLAYED_BIDS * 2)),
])
def test_five_or_more_bids_are_one_clean_error(command: str, text: str) -> None:
    e = error_of(text, command)
    assert e.key == "bids" and "each of the 4 players speaks at most once" in e.message, str(e)


def test_five_or_more_bids_from_typed_values_too() -> None:
    from dobbm_solver.analyzer import View
    from dobbm_solver.handfile import HandFileError

    bids = (("Anna", "pass"), ("Bert", "pass"), ("Cora", "pass"), ("Dave", "pass"), ("Anna", "pass"))
    with pytest.raises(HandFileError, match="bids: 5 bids"):
        View.from_seat("bid", seats=("Anna", "Bert", "Cora", "Dave"), dealer="Dave", me="Bert",
                       hand=cardset(range(8)), bids=bids)


@pytest.mark.parametrize("command", ["bid", "double", "play"])
def test_five_bids_at_the_command_line_exit_2(tmp_path, command: str) -> None:
    from click.testing import CliRunner

    from dobbm_solver import cli
    text = bid_file("HA H10 HK EA E9 L8 L7 S6", FIVE_BIDS) if command == "bid" else \
        DOUBLE_DEFENDER + "  - {Bert: pass}\n"
    path = tmp_path / "view.yaml"
    path.write_text(text)
    r = CliRunner().invoke(cli.main, [command, str(path), "--seed", "1", "-j", "1"])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert r.stderr.strip().splitlines() == [f"Error: {path}: bids: 5 bids, but each of the 4 players speaks "
                                             f"at most once: the auction ends by the 4th bid"]


NINE_TRICKS = "".join(f"  - {t}\n" for t in ["HA H6 H7 H8", "EA E6 E7 E8", "LA L6 L7 L8", "SA S6 S7 S8",
                                             "HK H9 HU HO", "EK E9 EU EO", "LK L9 LU LO", "SK S9 SU SO",
                                             "H10"])


def test_more_than_eight_tricks_in_a_view_is_one_clean_error() -> None:
    from dobbm_solver.analyzer import View
    from dobbm_solver.handfile import HandFileError

    text = RETOUR.replace("doublings: 1\n", "") + "tricks:\n" + NINE_TRICKS
    e = error_of(text, "play")
    assert (e.key, e.message) == ("tricks", "at most 8 tricks, not 9")
    tricks = tuple((c,) * 1 for c in range(9))
    with pytest.raises(HandFileError, match="tricks: at most 8 tricks, not 9"):
        View.from_seat("play", seats=("Anna", "Bert", "Cora", "Dave"), me="Anna", hand=0, declarer="Anna",
                       contract="solo", tricks=tricks)


@pytest.mark.parametrize("command", ["solve", "check", "score", "review"])
@pytest.mark.parametrize("name", ["played.yaml", "played_dealt.yaml"])
def test_more_than_eight_tricks_in_a_deal_exit_2(tmp_path, command: str, name: str) -> None:
    from pathlib import Path

    from click.testing import CliRunner

    from dobbm_solver import cli
    hands = Path(__file__).resolve().parents[1] / "hands"
    path = tmp_path / name
    path.write_text((hands / name).read_text() + "- H6\n")
    r = CliRunner().invoke(cli.main, [command, str(path)])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert r.stderr.strip().splitlines() == [f"Error: {path}: tricks: at most 8 tricks, not 9"]
