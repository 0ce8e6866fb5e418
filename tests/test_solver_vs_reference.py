"""Cross-check the production solver against the reference on seeded random endings.

Thousands of random legal endings (1..4 tricks left, mid-trick positions
included, Dobbm and Solo, random declarer) are solved by ``reference.py`` once;
the production solver must give the same value, the same value for every legal
card, a best line that really reaches the value, and the same results whatever
its table size and whatever it solved before.

``DOBBM_XCHECK_N`` (default 3000) sets the number of endings.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import pytest
from endings import deal_to_text, names, random_ending
from reference import (
    RefError,
    points,
    ref_card_values,
    ref_legal,
    ref_line_points,
    ref_play,
    ref_state,
    strength,
    suit_of,
)

from dobbm_solver.cards import card_name
from dobbm_solver.rules import outcome, units
from dobbm_solver.solver import MAX_TT_MB, SolveError, Solver

N_ENDINGS = int(os.environ.get("DOBBM_XCHECK_N", "3000"))
SEED = 20261130


#: thousands of endings solved by the pure-Python reference: minutes, so run by
#: .ci/run (`python -m pytest -m slow`) and not by a bare `python -m pytest`
pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Case:
    n: int
    deal: object
    to_move: str
    cards_left: int
    values: dict          # reference: card -> final declarer points
    value: int


def _case(n: int, deal) -> Case:
    st = ref_state(deal)
    values = ref_card_values(deal)
    value = max(values.values()) if st.to_move == st.declarer else min(values.values())
    return Case(n, deal, st.seats[st.to_move], sum(len(h) for h in st.hands), values, value)


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    rng = random.Random(SEED)
    # half of the deals with the strongest hand as declarer, some greedy play:
    # more endings where the declarer holds the trumps and takes tricks
    return [_case(n, random_ending(rng, strong=0.5, greedy=0.25)) for n in range(N_ENDINGS)]


@pytest.fixture(scope="module")
def five_seat_cases() -> list[Case]:
    rng = random.Random(SEED + 5)
    return [_case(n, random_ending(rng, five_seats=True, strong=0.5)) for n in range(300)]


def _report(failures: list[tuple[Case, str]]) -> str:
    """The smallest failing position in full, and a count."""
    failures.sort(key=lambda f: (f[0].cards_left, f[0].n))
    case, got = failures[0]
    return (f"{len(failures)} of the endings disagree; smallest (ending #{case.n}, "
            f"{case.cards_left} cards left, {case.to_move} to move):\n"
            f"{deal_to_text(case.deal)}\n"
            f"expected: value {case.value}, cards {names(case.values)}\n"
            f"got:      {got}")


def _last_card_run(deal) -> bool:
    """The player to move, last to the trick, holds two legal cards of a suit with
    different points and no other card in play between them: a position where
    the solver searches only one card of such a run (the trick's side is sure)."""
    st = ref_state(deal)
    if len(st.trick) != 3:
        return False
    hand = st.hands[st.to_move]
    others = [c for h in st.hands if h is not hand for c in h] + list(st.trick)
    legal = ref_legal(hand, st.trick)
    for a in legal:
        for b in legal:
            if (suit_of(a) == suit_of(b) and strength(a) < strength(b) and points([a]) != points([b])
                    and not any(suit_of(c) == suit_of(a) and strength(a) < strength(c) < strength(b)
                                for c in others)):
                return True
    return False


def test_endings_are_varied(cases):
    """The generator covers what it should (so the cross-check means something)."""
    kinds = {(c.cards_left + 3) // 4 for c in cases}
    assert kinds == {1, 2, 3, 4}
    assert {len(c.deal.tricks[-1]) % 4 for c in cases} == {0, 1, 2, 3}       # mid-trick
    assert {c.deal.contract for c in cases} == {"dobbm", "solo"}
    assert any(c.value == 0 for c in cases)                 # defenders' Match
    assert any(c.value == 120 for c in cases)               # declarer's Match
    assert sum(len(c.values) > 1 for c in cases) > len(cases) // 2
    # cases where the card chosen matters
    assert sum(len(set(c.values.values())) > 1 for c in cases) > len(cases) // 10
    # the solver's sure-trick rule applies at the root of many of them
    assert sum(_last_card_run(c.deal) for c in cases) > len(cases) // 50


def test_value_matches_reference(cases):
    s = Solver(tt_mb=16)
    bad = []
    for c in cases:
        sol = s.solve(c.deal)
        v = sol.declarer_points
        ok = (v == c.value and sol.to_move == c.to_move
              and sol.defender_points == 120 - c.value
              and sol.outcome == outcome(c.value)
              and sol.units == units(c.value, c.deal.contract, c.deal.doublings)
              and isinstance(sol.nodes, int) and sol.nodes >= 0)
        if not ok:
            bad.append((c, f"value {v}, to_move {sol.to_move}, defender_points "
                           f"{sol.defender_points}, outcome {sol.outcome}, units {sol.units}"))
    assert not bad, _report(bad)


def test_card_values_match_reference(cases):
    s = Solver(tt_mb=16)
    bad = []
    for c in cases:
        got = s.solve_all_cards(c.deal)
        if got != c.values:
            bad.append((c, f"cards {names(got)}"))
    assert not bad, _report(bad)


def _check_analysis(c: Case, an) -> str | None:
    if an.declarer_points != c.value or dict(an.cards) != c.values:
        return f"value {an.declarer_points}, cards {names(an.cards)}"
    line = tuple(an.line)
    if len(line) != c.cards_left:
        return f"line {[card_name(x) for x in line]} has {len(line)} cards, not {c.cards_left}"
    try:
        pts = ref_line_points(c.deal, line)
    except RefError as e:
        return f"line {[card_name(x) for x in line]} is not playable: {e}"
    if pts != c.value:
        return f"line {[card_name(x) for x in line]} ends with {pts}, not {c.value}"
    if c.values[line[0]] != c.value:
        return f"line starts with {card_name(line[0])} worth {c.values[line[0]]}"
    return None


def test_analysis_line_reaches_the_value(cases):
    s = Solver(tt_mb=16)
    bad = []
    for c in cases:
        why = _check_analysis(c, s.analyze(c.deal))
        if why:
            bad.append((c, why))
    assert not bad, _report(bad)


def test_line_is_best_play_at_every_step(cases):
    """Along the line, every card keeps the value (checked by the reference)."""
    s = Solver(tt_mb=16)
    bad = []
    for c in cases[:300]:
        line = tuple(s.analyze(c.deal).line)
        for k in range(1, len(line)):
            d = ref_play(c.deal, line[:k])
            vals = ref_card_values(d)
            if vals.get(line[k]) != c.value:
                bad.append((c, f"line {[card_name(x) for x in line]}: card {k} "
                               f"{card_name(line[k])} is worth {vals.get(line[k])}"))
                break
    assert not bad, _report(bad)


def test_tiny_table_and_other_order_give_the_same_values(cases):
    s = Solver(tt_mb=1)
    bad = []
    for c in reversed(cases):
        v = s.solve(c.deal).declarer_points
        got = s.solve_all_cards(c.deal)
        if v != c.value or got != c.values:
            bad.append((c, f"tt_mb=1: value {v}, cards {names(got)}"))
    assert not bad, _report(bad)


@pytest.mark.parametrize("tt_mb", [0, -1, MAX_TT_MB + 1, 10 ** 20, 1.5, "64"])
def test_table_size_out_of_range(tt_mb):
    with pytest.raises(SolveError):
        Solver(tt_mb)


def test_fresh_solver_for_each_deal(cases):
    bad = []
    for c in cases[:200]:
        s = Solver(tt_mb=1)
        v = s.solve(c.deal).declarer_points
        if v != c.value:
            bad.append((c, f"fresh solver: value {v}"))
    assert not bad, _report(bad)


def test_every_verb_in_turn_on_one_default_solver(cases):
    """One solver of the default size, its table kept from verb to verb and deal to deal."""
    s = Solver()
    bad = []
    for c in cases[:300]:
        v = s.solve(c.deal).declarer_points
        got = s.solve_all_cards(c.deal)
        why = _check_analysis(c, s.analyze(c.deal))
        if v != c.value or got != c.values or why:
            bad.append((c, f"solve {v}, solve_all_cards {names(got)}, analyze: {why}"))
    assert not bad, _report(bad)


def test_five_seats_dealer_sits_out(five_seat_cases):
    s = Solver(tt_mb=16)
    bad = []
    for c in five_seat_cases:
        v = s.solve(c.deal).declarer_points
        got = s.solve_all_cards(c.deal)
        why = _check_analysis(c, s.analyze(c.deal))
        if v != c.value or got != c.values or why:
            bad.append((c, f"value {v}, cards {names(got)}, analyze: {why}"))
    assert not bad, _report(bad)


def test_finished_deals():
    rng = random.Random(SEED + 8)
    s = Solver(tt_mb=1)
    for _ in range(200):
        deal = random_ending(rng, tricks_left=0, extra=0)
        want = ref_line_points(deal, ())
        sol = s.solve(deal)
        assert sol.declarer_points == want, deal_to_text(deal)
        assert sol.to_move is None
        assert s.solve_all_cards(deal) == {}
        an = s.analyze(deal)
        assert an.declarer_points == want and tuple(an.line) == () and dict(an.cards) == {}


# --- deeper positions -------------------------------------------------------------
def test_five_tricks_left_match_reference():
    """A few endings with five tricks left (the reference needs ~0.5 s each)."""
    rng = random.Random(SEED + 13)
    s = Solver(tt_mb=16)
    bad = []
    for n in range(int(os.environ.get("DOBBM_XCHECK_DEEP", "8"))):
        c = _case(n, random_ending(rng, tricks_left=5, strong=0.5, greedy=0.25))
        got = s.solve_all_cards(c.deal)
        v = s.solve(c.deal).declarer_points
        if v != c.value or got != c.values:
            bad.append((c, f"value {v}, cards {names(got)}"))
    assert not bad, _report(bad)


def test_deep_positions_are_self_consistent():
    """From 5..8 tricks left (no reference): the value is the best card value, each
    card's value is the value of the position after it, the line keeps the value at
    every step, and a 1 MiB table agrees with a 16 MiB one."""
    rng = random.Random(SEED + 21)
    big, tiny = Solver(tt_mb=16), Solver(tt_mb=1)
    for n in range(30):
        deal = random_ending(rng, tricks_left=rng.randint(5, 8), strong=0.7, greedy=0.2)
        st = ref_state(deal)
        an = big.analyze(deal)
        cards = dict(an.cards)
        assert set(cards) == set(ref_legal(st.hands[st.to_move], st.trick))
        best = max(cards.values()) if st.to_move == st.declarer else min(cards.values())
        assert an.declarer_points == best == big.solve(deal).declarer_points, deal_to_text(deal)
        assert tiny.solve(deal).declarer_points == best, deal_to_text(deal)
        for card, v in cards.items():
            assert big.solve(ref_play(deal, [card])).declarer_points == v, \
                f"{deal_to_text(deal)}\nafter {card_name(card)}"
        line = tuple(an.line)
        assert ref_line_points(deal, line) == best, deal_to_text(deal)
        for k in range(1, len(line), 3):
            assert big.solve(ref_play(deal, line[:k])).declarer_points == best, \
                f"{deal_to_text(deal)}\nafter {[card_name(x) for x in line[:k]]}"


def test_table_kept_across_positions_and_bonuses(cases):
    """Table entries hold whatever the bonus and the points taken (``keep_table=True``).

    One 1 MiB table is kept across every ending, each solved with its own bonus,
    with smaller ones (0 included) and with points moved from the tricks taken
    to the bonus; the values must be those of a fresh table each time (and
    the reference's for the deal's own bonus).
    """
    from dobbm_solver.deal import replay

    shared = Solver(tt_mb=1)._core
    fresh = Solver(tt_mb=4)._core
    bad = []
    for c in cases[:1500]:
        deal = c.deal
        st = replay(deal, check=False)
        if st.finished:
            continue
        active = deal.active_seats
        d = active.index(deal.declarer)
        order = tuple(active[(d + i) % 4] for i in range(4))
        hands = [deal.hands[s] for s in order]
        base = (hands, order.index(st.leader), list(st.trick))
        pts, won = st.declarer_trick_points, st.declarer_tricks > 0
        # the other bonuses keep the deck's 120 points (values stay in 0..120)
        room = deal.bonus_points + 1
        variants = [(pts, won, deal.bonus_points)] + [(pts, won, b) for b in (0, 17, 44) if b < room]
        if won and pts >= 5:
            variants.append((pts - 5, won, deal.bonus_points + 5))
        for k, (p, w, b) in enumerate(variants):
            shared.set_position(*base, p, w, b, True)
            got = shared.value()
            fresh.set_position(*base, p, w, b)
            want = c.value if k == 0 else fresh.value()
            if got != want:
                bad.append((c, f"kept table, points {p}, won {w}, bonus {b}: {got}, fresh {want}"))
    assert not bad, _report(bad)
