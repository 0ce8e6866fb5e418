"""The analyses' one path (dobbm_solver.analyzer.template) and their typed results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from views import BID_PASSED, DISCARD, DOUBLE_DEFENDER, view_of

from dobbm_solver.analyzer import (
    Advice,
    OptionEstimate,
    analyze_bid,
    analyze_discard,
    analyze_double,
    analyze_play,
    template,
)
from dobbm_solver.analyzer.estimate import PlainMean
from dobbm_solver.analyzer.template import Analysis, Ranking
from dobbm_solver.cards import legal_cards, popcount
from dobbm_solver.report.advice import advice_dict, advice_text

PLAY = (Path(__file__).resolve().parents[1] / "hands" / "play.yaml").read_text()


def test_results_take_keywords_only() -> None:
    with pytest.raises(TypeError):
        OptionEstimate("solo", 1.0, None, None, None, 4)          # type: ignore[misc]
    e = OptionEstimate(option="solo", ev_units=1.0, samples=4)
    assert (e.win_probability, e.expected_points, e.stderr, e.stderr_units, e.alike) == (None, None, None, None, ())
    with pytest.raises(TypeError):
        Advice("bid", "Anna", "bidder", "solo", (e,), 4, 1, 1, 0.1)  # type: ignore[misc]


def _every_analysis() -> list[tuple[str, Advice[Any]]]:
    return [("bid", analyze_bid(view_of(BID_PASSED, "bid"), samples=4, seed=1, jobs=1)),
            ("discard", analyze_discard(view_of(DISCARD, "discard"), samples=2, seed=1, jobs=1)),
            ("double", analyze_double(view_of(DOUBLE_DEFENDER, "double"), samples=4, seed=1, jobs=1)),
            ("play", analyze_play(view_of(PLAY, "play"), samples=4, seed=1, jobs=1))]


def test_every_analysis_samples_through_the_template(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    sample = template.sample

    def counted(runner: Any, analysis: Analysis[Any], fixed: int | None) -> None:
        seen.append(analysis.command)
        sample(runner, analysis, fixed)

    monkeypatch.setattr(template, "sample", counted)
    assert [command for command, _ in _every_analysis()] == seen == ["bid", "discard", "double", "play"]


def test_recommendations_are_typed_not_text() -> None:
    got = dict(_every_analysis())
    assert got["bid"].recommendation in ("pass", "dobbm", "solo")
    lay = got["discard"].recommendation
    assert isinstance(lay, int) and popcount(lay) == 4
    assert all(isinstance(o.option, int) and all(isinstance(a, int) for a in o.alike) for o in got["discard"].options)
    assert got["double"].recommendation in ("play on", "double", "retour")
    card = got["play"].recommendation
    view = view_of(PLAY, "play")
    assert isinstance(card, int) and (legal_cards(view.my_hand, None) >> card) & 1
    for command, advice in got.items():
        assert advice.recommendation == advice.options[0].option and advice.command == command
        # named only where printed
        j = advice_dict(advice)
        if command == "discard":
            assert isinstance(j["recommendation"], list) and len(j["recommendation"]) == 4
            assert isinstance(j["info"]["heuristic_discard"], list)
        elif command == "play":
            assert isinstance(j["recommendation"], str) and len(j["recommendation"]) in (2, 3)
            assert all(isinstance(c, str) for c in j["info"]["trick"])
        assert "recommendation:" in advice_text(advice, "t")


class _Fits:
    """A runner's stand-in for the race: plain means, no results."""

    def fit(self, indices: Any) -> PlainMean:
        return PlainMean()


class _Toy(Analysis[str]):
    command = "bid"
    first = 4
    cap = 8
    race_z = 3.0
    per_option = True

    def rank(self, runner: Any) -> Ranking[str]:
        raise NotImplementedError


def _estimate(option: str, ev: float) -> OptionEstimate[str]:
    return OptionEstimate(option=option, ev_units=ev, samples=6)


def test_the_race_drops_an_option_clearly_behind_the_leader() -> None:
    toy = _Toy(view_of(BID_PASSED, "bid"), ["a", "b", "c"])
    lead = {i: 4.0 + (i % 2) for i in range(6)}
    near = {i: 4.0 + ((i + 1) % 2) for i in range(6)}     # as good on average, noisy
    far = {i: -3.0 + 0.1 * (i % 2) for i in range(6)}     # behind by 7 on every sample
    ranking = Ranking([_estimate("a", 4.5), _estimate("b", 4.5), _estimate("c", -2.95)],
                      {"a": lead, "b": near, "c": far})
    toy.race(_Fits(), ranking)                            # type: ignore[arg-type]
    assert toy.active == ["a", "b"]


def test_the_margin_is_the_paired_difference_from_the_runner_up() -> None:
    toy = _Toy(view_of(BID_PASSED, "bid"), ["a", "b"])
    ranking = Ranking([_estimate("a", 2.0), _estimate("b", 1.0)],
                      {"a": {0: 2.0, 1: 3.0, 2: 1.0}, "b": {0: 1.0, 1: 1.0, 2: 1.0, 3: 9.0}})
    margin, se = toy.margin(_Fits(), ranking)             # type: ignore[arg-type]
    assert margin == pytest.approx(1.0) and se == pytest.approx((1 / 3) ** 0.5)
    single = Ranking([_estimate("a", 2.0)], {"a": {0: 2.0}})
    assert toy.margin(_Fits(), single) == (None, None)    # type: ignore[arg-type]
