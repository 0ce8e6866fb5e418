"""Tests of dobbm_solver.analyzer.estimate: plain means, control variates, paired statistics."""

from __future__ import annotations

import math
import random
import statistics

from dobbm_solver.analyzer.advice import OptionEstimate
from dobbm_solver.analyzer.estimate import (
    ControlVariates,
    PlainMean,
    Series,
    estimate_option,
    relative_estimate,
)


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


def _estimate(pays: list[float], points: list[int]) -> OptionEstimate:
    return estimate_option("lead", PlainMean(), pays, points)


def test_relative_estimate_on_all_samples_is_the_direct_estimate() -> None:
    rng = random.Random(7)
    lead_pts = [rng.randrange(121) for _ in range(40)]
    mine_pts = [max(0, min(120, p + rng.randrange(-15, 10))) for p in lead_pts]
    lead = Series([float(p - 60) for p in lead_pts], lead_pts)
    mine = Series([float(p - 60) for p in mine_pts], mine_pts)
    got = relative_estimate("mine", _estimate(list(lead.pays), lead_pts), lead, mine, PlainMean())
    direct = _estimate(list(mine.pays), mine_pts)
    assert math.isclose(got.ev_units, direct.ev_units)
    assert math.isclose(got.expected_points or 0.0, direct.expected_points or 0.0)
    assert math.isclose(got.win_probability or 0.0, direct.win_probability or 0.0)
    assert got.stderr_units is not None and direct.stderr_units is not None
    assert math.isclose(got.stderr_units, direct.stderr_units, rel_tol=1e-9)
    assert got.samples == 40


def test_relative_estimate_error_matches_its_spread() -> None:
    # the leader on n samples, the option on the first k: over many runs the
    # estimate's spread is what its reported error says, and it is unbiased
    rng = random.Random(11)
    n, k, true_mine = 64, 12, 50.0 - 4.0
    values, errors = [], []
    for _ in range(600):
        lead_pts = [round(rng.gauss(50, 12)) for _ in range(n)]
        mine_pts = [p - 4 + round(rng.gauss(0, 6)) for p in lead_pts[:k]]
        lead = Series([float(p) for p in lead_pts], lead_pts)
        mine = Series([float(p) for p in mine_pts], mine_pts)
        e = relative_estimate("mine", _estimate(list(lead.pays), lead_pts), lead, mine, PlainMean())
        assert e.stderr_units is not None
        values.append(e.ev_units)
        errors.append(e.stderr_units)
    spread = statistics.stdev(values)
    rms = math.sqrt(statistics.fmean(x * x for x in errors))
    assert 0.9 < spread / rms < 1.1
    assert abs(statistics.fmean(values) - true_mine) < 3 * spread / math.sqrt(len(values))
