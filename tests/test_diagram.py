"""The diagram of ``solve``, ``check``, ``review`` and ``score``: the hands by suit, the
Dobb or lay-away, the tricks with running totals, the result split into tricks and bonus.

The diagram is read back from the printed text: every card of the deck shows once
(hands, Dobb or lay-away, cards played); the running totals follow the tricks and
end at the declarer's result; ``--no-diagram`` prints the text as it was before the
diagram; ``--json`` is the same with or without it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from randdeals import random_deal

from dobbm_solver import cli
from dobbm_solver.cards import NUM_CARDS, TOTAL_POINTS, card_name, card_points, parse_card
from dobbm_solver.deal import Deal, final_points, replay, trick_seats
from dobbm_solver.handfile import load_hand_file, parse_deal_text
from dobbm_solver.playout import play_hand, rule_of_thumb_strategy
from dobbm_solver.report.check import check_text
from dobbm_solver.report.diagram import DOBB_MARK, result_split, trick_rows
from dobbm_solver.report.review import review_text
from dobbm_solver.report.score import score_text
from dobbm_solver.report.solve import solve_text
from dobbm_solver.review import review_hand
from dobbm_solver.scoring import score_hand
from dobbm_solver.solver import Solver

HANDS = Path(__file__).resolve().parent.parent / "hands"
SUIT_COLUMNS = ("H", "E", "L", "S")


def run(*args: str):
    return CliRunner().invoke(cli.main, list(args), catch_exceptions=False)


@lru_cache(maxsize=1)
def solver() -> Solver:
    return Solver(16)


# --------------------------------------------------------------------------
# reading the diagram back


def _cards(names: str) -> list[int]:
    return [parse_card(n.rstrip(DOBB_MARK)) for n in names.split()]


def read_hands(text: str) -> tuple[dict[str, list[int]], list[int]]:
    """The hands of the diagram (seat: cards) and the cards of its Dobb or lay-away line."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.lstrip("# ").startswith("hands "))
    header = re.split(r"\s{2,}", lines[start + 1].strip("# "))
    assert header == ["seat", "H trumps", "E", "L", "S"]
    hands: dict[str, list[int]] = {}
    k = start + 2
    while not re.match(r"^#?\s+(Dobb|lay-away): ", lines[k]):
        seat, *cols = re.split(r"\s{2,}", lines[k].lstrip("#").strip())
        assert len(cols) == 4                      # a void shows as "-"
        cards = []
        for suit, col in zip(SUIT_COLUMNS, cols):
            cards += [] if col == "-" else _cards(" ".join(suit + r for r in col.split()))
        hands[seat.removesuffix(" (declarer)")] = cards
        k += 1
    beside = _cards(lines[k].split(": ", 1)[1].split("  (")[0])
    return hands, beside


def read_table(text: str) -> tuple[list[str], list[str], int | None]:
    """The trick table: its seat columns, its rows and the index of the row the best
    line starts in (None: no best line)."""
    lines = [ln.lstrip("#") for ln in text.splitlines()]
    start = next(i for i, ln in enumerate(lines) if ln.startswith("  trick  lead "))
    seats = re.split(r"\s{2,}", lines[start].split("|")[0].strip())[2:-2]
    rows, line_at = [], None
    for ln in lines[start + 1:]:
        if ln.startswith("  (right of |"):
            break
        if ln.startswith("  -- best line from here"):
            line_at = len(rows)
            continue
        rows.append(ln)
    return seats, rows, line_at


def table_cells(text: str) -> list[dict[str, int]]:
    """The card of each seat in each row of the trick table, read by the columns of its
    header (cost marks such as ``-20!`` after a card dropped)."""
    lines = [ln.lstrip("#") for ln in text.splitlines()]
    header = next(ln for ln in lines if ln.startswith("  trick  lead "))
    starts = [m.start() for m in re.finditer(r"\S+", header.split("|")[0])]
    bounds = list(zip(starts[2:-3], starts[3:-2]))             # the seat columns, up to "pts"
    seats = [header[a:b].strip() for a, b in bounds]
    _, rows, _ = read_table(text)
    out = []
    for row in rows:
        cells = {seat: row[a:b].split() for seat, (a, b) in zip(seats, bounds)}
        out.append({seat: parse_card(words[0]) for seat, words in cells.items() if words})
    return out


def table_cards(text: str, deal: Deal) -> list[list[int]]:
    """The cards of each row of the trick table in play order (from the row's leader)."""
    _, rows, _ = read_table(text)
    out = []
    for row, cells in zip(rows, table_cells(text)):
        order = trick_seats(deal.active_seats, row.split()[1])
        out.append([cells[seat] for seat in order if seat in cells])
    return out


def split_line(text: str, deal: Deal) -> tuple[int, int, int] | None:
    m = re.search(rf"^#?  {re.escape(deal.declarer)} (\d+) = (\d+) in tricks \+ (\d+) "
                  r"(laid away|in the Dobb); defenders (\d+)$", text, re.M)
    if m is None:
        return None
    assert m.group(4) == ("laid away" if deal.contract == "dobbm" else "in the Dobb")
    assert int(m.group(1)) + int(m.group(5)) == TOTAL_POINTS
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def check_totals(deal: Deal, text: str) -> list[list[int]]:
    """Each finished row's totals are the previous ones plus its points for the winner's side."""
    seats, rows, _ = read_table(text)
    assert seats == list(deal.active_seats)
    cards = table_cards(text, deal)
    dt = ft = 0
    for row, cs in zip(rows, cards):
        left, right = row.split("|")
        words = left.split()
        if len(cs) < 4:
            assert right.strip() == "" and words[-1] == "-"
            continue
        pts, winner = int(words[-2]), words[-1]
        assert pts == sum(card_points(c) for c in cs)
        if winner == deal.declarer:
            dt += pts
        else:
            assert winner in deal.defenders
            ft += pts
        assert [int(t) for t in right.split()] == [dt, ft]
    return cards


# --------------------------------------------------------------------------
# the deals


def finished_deal(rng: random.Random) -> Deal:
    """A random deal played out by the rule-of-thumb player."""
    while (deal := random_deal(rng)).needs_discard:
        pass
    rule = rule_of_thumb_strategy()
    return play_hand(deal, {s: rule for s in deal.active_seats})


def mid_play_deals() -> list[Deal]:
    rng = random.Random(11)
    out = []
    while len(out) < 12:
        deal = random_deal(rng)
        played = sum(len(t) for t in deal.tricks)
        if not deal.needs_discard and 8 <= played < 32:
            out.append(deal)
    return out


FINISHED = [finished_deal(random.Random(n)) for n in range(12)]
MID_PLAY = mid_play_deals()


def all_once(cards: list[int]) -> None:
    counts = Counter(cards)
    assert sorted(counts) == list(range(NUM_CARDS)), "a card is missing"
    assert set(counts.values()) == {1}, [card_name(c) for c, n in counts.items() if n > 1]


# --------------------------------------------------------------------------
# every card once


@pytest.mark.parametrize("deal", MID_PLAY, ids=lambda d: f"{sum(len(t) for t in d.tricks)} played")
def test_check_shows_every_card_once(deal):
    text = check_text(deal, "t", diagram=True)
    hands, beside = read_hands(text)
    assert list(hands) == list(deal.active_seats)
    for s in deal.active_seats:                               # the cards held now
        assert sorted(hands[s]) == sorted(_bits(deal.hands[s]))
    _, rows, line_at = read_table(text)
    assert line_at is None
    played = [c for cs in table_cards(text, deal) for c in cs]
    assert played == [c for t in deal.tricks for c in t]
    all_once([c for cs in hands.values() for c in cs] + beside + played)
    plain = check_text(deal, "t")
    assert text.startswith(plain + "\n")
    assert all(ln.startswith("#") for ln in text[len(plain) + 1:].splitlines())   # YAML comments
    assert parse_deal_text(text, "t") == [deal]                 # the output reads back as it was


@pytest.mark.parametrize("deal", MID_PLAY[:6], ids=lambda d: f"{sum(len(t) for t in d.tricks)} played")
def test_solve_shows_every_card_once_and_the_line(deal):
    best = solver().solve_best(deal, analyze=True)
    text = solve_text(best, "t", diagram=True)
    hands, beside = read_hands(text)
    _, rows, line_at = read_table(text)
    cards = table_cards(text, deal)
    flat = [c for cs in cards for c in cs]
    n_played = sum(len(t) for t in deal.tricks)
    assert line_at == n_played // 4                           # the row the best line starts in
    assert flat[:n_played] == [c for t in deal.tricks for c in t]
    assert flat[n_played:] == list(best.analysis.line)
    all_once([c for cs in hands.values() for c in cs] + beside + flat[:n_played])
    # the line plays exactly the cards held now
    assert sorted(flat[n_played:]) == sorted(c for cs in hands.values() for c in cs)


@pytest.mark.parametrize("deal", FINISHED[:6], ids=lambda d: d.contract)
def test_score_and_review_show_the_hands_at_the_opening_lead(deal):
    for text in (score_text(deal, score_hand(deal), "t", diagram=True),
                 review_text(review_hand(solver(), deal), "t", diagram=True)):
        hands, beside = read_hands(text)
        assert "hands at the opening lead (" in text
        all_once([c for cs in hands.values() for c in cs] + beside)
        _, rows, _ = read_table(text)
        played = [c for cs in table_cards(text, deal) for c in cs]
        assert played == [c for t in deal.tricks for c in t]
        by_seat: dict[str, set[int]] = {seat: set() for seat in hands}
        for row in table_cells(text):
            for seat, c in row.items():
                by_seat[seat].add(c)
        assert by_seat == {seat: set(cs) for seat, cs in hands.items()}   # a seat plays what it held


def test_review_before_the_first_card_shows_the_hands():
    deal = load_hand_file(HANDS / "example.yaml")[0]
    assert not deal.tricks
    plain = review_text(review_hand(solver(), deal), "t")
    text = review_text(review_hand(solver(), deal), "t", diagram=True)
    assert plain.endswith("no card played yet: nothing to review") and text.startswith(plain + "\n")
    hands, beside = read_hands(text)
    all_once([c for cs in hands.values() for c in cs] + beside)


def _bits(cs: int) -> list[int]:
    return [c for c in range(NUM_CARDS) if cs >> c & 1]


# --------------------------------------------------------------------------
# running totals and the split


@pytest.mark.parametrize("deal", FINISHED, ids=lambda d: d.contract)
def test_totals_add_up_to_the_result(deal):
    sc = score_hand(deal)
    text = score_text(deal, sc, "t", diagram=True)
    check_totals(deal, text)
    _, rows, _ = read_table(text)
    last = [int(t) for t in rows[-1].split("|")[1].split()]
    state = replay(deal, check=False)
    split = split_line(text, deal)
    if state.declarer_tricks == 0:                            # the Match rule: nothing counts
        assert split is None and f"  {deal.declarer} 0: no trick taken" in text
        return
    assert split is not None
    final, in_tricks, bonus = split
    assert final == in_tricks + bonus == sc.declarer_points == final_points(deal, state)
    assert in_tricks == last[0] and bonus == deal.bonus_points
    assert last[0] + last[1] + bonus == TOTAL_POINTS


@pytest.mark.parametrize("deal", MID_PLAY[:6], ids=lambda d: f"{sum(len(t) for t in d.tricks)} played")
def test_solve_split_is_the_best_play_value(deal):
    best = solver().solve_best(deal, analyze=True)
    text = solve_text(best, "t", diagram=True)
    check_totals(deal, text)
    split = split_line(text, deal)
    if split is None:
        assert f"  {deal.declarer} 0: no trick taken" in text and best.analysis.declarer_points == 0
    else:
        assert split[0] == split[1] + split[2] == best.analysis.declarer_points
        assert split[2] == deal.bonus_points


@pytest.mark.parametrize("deal", FINISHED[:4], ids=lambda d: d.contract)
def test_review_totals_and_split(deal):
    review = review_hand(solver(), deal)
    text = review_text(review, "t", diagram=True)
    check_totals(deal, text)
    split = split_line(text, deal)
    if split is not None:
        assert split[0] == review.declarer_points
    else:
        assert review.declarer_points == 0


def test_split_when_the_declarer_takes_no_trick():
    deal = FINISHED[0]
    rows = [dataclasses.replace(r, winner=deal.defenders[0]) for r in trick_rows(deal)]
    word = "laid away" if deal.contract == "dobbm" else "in the Dobb"
    assert result_split(deal, rows) == (f"  {deal.declarer} 0: no trick taken, so the "
                                        f"{deal.bonus_points} {word} do not count; defenders 120")


def test_dobb_cards_marked_where_they_are():
    (deal,) = load_hand_file(HANDS / "finished.yaml")
    text = run("score", str(HANDS / "finished.yaml")).output
    assert f"{DOBB_MARK}: taken up from the Dobb" in text
    picture = text.split("hands at the opening lead")[1].split("  trick  lead")[0]
    marked = []
    for ln in picture.splitlines()[2:]:
        if ln.startswith("    lay-away: "):
            marked += [parse_card(w.rstrip(DOBB_MARK)) for w in ln.split("  (")[0].split()[1:]
                       if w.endswith(DOBB_MARK)]
            continue
        _, *cols = re.split(r"\s{2,}", ln.strip())
        for suit, col in zip(SUIT_COLUMNS, cols):
            marked += [parse_card(suit + w.rstrip(DOBB_MARK)) for w in col.split() if w.endswith(DOBB_MARK)]
    assert sorted(marked) == _bits(deal.dobb)


# --------------------------------------------------------------------------
# the commands: --no-diagram is the old text, --json is unchanged

OLD_TEXT = {
    ("score", "finished.yaml"): """\
TITLE: Dobbm by Bert, 1 doubling
  Bert 76 points (5 tricks), defenders 44: win
      Anna -8 units
      Cora -8 units
      Dave -8 units
      Bert +24 units
  (units: each seat's net units for the hand; Bert's are the three defenders' payments added)
""",
    ("solve", "midplay.yaml"): """\
TITLE: Solo by Anna
  best play: Anna wins with 69 points, defenders 51; each defender pays Anna 4 units
  Cora (defender) to play; the declarer's final points after each card, best first (lower is better for the defenders):
    EA L10   69  best
    E10      70  costs 1 point (0 units)
    EO       77  costs 8 points (4 units)
    L8       79  costs 10 points (4 units)
  (cost: what the card loses the defenders against the best card, in points and in units of one payment)
  best line:
    4.   Anna leads   SK S10  EA  S9   won by Bert
    5.   Bert leads   LO L10  LA  LU   won by Dave
    6.   Dave leads   L6  H8  L7  L8   won by Anna
    7.   Anna leads   HU  S7  EO  L9   won by Anna
    8.   Anna leads   HO  SU E10  EU   won by Anna
  nodes searched: NODES
""",
    ("check", "midplay.yaml"): """\
# TITLE: ok
# solo Anna | Anna: HO HU H8 LU | Bert: LO L7 SU S7 | Cora: EA E10 EO L10 L8 | Dave: EU LA L9 L6 S9 \
| dobb: H10 H7 EK LK | tricks: HA H6 E7 E8, HK H9 E9 E6, SA S6 SO S8, SK S10
seats: [Anna, Bert, Cora, Dave]
declarer: Anna
contract: solo
hands:
  Anna: HO HU H8 LU
  Bert: LO L7 SU S7
  Cora: EA E10 EO L10 L8
  Dave: EU LA L9 L6 S9
dobb: H10 H7 EK LK
tricks:
- HA H6 E7 E8
- HK H9 E9 E6
- SA S6 SO S8
- SK S10
# as dealt, the 8 cards each seat was dealt (dealt: instead of hands:):
# solo Anna dealt | Anna: HA HK HO HU H8 LU SA SK | Bert: H9 H6 LO L7 S10 SU S7 S6 | Cora: EA E10 EO E9 E7 L10 L8 SO \
| Dave: EU E8 E6 LA L9 L6 S9 S8 | dobb: H10 H7 EK LK | tricks: HA H6 E7 E8, HK H9 E9 E6, SA S6 SO S8, SK S10
# dealt:
#   Anna: HA HK HO HU H8 LU SA SK
#   Bert: H9 H6 LO L7 S10 SU S7 S6
#   Cora: EA E10 EO E9 E7 L10 L8 SO
#   Dave: EU E8 E6 LA L9 L6 S9 S8
""",
    ("review", "played.yaml"): """\
TITLE: review: Dobbm by Anna
  best play from the opening lead: Anna 74 points (win)
  as played: Anna 71 points (win); each defender pays Anna 3 units
  lay-away EU LU L6 SK: Anna 74 points with open cards; best LU L6 SK SU, 78 points; \
this one ranks 5 of 383: cost 4 points, 1 unit
  doubling, judged at 74 points with open cards (units of one payment):
    no Schwacher: right, it would have cost the defenders 3 units
  trick  lead  Anna     Bert     Cora     Dave     pts  won by
      1  Anna  HA -20!  H6       HO       H7        14  Anna
      2  Anna  EA       E8       E7       E9        11  Anna
      3  Anna  SA       SO       S6       S9        14  Anna
      4  Anna  S7       EO       S8       S10       13  Dave
      5  Dave  HU       LO       L7       L8 -17!    5  Anna
      6  Anna  SU       EK       H10      H8        16  Cora
      7  Cora  HK       LK       LA       L9        19  Anna
      8  Anna  E6       L10      E10      H9        20  Dave
  (-N: the card cost its side N points; ! it changed the outcome, * the units; points are the declarer's)
  costly cards, best instead:
    trick 1  Anna  HA   cost 20  (74 -> 54, win -> loss, 5 units)  best: EA SA
    trick 5  Dave  L8   cost 17  (54 -> 71, loss -> win, 5 units)  best: H9 H8
  per player (lost to the own side; units: of one payment):
    Anna  declarer  1 costly card    20 points   5 units
    Bert  defender  0 costly cards    0 points   0 units
    Cora  defender  0 costly cards    0 points   0 units
    Dave  defender  1 costly card    17 points   5 units
  first card that changed the result: trick 1, Anna HA (74 -> 54, win -> loss, 5 units)
""",
}
"""The text of these commands before the diagram (``TITLE``: the file's path; ``NODES``: the
nodes searched, as ``--json`` gives them)."""


@pytest.mark.parametrize("command,name", sorted(OLD_TEXT))
def test_no_diagram_is_the_old_text(command, name):
    path = str(HANDS / name)
    plain = run(command, path, "--no-diagram")
    assert plain.exit_code == 0
    expected = OLD_TEXT[command, name].replace("TITLE", path)
    if command == "solve":   # the node count is the core's, not the text's
        expected = expected.replace("NODES", str(json.loads(run("solve", path, "--json").output)["nodes"]))
    assert plain.output == expected
    full = run(command, path)
    assert full.exit_code == 0 and full.output != plain.output
    assert "hands " in full.output and "  trick  lead " in full.output


EVERY = [(c, n) for c in ("solve", "check", "score", "review")
         for n in ("example.yaml", "midplay.yaml", "five_players.yaml", "finished.yaml", "played.yaml",
                   "revoke.yaml", "discard_study.yaml")]


@pytest.mark.parametrize("command,name", EVERY)
def test_json_the_same_with_or_without_the_diagram(command, name):
    path = str(HANDS / name)
    a, b = run(command, path, "--json"), run(command, path, "--json", "--no-diagram")
    assert a.exit_code == b.exit_code
    assert a.output == b.output
    if a.exit_code == 0:
        for line in a.output.splitlines():
            obj = json.loads(line)
            assert "diagram" not in obj and "hands now" not in line


@pytest.mark.parametrize("command,name", EVERY)
def test_the_diagram_only_adds_lines(command, name):
    """Every line of the plain text is in the text with the diagram, in the same order,
    but the tables the diagram's trick table replaces (solve's best line, review's tricks)."""
    path = str(HANDS / name)
    plain, full = run(command, path, "--no-diagram"), run(command, path)
    assert plain.exit_code == full.exit_code
    if plain.exit_code:
        assert plain.output == full.output
        return
    kept = [ln for ln in plain.output.splitlines()
            if not (command == "solve" and (ln == "  best line:" or " leads " in ln))]
    if command == "review" and "  (-N: " in plain.output:       # the table gains running totals
        a = next(i for i, ln in enumerate(kept) if ln.startswith("  trick  lead "))
        b = next(i for i, ln in enumerate(kept) if ln.startswith("  (-N: "))
        kept[a:b] = []
    it = iter(full.output.splitlines())
    assert all(any(ln == f for f in it) for ln in kept)


def test_help_names_the_option():
    for command in ("solve", "check", "score", "review"):
        out = run(command, "--help").output
        assert "--no-diagram" in out and "shown by default" in out
