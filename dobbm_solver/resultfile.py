"""Result files that a run appends to and a rerun resumes: the one policy of ``study`` and ``arena``.

A tool writes one row a line and reruns skip the rows already there, so a
result file must survive a kill, a full disk and a second run at the same
time.  :class:`LockedFile` holds what they share:

* only a regular file is opened (a symbolic link is followed); a FIFO, a
  device, a socket or a directory is refused before it is opened for good, so
  nothing waits on a FIFO's writer or reads ``/dev/zero`` without end;
* an exclusive lock (``flock``) against a second writer, refused with one line;
* the lines read one at a time, each at most :data:`MAX_LINE` bytes, and what
  follows the last newline kept apart as the :attr:`~LockedFile.tail` (a row cut
  short when a run was killed while writing it);
* each row appended whole with one ``write`` (a failed write, a full disk say,
  is cut back off, so the rows before it stay and no part-row is left);
* :meth:`~LockedFile.replace` swaps in new contents atomically (temporary file,
  then rename) and :meth:`~LockedFile.cut_tail` drops a row cut short.

What a row holds, and whether a file is one the tool wrote, the tool decides
(:mod:`dobbm_solver.study.output`, :mod:`dobbm_solver.arena.rows`): a file
holding anything else is refused and left byte for byte as it was.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Iterator

from .echo import brief
from .errors import DobbmError, DobbmRuntimeError

try:  # POSIX: an exclusive lock on the output while a run writes it
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["MAX_LINE", "LockedFile", "file_kind", "regular_file"]

#: The longest line a result file may hold, in bytes (an arena row with every
#: per-decision table is about 20 KB); a longer line is no row of ours.
MAX_LINE = 1 << 20

_READ = 1 << 16


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is, for a message (from ``st_mode``)."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "not a regular file"


def regular_file(path: str | os.PathLike[str], name: str, error: type[DobbmError]) -> Path:
    """The file ``path`` names, through symbolic links, if it is a regular file or does
    not exist yet in an existing directory; else ``error`` (``name`` is the path as given)."""
    real = Path(os.path.realpath(path))
    try:
        st = os.stat(real)
    except OSError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise error(f"{name}: is {file_kind(st.st_mode)}; give a regular file")
    try:
        parent = real.parent.is_dir()
    except OSError as e:   # a name past the system's limit, say
        raise error(f"{name}: cannot be written ({e.strerror or e})") from None
    if not parent:
        raise error(f"{name}: cannot be written: no such directory {brief(str(Path(path).parent))}")
    return real


class LockedFile:
    """A result file opened to read and append, locked against a second writer.

    ``error`` is the tool's error for a file it refuses (bad input), ``write_error``
    its error for a row it could not write; ``busy`` ends the message a second
    writer gets; ``sync``: each row is also synced to the disk.
    """

    def __init__(self, path: str | os.PathLike[str], name: str, *, error: type[DobbmError],
                 write_error: type[DobbmRuntimeError], busy: str, sync: bool = False) -> None:
        self.name = name
        self.error = error
        self.write_error = write_error
        self.busy = busy
        self.sync = sync
        self.path = regular_file(path, name, error)
        self.fd: int | None = None
        #: the bytes after the last newline once :meth:`lines` has read to the end
        self.tail = b""
        #: the number of the last line read (the tail's, if there is one)
        self.last_line = 0
        self._open()

    def _open(self) -> None:
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(self.path, flags, 0o666)
        except OSError as e:
            raise self.error(f"{self.name}: {e.strerror or e}") from None
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):   # it changed since it was looked at
            os.close(fd)
            raise self.error(f"{self.name}: is {file_kind(st.st_mode)}; give a regular file")
        if fcntl is not None:
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise self.error(f"{self.name}: {self.busy}") from None
        self.fd = fd

    # -- reading -------------------------------------------------------------
    @property
    def size(self) -> int:
        assert self.fd is not None
        return os.fstat(self.fd).st_size

    def lines(self, cap: int = MAX_LINE) -> Iterator[tuple[int, bytes]]:
        """Each complete line from the start (number from 1, bytes without the newline),
        read a block at a time; then :attr:`tail` holds what follows the last newline.
        A line longer than ``cap`` bytes is the tool's ``error``."""
        assert self.fd is not None
        os.lseek(self.fd, 0, os.SEEK_SET)
        buf = b""
        n = 0
        while True:
            block = os.read(self.fd, _READ)
            if not block:
                break
            buf += block
            start = 0
            while (end := buf.find(b"\n", start)) >= 0:
                n += 1
                if end - start > cap:
                    raise self._too_long(n, cap)
                yield n, buf[start:end]
                start = end + 1
            buf = buf[start:]
            if len(buf) > cap:
                raise self._too_long(n + 1, cap)
        self.tail = buf
        self.last_line = n + (1 if buf else 0)

    def _too_long(self, n: int, cap: int) -> DobbmError:
        return self.error(f"{self.name}: line {n} is longer than {cap} bytes: no result row; "
                          f"refused, left as it is")

    # -- changing ------------------------------------------------------------
    def cut_tail(self) -> None:
        """Drop :attr:`tail`, a row cut short (call after reading every line)."""
        assert self.fd is not None
        if self.tail:
            try:
                os.ftruncate(self.fd, self.size - len(self.tail))
            except OSError as e:
                raise self.write_error(f"{self.name}: cannot drop the row cut short at its end "
                                       f"({e.strerror or e}); it is left as it was") from None
            self.tail = b""

    def append(self, data: bytes) -> None:
        """Append ``data`` (a row and its newline) whole or not at all: a failed write (a
        full disk, a file size limit) is cut back off and raises ``write_error``."""
        assert self.fd is not None
        start = self.size
        try:
            while data:   # one write for a row in practice; loop on a short write
                n = os.write(self.fd, data)
                data = data[n:]
            if self.sync:
                os.fsync(self.fd)
        except OSError as e:
            try:
                os.ftruncate(self.fd, start)
            except OSError:   # pragma: no cover - a cut-short last row is dropped next time
                pass
            raise self.write_error(f"{self.name}: cannot write ({e.strerror or e}); the rows written so "
                                   "far are kept: make room and run the same command again to resume") from None

    def replace(self, data: bytes) -> None:
        """Replace the file's contents with ``data`` atomically (a temporary file beside it,
        then a rename) and lock the new file.  On failure (a full disk) the file is as it was."""
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        except OSError as e:
            raise self.write_error(f"{self.name}: cannot make a temporary file beside it to rewrite it "
                                   f"({e.strerror or e}); it is left as it was") from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            try:
                os.chmod(tmp, os.stat(self.path).st_mode & 0o777)
            except OSError:
                pass
            os.replace(tmp, self.path)
        except BaseException as e:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            if isinstance(e, OSError):
                raise self.write_error(f"{self.name}: cannot rewrite it ({e.strerror or e}); "
                                       "it is left as it was") from None
            raise
        old = self.fd
        self.fd = None
        try:
            self._open()
        finally:
            if old is not None:
                os.close(old)

    def close(self) -> None:
        """Close the file, which releases the lock.  Every row was written with its own
        ``write``, so there is nothing left to flush: a failing close loses nothing
        and does not hide the error that ended a run."""
        if self.fd is not None:
            fd, self.fd = self.fd, None
            try:
                os.close(fd)
            except OSError:   # pragma: no cover - nothing is buffered
                pass
