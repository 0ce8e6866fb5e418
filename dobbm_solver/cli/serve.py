"""``dobbm serve``: the explorer as a local web app (needs the ``web`` extra)."""

from __future__ import annotations

import socket

import click

from ..echo import brief
from .boundary import BadInput
from .options import CONTEXT, TT_MB, open_solver
from .output import say

__all__ = ["serve", "LOCAL_HOST", "DEFAULT_PORT"]

#: Where the app listens unless --host says otherwise: this machine only.
LOCAL_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


@click.command(context_settings=CONTEXT)
@click.option("--host", default=LOCAL_HOST, show_default=True, metavar="ADDRESS",
              help="The address to listen on. Another than this machine's own lets anyone who can reach "
                   "it use the app: give one only on a network you trust.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="The port to listen on; 0: a free one (printed).")
@TT_MB
def serve(host: str, port: int, tt_mb: int) -> None:
    """Serve the explorer as a web app in the browser, on this machine (127.0.0.1).

    Open the address it prints. Paste a deal (a one-line deal, a hand file, a played
    hand) or deal one at random to `dobbm deal`'s constraints; click a card to play it:
    every legal card shows the declarer's final points under best play after it and
    what it costs; Undo, Redo (a played hand: the next card as played), Best card, Best
    line, and the advice for the seat to play from its own view (`dobbm play`). Each
    browser tab has a position of its own, kept in memory (unused for two hours, it is
    forgotten). The input has the command line's limits; the server writes no files.
    Ctrl-C stops it. Needs pip install 'dobbm-solver[web]'.
    """
    try:
        import uvicorn

        from ..web.app import LOCAL_NAMES, create_app
    except ImportError as e:
        raise click.ClickException(f"dobbm serve needs the web extra: pip install 'dobbm-solver[web]' ({e})") \
            from None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except (socket.gaierror, UnicodeError):
        sock.close()
        raise BadInput(f"--host: {brief(host)} is no address of this machine") from None
    except OSError as e:
        sock.close()
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(128)   # a browser opened at once waits in the queue until the server takes it
    local = host in LOCAL_NAMES
    app = create_app(open_solver(tt_mb), hosts=LOCAL_NAMES if local else ("*",))
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    if host != LOCAL_HOST:
        say(f"note: listening on {host}, not only on this machine: anyone who can reach it can use the app")
    say(f"dobbm serve: open http://{shown}:{bound}/ (Ctrl-C stops)")
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])   # Ctrl-C: the server shuts down, then the boundary says so (exit 130)
    finally:
        sock.close()
        say("dobbm serve: stopped")
