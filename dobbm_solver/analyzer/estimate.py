"""Option estimates: plain means, control variates, paired differences, and when to stop sampling.

Means over samples, with **control variates**: cheap facts of each sampled
deal (:func:`deal_features`: trump split, hand strengths, the Dobb's
points...) whose exact means are estimated from many cheap draws of the same
sampler; regressing the solved points on them removes much of the luck of
the deal from the estimate.  With ``samples`` None sampling is adaptive: batches of
:data:`BATCH` until the recommended option's expected points have a
standard error of at most ``target_stderr`` (default :data:`TARGET_STDERR`
= 1.5 points), see :func:`next_batch`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ..cards import BB_SUITS, BB_TRUMPS, CardSet, popcount, set_points
from ..models.strength import PLAIN_SUITS, fast_hand_strength
from ..rules import WIN_THRESHOLD
from .advice import OptionEstimate, OptT
from .view import View

#: Cheap draws (no solving) that calibrate the control variates.
CV_DRAWS = 1024
#: Control variates are used from this many solved samples on (else plain means).
CV_MIN_SAMPLES = 24
#: Stop adding samples once the recommended option's expected points have
#: this standard error (points) -- when ``samples`` is not given.
TARGET_STDERR = 1.5
#: Adaptive sampling (``samples`` None): first batch, batch size, cap.
MIN_SAMPLES = {"bid": 32, "double": 32, "discard": 32, "play": 32}
BATCH = 16
MAX_SAMPLES = {"bid": 384, "double": 512, "discard": 256, "play": 512}
#: An option solved on fewer samples than the recommendation is ranked beside it only when
#: their paired difference rests on at least this many shared samples (see :func:`rankable`).
RANK_MIN_SAMPLES = 16


def deal_features(view: View, dealt: Mapping[str, CardSet], dobb: CardSet) -> tuple[float, ...]:
    """Cheap facts of a sampled deal that go with the declarer's points.

    Over the defenders' dealt cards: the sum of squared trump counts (trump
    concentration), the strongest and the summed ``hand_strength``, and the
    sum over the plain suits of the shortest holding (ruffing chances).  For
    the declarer: the strength of the 8 dealt cards and of them with the
    Dobb, and the Dobb's points and trumps.  Features that do not vary in a
    view (e.g. the declarer's cards when that is ``me``) drop out.
    """
    decl = view.declarer or view.me
    d8 = dealt[decl]
    others = [dealt[s] for s in view.active if s != decl]
    strengths = [fast_hand_strength(h) for h in others]
    total = 0.0          # in seat order, as the compiled sampler adds them (a float sum() may compensate)
    for x in strengths:
        total += x
    sq = 0
    for h in others:
        t = popcount(h & BB_TRUMPS)
        sq += t * t
    short = 0
    for s in PLAIN_SUITS:
        short += min(popcount(h & BB_SUITS[s]) for h in others)
    return (float(sq), max(strengths), total, float(short),
            fast_hand_strength(d8), fast_hand_strength(d8 | dobb), float(set_points(dobb)),
            float(popcount(dobb & BB_TRUMPS)))


def _gram(cols: Sequence[Sequence[float]]) -> list[list[float]]:
    """``[[sum(x * y for x, y in zip(u, v)) for v in cols] for u in cols]``, each entry
    summed once (the matrix is symmetric: ``x * y == y * x``, summed in the same order)."""
    n = len(cols)
    out = [[0.0] * n for _ in range(n)]
    for i in range(n):
        u = cols[i]
        for j in range(i, n):
            out[i][j] = out[j][i] = sum(x * y for x, y in zip(u, cols[j]))
    return out


def _invert(a: list[list[float]]) -> list[list[float]] | None:
    """Inverse of a small symmetric matrix by Gauss-Jordan; None if singular."""
    n = len(a)
    m = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-10:
            return None
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        m[col] = [x / p for x in m[col]]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [row[n:] for row in m]


class PlainMean:
    """Plain sample means (too few samples for control variates)."""

    def mean(self, y: Sequence[float]) -> tuple[float, float | None]:
        """The mean of ``y`` and its standard error (None for one value)."""
        n = len(y)
        m = sum(y) / n
        if n < 2:
            return m, None
        return m, math.sqrt(sum((x - m) ** 2 for x in y) / (n - 1) / n)


class ControlVariateFit(PlainMean):
    """The regression (control-variate) estimator of a mean, for one set of samples.

    With features ``x`` of known mean ``mu`` (from many cheap draws), the
    mean of ``y`` is estimated by the intercept of ``y ~ 1 + (x - mu)``; its
    variance is the heteroscedasticity-robust (HC3) sandwich estimate, plus
    the uncertainty of ``mu`` itself.  (The plain least-squares variance
    assumes every deal's points spread alike; a weak Solo's points do not.)
    """

    def __init__(self, rows: Sequence[Sequence[float]], cv: ControlVariates) -> None:
        self.X = [[1.0] + [(r[j] - cv.mu[j]) / cv.sd[j] for j in cv.keep] for r in rows]
        k = len(self.X[0])
        cols = list(zip(*self.X))
        xtx = _gram(cols)
        self.inv = inv = _invert(xtx)
        self.cv = cv
        if inv is not None:
            # what HC3 needs of each row, the same for every option's y: the first entry
            # of (X'X)^-1 x, and one minus the row's leverage
            self.row0 = [sum(inv[0][c] * x[c] for c in range(k)) for x in self.X]
            self.scale = [max(1e-9, 1.0 - sum(x[a] * sum(inv[a][c] * x[c] for c in range(k)) for a in range(k)))
                          for x in self.X]

    def mean(self, y: Sequence[float]) -> tuple[float, float | None]:
        if self.inv is None:
            return super().mean(y)
        X, inv = self.X, self.inv
        k = len(X[0])
        xty = [sum(x[a] * yi for x, yi in zip(X, y)) for a in range(k)]
        b = [sum(inv[a][c] * xty[c] for c in range(k)) for a in range(k)]
        # the intercept's variance robust to a spread that differs from deal to deal
        # (HC3: each residual scaled by its leverage), as the points of a game are
        var0 = 0.0
        for x, yi, row0, scale in zip(X, y, self.row0, self.scale):
            e = yi - sum(bj * xj for bj, xj in zip(b, x))
            var0 += (row0 * e / scale) ** 2
        beta = b[1:]
        corr = self.cv.corr
        mu_var = sum(beta[a] * corr[a][c] * beta[c] for a in range(k - 1) for c in range(k - 1)) / self.cv.m
        return b[0], math.sqrt(max(0.0, var0 + mu_var))


class ControlVariates:
    """Feature means, spreads and correlations from cheap draws of the same sampler."""

    def __init__(self, draws: Sequence[Sequence[float]]) -> None:
        m = len(draws)
        p = len(draws[0]) if draws else 0
        self.m = m
        self.mu = [sum(d[j] for d in draws) / m for j in range(p)] if m else []
        var = [sum((d[j] - self.mu[j]) ** 2 for d in draws) / max(1, m - 1) for j in range(p)]
        self.keep = [j for j in range(p) if var[j] > 1e-9]
        self.sd = [math.sqrt(v) if v > 0 else 1.0 for v in var]
        centred = [[d[j] - self.mu[j] for d in draws] for j in self.keep]
        cross = _gram(centred)
        self.corr = [[cross[i][k] / max(1, m - 1) / (self.sd[a] * self.sd[c]) for k, c in enumerate(self.keep)]
                     for i, a in enumerate(self.keep)]
        self._fits: dict[tuple[int, ...], PlainMean] = {}

    def fit(self, indices: Sequence[int], features: Mapping[int, Sequence[float]]) -> PlainMean:
        """The estimator for the samples ``indices`` (``features``: each sample's), memoised."""
        key = tuple(indices)
        got = self._fits.get(key)
        if got is None:
            n = len(indices)
            if not self.keep or n < max(CV_MIN_SAMPLES, 4 * (len(self.keep) + 1)):
                got = PlainMean()
            else:
                got = ControlVariateFit([features[i] for i in indices], self)
            self._fits[key] = got
        return got


def wins_of(points: Sequence[int]) -> list[float]:
    """1.0 for each declarer's result of 61 or more, else 0.0."""
    return [1.0 if p >= WIN_THRESHOLD else 0.0 for p in points]


def estimate_option(option: OptT, fit: PlainMean, pays: Sequence[float], points: Sequence[int] | None,
                    weights: Sequence[float] | None = None) -> OptionEstimate[OptT]:
    """An option's estimate from per-sample payments (units) and the declarer's points.

    With ``weights`` (the chance the option is really played in each sample:
    a Dobbm can be overcalled) ``pays`` include them already, and points and
    wins are averaged with them (ratio estimates, delta-method errors).
    """
    n = len(pays)
    ev, se_u = fit.mean(pays)
    if points is None:
        return OptionEstimate(option=option, ev_units=ev, samples=n, stderr_units=se_u)
    wins = wins_of(points)
    if weights is None:
        ep, se_p = fit.mean([float(p) for p in points])
        win, _ = fit.mean(wins)
    else:
        wbar, _ = fit.mean(weights)
        if wbar <= 1e-12:
            return OptionEstimate(option=option, ev_units=ev, samples=n, stderr_units=se_u)
        wp, _ = fit.mean([w * p for w, p in zip(weights, points)])
        ep = wp / wbar
        _, se_p = fit.mean([w * (p - ep) / wbar for w, p in zip(weights, points)])
        ww, _ = fit.mean([w * x for w, x in zip(weights, wins)])
        win = ww / wbar
    return OptionEstimate(option=option, ev_units=ev, win_probability=min(1.0, max(0.0, win)),
                          expected_points=min(120.0, max(0.0, ep)), stderr=se_p, samples=n, stderr_units=se_u)


@dataclass(frozen=True)
class Series:
    """An option's per-sample values on samples ``0 .. len-1``: payments (units) and the
    declarer's points."""

    pays: Sequence[float]
    points: Sequence[int]

    def wins(self) -> list[float]:
        return wins_of(self.points)


def relative_estimate(option: OptT, leader: OptionEstimate[OptT], lead: Series, mine: Series, fit: PlainMean,
                      pooled: tuple[float, float] | None = None) -> OptionEstimate[OptT]:
    """An option solved on fewer samples than the leader, estimated through the leader.

    The estimate is the leader's (on all its ``n`` samples) plus the paired
    mean difference ``mine - lead`` on the ``k`` samples the option has
    (``fit``: their estimator), for units, points and wins alike.  Its
    variance is ``se_leader^2 + se_diff^2 + 2 cov(leader, diff) / n``, the
    covariance from the ``k`` shared samples.  With fewer than 4 samples the
    difference's spread per sample is ``pooled`` (points, units) when given,
    and the covariance is not counted.
    """
    k, n = len(mine.pays), leader.samples
    du_y = [a - b for a, b in zip(mine.pays, lead.pays)]
    dp_y = [float(a - b) for a, b in zip(mine.points, lead.points)]
    du, se_du = fit.mean(du_y)
    dp, se_dp = fit.mean(dp_y)
    dw, _ = fit.mean([a - b for a, b in zip(mine.wins(), lead.wins())])
    if k < 4 and pooled is not None:
        se_dp, se_du = pooled[0] / math.sqrt(k), pooled[1] / math.sqrt(k)

    def combined(se_lead: float | None, se_d: float | None, base: Sequence[float], d: list[float]) -> float | None:
        if se_lead is None or se_d is None:
            return None
        cov = 0.0
        if k >= 4 or (k >= 2 and pooled is None):
            mb, md = sum(base[:k]) / k, sum(d) / k
            cov = sum((x - mb) * (y - md) for x, y in zip(base, d)) / (k - 1)
        return math.sqrt(max(0.0, se_lead ** 2 + se_d ** 2 + 2.0 * cov / n))

    se_u = combined(leader.stderr_units, se_du, lead.pays, du_y)
    if leader.expected_points is None or leader.win_probability is None:
        return OptionEstimate(option=option, ev_units=leader.ev_units + du, samples=k, stderr_units=se_u)
    se_p = combined(leader.stderr, se_dp, [float(p) for p in lead.points], dp_y)
    return OptionEstimate(option=option, ev_units=leader.ev_units + du,
                          win_probability=min(1.0, max(0.0, leader.win_probability + dw)),
                          expected_points=min(120.0, max(0.0, leader.expected_points + dp)), stderr=se_p,
                          samples=k, stderr_units=se_u)


def paired_difference(fit_for: Callable[[Sequence[int]], PlainMean], a: Mapping[int, float],
                      b: Mapping[int, float]) -> tuple[float, float | None]:
    """Mean and standard error of ``a - b`` over the sample indices both have."""
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        return 0.0, None
    return fit_for(common).mean([a[i] - b[i] for i in common])


def rankable(shared: int, recommendation_samples: int) -> bool:
    """Whether an option can be ranked beside the recommendation: their paired difference
    rests on every sample the recommendation has, or on :data:`RANK_MIN_SAMPLES` or more.

    An option that shares all the recommendation's samples is compared on the same deals
    (however few, the standard error says how well); one left behind early (a lay-away cut
    after 4 samples beside the leader's 32) has an estimate too loose to be ordered with
    the others: its standard error itself rests on a handful of deals.
    """
    return shared >= min(RANK_MIN_SAMPLES, recommendation_samples)


def next_batch(n: int, cap: int, reached: bool) -> tuple[int, str | None]:
    """After ``n`` samples of an adaptive run: how many samples to have next,
    or why the run stops (``"target"`` precision reached, ``"max_samples"``)."""
    if reached:
        return n, "target"
    if n >= cap:
        return n, "max_samples"
    return min(cap, n + BATCH), None
