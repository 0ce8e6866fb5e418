"""The arena (`dobbm arena advice rule`): seconds of one deal, in process.

For the first ``DOBBM_BENCH_ARENA_DEALS`` (default 4) deals of seed 1, one
timed round plays each deal at every table of the duplicate plan (the all-rule
table and ``advice`` in each seat in turn) with the arena's sample counts
(``ARENA_SAMPLES``), in this process.  ``extra_info`` has the CPU seconds a
deal, and the extrapolation to 200 deals on 2 cores.  Target (issue: the
arena): 200 deals with the tool's strategies in at most 10 minutes on 2 cores.
"""

from __future__ import annotations

import os
import time

from dobbm_solver.arena import ArenaConfig, parse_player
from dobbm_solver.arena.run import arena_deal


def _deals() -> int:
    return max(1, int(os.environ.get("DOBBM_BENCH_ARENA_DEALS", 4)))


def test_arena_advice_against_rule(benchmark):
    config = ArenaConfig(parse_player("advice"), parse_player("rule"), seed=1)

    def play() -> float:
        t0 = time.process_time()
        for i in range(_deals()):
            arena_deal(config, i)
        return time.process_time() - t0

    cpu = benchmark.pedantic(play, rounds=1, iterations=1)
    per_deal = cpu / _deals()
    benchmark.extra_info.update(cpu_seconds_a_deal=round(per_deal, 3),
                                minutes_for_200_deals_on_2_cores=round(200 * per_deal / 2 / 60, 2))
    assert 200 * per_deal / 2 <= 600
