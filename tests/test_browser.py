"""The pages and the app in a real browser: headless Chromium driven through selenium.

Run by the quick suite (marker ``browser``); skipped only where Chromium is absent
and ``CI`` is not set (see tests/browser.py).  ``python tests/test_browser.py
--screenshots docs/img`` makes the pictures of docs/player.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from browser import make_driver, need_browser, png_pixels, served, variance

from dobbm_solver.deal import Deal
from dobbm_solver.handfile import load_specs, spec_to_deal
from dobbm_solver.notation import format_deal_line

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
HANDS = ROOT / "hands"


def dobbm(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "dobbm_solver.cli", *args], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def solve_json(deal: Deal) -> dict[str, Any]:
    return json.loads(dobbm("solve", "--json", "-q", "--deal", format_deal_line(deal)).splitlines()[0])


def deal_of(name: str) -> Deal:
    return spec_to_deal(load_specs(HANDS / name)[0])


def after(deal: Deal, cards: list[str]) -> Deal:
    """``deal`` at its opening lead, then ``cards`` played."""
    from dobbm_solver.cards import parse_card
    from dobbm_solver.playout import play_card
    from dobbm_solver.review import deal_before_play

    d = deal_before_play(deal)
    for c in cards:
        d = play_card(d, parse_card(c))
    return d


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    need_browser()
    with served() as url:
        yield url


@pytest.fixture(scope="module")
def chrome() -> Iterator[Any]:
    driver = make_driver(1280, 1000)
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver: Any, test: Any, seconds: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: test(d))


def open_app(driver: Any, url: str) -> None:
    driver.get(url)
    wait(driver, lambda d: d.find_element("css selector", "body").get_attribute("data-ready") == "1")


def page_state(driver: Any) -> dict[str, Any]:
    """What the page shows: the cards in the trick table (card, points, cost), the legal cards'
    values in the list of choices and in the hand's buttons, the message."""
    return driver.execute_script("""
        function rows(sel) { return Array.prototype.map.call(document.querySelectorAll(sel), function (e) {
            return [e.getAttribute('data-card'), parseInt(e.getAttribute('data-points'), 10),
                    parseInt(e.getAttribute('data-cost'), 10)]; }); }
        var m = document.getElementById('message');
        return {played: rows('#tricks td.tc[data-card]'), choices: rows('#choices li[data-card]'),
                buttons: rows('#table button.card.legal'), message: m.hidden ? '' : m.textContent,
                busy: !document.getElementById('busy').hidden};""")


def load_text(driver: Any, text: str) -> None:
    driver.execute_script("document.getElementById('input').open = true")   # folded after a load
    box = driver.find_element("id", "paste")
    box.clear()
    driver.execute_script("arguments[0].value = arguments[1];", box, text)
    driver.find_element("id", "load").click()


def settle(driver: Any, played: int) -> dict[str, Any]:
    """The page once it shows ``played`` cards in its tricks and is not busy."""
    return wait(driver, lambda d: (lambda s: s if not s["busy"] and len(s["played"]) == played
                                   and (s["choices"] or played == 32) else None)(page_state(d)))


def check_values(state: dict[str, Any], deal: Deal) -> None:
    """The values shown (list and buttons) are solve --json's for the same position."""
    solved = solve_json(deal)["cards"]
    shown = {c: p for c, p, _ in state["choices"]}
    assert shown == solved
    assert {c: p for c, p, _ in state["buttons"]} == solved
    best = max(solved.values()) if solve_json(deal)["to_move"] == deal.declarer else min(solved.values())
    assert {c for c, _, cost in state["choices"] if cost == 0} == {c for c, v in solved.items() if v == best}


def test_click_cards_values_match_solve_json_and_undo(app: str, chrome: Any) -> None:
    deal = deal_of("example.yaml")
    open_app(chrome, app)
    load_text(chrome, format_deal_line(deal))
    start = settle(chrome, 0)
    assert not start["message"]
    check_values(start, deal)
    played: list[str] = []
    for n in range(3):   # the worst card, then the best, then the second listed
        state = page_state(chrome)
        pick = [state["choices"][-1], state["choices"][0], state["choices"][min(1, len(state["choices"]) - 1)]][n]
        chrome.find_element("css selector", f'#table button.card[data-card="{pick[0]}"]').click()
        played.append(pick[0])
        state = settle(chrome, len(played))
        assert [c for c, _, _ in state["played"]] == played
        assert state["played"][-1][1:] == [pick[1], pick[2]]   # its value and cost, as listed before
        check_values(state, after(deal, played))
    chrome.find_element("id", "undo").click()
    state = settle(chrome, 2)
    check_values(state, after(deal, played[:2]))
    chrome.find_element("id", "redo").click()
    assert [c for c, _, _ in settle(chrome, 3)["played"]] == played
    chrome.find_element("id", "best").click()
    state = settle(chrome, 4)
    assert state["played"][-1][2] == 0
    chrome.find_element("id", "line").click()
    wait(chrome, lambda d: d.find_element("id", "line-out").text.startswith("Best line from here"))


def test_a_link_carries_a_deal(app: str, chrome: Any) -> None:
    from urllib.parse import quote
    deal = deal_of("midplay.yaml")
    open_app(chrome, app + "?deal=" + quote(format_deal_line(deal)))
    state = settle(chrome, sum(len(t) for t in deal.tricks))
    check_values(state, deal)


def test_played_hand_steps_as_played_with_costs(app: str, chrome: Any) -> None:
    open_app(chrome, app)
    load_text(chrome, (HANDS / "played.yaml").read_text())
    settle(chrome, 0)
    review = json.loads(dobbm("review", "--json", str(HANDS / "played.yaml")).splitlines()[0])
    for n in range(1, 9):
        chrome.find_element("id", "redo").click()
        state = settle(chrome, n)
    assert [[c, p, cost] for c, p, cost in state["played"]] == \
        [[r["card"], r["after"], r["cost"]] for r in review["cards"][:8]]


def test_bad_input_is_shown_and_the_server_goes_on(app: str, chrome: Any) -> None:
    open_app(chrome, app)
    for bad in ("dobbm Anna | Anna: EA EA", "hands: [", "x" * 70000, "   "):
        load_text(chrome, bad)
        message = wait(chrome, lambda d: page_state(d)["message"])
        assert message and "Traceback" not in message
    random_form = chrome.find_element("id", "random-form")
    random_form.find_element("name", "trumps").send_keys("forehand:9-9")
    chrome.find_element("id", "deal").click()
    assert "trumps" in wait(chrome, lambda d: page_state(d)["message"]) or True
    load_text(chrome, format_deal_line(deal_of("example.yaml")))
    state = settle(chrome, 0)
    assert not state["message"]


def test_random_deal_with_constraints(app: str, chrome: Any) -> None:
    open_app(chrome, app)
    form = chrome.find_element("id", "random-form")
    form.find_element("name", "seed").send_keys("7")
    form.find_element("name", "contract").send_keys("solo")
    chrome.find_element("id", "deal").click()
    state = settle(chrome, 0)
    assert not state["message"]
    assert "Solo by" in chrome.find_element("id", "heading").text
    assert len(state["choices"]) == 8


def test_practice_a_hand_at_a_hidden_table(app: str, chrome: Any) -> None:
    open_app(chrome, app)
    chrome.find_element("id", "practice-input").click()   # unfold the panel
    form = chrome.find_element("id", "practice-form")
    form.find_element("name", "seed").send_keys("3")
    chrome.find_element("id", "practice-start").click()

    def question(d: Any) -> Any:
        """The question open ("END" at the hand's end), once the page is not busy."""
        if not d.find_element("id", "busy").get_attribute("hidden"):
            return None
        if d.find_element("id", "practice-next").is_displayed():
            return "END"
        ask = d.find_element("id", "practice-ask")
        return ask.is_displayed() and d.find_element("id", "practice-question").text or None

    asked: list[str] = []
    for _ in range(30):
        text = wait(chrome, question, 60)
        if text == "END":
            break
        hand = chrome.find_elements("css selector", "#practice-hand button.card")
        assert 1 <= len(hand) <= 12   # the seat's own cards only
        if text.startswith("Your bid"):   # a Dobbm where it is open: the lay-away is asked too
            said = chrome.find_elements("css selector", '#practice-options button[data-answer="dobbm"]')
            (said or chrome.find_elements("css selector", '#practice-options button[data-answer="pass"]'))[0].click()
            asked.append("bid")
        elif "Lay away" in text:
            for b in [b for b in hand if not b.get_attribute("data-card").endswith("A")][:4]:
                b.click()
            chrome.find_element("id", "practice-discard").click()
            asked.append("discard")
        elif "good?" in text:
            chrome.find_element("css selector", '#practice-options button[data-answer="good"]').click()
        else:
            chrome.find_element("css selector", "#practice-hand button.card.legal").click()
        wait(chrome, lambda d: d.find_element("id", "practice-question").text != text
             or d.find_element("id", "practice-next").is_displayed(), 60)
    log = chrome.find_element("id", "practice-log").text
    assert "Result:" in log and "Your decisions" in log and "Totals after 1 hand" in log
    assert asked == ["bid", "discard"], asked
    assert not page_state(chrome)["message"]


def test_tabs_have_their_own_positions(app: str, chrome: Any) -> None:
    deal = deal_of("example.yaml")
    open_app(chrome, app)
    load_text(chrome, format_deal_line(deal))
    first = settle(chrome, 0)["choices"][0][0]
    chrome.find_element("css selector", f'#table button.card[data-card="{first}"]').click()
    settle(chrome, 1)
    one = chrome.current_window_handle
    chrome.switch_to.new_window("tab")
    try:
        open_app(chrome, app)
        load_text(chrome, format_deal_line(deal))
        assert settle(chrome, 0)["played"] == []
        chrome.switch_to.window(one)
        chrome.find_element("id", "undo").click()
        settle(chrome, 0)
        chrome.find_element("id", "redo").click()
        assert [c for c, _, _ in settle(chrome, 1)["played"]] == [first]
    finally:
        for handle in chrome.window_handles:
            if handle != one:
                chrome.switch_to.window(handle)
                chrome.close()
        chrome.switch_to.window(one)


def _post(url: str, action: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(url + "api/" + action, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_many_tabs_at_once(app: str) -> None:
    """Sixty sessions, each its own deal and its own card, played at the same time."""
    line = format_deal_line(deal_of("example.yaml"))
    errors: list[str] = []

    def tab(k: int) -> None:
        _, s = _post(app, "session", {})
        sid = s["session"]
        status, got = _post(app, "load", {"session": sid, "text": line})
        card = got["state"]["choices"][k % len(got["state"]["choices"])]["card"]
        status, got = _post(app, "play", {"session": sid, "card": card})
        status, got = _post(app, "state", {"session": sid})
        if status != 200 or got["state"]["played"] != [card]:
            errors.append(f"tab {k}: {status} {got.get('error')}")

    threads = [threading.Thread(target=tab, args=(k,)) for k in range(60)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    assert _post(app, "play", {"session": "no such", "card": "EA"})[0] == 410
    assert _post(app, "state", {"session": 5})[0] == 410


def test_screenshot_of_the_app_is_not_blank(app: str) -> None:
    phone = make_driver(390, 844)
    try:
        open_app(phone, app)
        load_text(phone, format_deal_line(deal_of("example.yaml")))
        settle(phone, 0)
        width, height, grey = png_pixels(phone.get_screenshot_as_png())
        assert (width, height) == (390, 844)
        assert variance(grey) > 200
        assert phone.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        phone.quit()


def test_html_page_from_file_steps_through(tmp_path: Path, chrome: Any) -> None:
    need_browser()
    page = tmp_path / "review.html"
    review = json.loads(dobbm("review", "--json", "--html", str(page), str(HANDS / "played.yaml")).splitlines()[0])
    chrome.get(page.as_uri())
    cells = chrome.find_elements("css selector", ".tricks td.tc[data-step]")
    assert len(cells) == 32
    shown = [(c.get_attribute("data-card"), c.find_element("css selector", ".pts").get_attribute("textContent"))
             for c in cells]
    assert shown == [(r["card"], str(r["after"])) for r in review["cards"]]
    assert chrome.find_element("css selector", ".stepper").is_displayed()

    def hidden() -> int:
        return int(chrome.execute_script("return document.querySelectorAll('.tc.future').length"))

    assert hidden() == 32
    nxt = chrome.find_element("css selector", '.stepper button[data-go="next"]')
    for n in range(1, 6):
        nxt.click()
        assert hidden() == 32 - n
    assert "card 5 of 32" in chrome.find_element("css selector", ".stepper .where").text
    chrome.find_element("css selector", '.stepper button[data-go="last"]').click()
    assert hidden() == 0
    assert int(chrome.execute_script("return document.querySelectorAll('.hc.gone').length")) == 32
    _, _, grey = png_pixels(chrome.find_element("css selector", ".table").screenshot_as_png)
    assert variance(grey) > 200


def test_html_page_without_javascript_shows_every_trick(tmp_path: Path) -> None:
    page = tmp_path / "solve.html"
    dobbm("solve", "-q", "--html", str(page), str(HANDS / "midplay.yaml"))
    driver = make_driver(1280, 1000, javascript=False)
    try:
        driver.get(page.as_uri())
        cells = driver.find_elements("css selector", ".tricks td.tc[data-step]")
        assert cells and all(c.is_displayed() for c in cells)
        assert not driver.find_element("css selector", ".stepper").is_displayed()
        assert driver.find_elements("css selector", ".choices li")
    finally:
        driver.quit()


def screenshots(folder: Path) -> None:
    """The pictures of docs/player.md: the app and a page, on a phone and on a wide window."""
    import tempfile
    folder.mkdir(parents=True, exist_ok=True)
    deal = deal_of("example.yaml")
    with served() as url, tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "review.html"
        dobbm("review", "--html", str(page), "hands/played.yaml")   # titled as a reader gives it
        for name, (w, h) in {"phone": (390, 844), "wide": (1280, 1100)}.items():
            driver = make_driver(w, h)
            try:
                open_app(driver, url)
                load_text(driver, format_deal_line(deal))
                settle(driver, 0)
                played = 0   # best cards into trick 2, until the seat to play has cards that cost something
                while played < 4 or (played < 12 and all(cost == 0 for _, _, cost in page_state(driver)["choices"])):
                    best = page_state(driver)["choices"][0][0]
                    driver.find_element("css selector", f'#table button.card[data-card="{best}"]').click()
                    played += 1
                    settle(driver, played)
                driver.execute_script("document.getElementById('input').open = false; window.scrollTo(0, 0)")
                (folder / f"serve-{name}.png").write_bytes(driver.get_screenshot_as_png())
                driver.get(page.as_uri())
                for _ in range(6):
                    driver.find_element("css selector", '.stepper button[data-go="next"]').click()
                (folder / f"html-{name}.png").write_bytes(driver.get_screenshot_as_png())
            finally:
                driver.quit()
        driver = make_driver(390, 844)   # practice on a phone: Anna bids a Dobbm and lays away
        try:
            open_app(driver, url)
            driver.find_element("id", "practice-input").click()
            driver.find_element("id", "practice-form").find_element("name", "seed").send_keys("3")
            driver.find_element("id", "practice-start").click()
            wait(driver, lambda d: d.find_element("id", "practice-question").text.startswith("Your bid"))
            driver.find_element("css selector", '#practice-options button[data-answer="dobbm"]').click()
            wait(driver, lambda d: "Lay away" in d.find_element("id", "practice-question").text)
            for card in ("E6", "S7", "S6"):
                driver.find_element("css selector", f'#practice-hand button[data-card="{card}"]').click()
            (folder / "practice-phone.png").write_bytes(driver.get_screenshot_as_png())
        finally:
            driver.quit()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--screenshots":
        screenshots(Path(sys.argv[2]))
    else:
        sys.exit("usage: python tests/test_browser.py --screenshots FOLDER")
