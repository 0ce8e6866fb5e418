"""The ``dobbm`` script's entry point: Ctrl-C is handled from the script's first line.

It lives outside the ``dobbm_solver`` package on purpose.  Importing anything
of the package runs ``dobbm_solver/__init__.py`` (and all it imports) first,
and a Ctrl-C meanwhile would raise ``KeyboardInterrupt`` wherever the import
happened to be: a traceback, and an exit status that is not 130.  This module
imports only what the interpreter has loaded already, and before anything
else installs a handler that ends the process at once with the one Ctrl-C line
and status 130; then it loads the command.  The command takes Ctrl-C over
when it runs (``dobbm_solver.cli.boundary.DobbmGroup``), after which Ctrl-C
ends it the same way but lets it finish what it is writing.

A SIGINT that is ignored (a job started in the background, ``nohup``) stays
ignored.  Before this module runs, Python itself is starting; Ctrl-C then is
Python's to handle.
"""

import os

try:   # the signal module's C half, loaded with the interpreter: no import work before the handler
    import _signal as signal  # type: ignore[import-not-found, unused-ignore]
except ImportError:   # pragma: no cover - an interpreter without it
    import signal  # type: ignore[no-redef, unused-ignore]

#: dobbm_solver._interrupt.INTERRUPTED_MESSAGE and EXIT_INTERRUPTED (a test keeps them equal).
INTERRUPTED_LINE = b"Interrupted.\n"
EXIT_INTERRUPTED = 130


def end_at_once(signum: int, frame: object) -> None:
    """The one Ctrl-C line on stderr and exit status 130, now (nothing is written or open yet)."""
    try:
        os.write(2, INTERRUPTED_LINE)
    except OSError:
        pass
    os._exit(EXIT_INTERRUPTED)


#: Marks a handler that ends the process at once while the command loads: a handler
#: installed after it gives Ctrl-C back to Python's default when released, not to it.
end_at_once.while_loading = True  # type: ignore[attr-defined]

if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, end_at_once)


def main() -> None:
    """Run the ``dobbm`` command (the console script's entry point)."""
    from dobbm_solver.cli import main as command

    command()
