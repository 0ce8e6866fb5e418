"""Advice a player can read: the advice tables' paired differences and the too-few mark,
solve's cards best first, a finished hand said as played, the arena's legend and
significance, and an arena table's play replayed by review and explore."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from views import DISCARD, view_of

from dobbm_solver import cli
from dobbm_solver.analyzer import analyze_discard
from dobbm_solver.analyzer.advice import OptionEstimate
from dobbm_solver.analyzer.estimate import RANK_MIN_SAMPLES, PlainMean, rankable
from dobbm_solver.analyzer.template import Ranking, compared
from dobbm_solver.cards import card_name
from dobbm_solver.notation import parse_deal_line
from dobbm_solver.report.advice import advice_dict, advice_text

HANDS = Path(__file__).resolve().parents[1] / "hands"


def run(*args: str) -> str:
    r = CliRunner().invoke(cli.main, list(args))
    assert r.exit_code == 0, r.output
    return r.stdout


def table_rows(text: str) -> list[list[str]]:
    """The option rows of an advice table: the last seven columns of each, in order."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.split()[:2] == ["option", "units"]) + 1
    end = next(i for i, ln in enumerate(lines) if ln.startswith("  recommendation:"))
    return [ln.split()[-7:] for ln in lines[start:end] if not ln.startswith("  too few samples")]


def shown(x: float | None, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def check_differences(obj: dict, text: str) -> None:
    """Each option's paired difference as the JSON gives it: 0 for the recommendation; where the
    option has every sample of the recommendation (or was estimated through it, as a lay-away),
    its units minus the recommendation's; and the text shows the same numbers."""
    opts = obj["options"]
    rec = opts[0]
    assert rec["option"] == obj["recommendation"] and rec["difference"] == 0
    assert rec["difference_samples"] == rec["samples"] and rec["ranked"]
    for o in opts[1:]:
        assert 1 <= o["difference_samples"] <= min(o["samples"], rec["samples"])
        if o["samples"] == rec["samples"] or obj["command"] == "discard":
            assert o["difference"] == pytest.approx(o["ev_units"] - rec["ev_units"], abs=2e-4)
        assert o["difference"] == pytest.approx(o["shared_units"] - o["shared_recommendation_units"], abs=2e-4)
        if o["samples"] == o["difference_samples"] and obj["command"] != "discard":
            assert o["shared_units"] == pytest.approx(o["ev_units"], abs=1e-4)
        if o["difference_samples"] >= 2:
            assert o["difference_stderr"] is not None and o["difference_stderr"] >= 0
        assert o["ranked"] == rankable(o["difference_samples"], rec["samples"])
    flags = [o["ranked"] for o in opts]
    assert flags == sorted(flags, reverse=True)          # the ranked ones first
    rows = table_rows(text)
    assert len(rows) == len(opts)
    for k, (o, row) in enumerate(zip(opts, rows)):
        units, diff, diff_err, _, _, _, samples = row
        assert units == format(o["ev_units"], "+.2f") and samples == str(o["samples"])
        assert diff == ("-" if k == 0 else format(o["difference"], "+.2f"))
        assert diff_err == ("-" if k == 0 else shown(o["difference_stderr"], ".2f"))
    said = "too few samples to rank" in text
    assert said == (not all(flags))


@pytest.mark.parametrize("command,file,samples", [
    ("play", "play.yaml", "40"), ("double", "double.yaml", "40"), ("bid", "bid.yaml", "24"),
])
def test_advice_differences_match_the_options(command: str, file: str, samples: str) -> None:
    args = [command, str(HANDS / file), "-n", samples, "--seed", "2", "-j", "1", "-q"]
    obj = json.loads(run(*args, "--json"))
    text = run(*args)
    check_differences(obj, text)
    assert all(o["difference_samples"] == o["samples"] for o in obj["options"])   # fixed: every sample shared
    assert obj["units"] in text and "vs best" in text


def test_adaptive_bid_pairs_on_the_samples_shared() -> None:
    obj = json.loads(run("bid", str(HANDS / "bid.yaml"), "--seed", "1", "-j", "1", "-q", "--json"))
    check_differences(obj, run("bid", str(HANDS / "bid.yaml"), "--seed", "1", "-j", "1", "-q"))
    left = [o for o in obj["options"] if o["samples"] < obj["options"][0]["samples"]]
    assert left, "the race left an option behind"
    for o in left:
        assert o["difference_samples"] == o["samples"]


def test_too_few_samples_are_not_ranked() -> None:
    advice = analyze_discard(view_of(DISCARD, "discard"), samples=8, seed=1, jobs=1,
                             stages=((None, 1), (6, 2)))
    obj = advice_dict(advice)
    text = advice_text(advice, "t")
    check_differences(obj, text)
    few = [o for o in obj["options"] if not o["ranked"]]
    assert few and all(o["samples"] < 8 for o in few)
    assert all(o["ranked"] for o in obj["options"] if o["samples"] == 8)
    lines = text.splitlines()
    mark = next(i for i, ln in enumerate(lines) if "too few samples to rank" in ln)
    assert f"under {RANK_MIN_SAMPLES} shared" in lines[mark]
    after = [ln.split()[-1] for ln in lines[mark + 1:] if ln.startswith("  ") and ln.split()[-1].isdigit()]
    assert after and all(int(s) < 8 for s in after)


def test_compared_pairs_on_shared_samples() -> None:
    def est(option: str, ev: float, n: int) -> OptionEstimate[str]:
        return OptionEstimate(option=option, ev_units=ev, samples=n)
    pays = {"a": {i: float(i % 3) for i in range(20)}, "b": {i: float(i % 3) - 1.0 for i in range(20)},
            "c": {i: 5.0 for i in range(4)}}
    ranking = compared(lambda idx: PlainMean(), Ranking([est("a", 1.0, 20), est("c", 0.5, 4), est("b", 0.0, 20)],
                                                         pays))
    a, b, c = ranking.estimates
    assert [a.option, b.option, c.option] == ["a", "b", "c"]        # c (4 shared of 20) after the ranked
    assert b.difference == pytest.approx(-1.0) and b.difference_stderr == pytest.approx(0.0)
    assert b.ranked and not c.ranked and c.difference_samples == 4
    assert c.difference == pytest.approx(5.0 - (0 + 1 + 2 + 0) / 4)
    assert rankable(RANK_MIN_SAMPLES, 100) and not rankable(RANK_MIN_SAMPLES - 1, 100) and rankable(3, 3)


# -- solve -------------------------------------------------------------------


def card_rows(text: str) -> list[tuple[list[str], int, str]]:
    """solve's card lines: (cards, the declarer's points, best or the cost)."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if " to play; " in ln) + 1
    out = []
    for ln in lines[start:]:
        if not ln.startswith("    "):
            break
        words = ln.split()
        k = next(i for i, w in enumerate(words) if w.isdigit())
        out.append((words[:k], int(words[k]), " ".join(words[k + 1:])))
    return out


@pytest.mark.parametrize("name,mover_is_declarer", [("example.yaml", True), ("midplay.yaml", False)])
def test_solve_lists_cards_best_first_for_the_mover(name: str, mover_is_declarer: bool) -> None:
    obj = json.loads(run("solve", str(HANDS / name), "--json"))
    text = run("solve", str(HANDS / name), "--no-diagram")
    assert (obj["to_move"] == obj["declarer"]) == mover_is_declarer
    rows = card_rows(text)
    values = [v for _, v, _ in rows]
    assert values == sorted(values, reverse=mover_is_declarer)
    assert len(set(values)) == len(values)                          # equal cards share a line
    best = max(obj["cards"].values()) if mover_is_declarer else min(obj["cards"].values())
    assert sorted(obj["best"]) == sorted(c for c, v in obj["cards"].items() if v == best)
    assert rows[0][2] == "best" and sorted(rows[0][0]) == sorted(obj["best"])
    for cards, v, said in rows[1:]:
        assert said.startswith(f"costs {abs(v - best)} point")
        assert all(obj["cards"][c] == v for c in cards)
    assert "lower is better for the defenders" in text if not mover_is_declarer else "higher is better" in text


def test_a_finished_hand_is_the_result_as_played() -> None:
    text = run("solve", str(HANDS / "finished.yaml"))
    assert "result as played: Bert wins with 76 points" in text
    assert "dobbm review" in text and "best play" not in text
    obj = json.loads(run("solve", str(HANDS / "finished.yaml"), "--json"))
    assert obj["finished"] and obj["best"] == [] and obj["to_move"] is None


# -- the arena ----------------------------------------------------------------


@pytest.fixture(scope="module")
def arena_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict, Path, Path]:
    where = tmp_path_factory.mktemp("arena")
    rows, lines = where / "rows.jsonl", where / "plays.txt"
    args = ["arena", "rule", "open", "--deals", "4", "--seed", "1", "-j", "1", "-q", "--per-decision"]
    text = run(*args, "-o", str(rows), "--lines", str(lines))
    obj = json.loads(run(*args, "--json"))
    return text, obj, rows, lines


def test_arena_legend_and_significance(arena_run: tuple[str, dict, Path, Path]) -> None:
    text, obj, _, _ = arena_run
    assert "what the columns say:" in text
    for words in ("A, B: the players compared", "per decision (A - A with B's): what A's strategy",
                  "units a hand: a seat's net units", "not significant: within 2", "contracts: how the 20"):
        assert words in text
    diffs = [("A - B (paired)", obj["difference"])] + [(f"  {d}", m) for d, m in obj["per_decision"].items()]
    for label, m in diffs:
        assert m["significant"] == (abs(m["units_per_hand"]) > 2 * m["stderr"])
        line = next(ln for ln in text.splitlines() if ln.startswith(label))
        if label.strip() in obj["per_decision"] and m["a"] == m["b"]:
            assert line.endswith("(same strategy)")
        else:
            assert line.endswith("  not significant") == (not m["significant"])
            assert line.endswith("  significant") == m["significant"]
    assert any(not m["significant"] for _, m in diffs)


def test_arena_rows_replay_in_review_and_explore(arena_run: tuple[str, dict, Path, Path]) -> None:
    _, _, rows, lines = arena_run
    tables = [t for line in rows.read_text().splitlines()[1:] for t in json.loads(line)["tables"].values()]
    played = [t for t in tables if t["line"] is not None]
    assert played and all(t["declarer"] is None for t in tables if t["line"] is None)
    text = lines.read_text().splitlines()
    deal_lines = [ln for ln in text if not ln.startswith("#")]
    assert {t["line"] for t in played} == set(deal_lines)
    for t in played[:3]:
        deal = parse_deal_line(t["line"])
        assert t["tricks"] == [" ".join(card_name(c) for c in tr) for tr in deal.tricks]
        review = json.loads(run("review", "--deal", t["line"], "--json"))
        assert review["declarer_points"] == t["points"] and review["finished"]
        assert review["declarer"] == t["declarer"] and review["doublings"] == t["doublings"]
        steps = CliRunner().invoke(cli.main, ["explore", "--deal", t["line"], "--json"],
                                   input="next\n" * 32 + "quit\n")
        assert steps.exit_code == 0, steps.output
        last = json.loads(steps.stdout.splitlines()[-1])
        assert last["played"] == " ".join(t["tricks"]).split()
        assert last["to_play"] is None and last["declarer_points"] == t["points"]


def test_arena_lines_cover_resumed_and_played_deals(tmp_path: Path) -> None:
    rows, lines = tmp_path / "rows.jsonl", tmp_path / "plays.txt"
    args = ["arena", "rule", "rule", "--seed", "3", "-j", "1", "-q", "-o", str(rows)]
    run(*args, "--deals", "2")
    run(*args, "--deals", "3", "--lines", str(lines))
    text = lines.read_text().splitlines()
    assert text[0].startswith("# dobbm arena rule rule, seed 3")
    named = sorted(ln.split(",")[0] for ln in text if ln.startswith("# deal "))
    assert named == ["# deal 0"] * 5 + ["# deal 1"] * 5 + ["# deal 2"] * 5
    written = [t["line"] for ln in rows.read_text().splitlines()[1:] for t in json.loads(ln)["tables"].values()]
    assert sorted(ln for ln in text if not ln.startswith("#")) == sorted(x for x in written if x is not None)


def test_an_arena_file_without_lines_is_refused(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    args = ["arena", "rule", "rule", "--seed", "3", "-j", "1", "-q", "--deals", "1", "-o", str(rows)]
    run(*args)
    header, *body = rows.read_text().splitlines()
    old = json.loads(header)
    old["dobbm_arena"]["version"] = 1
    rows.write_text(json.dumps(old) + "\n" + "\n".join(body) + "\n")
    r = CliRunner().invoke(cli.main, args)
    assert r.exit_code == 2 and "version: 1 there, 2 now" in r.stderr


def test_arena_lines_may_not_be_the_result_file(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    r = CliRunner().invoke(cli.main, ["arena", "rule", "rule", "--deals", "1", "-j", "1", "-q",
                                      "-o", str(rows), "--lines", str(rows)])
    assert r.exit_code == 2 and "is the result file" in r.stderr and not rows.exists()
