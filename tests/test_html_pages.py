"""The --html pages: what each command's page holds, self-contained and escaped, and the
policy of the file written (never over a file dobbm did not write)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dobbm_solver.handfile import load_specs, spec_to_deal
from dobbm_solver.pagefile import PageFileError, write_page
from dobbm_solver.report.html import GENERATOR, review_page, solve_page
from dobbm_solver.review import deal_before_play, review_hand
from dobbm_solver.solver import Solver

ROOT = Path(__file__).resolve().parents[1]
HANDS = ROOT / "hands"


def dobbm(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dobbm_solver.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, input=input)


def self_contained(page: str) -> None:
    """Nothing is fetched: no external script, style, font, image or frame."""
    assert page.startswith("<!DOCTYPE html>") and GENERATOR in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page, re.I)
    assert "@import" not in page and "url(" not in page
    assert "<link" not in page and "<iframe" not in page


def test_review_page_holds_every_card_value_and_cost(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    out = dobbm("review", "--json", "--html", str(page), str(HANDS / "played.yaml"))
    assert out.returncode == 0, out.stderr
    review = json.loads(out.stdout.splitlines()[0])
    text = page.read_text(encoding="utf-8")
    self_contained(text)
    cells = re.findall(r'<td class="tc[^"]*" data-step="(\d+)" data-seat="[^"]*" data-card="(\w+)" data-note="[^"]*">'
                       r'.*?<span class="pts">(\d+)</span>(.*?)</span></td>', text)
    assert len(cells) == 32
    for (step, card, pts, mark), r in zip(cells, review["cards"]):
        assert (card, int(pts)) == (r["card"], r["after"])
        assert (f"−{r['cost']}" in mark) if r["cost"] else ("✓" in mark)
    for suit in ("E", "L", "H", "S"):
        assert f'id="suit-{suit}"' in text
    assert 'class="stepper" hidden' in text and "@media print" in text


def test_solve_page_lists_the_card_values_and_the_line(tmp_path: Path) -> None:
    page = tmp_path / "s.html"
    out = dobbm("solve", "--json", "-q", "--html", str(page), str(HANDS / "midplay.yaml"), str(HANDS / "example.yaml"))
    assert out.returncode == 0, out.stderr
    text = page.read_text(encoding="utf-8")
    self_contained(text)
    for line in out.stdout.splitlines():
        solved = json.loads(line)
        for card, points in solved["cards"].items():
            assert f'data-card="{card}" data-points="{points}"' in text
    assert text.count('<section class="deal">') == 2
    assert 'class="tc line"' in text


def test_deal_handout_has_deals_then_solutions(tmp_path: Path) -> None:
    page = tmp_path / "d.html"
    out = dobbm("deal", "--count", "3", "--seed", "2", "--solutions", "--format", "line", "--html", str(page))
    assert out.returncode == 0, out.stderr
    text = page.read_text(encoding="utf-8")
    self_contained(text)
    first, _, solutions = text.partition('<div class="page-break"></div>')
    assert solutions, "the solutions start a new page"
    assert first.count("Deal ") >= 3 and solutions.count(": solution</h2>") == 3
    assert "size: A4" in text
    for line in out.stdout.splitlines()[:3]:   # the deal lines printed are the page's deals
        assert line.split(" | dobb")[0].split(" | ")[1].split(": ")[0] in first


def test_explore_page_at_the_end_and_on_command(tmp_path: Path) -> None:
    page = tmp_path / "e.html"
    out = dobbm("explore", "--html", str(page), str(HANDS / "example.yaml"), input="EA\nhtml\n")
    assert out.returncode == 0, out.stderr
    assert f"wrote {page}" in out.stderr
    text = page.read_text(encoding="utf-8")
    self_contained(text)
    assert re.search(r'data-step="0" data-seat="\w+" data-card="EA"', text)
    assert 'data-now="1"' in text
    out = dobbm("explore", str(HANDS / "example.yaml"), input="html\n")
    assert "give --html FILE" in out.stdout


def test_arena_page_has_results_and_replays(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    out = dobbm("arena", "rule", "rule", "--deals", "2", "-j", "1", "-q", "--html", str(page))
    assert out.returncode == 0, out.stderr
    text = page.read_text(encoding="utf-8")
    self_contained(text)
    assert "units a hand" in text and "Deal 0" in text and "Deal 1" in text
    lines = re.findall(r'replay it: <span class="mono">([^<]+)</span>', text)
    assert lines
    import html
    checked = dobbm("review", "--json", "--deal", html.unescape(lines[0]))
    assert checked.returncode == 0, checked.stderr
    first = text[text.index("<h3>"):text.index("replay it:")]   # the first table's play
    shown = re.findall(r'data-card="(\w+)" data-note="[^"]*">.*?<span class="pts">(\d+)</span>', first)
    assert shown == [(r["card"], str(r["after"])) for r in json.loads(checked.stdout)["cards"]]


def test_text_in_a_page_is_escaped() -> None:
    deal = spec_to_deal(load_specs(HANDS / "played.yaml")[0])
    review = review_hand(Solver(), deal)
    text = review_page([(review, '<script>alert("x")</script>')])
    assert '<script>alert("x")' not in text and "&lt;script&gt;" in text
    best = Solver().solve_best(deal_before_play(deal), analyze=True)
    assert "&lt;b&gt;" in solve_page([(best, "<b>")])


def test_a_file_dobbm_did_not_write_is_left_alone(tmp_path: Path) -> None:
    mine = tmp_path / "notes.html"
    mine.write_text("<html>my own notes</html>")
    out = dobbm("review", "--html", str(mine), str(HANDS / "played.yaml"))
    assert out.returncode == 2 and "not a page dobbm wrote" in out.stderr
    assert mine.read_text() == "<html>my own notes</html>"
    assert out.stdout == ""   # refused before any work
    page = tmp_path / "page.html"
    assert dobbm("review", "--html", str(page), str(HANDS / "played.yaml")).returncode == 0
    first = page.read_text()
    assert dobbm("solve", "-q", "--html", str(page), str(HANDS / "example.yaml")).returncode == 0
    assert page.read_text() != first and GENERATOR in page.read_text()   # its own page: written over
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.html", "page.html"]   # no temporary left


def test_not_a_regular_file_or_no_directory(tmp_path: Path) -> None:
    with pytest.raises(PageFileError, match="directory"):
        write_page(str(tmp_path), "<p>")
    with pytest.raises(PageFileError, match="no such directory"):
        write_page(str(tmp_path / "none" / "x.html"), "<p>")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(PageFileError, match="named pipe"):
        write_page(str(fifo), "<p>")
