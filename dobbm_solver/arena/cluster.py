"""The arena's deals mapped over a Dask cluster (``--scheduler``), as ``study`` does.

Dask is imported only when a scheduler is given (``pip install 'dobbm-solver[dask]'``);
the workers must have ``dobbm_solver`` installed.  The address is checked, and
the client made, by the study's :func:`~dobbm_solver.study.dask_runner.dask_client`.
"""

from __future__ import annotations

from typing import Callable, Iterator

from ..errors import DobbmRuntimeError
from .results import DealRow


class ArenaClusterError(DobbmRuntimeError):
    """A deal the Dask cluster could not play (a worker without dobbm_solver, a killed worker)."""


def run_on_cluster(address: str, task: Callable[[int], DealRow], todo: list[int]
                   ) -> Iterator[tuple[int, DealRow]]:
    """``(index, task(index))`` for every index, as the cluster completes them; on any
    failure (Ctrl-C included) the futures still running are cancelled."""
    from ..study.dask_runner import dask_client, map_completed
    client = dask_client(address)
    try:
        for i, row in map_completed(client, task, todo, name="arena", failure=ArenaClusterError,
                                    what="play the arena"):
            yield todo[i], row
    finally:
        try:
            client.close()
        except Exception:  # pragma: no cover - the connection is already gone
            pass
