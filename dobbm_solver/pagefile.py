"""The one policy of the pages ``--html FILE`` writes: never over a file the tool did not write.

A page is written whole: to a temporary file beside FILE, then renamed over it,
so a reader never sees half a page and a failed write leaves FILE as it was.
FILE may be new (in an existing directory) or a page dobbm wrote before (its
head holds :data:`~dobbm_solver.report.html.page.GENERATOR`); anything else
(another file, a FIFO, a device, a directory) is refused and left as it was.
"""

from __future__ import annotations

import os
import tempfile

from .errors import DobbmError
from .resultfile import regular_file

__all__ = ["PageFileError", "MARK", "write_page"]

#: What the head of every page dobbm writes holds (see ``report/html/page.py``).
MARK = b'<meta name="generator" content="dobbm">'

#: How much of an existing file is read to find the mark.
_HEAD = 4096


class PageFileError(DobbmError):
    """A FILE that ``--html`` must not write: not a regular file, or not a page dobbm wrote."""


def check_page_file(path: str) -> None:
    """Refuse ``path`` unless it is new or a page dobbm wrote (before any work is done)."""
    real = regular_file(path, path, PageFileError)
    try:
        with open(real, "rb") as f:
            head = f.read(_HEAD)
    except FileNotFoundError:
        return
    except OSError as e:
        raise PageFileError(f"{path}: cannot be read ({e.strerror or e})") from None
    if MARK not in head:
        raise PageFileError(f"{path}: exists and is not a page dobbm wrote; give a new file name "
                            "(dobbm writes over its own pages only)")


def write_page(path: str, text: str) -> None:
    """Write the page ``text`` to ``path`` whole (see the module text)."""
    check_page_file(path)
    real = regular_file(path, path, PageFileError)
    fd, tmp = tempfile.mkstemp(prefix=".dobbm-", suffix=".html", dir=real.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
