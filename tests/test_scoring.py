"""`dobbm score` and `dobbm check`: finished hands, revokes charged, normalised output."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from dobbm_solver.cards import card_name, parse_card, scan_forward
from dobbm_solver.cli import main
from dobbm_solver.handfile import load_hand_file, load_specs, spec_to_deal
from dobbm_solver.notation import parse_deal_line
from dobbm_solver.scoring import ScoreError, score_hand

HANDS = Path(__file__).resolve().parents[1] / "hands"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


# An independent statement of trick play and points (RULES.md), by card names only:
# ranks high to low A 10 K O U 9 8 7 6 in every suit; hearts (H) are trumps.
RANKS = ["A", "10", "K", "O", "U", "9", "8", "7", "6"]
POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2}


def _name_points(name: str) -> int:
    return POINTS.get(name[1:], 0)


def _winner_by_names(names: list[str]) -> int:
    """Index of the card that wins a trick: the highest trump, else the highest of the suit led."""
    def key(n: str) -> tuple[int, int]:
        suit_rank = 2 if n[0] == "H" else 1 if n[0] == names[0][0] else 0
        return suit_rank, -RANKS.index(n[1:])
    return max(range(4), key=lambda i: key(names[i]))


def _declarer_points_by_hand(deal) -> int:
    seats = deal.active_seats
    leader, taken, tricks_won = deal.declarer, 0, 0
    for trick in deal.tricks:
        names = [card_name(c) for c in trick]
        order = seats[seats.index(leader):] + seats[:seats.index(leader)]
        winner = order[_winner_by_names(names)]
        if winner == deal.declarer:
            taken += sum(_name_points(n) for n in names)
            tricks_won += 1
        leader = winner
    bonus = deal.discard if deal.contract == "dobbm" else deal.dobb
    bonus_points = sum(_name_points(card_name(c)) for c in scan_forward(bonus))
    return taken + bonus_points if tricks_won else 0     # Match: all 8 tricks to the defenders


def test_score_finished_hand_by_hand():
    deal = load_hand_file(HANDS / "finished.yaml")[0]
    sc = score_hand(deal)
    assert sc.declarer_points == _declarer_points_by_hand(deal) == 76
    assert sc.outcome.value == "win" and not sc.revokes
    assert sc.units == 4 * 2          # ceil(16/5) = 4 units, one Schwacher doubles
    assert sum(sc.payments(deal.active_seats).values()) == 0


MATCH = ("solo Cora | Anna: - | Bert: - | Cora: - | Dave: - | dobb: HU E7 L10 SK | tricks: "
         "E9 E8 EA L6, E6 L9 EO EK, EU H10 LK H9, LU LA L7 H8, E10 H6 S7 L8, H7 S9 LO HO, "
         "HK HA SU S6, S10 SA SO S8")


def test_match_the_defenders_take_every_trick_and_the_dobb():
    """Cora's Solo loses all 8 tricks: the Dobb's 16 points go to the defenders too."""
    deal = parse_deal_line(MATCH)
    sc = score_hand(deal)
    assert _declarer_points_by_hand(deal) == 0 == sc.declarer_points
    assert sc.outcome.value == "loss"
    assert sc.units == -12 * 2        # ceil(60/5) = 12 units, Solo doubles
    assert sc.payments(deal.active_seats)["Cora"] == -3 * 24


def test_score_cli_json_and_money():
    r = run("score", str(HANDS / "finished.yaml"), "--json", "--match-cost", "6")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["declarer_points"] == 76 and obj["outcome"] == "win" and obj["units"] == 8
    assert obj["revokes"] == []
    assert obj["payments"]["Bert"] == 24 and obj["money"]["Bert"] == 12.0   # 6 the match: half a unit


def test_revoke_is_reported_and_charged():
    r = run("score", str(HANDS / "revoke.yaml"), "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["revokes"][0] == {"trick": 1, "seat": "Cora", "card": "LK", "could_play": ["EK", "E6"]}
    assert obj["outcome"] == "void"
    # half a match (6 units) times the Schwacher (x2): each defender pays the declarer
    assert obj["units"] == 12 and obj["payments"]["Bert"] == 36 and obj["payments"]["Cora"] == -12


def test_declarer_revoke_costs_the_declarer():
    from dataclasses import replace
    deal = load_hand_file(HANDS / "finished.yaml")[0]
    tricks = [list(t) for t in deal.tricks]
    # trick 3 (Anna leads L7, Bert follows LO); trick 5 (Bert leads H6): swap the two,
    # so Bert trumps in trick 3 while holding LO
    assert tricks[2][1] == parse_card("LO") and tricks[4][0] == parse_card("H6")
    tricks[2][1], tricks[4][0] = tricks[4][0], tricks[2][1]
    sc = score_hand(replace(deal, tricks=tuple(tuple(t) for t in tricks)))
    assert sc.revokes[0].trick == 3 and sc.revokes[0].seat == "Bert"
    assert sc.units == -12 and sc.payments(deal.active_seats)["Bert"] == -36


def test_score_rejects_unfinished_hand():
    r = run("score", str(HANDS / "midplay.yaml"))
    assert r.exit_code == 2
    assert r.stderr.startswith("Error: ") and "tricks" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_solve_rejects_revoke_but_score_accepts():
    r = run("solve", str(HANDS / "revoke.yaml"))
    assert r.exit_code == 2 and "tricks: trick 1: Cora plays LK, a revoke" in r.stderr
    spec = load_specs(HANDS / "revoke.yaml")[0]
    assert score_hand(spec_to_deal(spec, allow_revokes=True)).void


def test_check_normalises_and_round_trips():
    r = run("check", str(HANDS / "benchmark.yaml"), "--line")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    deals = load_hand_file(HANDS / "benchmark.yaml")
    assert len(lines) == len(deals)
    assert [parse_deal_line(x) for x in lines] == deals
    r = run("check", "--json", str(HANDS / "example.yaml"))
    assert r.exit_code == 0
    obj = json.loads(r.stdout)
    example = load_hand_file(HANDS / "example.yaml")[0]
    assert parse_deal_line(obj["deal"]) == example
    # the normalised YAML reads back to the same deal
    r = run("check", str(HANDS / "example.yaml"))
    assert r.exit_code == 0 and r.stdout.splitlines()[0].endswith(": ok")
    from dobbm_solver.handfile import parse_deal_text
    assert parse_deal_text(r.stdout) == [example]


def test_score_needs_finished_hand_errors_cleanly():
    try:
        score_hand(load_hand_file(HANDS / "example.yaml")[0])
    except ScoreError as e:
        assert "tricks" in str(e)
    else:  # pragma: no cover
        raise AssertionError("an unfinished hand was scored")
