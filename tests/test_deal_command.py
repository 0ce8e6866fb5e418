"""``dobbm deal``: random deals to constraints, in the dealt form every command reads back.

Checked here: every deal written (yaml, line, json) reads back with the
library's readers into the deal the library dealt, and ``solve``, ``check`` and
``review`` take the output; the same seed gives the same deals; each
constraint holds on the hands as dealt (before the exchange); a constrained
deal is uniform over the deals that meet the constraints (a chi-square test
against an independent sampler); impossible constraints end at once or within
the budget of draws, exit 2, one line.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dobbm_solver import cli
from dobbm_solver.cards import BB_TRUMPS, NUM_CARDS, cardset, parse_cards, popcount, set_points
from dobbm_solver.dealer import (
    DEFAULT_SEATS,
    MAX_DRAWS,
    ConstraintError,
    Constraints,
    SeatRange,
    deal_random,
    model_auction,
)
from dobbm_solver.dealt import dealt_hands
from dobbm_solver.handfile import parse_specs, spec_to_deal
from dobbm_solver.models.strength import hand_strength
from dobbm_solver.notation import parse_deal_line, parse_spec_line


def run(*args: str) -> Result:
    return CliRunner().invoke(cli.main, list(args))


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
    return result


def library_deals(n: int, seed: int, constraints: Constraints = Constraints()) -> list:
    rng = random.Random(seed)
    return [deal_random(rng, constraints) for _ in range(n)]


def hands_of(text: str) -> int:
    return cardset(parse_cards(text))


# --- validity: every format reads back into the deal dealt ------------------------


def test_yaml_reads_back_as_the_deals_dealt() -> None:
    out = ok(run("deal", "--count", "6", "--seed", "7")).stdout
    specs = parse_specs(out)
    dealt = library_deals(6, 7)
    assert len(specs) == 6
    for spec, dd in zip(specs, dealt):
        assert spec_to_deal(spec) == dd.deal
        assert spec.bids == dd.bids and spec.dealer == dd.deal.dealer
    assert "dealt:" in out and "hands:" not in out


def test_line_and_json_read_back_as_the_deals_dealt() -> None:
    lines = ok(run("deal", "--count", "6", "--seed", "7", "--format", "line")).stdout.splitlines()
    out = ok(run("deal", "--count", "6", "--seed", "7", "--format", "json")).stdout
    objs = [json.loads(x) for x in out.splitlines()]
    dealt = library_deals(6, 7)
    assert len(lines) == len(objs) == 6
    for line, obj, dd in zip(lines, objs, dealt):
        assert " dealt | " in line
        assert parse_deal_line(line) == dd.deal
        assert parse_spec_line(line).bids == dd.bids
        assert obj["deal"] == line
        assert (obj["dealer"], obj["declarer"], obj["contract"]) == (dd.deal.dealer, dd.deal.declarer,
                                                                     dd.deal.contract)
        assert {s: hands_of(t) for s, t in obj["dealt"].items()} == dealt_hands(dd.deal)
        assert [tuple(b.items())[0] for b in obj["bids"]] == list(dd.bids)


def test_solve_check_and_review_read_the_output(tmp_path: Path) -> None:
    path = tmp_path / "deals.yaml"
    path.write_text(ok(run("deal", "--count", "3", "--seed", "11")).stdout)
    from_file = [json.loads(x) for x in ok(run("solve", "--json", str(path))).stdout.splitlines()]
    lines = ok(run("deal", "--count", "3", "--seed", "11", "--format", "line")).stdout.splitlines()
    args = [a for line in lines for a in ("--deal", line)]
    from_lines = [json.loads(x) for x in ok(run("solve", "--json", *args)).stdout.splitlines()]
    assert len(from_file) == len(from_lines) == 3
    assert [o["declarer_points"] for o in from_file] == [o["declarer_points"] for o in from_lines]
    assert [o["deal"] for o in from_file] == [o["deal"] for o in from_lines]
    assert ok(run("check", str(path))).stdout.count(": ok") == 3
    ok(run("review", str(path)))


# --- seeding ----------------------------------------------------------------------


def test_the_same_seed_gives_the_same_deals() -> None:
    a = ok(run("deal", "--count", "5", "--seed", "3", "--format", "line")).stdout
    assert a == ok(run("deal", "--count", "5", "--seed", "3", "--format", "line")).stdout
    assert a != ok(run("deal", "--count", "5", "--seed", "4", "--format", "line")).stdout
    assert len(set(a.splitlines())) == 5


# --- the constraints hold on the hands as dealt ------------------------------------


def test_constraints_hold_on_the_dealt_hands() -> None:
    out = ok(run("deal", "--count", "12", "--seed", "5", "--format", "json", "--dealer", "bert",
                 "--declarer", "forehand", "--contract", "dobbm", "--trumps", "forehand:4-6",
                 "--points", "Dave:20-40", "--strength", "Anna:0-8")).stdout
    objs = [json.loads(x) for x in out.splitlines()]
    assert len(objs) == 12
    for obj in objs:
        assert obj["dealer"] == "Bert" and obj["declarer"] == "Cora" and obj["contract"] == "dobbm"
        dealt = {s: hands_of(t) for s, t in obj["dealt"].items()}
        assert 4 <= popcount(dealt["Cora"] & BB_TRUMPS) <= 6
        assert 20 <= set_points(dealt["Dave"]) <= 40
        assert 0 <= hand_strength(dealt["Anna"]) <= 8
        # the auction is the model's on the dealt hands, forehand first
        assert [tuple(b.items())[0] for b in obj["bids"]] == model_auction(dealt, ("Cora", "Dave", "Anna", "Bert"))
        # dealt, not held: the declarer's hand at the lead has the Dobb taken up and four laid away
        deal = parse_deal_line(obj["deal"])
        assert deal.hands["Cora"] == (dealt["Cora"] | deal.dobb) & ~hands_of(obj["discard"])


def test_a_solo_declarer_and_the_dealt_trumps_of_a_dobbm_declarer() -> None:
    solos = library_deals(4, 2, Constraints(declarer="Anna", contract="solo"))
    assert all(dd.deal.declarer == "Anna" and dd.deal.contract == "solo" for dd in solos)
    assert all(dd.bids[-1] == ("Anna", "solo") for dd in solos)
    # the trap of random_deal: the range is on the 8 cards dealt, not on the hand after the exchange
    for dd in library_deals(30, 9, Constraints(declarer="forehand", contract="dobbm",
                                               trumps=(SeatRange(seat="forehand", low=2, high=2),))):
        decl = dd.deal.declarer
        assert popcount(dealt_hands(dd.deal)[decl] & BB_TRUMPS) == 2
        assert dd.bids[0][0] == decl


def test_no_deal_is_passed_out() -> None:
    for dd in library_deals(200, 4):
        assert any(bid != "pass" for _, bid in dd.bids)
        assert len(dd.bids) == 4 or dd.bids[-1][1] == "solo"


# --- uniformity ---------------------------------------------------------------------


def _reference_counts(n: int, seed: int, low: int, high: int) -> Counter[int]:
    """Forehand's dealt trumps over ``n`` deals of a plain sampler of its own: uniform deals
    (random.sample), a random dealer, kept when the model's auction is not all passes and the
    count is in ``low..high``."""
    rng = random.Random(seed)
    counts: Counter[int] = Counter()
    seats = DEFAULT_SEATS
    while sum(counts.values()) < n:
        dealer = rng.randrange(4)
        cards = rng.sample(range(NUM_CARDS), NUM_CARDS)
        order = tuple(seats[(dealer + 1 + i) % 4] for i in range(4))
        dealt = {s: cardset(cards[8 * i:8 * i + 8]) for i, s in enumerate(order)}
        k = popcount(dealt[order[0]] & BB_TRUMPS)
        if low <= k <= high and any(b != "pass" for _, b in model_auction(dealt, order)):
            counts[k] += 1
    return counts


def test_a_constrained_deal_is_uniform_over_the_deals_that_meet_it() -> None:
    n, low, high = 3000, 1, 4
    got = Counter(popcount(dealt_hands(dd.deal)[dd.bids[0][0]] & BB_TRUMPS)
                  for dd in library_deals(n, 21, Constraints(trumps=(SeatRange(seat="forehand", low=low,
                                                                                high=high),))))
    ref = _reference_counts(n, 22, low, high)
    assert set(got) <= set(range(low, high + 1))
    # two-sample chi-square, 3 degrees of freedom: 25 is far beyond the 0.9999 quantile (21.1)
    chi2 = sum((got[k] - ref[k]) ** 2 / (got[k] + ref[k]) for k in range(low, high + 1) if got[k] + ref[k])
    assert chi2 < 25, (got, ref, chi2)
    # a biased sampler fails it: the same counts shifted towards more trumps
    shifted = Counter({k: ref[k - 1] if k > low else 0 for k in range(low, high + 1)})
    assert sum((shifted[k] - ref[k]) ** 2 / (shifted[k] + ref[k])
               for k in range(low, high + 1) if shifted[k] + ref[k]) > 25


# --- impossible and contradictory constraints ------------------------------------------


@pytest.mark.parametrize("args, words", [
    (("--trumps", "Anna:5-3"), "low end is above"),
    (("--trumps", "forehand:9"), "0 to 8 trumps"),
    (("--trumps", "Eve:3-5"), "not a seat at the table"),
    (("--dealer", "forehand"), "not a seat at the table"),
    (("--points", "Anna:90-100"), "0 to 84 points"),
    (("--trumps", "Anna5"), "SEAT:MIN-MAX"),
])
def test_contradictory_constraints_are_refused_at_once(args: tuple[str, ...], words: str) -> None:
    start = time.monotonic()
    result = run("deal", *args)
    assert result.exit_code == 2, result.output
    assert words in result.output and result.output.count("\n") == 1 and not result.stdout.startswith("seats")
    assert time.monotonic() - start < 2


def test_an_impossible_constraint_ends_within_the_budget() -> None:
    start = time.monotonic()
    result = run("deal", "--trumps", "Anna:8", "--points", "Anna:0-3")
    assert result.exit_code == 2
    assert f"no deal of {MAX_DRAWS} drawn meets --trumps Anna:8-8, --points Anna:0-3" in result.output
    assert result.output.count("\n") == 1
    assert time.monotonic() - start < 30
    with pytest.raises(ConstraintError, match="no deal of 50 drawn"):
        deal_random(random.Random(1), Constraints(declarer="Anna", contract="solo",
                                                  trumps=(SeatRange(seat="Anna", low=0, high=0),)), max_draws=50)


# --- the lesson -----------------------------------------------------------------------


def test_solutions_follow_the_deals_and_keep_the_file_readable() -> None:
    out = ok(run("deal", "--count", "2", "--seed", "1", "--solutions")).stdout
    assert len(parse_specs(out)) == 2
    assert "# deal 1: " in out and "# deal 2: " in out and "#   best line:" in out
    objs = [json.loads(x) for x in ok(run("deal", "--count", "2", "--seed", "1", "--solutions",
                                          "--format", "json")).stdout.splitlines()]
    for obj in objs:
        solved = json.loads(ok(run("solve", "--json", "--deal", obj["deal"])).stdout)
        assert obj["solution"]["declarer_points"] == solved["declarer_points"]
        assert obj["solution"]["line"] == solved["line"]
