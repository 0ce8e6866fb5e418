"""dobbm serve without a browser: the sessions' cap and expiry, the input's limits, the API's
answers to bad requests, a click's speed, and the command itself (127.0.0.1, Ctrl-C)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser import need_web, served

from dobbm_solver.cards import card_name
from dobbm_solver.errors import DobbmError
from dobbm_solver.handfile import load_specs, spec_to_deal
from dobbm_solver.notation import format_deal_line
from dobbm_solver.web.sessions import SessionError, Sessions
from dobbm_solver.web.table import MAX_TEXT, random_deal, read_pasted

ROOT = Path(__file__).resolve().parents[1]
HANDS = ROOT / "hands"


@pytest.fixture(autouse=True)
def _web() -> None:
    need_web()


def test_sessions_are_capped_and_expire() -> None:
    now = [0.0]
    store = Sessions(cap=3, idle_seconds=100, clock=lambda: now[0])
    a, b, c = store.new(), store.new(), store.new()
    assert len({a.ident, b.ident, c.ident}) == 3
    now[0] = 10
    store.get(a.ident)            # a used: b is now the oldest
    d = store.new()
    assert len(store) == 3
    with pytest.raises(SessionError):
        store.get(b.ident)
    assert store.get(a.ident) is a and store.get(d.ident) is d
    now[0] = 200
    with pytest.raises(SessionError):
        store.get(c.ident)        # unused too long
    with pytest.raises(SessionError):
        store.get(None)


def test_pasted_input_has_the_command_lines_parsers_and_limits() -> None:
    deal = spec_to_deal(load_specs(HANDS / "example.yaml")[0])
    assert read_pasted(format_deal_line(deal))[1] == deal
    assert read_pasted((HANDS / "example.yaml").read_text())[1] == deal
    for bad in ("", "x" * (MAX_TEXT + 1), "dobbm Anna | Anna: EA", "a: &a [*a]", "[" * 10000):
        with pytest.raises(DobbmError):
            read_pasted(bad)
    with pytest.raises(DobbmError, match="trumps"):
        random_deal({"trumps": "forehand:9"})
    with pytest.raises(DobbmError):
        random_deal({"seed": "-1"})
    title, dealt = random_deal({"seed": "4", "contract": "solo"})
    assert dealt.contract == "solo" and "seed 4" in title


def post(url: str, action: str, body: Any, raw: bytes | None = None) -> tuple[int, dict[str, Any]]:
    data = raw if raw is not None else json.dumps(body).encode()
    req = urllib.request.Request(url + "api/" + action, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_api_answers_bad_requests_with_one_line_and_goes_on() -> None:
    deal = spec_to_deal(load_specs(HANDS / "example.yaml")[0])
    line = format_deal_line(deal)
    other = next(s for s in deal.active_seats if s != deal.declarer)
    not_held = card_name(min(c for c in range(36) if deal.hands[other] >> c & 1))
    with served() as url:
        sid = post(url, "session", {})[1]["session"]
        assert post(url, "load", None, raw=b"{not json")[0] == 400
        assert post(url, "load", [1, 2])[0] == 400
        assert post(url, "load", None, raw=b"[" * 200000)[0] == 400   # nested past the stack
        assert post(url, "load", None, raw=b" " * (300 * 1024))[0] == 413
        assert post(url, "frobnicate", {"session": sid})[0] == 400
        assert post(url, "play", {"session": sid, "card": "EA"})[1]["error"].startswith("no deal yet")
        status, got = post(url, "load", {"session": sid, "text": "dobbm Anna | Anna: EA EA"})
        assert status == 400 and got["error"]
        status, got = post(url, "load", {"session": sid, "text": line})
        assert status == 200 and len(got["state"]["choices"]) == 8
        for card in ("ZZ", not_held, 5, None):   # unknown, not held, not a card
            status, got = post(url, "play", {"session": sid, "card": card})
            assert status == 400 and got["error"]
        assert post(url, "undo", {"session": sid})[0] == 400   # at the opening lead
        assert post(url, "goto", {"session": sid, "trick": 9})[0] == 400
        status, got = post(url, "advice", {"session": sid})
        assert status == 200 and got["advice"]["seat"] == got["state"]["to_play"]
        assert {o["option"] for o in got["advice"]["options"]} | {a for o in got["advice"]["options"]
                                                                   for a in o.get("alike", [])} \
            == {c["card"] for c in got["state"]["choices"]}
        with urllib.request.urlopen(url, timeout=30) as r:
            page = r.read().decode()
            assert r.headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert 'name="generator" content="dobbm"' in page
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page, re.I) and "<link" not in page


def test_only_json_to_this_machines_names() -> None:
    """A page of another site can neither post a form or plain text to the app nor reach it
    under a name of its own (DNS rebinding)."""
    with served() as url:
        req = urllib.request.Request(url + "api/session", b"{}", {"Content-Type": "text/plain"})
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=30)
        assert e.value.code == 415
        req = urllib.request.Request(url, headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=30)
        assert e.value.code == 400
        local = urllib.request.Request(url.replace("127.0.0.1", "localhost"))
        with urllib.request.urlopen(local, timeout=30) as r:
            assert r.status == 200


def test_a_click_on_a_full_deal_is_quick() -> None:
    """Every click answers well under the 0.2 s asked for (a few milliseconds of search);
    the bound here is loose, for a busy machine."""
    with served() as url:
        sid = post(url, "session", {})[1]["session"]
        for seed in ("1", "2", "3"):
            post(url, "random", {"session": sid, "seed": seed})
            for _ in range(4):
                t0 = time.perf_counter()
                status, got = post(url, "best", {"session": sid})
                assert status == 200
                assert time.perf_counter() - t0 < 1.0


def test_the_command_listens_on_this_machine_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "dobbm_solver.cli", "serve", "--port", "0"],
                            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        assert line.startswith("dobbm serve: open http://127.0.0.1:"), line
        url = line.split("open ")[1].split()[0]
        with urllib.request.urlopen(url, timeout=30) as r:
            assert r.status == 200
        sid = post(url, "session", {})[1]["session"]
        assert post(url, "load", {"session": sid, "text": (HANDS / "played.yaml").read_text()})[0] == 200
        assert post(url, "advice", {"session": sid})[0] == 200
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130 and "stopped" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []   # it wrote no file, where it ran or in its temporary folder
    bad = subprocess.run([sys.executable, "-m", "dobbm_solver.cli", "serve", "--host", "no..such", "--port", "0"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60, env={**os.environ})
    assert bad.returncode == 2 and "--host" in bad.stderr


def test_practice_answers_in_the_commands_words_and_ends_with_its_session() -> None:
    from dobbm_solver.web.practice import PracticeTable

    with served() as url:
        sid = post(url, "session", {})[1]["session"]
        assert post(url, "practice-answer", {"session": sid, "text": "pass"})[0] == 400   # no table yet
        assert post(url, "practice", {"session": sid, "seat": "Zed"})[0] == 400
        status, got = post(url, "practice", {"session": sid, "seat": "Anna", "seed": 3})
        assert status == 200 and got["practice"]["ask"]["kind"] == "bid"
        status, got = post(url, "practice-answer", {"session": sid, "text": "grand slam"})
        assert status == 400 and got["error"]
        status, got = post(url, "practice-answer", {"session": sid, "text": "hint"})
        assert status == 200 and got["practice"]["lines"][-1].startswith("hint: the advice says")
        assert got["practice"]["ask"]["kind"] == "bid"   # a hint answers nothing
        status, got = post(url, "practice-answer", {"session": sid, "text": "pass"})
        assert status == 200 and got["practice"]["ask"]["kind"] != "bid"
    store = Sessions(cap=1)
    session = store.new()
    session.practice = PracticeTable(3, "Anna")
    session.practice.deal()
    thread = session.practice._thread
    assert thread is not None and thread.is_alive()
    store.new()   # the first session goes, and its table's thread with it
    thread.join(10)
    assert not thread.is_alive()
