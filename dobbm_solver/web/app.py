"""The web server of ``dobbm serve``: a Starlette app on the explorer, one position a tab.

Routes: ``GET /`` the page; ``POST /api/ACTION`` with a JSON body carrying the
tab's ``session`` (``session``: a new one; ``load`` pasted text; ``random`` a
deal to constraints; ``play`` a card; ``undo``, ``redo``, ``best``, ``line``,
``goto``; ``advice``; ``state``).  Every answer is JSON: ``{"state": ...}``
or ``{"error": "one line"}`` (bad input: status 400; an unknown session: 410).

Each request's work is bounded: its body (:data:`MAX_BODY` bytes), the
command line's parsers and limits on what it holds, one solver shared under a
lock (a click on a full deal is a few milliseconds of search), the advice on
a fixed number of samples with one at a time, and a time limit after which the
page is told the server is busy.  The server writes no files.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from typing import Any, Callable, Sequence

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..errors import DobbmError
from ..report.serve import advice_state, app_page, error_dict, practice_dict, state_dict
from ..solver import Solver
from .practice import MAX_TABLES, PracticeTable
from .sessions import Session, SessionError, Sessions
from .table import STEPS, load, random_deal, read_pasted, step
from .table import advice as play_advice

__all__ = ["LOCAL_NAMES", "MAX_BODY", "REQUEST_SECONDS", "create_app"]

#: The practice table's requests.
PRACTICE_STEPS = ("practice", "practice-deal", "practice-answer")
#: The names of this machine a request to an app on 127.0.0.1 may be addressed to.
LOCAL_NAMES = ("127.0.0.1", "localhost")

#: The largest request body read, in bytes.
MAX_BODY = 256 * 1024
#: A request still working after this long is answered "busy" (its work ends on its own).
REQUEST_SECONDS = 30.0
_SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                               "img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class _Busy(Exception):
    """Another advice is being worked out."""


def create_app(solver: Solver | None = None, sessions: Sessions | None = None,
               hosts: Sequence[str] = LOCAL_NAMES) -> Starlette:
    """The app: its page, its API and its state (sessions, the solver) in memory.  ``hosts``:
    the host names a request may be addressed to (``*``: any), so that a page of another
    site cannot reach the app through a name of its own (DNS rebinding)."""
    solver = solver if solver is not None else Solver()
    sessions = sessions if sessions is not None else Sessions()
    solver_lock = threading.Lock()
    advice_lock = threading.Lock()
    page = app_page()

    def answer(session: Session, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"state": state_dict(session.explorer, session.title, show_line=session.show_line),
                "practice": practice_dict(session.practice), **(extra or {})}

    def practise(session: Session, action: str, body: dict[str, Any]) -> dict[str, Any]:
        """The practice table's steps: start one (seat, seed), deal the next hand, answer."""
        if action == "practice":
            seat, seed = body.get("seat"), body.get("seed")
            if not isinstance(seat, str):
                raise DobbmError("practice: choose a seat")
            seed_text = str(seed).strip() if isinstance(seed, (str, int)) and not isinstance(seed, bool) else ""
            if seed_text and not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 18):
                raise DobbmError(f"seed: a whole number, 0 or more, not {seed_text[:20]!r}")
            if session.practice is None and sessions.count(lambda s: s.practice is not None) >= MAX_TABLES:
                raise _Busy(f"{MAX_TABLES} practice tables are being played: try again later")
            if session.practice is not None:
                session.practice.close()
            session.practice = PracticeTable(int(seed_text) if seed_text else random.SystemRandom().randrange(10 ** 9),
                                             seat)
            session.practice.deal()
        elif session.practice is None:
            raise DobbmError("no practice table yet: choose a seat and start")
        elif action == "practice-deal":
            session.practice.deal()
        else:
            text = body.get("text")
            if not isinstance(text, str):
                raise DobbmError("answer: the words of your answer")
            session.practice.answer(text)
        return answer(session)

    def work(action: str, body: dict[str, Any]) -> dict[str, Any]:
        if action == "session":
            return {"session": sessions.new().ident}
        session = sessions.get(body.get("session"))
        with session.lock:
            if action in PRACTICE_STEPS:
                return practise(session, action, body)
            if action == "advice":
                if not advice_lock.acquire(blocking=False):
                    raise _Busy("another advice is being worked out: ask again in a moment")
                try:
                    seat, advice = play_advice(session)
                finally:
                    advice_lock.release()
                with solver_lock:
                    return answer(session, {"advice": advice_state(seat, advice)})
            deal = None
            if action == "load":   # read and dealt outside the solver's lock: other tabs go on
                text = body.get("text")
                if not isinstance(text, str):
                    raise DobbmError("load: paste a deal")
                title, deal = read_pasted(text)
            elif action == "random":
                title, deal = random_deal(body)
            with solver_lock:
                if deal is not None:
                    load(session, title, deal, solver)
                elif action in STEPS:
                    step(session, action, body.get("card"), body.get("trick"))
                elif action != "state":
                    raise DobbmError(f"unknown request {action[:20]!r}")
                return answer(session)

    async def api(request: Request) -> Response:
        action = request.path_params["action"]
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            # a page of another site may send a form or plain text, never JSON without asking first
            return _json(error_dict("the request must be JSON (Content-Type: application/json)"), 415)
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                return _json(error_dict(f"the request is too large (at most {MAX_BODY} bytes)"), 413)
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError, RecursionError):   # not JSON, or nested past Python's stack
            return _json(error_dict("the request is not JSON"), 400)
        if not isinstance(body, dict):
            return _json(error_dict("the request is not a JSON object"), 400)
        try:
            result = await asyncio.wait_for(run_in_threadpool(_guarded, work, action, body), REQUEST_SECONDS)
        except asyncio.TimeoutError:
            return _json(error_dict("the server is busy: ask again in a moment"), 503)
        return result

    async def index(request: Request) -> Response:
        return HTMLResponse(page, headers=_SECURITY_HEADERS)

    routes = [Route("/", index, methods=["GET"]), Route("/api/{action:str}", api, methods=["POST"])]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))])


def _guarded(work: Callable[[str, dict[str, Any]], dict[str, Any]], action: str, body: dict[str, Any]) -> Response:
    """``work``'s answer as a response: bad input and an unknown session are one line for the page."""
    try:
        return _json(work(action, body), 200)
    except SessionError as e:
        return _json(error_dict(str(e)), 410)
    except _Busy as e:
        return _json(error_dict(str(e)), 503)
    except (DobbmError, RecursionError) as e:
        return _json(error_dict(str(e) or type(e).__name__), 400)
    except Exception as e:   # a bug: the page says so, the server goes on
        return _json(error_dict(f"internal error ({type(e).__name__}): {e}"), 500)


def _json(obj: dict[str, Any], status: int) -> Response:
    return JSONResponse(obj, status_code=status, headers=_SECURITY_HEADERS)
