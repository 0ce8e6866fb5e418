"""``dobbm deal --view DECISION[:SEAT]``: each dealt deal cut to one seat's view for an advice
command, in yaml, line and json, read back by ``dobbm bid/discard/double/play``; and the
library's cut, :meth:`View.cut <dobbm_solver.analyzer.view.View.cut>`.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import Result
from helpers import ok, run

from dobbm_solver.analyzer import make_view
from dobbm_solver.analyzer.view import AnalyzerError, View
from dobbm_solver.cards import cardset
from dobbm_solver.dealer import Constraints, deal_random
from dobbm_solver.dealt import dealt_hands
from dobbm_solver.handfile import parse_specs
from dobbm_solver.notation import parse_spec_line

DECISIONS = ("bid", "discard", "double", "play")


def one_error(result: Result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    (line,) = result.stderr.strip().splitlines()
    return line


CHOICES = ["bid", "bid:forehand", "bid:Dave", "bid:declarer", "discard", "double", "double:declarer",
           "double:Cora", "play", "play:Anna", "play:forehand"]


@pytest.mark.parametrize("choice", CHOICES)
def test_every_dealt_view_reads_back_in_every_format(choice):
    decision = choice.split(":")[0]
    args = ["deal", "--count", "4", "--seed", "7", "--view", choice]
    as_yaml = parse_specs(ok(run(*args)).stdout)
    as_lines = [parse_spec_line(line) for line in ok(run(*args, "--format", "line")).stdout.splitlines()]
    as_json = [json.loads(line) for line in ok(run(*args, "--format", "json")).stdout.splitlines()]
    assert len(as_yaml) == len(as_lines) == len(as_json) == 4
    for spec, line_spec, obj in zip(as_yaml, as_lines, as_json):
        assert spec == line_spec == parse_spec_line(obj["view"])
        assert obj["command"] == decision and obj["me"] == spec.me
        view = make_view(spec, decision)
        assert view.spec() == spec
        # the view is the whole deal's, cut: me's cards are the deal's, nothing unseen shows
        whole = parse_specs(ok(run("check", "--line", "--deal", obj["deal"])).stdout)[0]
        seat = spec.me
        if decision in ("bid", "discard"):
            assert spec.hands == {seat: dealt_hands(whole)[seat]}
        else:   # the cards now: all 8 but for a play view of a seat after the leader
            held = whole.hands[seat] & ~(cardset(spec.tricks[0]) if spec.tricks else 0)
            assert spec.hands == {seat: held}
            assert len(spec.tricks) <= 1 and len(spec.tricks[0] if spec.tricks else ()) < 4
            assert make_view(spec, "play" if decision == "play" else "double").command == decision
        sees_dobb = decision == "discard" or (decision != "bid" and seat == whole.declarer
                                              and whole.contract == "dobbm")
        assert (spec.dobb is not None) == sees_dobb
        if ":" in choice and choice.split(":")[1] not in ("forehand", "declarer"):
            assert seat == choice.split(":")[1]
        if choice.endswith(":declarer") or choice in ("discard", "play"):
            assert seat == whole.declarer


@pytest.mark.parametrize("decision", DECISIONS)
def test_the_advice_command_runs_on_every_dealt_view(decision, tmp_path):
    views = tmp_path / "views.yaml"
    views.write_text(ok(run("deal", "--count", "3", "--seed", "11", "--view", decision)).stdout, encoding="utf-8")
    got = [json.loads(line) for line in
           ok(run(decision, "--json", "-n", "2", "-j", "1", "-q", str(views))).stdout.splitlines()]
    assert len(got) == 3
    lines = ok(run("deal", "--count", "3", "--seed", "11", "--view", decision, "--format", "line")).stdout
    piped = [json.loads(line) for line in
             ok(run(decision, "--json", "-n", "2", "-j", "1", "-q", "-", input=lines)).stdout.splitlines()]
    assert [p["recommendation"] for p in piped] == [g["recommendation"] for g in got]


def test_a_declarer_asked_to_double_faces_a_schwacher():
    specs = parse_specs(ok(run("deal", "--count", "3", "--seed", "2", "--view", "double:declarer")).stdout)
    assert all(s.me == s.declarer and s.doublings == 1 for s in specs)
    defenders = parse_specs(ok(run("deal", "--count", "3", "--seed", "2", "--view", "double")).stdout)
    assert all(s.me != s.declarer and s.doublings == 0 for s in defenders)


def test_a_bid_view_deals_only_deals_where_the_seat_bids():
    # a Solo ends the bidding: Dave, the dealer, often does not bid at all
    specs = parse_specs(ok(run("deal", "--count", "20", "--seed", "3", "--dealer", "Dave",
                               "--view", "bid:Dave")).stdout)
    assert all(s.me == "Dave" and len(s.bids) == 3 for s in specs)
    forehand = parse_specs(ok(run("deal", "--count", "5", "--seed", "3", "--view", "bid")).stdout)
    assert all(s.bids == () for s in forehand)


def test_the_whole_deal_is_the_lessons_key():
    out = ok(run("deal", "--count", "2", "--seed", "5", "--view", "play:Bert", "--solutions",
                 "--format", "line")).stdout
    views = [line for line in out.splitlines() if line and not line.startswith("#")]
    assert len(views) == 2 and all(parse_spec_line(v).me == "Bert" for v in views)
    assert out.count("# deal 1, the whole deal: ") == 1 and out.count("# deal 2, the whole deal: ") == 1
    # the lesson file, comments and all, is what the advice command reads
    assert len(ok(run("play", "--json", "-n", "2", "-j", "1", "-q", "-", input=out)).stdout.splitlines()) == 2


@pytest.mark.parametrize("args, text", [
    (["--view", "lay"], "--view must be DECISION[:SEAT]"),
    (["--view", "bid:"], "--view must be DECISION[:SEAT]"),
    (["--view", "bid:Xaver"], "--view bid:'Xaver': not a seat at the table"),
    (["--view", "discard:Anna"], "the lay-away is the declarer's: write --view discard"),
    (["--view", "discard", "--contract", "solo"], "--view discard: a Solo lays nothing away"),
])
def test_a_bad_view_is_one_line(args, text):
    assert text in one_error(run("deal", *args))


def test_discard_views_are_dobbm_deals():
    specs = parse_specs(ok(run("deal", "--count", "5", "--seed", "9", "--view", "discard")).stdout)
    assert all(s.contract == "dobbm" and s.me == s.declarer and s.discard is None and s.dobb is not None
               for s in specs)


def test_the_library_cut():
    rng = random.Random(4)
    for _ in range(15):
        dd = deal_random(rng, Constraints())
        deal = dd.deal
        bidders = [who for who, _ in dd.bids]
        for me in deal.seats:
            for decision in DECISIONS:
                fits = (decision != "bid" or me in bidders) and \
                       (decision != "discard" or (me == deal.declarer and deal.contract == "dobbm"))
                if not fits:
                    with pytest.raises(AnalyzerError):
                        View.cut(deal, decision, me, bids=dd.bids)
                    continue
                doublings = 1 if decision == "double" and me == deal.declarer else None
                view = View.cut(deal, decision, me, bids=dd.bids, doublings=doublings)
                assert view.command == decision and view.me == me
                assert make_view(view.spec(), decision) == view
                if decision == "bid":
                    assert view.bids == dd.bids[:bidders.index(me)] and view.declarer is None
                else:
                    assert view.bids == dd.bids
