"""The estimates against exact invariants, not statistical checks.

* An option whose per-sample values are another's plus a constant differs from
  it by that constant with a standard error of 0: the samples are shared, so
  their luck cancels.  An error computed as if the two were independent
  (``sqrt(se_a^2 + se_b^2)``) is far from 0 and fails here.
* The difference from an option worth 0 on every sample has exactly the other
  option's mean and standard error.
* An option estimated through a leader (``relative_estimate``) that is the
  leader plus a constant has the leader's error and its mean plus the
  constant; one worth 0 on every sample, estimated through a leader solved on
  the same samples, is 0 with an error of 0 (with plain means).

The others hold with plain means and with the control-variate fit alike.
"""

from __future__ import annotations

import math
import random
from typing import Callable, Sequence

import pytest

from dobbm_solver.analyzer.estimate import (
    ControlVariates,
    PlainMean,
    Series,
    estimate_option,
    paired_difference,
    relative_estimate,
)

TINY = 1e-9
N = 96


def _fits() -> dict[str, Callable[[Sequence[int]], PlainMean]]:
    rng = random.Random(5)
    cv = ControlVariates([(rng.gauss(0, 1), rng.gauss(0, 2), rng.random()) for _ in range(2000)])
    features = {i: (rng.gauss(0, 1), rng.gauss(0, 2), rng.random()) for i in range(N)}
    fitted = cv.fit(list(range(N)), features)
    assert type(fitted) is not PlainMean   # the control-variate fit is the one tested below
    return {"plain": lambda indices: PlainMean(), "control variates": lambda indices: cv.fit(list(indices), features)}


FITS = _fits()


def _units(seed: int, n: int = N) -> list[float]:
    rng = random.Random(seed)
    return [float(rng.choice([-24, -12, -6, -3, -2, -1, 1, 2, 3, 6, 12, 24])) for _ in range(n)]


@pytest.mark.parametrize("fit", FITS)
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("constant", [0.0, 3.0, -7.5])
def test_an_option_that_is_another_plus_a_constant_differs_by_it_with_no_error(fit, seed, constant):
    a = dict(enumerate(_units(seed)))
    b = {i: x + constant for i, x in a.items()}
    diff, se = paired_difference(FITS[fit], b, a)
    assert diff == pytest.approx(constant, abs=TINY)
    assert se is not None and se <= TINY
    # on the shared samples only: a sample of one alone changes nothing
    diff, se = paired_difference(FITS[fit], {**b, N: 1000.0}, {**a, N + 1: -1000.0})
    assert diff == pytest.approx(constant, abs=TINY) and se is not None and se <= TINY
    # while each option alone has an error well above 0
    assert FITS[fit](range(N)).mean(list(a.values()))[1] > 0.5


@pytest.mark.parametrize("fit", FITS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_difference_from_an_option_worth_0_is_the_other_options_estimate(fit, seed):
    a = dict(enumerate(_units(seed)))
    zero = {i: 0.0 for i in a}
    alone = FITS[fit](range(N)).mean(list(a.values()))
    assert paired_difference(FITS[fit], a, zero) == pytest.approx(alone, rel=1e-12, abs=TINY)
    diff, se = paired_difference(FITS[fit], zero, a)
    assert diff == pytest.approx(-alone[0], abs=TINY) and se == pytest.approx(alone[1], rel=1e-12)


def _series(seed: int, n: int) -> Series:
    rng = random.Random(seed)
    points = [rng.randrange(20, 101) for _ in range(n)]
    return Series([float(math.ceil(abs(p - 60) / 5)) * (1 if p > 60 else -1) for p in points], points)


@pytest.mark.parametrize("fit", FITS)
@pytest.mark.parametrize("k", [8, 40, N])
def test_an_option_estimated_through_the_leader_plus_a_constant_has_the_leaders_error(fit, k):
    lead = _series(9, N)
    leader = estimate_option("lead", FITS[fit](range(N)), list(lead.pays), list(lead.points))
    mine = Series([u + 2.0 for u in lead.pays[:k]], [p + 5 for p in lead.points[:k]])
    got = relative_estimate("mine", leader, lead, mine, FITS[fit](range(k)))
    assert got.samples == k
    assert got.ev_units == pytest.approx(leader.ev_units + 2.0, abs=TINY)
    assert got.expected_points == pytest.approx(leader.expected_points + 5.0, abs=TINY)
    assert got.stderr_units == pytest.approx(leader.stderr_units, rel=1e-9)
    assert got.stderr == pytest.approx(leader.stderr, rel=1e-9)


def test_an_option_worth_0_through_a_leader_on_the_same_samples_is_0_exactly():
    # plain means only: the error's covariance term is the plain one, so with control
    # variates the sum is near, not exactly, the error of the option alone
    lead = _series(13, N)
    leader = estimate_option("lead", PlainMean(), list(lead.pays), list(lead.points))
    assert leader.stderr_units is not None and leader.stderr_units > 0.2
    nothing = Series([0.0] * N, list(lead.points))   # pays 0 on every sample, whatever is played
    got = relative_estimate("nothing", leader, lead, nothing, PlainMean())
    assert got.ev_units == pytest.approx(0.0, abs=TINY)
    assert got.stderr_units is not None and got.stderr_units <= 1e-6
