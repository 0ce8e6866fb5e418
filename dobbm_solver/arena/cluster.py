"""The arena's deals mapped over a Dask cluster (``--scheduler``), as ``study`` does.

Dask is imported only when a scheduler is given (``pip install 'dobbm-solver[dask]'``);
the workers must have ``dobbm_solver`` installed.  The address is checked, and
the client made, by the study's :func:`~dobbm_solver.study.dask_runner.dask_client`.
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Iterator

from ..errors import DobbmRuntimeError


class ArenaClusterError(DobbmRuntimeError):
    """A deal the Dask cluster could not play (a worker without dobbm_solver, a killed worker)."""


def run_on_cluster(address: str, task: Callable[[int], dict[str, Any]], todo: list[int]
                   ) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(index, task(index))`` for every index, as the cluster completes them; on any
    failure (Ctrl-C included) the futures still running are cancelled."""
    from ..study.dask_runner import dask_client
    client = dask_client(address)
    from distributed import as_completed
    run = uuid.uuid4().hex[:12]
    futures = client.map(task, todo, pure=False, key=[f"dobbm-arena-{run}-{i}" for i in todo])
    index_of = {f.key: i for f, i in zip(futures, todo)}
    try:
        for fut in as_completed(futures):
            try:
                row = fut.result()
            except (ImportError, AttributeError) as e:
                raise ArenaClusterError(f"the Dask workers cannot play the arena ({e}); "
                                        "install dobbm_solver on every worker") from None
            except Exception as e:   # e.g. distributed.KilledWorker
                raise ArenaClusterError(f"a Dask task failed: {type(e).__name__}: {e}") from None
            yield index_of[fut.key], row
    finally:
        try:
            client.cancel(futures)
            client.close()
        except Exception:  # pragma: no cover - the connection is already gone
            pass
