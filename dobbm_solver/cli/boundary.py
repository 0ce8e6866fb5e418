"""The command line's boundary, in one place: exit codes, errors as one clean line, Ctrl-C.

* Bad input (a :class:`~dobbm_solver.errors.DobbmError`, a bad option): one
  line ``Error: ...`` on stderr, exit :data:`EXIT_BAD_INPUT`.
* A failure that is not the input's fault (a
  :class:`~dobbm_solver.errors.DobbmRuntimeError`, no memory, an output that
  cannot be written): one line, exit :data:`EXIT_FAILURE`.
* Ctrl-C at any moment: one line, exit :data:`EXIT_INTERRUPTED`
  (:func:`exit_interrupted`); what was printed stays whole.
* Any other exception is a bug and keeps its traceback.

A value the user typed comes back in an error at most
:data:`~dobbm_solver.echo.ECHO_CHARS` characters long (:func:`cut_echoes`).
:class:`DobbmGroup` applies all of this to every command; a command adds only
:func:`about` (which document an error is about).
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection, Iterator, NoReturn, Sequence

import click

from .._interrupt import EXIT_INTERRUPTED, INTERRUPTED_MESSAGE, exit_on_ctrl_c, hold_ctrl_c
from ..echo import ECHO_CHARS, brief
from ..errors import DobbmError, DobbmRuntimeError
from ..handfile import HandFileError
from ..notation import in_notation_words
from .output import OutputError, say

__all__ = ["EXIT_FAILURE", "EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "DEAL_TITLE", "BadInput", "OutputError",
           "clean_error", "about", "exit_interrupted", "cut_echoes", "command_runs", "FileName", "DobbmGroup"]

#: A failure that is not the input's fault.
EXIT_FAILURE = 1
#: Bad input: a hand file, a deal line, an option.
EXIT_BAD_INPUT = 2
#: The title of the document a ``--deal`` line gives.
DEAL_TITLE = "--deal"


class BadInput(click.ClickException):
    """Bad input: one line on stderr, exit code :data:`EXIT_BAD_INPUT`."""

    exit_code = EXIT_BAD_INPUT


def clean_error(e: DobbmError | DobbmRuntimeError) -> click.ClickException:
    """Bad input (:class:`DobbmError`): one line and exit code 2; a failure that is not
    the input's fault (:class:`DobbmRuntimeError`): one line and exit code 1."""
    return BadInput(str(e)) if isinstance(e, DobbmError) else click.ClickException(str(e))


@contextmanager
def about(title: str, line: bool = False) -> Iterator[None]:
    """Inside ``with about(title):`` a library error names the document first
    (``FILE[N]: ...``; with ``line``, a ``--deal`` line's, in the notation's words)."""
    try:
        yield
    except HandFileError as e:
        if line:
            raise BadInput(f"{title}: {in_notation_words(e)}") from None
        raise clean_error(e) from None
    except DobbmError as e:
        prefix = "" if str(e).startswith(f"{title}:") else f"{title}: "
        raise BadInput(f"{prefix}{e}") from None


def exit_interrupted(note: str | None = None) -> NoReturn:
    """End the command after Ctrl-C: ``note`` (what was done and stays), else
    :data:`~dobbm_solver._interrupt.INTERRUPTED_MESSAGE`, on stderr, and exit status :data:`EXIT_INTERRUPTED`."""
    say(note or INTERRUPTED_MESSAGE)
    raise SystemExit(EXIT_INTERRUPTED)


if TYPE_CHECKING:   # generic from click 8.2 on; the package asks for 8.1 or later
    _TextParam = click.ParamType[str]
else:
    _TextParam = click.ParamType

#: ``ctx.meta`` key: the file names given on the command line (see :class:`FileName`).
FILE_NAMES = "dobbm.file_names"
#: ``ctx.meta`` key: the command line's arguments.
ARGS = "dobbm.args"


class FileName(_TextParam):
    """A file's name on the command line.  A report names its file whole, so an
    error does not cut it, unless it is longer than a file name can be."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if ctx is not None and isinstance(value, str) and _fits_a_file_system(value):
            ctx.meta.setdefault(FILE_NAMES, set()).add(value)
        return value


def _fits_a_file_system(name: str) -> bool:
    return len(name) < 4096 and all(len(part) <= 255 for part in name.split(os.sep))


def cut_echoes(message: str, args: Sequence[str], file_names: Collection[str] = ()) -> str:
    """``message`` with every command-line argument longer than ECHO_CHARS cut as
    :func:`~dobbm_solver.echo.brief` cuts it, but for ``file_names``; and so is a part
    of one quoted in the message (``player 'a,play=xxx...': no strategy 'xxx...'``)."""
    long_args = [a for a in sorted(set(args), key=len, reverse=True)
                 if len(a) > ECHO_CHARS and a not in file_names]
    for arg in long_args:
        if arg in message:
            message = message.replace(repr(arg), brief(arg)).replace(arg, arg[:ECHO_CHARS - 1] + "…")
    return _cut_quoted(message, long_args) if long_args else message


def _cut_quoted(message: str, long_args: Sequence[str]) -> str:
    """``message`` with each quoted part (``'...'``) longer than ECHO_CHARS that comes
    from one of ``long_args`` cut as :func:`~dobbm_solver.echo.brief` cuts it."""
    out, at = [], 0
    while (start := message.find("'", at)) >= 0 and (end := message.find("'", start + 1)) >= 0:
        inner = message[start + 1:end]
        if len(inner) > ECHO_CHARS and any(inner in a for a in long_args):
            out += [message[at:start], brief(inner)]
            at = end + 1
        else:
            out.append(message[at:start + 1])
            at = start + 1
    return "".join(out) + message[at:]


def _cut(e: click.ClickException, meta: dict[str, Any] | None, args: Sequence[str] = ()) -> click.ClickException:
    meta = meta or {}
    e.message = cut_echoes(e.message, meta.get(ARGS, args), meta.get(FILE_NAMES, ()))
    return e


#: The module the ``dobbm`` script runs (outside the package; see its docstring).
ENTRY_MODULE = "_dobbm_entry"


def command_runs(package: str) -> bool:
    """Whether this process is the ``dobbm`` command: its script (or its entry module),
    or ``python -m PACKAGE``."""
    main_file = getattr(sys.modules.get("__main__"), "__file__", None) or ""
    if Path(main_file).name.startswith("dobbm") or ENTRY_MODULE in sys.modules:
        return True
    argv = list(getattr(sys, "orig_argv", ()))
    return any(a == "-m" and b == package for a, b in zip(argv, argv[1:])) or f"-m{package}" in argv


class DobbmGroup(click.Group):
    """The ``dobbm`` group: every command runs inside the boundary (see the module).

    ``loading``: the Ctrl-C handler of the command's start (a Ctrl-C before the
    command runs ends the process at once); released when the command runs.
    """

    def __init__(self, *args: Any, loading: exit_on_ctrl_c | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.loading = loading

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # the process's entry point (the dobbm script, python -m): its exit status after
        # Ctrl-C stays 130 (see _interrupt.hold_ctrl_c); CliRunner calls main() instead
        try:
            return self.main(*args, **kwargs)
        except SystemExit as e:
            if e.code == EXIT_INTERRUPTED:
                hold_ctrl_c()
            raise

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, **kwargs)
        except OSError as e:   # click's own text (help, usage, an error) could not be written
            say(f"Error: {OutputError.of(e).format_message()}")
            raise SystemExit(EXIT_FAILURE) from None

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        given = list(args)
        try:   # Ctrl-C while the command line is read: as during the command
            ctx = super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            exit_interrupted()
        except click.ClickException as e:
            raise _cut(e, None, given) from None
        except OSError as e:   # --help or --version to an output that cannot be written
            raise OutputError.of(e) from None
        ctx.meta[ARGS] = given
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        try:
            if self.loading is not None:
                self.loading.release()   # Ctrl-C ended the process at once until here; now it is caught
            return super().invoke(ctx)
        except (DobbmError, DobbmRuntimeError) as e:
            raise _cut(clean_error(e), ctx.meta) from None
        except click.ClickException as e:
            raise _cut(e, ctx.meta) from None
        except MemoryError:
            raise click.ClickException("out of memory") from None
        except OSError as e:   # the system failed (a full disk, a closed pipe): not a bug of ours
            raise _cut(OutputError.of(e), ctx.meta) from None
        except KeyboardInterrupt:
            exit_interrupted()
