"""The time of one click in ``dobbm serve``: a card played and the page's state answered,
over HTTP on this machine, as a browser's click is.

Run from the repository root with the web extra installed (it writes nothing):

    python benchmarks/bench_serve.py                # 20 random full deals, seeds 1 to 20
    python benchmarks/bench_serve.py --deals 5

The app is served in a thread on a free port of 127.0.0.1.  Each deal is dealt at
random (the page's "Deal at random", seeded), then played to its end by "Best
card" clicks, each timed from the request sent to the answer read (the state
document: the hands, the tricks with every card's value and cost, every legal
card's value).  The figures are seconds per click: median, 95th percentile and
the slowest; the goal is every click under 0.2 s on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))   # this tree's package, not whichever one is installed

from bench_explore import report_times  # noqa: E402  (the goal and the summary of a step's times)


def post(url: str, action: str, body: dict[str, object]) -> dict[str, object]:
    req = urllib.request.Request(url + "api/" + action, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())   # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, metavar="N", help="random deals, seeds 1 to N")
    args = parser.parse_args(argv)
    import uvicorn

    from dobbm_solver.web.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    clicks: list[tuple[float, int, int]] = []
    try:
        session = post(url, "session", {})["session"]
        for seed in range(1, args.deals + 1):
            post(url, "random", {"session": session, "seed": str(seed)})
            for card in range(32):
                t0 = time.perf_counter()
                post(url, "best", {"session": session})
                clicks.append((time.perf_counter() - t0, seed, card // 4 + 1))
    finally:
        server.should_exit = True
        thread.join(10)
    print(f"{args.deals} random deals, {len(clicks)} clicks (Best card: a card played, the state answered)")
    return report_times("click", [(t, f"seed {seed}", trick) for t, seed, trick in clicks])

if __name__ == "__main__":
    sys.exit(main())
