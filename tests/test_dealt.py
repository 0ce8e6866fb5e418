"""Tests of the dealt form of a hand file (``dealt:`` for ``hands:``, the head word
``dealt`` of the notation) and of dobbm_solver/dealt.py.

A hand written down as dealt reads as the same deal as its ``hands:`` form:
the round trips, every command on the dealt form of the shipped files, random
deals played out partially, and each kind of bad input.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from randdeals import random_deal

from dobbm_solver import cli
from dobbm_solver.cards import cardset, parse_cards, popcount
from dobbm_solver.deal import Deal, DealError, replay
from dobbm_solver.dealt import dealt_hands, hands_from_dealt
from dobbm_solver.handfile import (
    HandFileError,
    HandSpec,
    deal_to_dict,
    dump_deal_yaml,
    dump_spec_yaml,
    load_hand_file,
    load_specs,
    parse_deal_text,
    parse_specs,
    spec_to_deal,
)
from dobbm_solver.notation import (
    NotationError,
    format_deal_line,
    format_spec_line,
    parse_deal_line,
    parse_spec_line,
)

HANDS = Path(__file__).resolve().parents[1] / "hands"
DEAL_FILES = ("finished.yaml", "midplay.yaml", "played.yaml", "example.yaml")
VIEW_FILES = ("bid.yaml", "discard.yaml", "double.yaml", "double_retour.yaml", "play.yaml")


def dealt_text(name: str) -> str:
    """The shipped file ``name`` in the dealt form (deals, or views)."""
    specs = load_specs(HANDS / name)
    if specs[0].me is not None:
        return "---\n".join(dump_spec_yaml(s, dealt=True) for s in specs)
    return "---\n".join(dump_deal_yaml(spec_to_deal(s), dealt=True) for s in specs)


def run(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(cli.main, list(args))
    return done.exit_code, done.output


# --------------------------------------------------------------------------
# round trips


@pytest.mark.parametrize("name", DEAL_FILES)
def test_yaml_round_trip_of_the_shipped_deals(name):
    deal = load_hand_file(HANDS / name)[0]
    text = dealt_text(name)
    assert "dealt:" in text and "hands:" not in text
    again = parse_deal_text(text)[0]
    assert again == deal
    assert dump_deal_yaml(again, dealt=True) == text
    assert dump_deal_yaml(again) == dump_deal_yaml(deal)


@pytest.mark.parametrize("name", DEAL_FILES)
def test_notation_round_trip_of_the_shipped_deals(name):
    deal = load_hand_file(HANDS / name)[0]
    line = format_deal_line(deal, dealt=True)
    assert line.startswith(f"{deal.contract} {deal.declarer} dealt | ")
    assert parse_deal_line(line) == deal
    assert format_deal_line(parse_deal_line(line), dealt=True) == line


@pytest.mark.parametrize("name", VIEW_FILES)
def test_round_trips_of_the_shipped_views(name):
    spec = load_specs(HANDS / name)[0]
    assert parse_specs(dump_spec_yaml(spec, dealt=True))[0] == spec
    line = format_spec_line(spec, dealt=True)
    assert parse_spec_line(line) == spec
    assert format_spec_line(parse_spec_line(line), dealt=True) == line


def test_the_shipped_dealt_example_is_the_played_hand():
    assert load_hand_file(HANDS / "played_dealt.yaml") == load_hand_file(HANDS / "played.yaml")
    raw = yaml.safe_load((HANDS / "played_dealt.yaml").read_text())
    assert "hands" not in raw and all(len(v.split()) == 8 for v in raw["dealt"].values())


def test_dealt_hands_of_the_example():
    """Bert (Dobbm) took HK HO EA LO and laid E9 L6 S10 S8 away: as dealt he held those four."""
    deal = load_hand_file(HANDS / "example.yaml")[0]
    dealt = dealt_hands(deal)
    assert dealt["Bert"] == cardset(parse_cards("HA H9 H6 E9 LU L6 S10 S8"))
    assert all(dealt[s] == deal.hands[s] for s in ("Anna", "Cora", "Dave"))


def test_a_view_gives_me_s_dealt_cards():
    """The declarer's own view after the exchange: the hand held now follows likewise."""
    spec = load_specs(HANDS / "double_retour.yaml")[0]
    assert dealt_hands(spec) == {"Bert": cardset(parse_cards("HA HK H8 EA E7 LA SK S8"))}
    # a bid view: dealt equals hands (the 8 dealt cards)
    bid = load_specs(HANDS / "bid.yaml")[0]
    assert dealt_hands(bid) == dict(bid.hands)
    # a view during play: my cards now and those I played
    play = load_specs(HANDS / "play.yaml")[0]
    assert dealt_hands(play)["Dave"] == play.hands["Dave"] | cardset(parse_cards("L10 HU H10"))


# --------------------------------------------------------------------------
# random deals played out partially


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_deals_round_trip_in_the_dealt_form(seed):
    deal = random_deal(random.Random(seed))
    dealt = dealt_hands(deal)
    assert all(popcount(cs) == 8 for cs in dealt.values())
    assert set(dealt) == set(deal.active_seats)
    assert hands_from_dealt(_with_hands(deal, dealt)) == dict(deal.hands)
    assert parse_deal_text(dump_deal_yaml(deal, dealt=True))[0] == deal
    assert parse_deal_line(format_deal_line(deal, dealt=True)) == deal
    d = deal_to_dict(deal, dealt=True)
    assert list(d) == [("dealt" if k == "hands" else k) for k in deal_to_dict(deal)]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 4))
def test_random_views_round_trip_in_the_dealt_form(seed, k):
    """One seat's view of a random deal: its dealt 8 cards, and back to the cards it holds."""
    deal = random_deal(random.Random(seed))
    me = deal.active_seats[k % 4]
    view = HandSpec(deal.seats, deal.declarer, deal.contract, {me: deal.hands[me]}, deal.dobb,
                    deal.discard, deal.tricks, deal.doublings, deal.dealer, me)
    dealt = dealt_hands(view)
    assert set(dealt) == {me} and popcount(dealt[me]) == 8
    assert dealt[me] == dealt_hands(deal)[me]
    assert hands_from_dealt(replace(view, hands=dealt)) == {me: deal.hands[me]}
    assert parse_spec_line(format_spec_line(view, dealt=True)) == view
    assert parse_specs(dump_spec_yaml(view, dealt=True))[0] == view


def _with_hands(deal: Deal, hands: dict[str, int]) -> Deal:
    return replace(deal, hands=hands)


# --------------------------------------------------------------------------
# every command reads the dealt form as the hands form


def _pair(tmp_path: Path, name: str) -> tuple[str, str]:
    """The shipped file and its dealt form, both under tmp_path with the same base name."""
    (tmp_path / "hands").mkdir(exist_ok=True)
    (tmp_path / "dealt").mkdir(exist_ok=True)
    a, b = tmp_path / "hands" / name, tmp_path / "dealt" / name
    a.write_text((HANDS / name).read_text())
    b.write_text(dealt_text(name))
    return str(a), str(b)


TIMING_KEYS = {"seconds", "elapsed", "time", "wall", "samples_per_second"}
TIMING_TEXT = re.compile(r"\d+(\.\d+)?\s*(ms|s)\b")


def _untimed(obj: object) -> object:
    if isinstance(obj, dict):
        return {k: ("<t>" if k in TIMING_KEYS else _untimed(v)) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_untimed(v) for v in obj]
    return obj


def _normalised(text: str, path: str) -> list[object]:
    out: list[object] = []
    for line in text.replace(path, "FILE").splitlines():
        try:
            out.append(_untimed(json.loads(line)))
        except ValueError:
            out.append(TIMING_TEXT.sub("<t>", line))
    return out


def _same(args_of, a: str, b: str) -> None:
    ca, oa = run(*args_of(a))
    cb, ob = run(*args_of(b))
    assert ca == cb == 0, (oa, ob)
    assert _normalised(oa, a) == _normalised(ob, b)


@pytest.mark.parametrize("command,name", [
    ("solve", "example.yaml"), ("solve", "midplay.yaml"), ("solve", "finished.yaml"),
    ("score", "finished.yaml"), ("score", "played.yaml"),
    ("review", "played.yaml"), ("review", "midplay.yaml"), ("review", "finished.yaml"),
])
def test_commands_on_deals(tmp_path, command, name):
    a, b = _pair(tmp_path, name)
    _same(lambda f: [command, f], a, b)
    _same(lambda f: [command, f, "--json"], a, b)


@pytest.mark.parametrize("name", DEAL_FILES + VIEW_FILES)
def test_check_prints_both_forms_whichever_is_given(tmp_path, name):
    a, b = _pair(tmp_path, name)
    _same(lambda f: ["check", f], a, b)
    _same(lambda f: ["check", f, "--json"], a, b)
    _same(lambda f: ["check", f, "--line"], a, b)
    _, out = run("check", a, "--json")
    obj = json.loads(out)
    hands_doc = {k: v for k, v in obj.items() if k not in ("deal", "deal_dealt", "command", "dealt")}
    dealt_doc = {k: v for k, v in obj.items() if k not in ("deal", "deal_dealt", "command", "hands")}
    assert parse_specs(yaml.safe_dump(hands_doc)) == parse_specs(yaml.safe_dump(dealt_doc))
    assert parse_spec_line(obj["deal_dealt"]) == parse_spec_line(obj["deal"])
    # the text: the hands form as before, then the dealt form as a comment
    _, text = run("check", a, "--no-diagram")   # the diagram's comments would follow the dealt block
    hands_part, dealt_part = text.split("\n# as dealt", 1)
    assert "dealt:" not in hands_part
    commented = "\n".join(line[2:] for line in dealt_part.split("\n")[2:] if line.startswith("# "))
    assert yaml.safe_load(commented)["dealt"] == obj["dealt"]


def test_study_reads_the_dealt_form(tmp_path):
    for name in ("example.yaml", "midplay.yaml", "finished.yaml"):
        _pair(tmp_path, name)
    rows = {}
    for form in ("hands", "dealt"):
        code, out = run("study", str(tmp_path / form), "-o", str(tmp_path / f"{form}.jsonl"), "--jobs", "1")
        assert code == 0, out
        lines = (tmp_path / f"{form}.jsonl").read_text().splitlines()
        rows[form] = sorted(({k: v for k, v in json.loads(x).items() if k not in ("id", "seconds")}
                             for x in lines), key=json.dumps)
    assert len(rows["hands"]) == 3 and rows["hands"] == rows["dealt"]


@pytest.mark.parametrize("command,name", [
    ("bid", "bid.yaml"), ("discard", "discard.yaml"), ("double", "double.yaml"),
    ("double", "double_retour.yaml"), ("play", "play.yaml"),
])
def test_advice_on_views(tmp_path, command, name):
    a, b = _pair(tmp_path, name)
    _same(lambda f: [command, f, "--json", "--seed", "3", "--samples", "4", "--jobs", "1"], a, b)


def test_a_deal_line_in_the_dealt_form(tmp_path):
    deal = load_hand_file(HANDS / "played.yaml")[0]
    code, out = run("score", "--deal", format_deal_line(deal, dealt=True), "--json")
    assert code == 0 and json.loads(out) == json.loads(run("score", str(HANDS / "played.yaml"), "--json")[1])


# --------------------------------------------------------------------------
# bad input


PLAYED = (HANDS / "played_dealt.yaml").read_text()


def _error(tmp_path: Path, text: str, command: str = "score") -> str:
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    done = CliRunner().invoke(cli.main, [command, str(f)])
    assert done.exit_code == 2, done.output
    assert "Traceback" not in done.output
    err = done.output.strip().splitlines()[-1]
    assert err.startswith(f"Error: {f}: "), err
    return err[len(f"Error: {f}: "):]


@pytest.mark.parametrize("change,key,words", [
    (("dealt:\n", "hands:\n  Anna: ''\ndealt:\n"), "dealt", "not both"),
    (("Bert: H6 EK EO E8 L10 LK LO SO", "Bert: H6 EK EO E8 L10 LK LO"), "dealt.Bert", "holds 7 cards"),
    (("Bert: H6 EK EO E8 L10 LK LO SO", "Bert: H6 EK EO E8 L10 LK LO SO E6"), "dealt.Bert", "holds 9 cards"),
    # Bert was dealt SU for SO: he did not hold the SO he played to trick 3
    (("Bert: H6 EK EO E8 L10 LK LO SO", "Bert: H6 EK EO E8 L10 LK LO SU"), "dealt.Bert", "SU is also in dealt.Anna"),
    (("Anna: HA HK EA EU L6 SK SU S7\n  Bert: H6 EK EO E8 L10 LK LO SO",
      "Anna: HA HK EA EU L6 SK SO S7\n  Bert: H6 EK EO E8 L10 LK LO SU"),
     "dealt.Bert", "trick 3: Bert plays SO, which is not in Bert's dealt hand"),
    (("Anna: HA HK EA EU L6 SK SU S7", "Anna: HA HK EA EU L6 SK SU HU"), "dealt.Anna", "HU is also in the Dobb"),
    # Anna (declarer) lays away L9, which Dave was dealt
    (("discard: EU LU L6 SK", "discard: EU LU L9 SK"), "dealt.Anna",
     "the lay-away's L9 is neither in Anna's dealt hand nor in the Dobb"),
    (("- LA L9 HK LK", "- LA L6 HK LK"), "dealt.Dave", "trick 7: Dave plays L6, which is not in Dave's dealt hand"),
    (("- HA H6 HO H7", "- EU H6 HO H7"), "dealt.Anna", "trick 1: Anna plays EU, which Anna laid away"),
    (("Dave: H9 H8 H7 E9 L9 L8 S10 S9", "Dave: H9 H8 H7 E9 L9 L8 S10 S9 E6"), "dealt.Dave", "holds 9 cards"),
    (("Cora: H10", "Kurt: H10"), "dealt.Kurt", "'Kurt' is not a seat"),
])
def test_bad_dealt_hands(tmp_path, change, key, words):
    old, new = change
    assert old in PLAYED
    err = _error(tmp_path, PLAYED.replace(old, new, 1))
    assert err.startswith(f"{key}: "), err
    assert words in err, err


def test_a_card_played_twice(tmp_path):
    text = PLAYED.replace("- SU EK H10 H8", "- HA EK H10 H8")
    err = _error(tmp_path, text)
    assert err.startswith("dealt.Anna: trick 6: Anna plays HA, already played in trick 1"), err


def test_a_revoke_in_the_dealt_form(tmp_path):
    """The existing revoke error, naming the trick and the card."""
    deal = load_hand_file(HANDS / "example.yaml")[0]
    # Bert leads HA; Cora could follow with H8 or H7 but plays EK
    text = dump_deal_yaml(deal, dealt=True) + "tricks:\n- HA EK H10 EO\n"
    for cmd in ("solve", "check", "review"):
        err = _error(tmp_path, text, cmd)
        assert err.startswith("tricks: trick 1: Cora plays EK, a revoke"), err


def test_revokes_allowed_where_the_hands_form_allows_them(tmp_path):
    """score takes a played hand with a revoke (and voids it), in either form."""
    deal = spec_to_deal(load_specs(HANDS / "revoke.yaml")[0], allow_revokes=True)
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(dump_deal_yaml(deal))
    b.write_text(dump_deal_yaml(deal, dealt=True))
    _same(lambda f: ["score", f, "--json"], str(a), str(b))


def test_a_declarer_view_needs_the_dobb_and_discard(tmp_path):
    view = (HANDS / "double_retour.yaml").read_text().replace("hands:", "dealt:")
    view = view.replace("HA HK HO H8 EA E10 LA SK", "HA HK H8 EA E7 LA SK S8")
    assert _error(tmp_path, view.replace("dobb: HO E10 L7 S6\n", ""), "check").startswith(
        "dealt.Bert: Bert took the Dobb into the hand: give dobb")
    (tmp_path / "ok.yaml").write_text(view)
    code, out = run("check", str(tmp_path / "ok.yaml"), "--json")
    assert code == 0 and json.loads(out)["hands"] == {"Bert": "HA HK HO H8 EA E10 LA SK"}


def test_tricks_without_a_declarer():
    for declarer, words in ((None, "missing"), ("X", "not a seat that plays")):
        with pytest.raises(DealError) as e:
            hands_from_dealt(HandSpec(("A", "B", "C", "D"), declarer, "solo", {}, tricks=((0, 1, 2, 3),)))
        assert e.value.key == "declarer" and words in e.value.message


def test_notation_errors_in_its_own_words():
    deal = load_hand_file(HANDS / "played.yaml")[0]
    line = format_deal_line(deal, dealt=True)
    with pytest.raises(NotationError) as e:
        parse_deal_line(line.replace("Bert: H6 EK EO E8 L10 LK LO SO", "Bert: H6 EK EO E8 L10 LK LO"))
    assert e.value.segment == "Bert" and "holds 7 cards" in e.value.message
    with pytest.raises(NotationError) as e:
        parse_deal_line(line.replace("Anna: HA HK EA EU L6 SK SU S7", "Anna: HA HK EA EU L6 SK SU SO"))
    assert e.value.segment == "Bert" and "SO is also in Anna's dealt hand" in e.value.message
    # a seat may still be named dealt: "dobbm dealt" is a declarer, not the flag
    seats_named = format_deal_line(deal).replace("Anna", "dealt")
    assert parse_deal_line(seats_named).declarer == "dealt"
    with pytest.raises(NotationError) as e:
        parse_deal_line(line.replace("dobbm Anna dealt", "dobbm Anna dealt now"))
    assert e.value.segment == "head"


def test_yaml_errors_name_the_file_and_key():
    with pytest.raises(HandFileError) as e:
        parse_deal_text(PLAYED.replace("- HA H6 HO H7", "- HA H6 HO H7 H8"), "f.yaml")
    assert str(e.value).startswith("f.yaml: tricks: trick 1 has 5 cards")
    assert replay(load_hand_file(HANDS / "played_dealt.yaml")[0]).finished
