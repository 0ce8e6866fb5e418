"""Tests of dobbm_solver.analyzer.estimate: plain means, control variates, paired statistics."""

from __future__ import annotations

import random

from dobbm_solver.analyzer.estimate import ControlVariates, PlainMean


def test_control_variates_reduce_error() -> None:
    rng = random.Random(4)
    draws = [(rng.gauss(0, 1), rng.gauss(0, 1)) for _ in range(4000)]
    cv = ControlVariates(draws)
    feats = {i: (rng.gauss(0, 1), rng.gauss(0, 1)) for i in range(200)}
    y = [10 + 5 * f[0] + rng.gauss(0, 1) for f in feats.values()]
    plain = PlainMean().mean(y)
    fitted = cv.fit(list(range(200)), feats).mean(y)
    assert abs(fitted[0] - 10) < 3 * fitted[1]
    assert fitted[1] < plain[1] / 3
    assert isinstance(cv.fit(list(range(5)), feats), PlainMean)     # too few: plain means
