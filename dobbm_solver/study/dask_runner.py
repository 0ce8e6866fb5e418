"""The Dask runner: the chunks of a study mapped over an existing ``distributed`` cluster.

Dask is imported only here, and only when a scheduler is given
(``pip install 'dobbm-solver[dask]'``); the workers must have ``dobbm_solver``
installed.
"""

from __future__ import annotations

import re
import socket
import uuid
from typing import Any, Callable, Iterator, Sequence

from ..errors import DobbmRuntimeError
from .collect import StudyDeal
from .errors import StudyError, StudyRunError
from .local import Sink
from .rows import solve_chunk

__all__ = ["CONNECT_SECONDS", "HANDSHAKE_SECONDS", "check_address", "dask_client", "map_completed", "run_dask"]

#: Seconds to wait for the scheduler's port to answer (a refusal is at once).
CONNECT_SECONDS = 5.0
#: Seconds ``distributed`` may take to greet the scheduler once its port answers.
HANDSHAKE_SECONDS = 10
#: Schemes whose address is HOST:PORT over a TCP connection that can be tried first.
TCP_SCHEMES: tuple[str, ...] = ("tcp", "tls", "ws", "wss")
OTHER_SCHEMES: tuple[str, ...] = ("inproc", "ucx")
_HOST_PORT = re.compile(r"^(?:\[(?P<ip6>[0-9A-Fa-f:.]+)\]|(?P<host>[A-Za-z0-9._-]+)):(?P<port>[0-9]{1,5})$")


def check_address(address: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of a scheduler address ``[tcp|tls|ws|wss://]HOST:PORT``
    (None for an ``inproc://`` or ``ucx://`` one, left to Dask); a :class:`StudyError`
    for any other form."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme in OTHER_SCHEMES and rest:
        return None
    m = _HOST_PORT.match(rest) if scheme in TCP_SCHEMES and rest.isascii() else None
    port = int(m["port"]) if m else 0
    if m is None or not 1 <= port <= 65535:
        raise StudyError(f"--scheduler {address!r}: not a scheduler address; give "
                         f"[{'|'.join(TCP_SCHEMES)}://]HOST:PORT, e.g. tcp://127.0.0.1:8786")
    return scheme, m["ip6"] or m["host"], port


def _try_port(address: str, host: str, port: int) -> None:
    """Connect to the scheduler's port once (closed at once): a refusal or an unknown
    host is the address's fault (:class:`StudyError`), no answer a :class:`StudyRunError`."""
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except ConnectionRefusedError:
        raise StudyError(f"--scheduler {address}: connection refused: no Dask scheduler "
                         "listens there") from None
    except socket.gaierror as e:
        raise StudyError(f"--scheduler {address}: unknown host {host!r} ({e.strerror or e})") from None
    except TimeoutError:
        raise StudyRunError(f"cannot reach the Dask scheduler at {address}: no answer in "
                            f"{CONNECT_SECONDS:g} s") from None
    except OSError as e:
        raise StudyRunError(f"cannot reach the Dask scheduler at {address}: {e.strerror or e}") from None


def dask_client(address: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``: the address's form and
    port are checked first (a bad or refused address is a :class:`StudyError` at once)."""
    where = check_address(address)
    try:
        from distributed import Client
    except ImportError:
        raise StudyError("--scheduler needs Dask: pip install 'dobbm-solver[dask]' "
                         "(or pip install 'dask[distributed]')") from None
    if where is not None:
        _try_port(address, where[1], where[2])
    try:
        return Client(address, timeout=f"{HANDSHAKE_SECONDS}s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as e:
        raise StudyRunError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    except MemoryError:   # what answered sent bytes that Dask read as the length of a huge message
        raise StudyRunError(f"--scheduler {address}: the port answered, but not as a Dask "
                            "scheduler") from None


def map_completed(client: Any, fn: Callable[..., Any], items: Sequence[Any], *, name: str,
                  failure: type[DobbmRuntimeError], what: str,
                  passthrough: tuple[type[BaseException], ...] = (), **kwargs: Any) -> Iterator[tuple[int, Any]]:
    """``(i, fn(items[i], **kwargs))`` for every item, in the order the cluster completes them.

    A worker that cannot import the task (no ``dobbm_solver``) or a task that fails
    raises ``failure`` (``what``: what the workers cannot do); exceptions of
    ``passthrough`` propagate as they are.  On any failure, Ctrl-C and an
    abandoned iteration included, the futures still running are cancelled.
    """
    from distributed import as_completed
    run = uuid.uuid4().hex[:12]
    futures = client.map(fn, items, pure=False, key=[f"dobbm-{name}-{run}-{i}" for i in range(len(items))],
                         **kwargs)
    position = {f.key: i for i, f in enumerate(futures)}
    try:
        for fut in as_completed(futures):  # type: ignore[no-untyped-call]
            try:
                result = fut.result()
            except passthrough:
                raise
            except (ImportError, AttributeError) as e:
                raise failure(f"the Dask workers cannot {what} ({e}); "
                              "install dobbm_solver on every worker") from None
            except Exception as e:   # e.g. distributed.KilledWorker
                raise failure(f"a Dask task failed: {type(e).__name__}: {e}") from None
            yield position[fut.key], result
    except BaseException:
        try:
            client.cancel(futures)
        except Exception:  # pragma: no cover - the connection is already gone
            pass
        raise


def run_dask(client: Any, parts: list[list[StudyDeal]], mode: str, tt_mb: int, sink: Sink) -> None:
    """Map the chunks over the cluster and pass each chunk's rows to ``sink`` as they
    complete (a deal the solver rejects is the caller's input error: its ``ValueError``
    propagates); on any failure (Ctrl-C included) the futures are cancelled."""
    for _, rows in map_completed(client, solve_chunk, parts, name="study", failure=StudyRunError,
                                 what="run the study", passthrough=(ValueError,), mode=mode, tt_mb=tt_mb):
        sink(rows)
