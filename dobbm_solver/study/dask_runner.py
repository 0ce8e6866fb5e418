"""The Dask runner: the chunks of a study mapped over an existing ``distributed`` cluster.

Dask is imported only here, and only when a scheduler is given
(``pip install 'dobbm-solver[dask]'``); the workers must have ``dobbm_solver``
installed.
"""

from __future__ import annotations

import uuid
from typing import Any

from .collect import StudyDeal
from .errors import StudyError, StudyRunError
from .local import Sink
from .rows import solve_chunk

__all__ = ["dask_client", "run_dask"]


def dask_client(address: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``."""
    try:
        from distributed import Client
    except ImportError:
        raise StudyError("--scheduler needs Dask: pip install 'dobbm-solver[dask]' "
                         "(or pip install 'dask[distributed]')") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as e:
        raise StudyRunError(f"cannot reach the Dask scheduler at {address}: {e}") from None


def run_dask(client: Any, parts: list[list[StudyDeal]], mode: str, tt_mb: int, sink: Sink) -> None:
    """Map the chunks over the cluster and pass each chunk's rows to ``sink`` as they
    complete; on any failure (Ctrl-C included) the futures are cancelled."""
    from distributed import as_completed
    run = uuid.uuid4().hex[:12]
    futures = client.map(solve_chunk, parts, mode=mode, tt_mb=tt_mb, pure=False,
                         key=[f"dobbm-study-{run}-{i}" for i in range(len(parts))])
    try:
        for fut in as_completed(futures):
            try:
                rows = fut.result()
            except (ImportError, AttributeError) as e:
                raise StudyRunError(f"the Dask workers cannot run the study ({e}); "
                                    "install dobbm_solver on every worker") from None
            except ValueError:   # a deal the solver rejects: the caller's input error
                raise
            except Exception as e:   # e.g. distributed.KilledWorker
                raise StudyRunError(f"a Dask task failed: {type(e).__name__}: {e}") from None
            sink(rows)
    except BaseException:
        try:
            client.cancel(futures)
        except Exception:  # pragma: no cover - the connection is already gone
            pass
        raise
