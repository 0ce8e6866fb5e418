"""``dobbm bid``, ``discard``, ``double`` and ``play``: an advice as JSON and as text.

The advice holds typed options (a bid, a lay-away as a card set, a doubling
decision, a card); they are named here, where they are printed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import card_name, cards_text, set_names

if TYPE_CHECKING:   # the analyzer is imported only when one of its commands runs
    from ..analyzer import Advice, OptionEstimate

__all__ = ["advice_dict", "advice_text", "advice_partial", "units_legend"]


def advice_partial(advice: Advice[Any]) -> bool:
    """True when Ctrl-C stopped the sampling: the estimates rest on the samples solved so far."""
    return advice.partial


def advice_dict(advice: Advice[Any]) -> dict[str, Any]:
    """The JSON object of an advice, options named (a lay-away: a list of four card names,
    a card: its name), with ``partial`` (see :func:`advice_partial`).

    Each option carries its paired ``difference`` from the recommendation in units, its
    ``difference_stderr`` and ``difference_samples`` (the samples both share), the two
    options' units on those samples (``shared_units`` minus ``shared_recommendation_units``
    is ``difference``), and
    ``ranked`` (False: too few samples to be ranked beside the recommendation, listed after
    the ranked options); ``units`` says whose units they are."""
    cmd = advice.command
    return {
        "command": cmd,
        "me": advice.me,
        "role": advice.role,
        "recommendation": _option_json(cmd, advice.recommendation),
        "units": units_legend(advice),
        "options": [_estimate_json(cmd, o) for o in advice.options],
        "rank_min_samples": _rank_min_samples(),
        "samples": advice.samples,
        "seed": advice.seed,
        "jobs": advice.jobs,
        "seconds": round(advice.seconds, 3),
        "margin": _rounded(advice.margin, 4),
        "margin_stderr": _rounded(advice.margin_stderr, 4),
        "info": {k: _info_json(cmd, k, v) for k, v in advice.info.items()},
        "notes": list(advice.notes),
        "partial": advice_partial(advice),
    }


def _rank_min_samples() -> int:
    from ..analyzer.estimate import RANK_MIN_SAMPLES  # (loaded: the advice was made by it)
    return RANK_MIN_SAMPLES


def units_legend(advice: Advice[Any]) -> str:
    """Whose units an advice's ``units`` are, and how many payments they add up (a unit is
    the rule book's: one defender's payment is a whole number of them)."""
    if advice.role == "defender":
        return "your expected net units a hand as a defender: your own payment only (one of three)"
    if advice.command == "bid":
        return ("your expected net units a hand: declaring, all three defenders' payments added; "
                "after a pass, defending, your own payment only")
    return "your expected net units a hand as the declarer: all three defenders' payments added"


def _estimate_json(command: str, e: OptionEstimate[Any]) -> dict[str, Any]:
    return {
        "option": _option_json(command, e.option),
        "ev_units": _rounded(e.ev_units, 4),
        "win_probability": _rounded(e.win_probability, 4),
        "expected_points": _rounded(e.expected_points, 3),
        "stderr": _rounded(e.stderr, 3),
        "stderr_units": _rounded(e.stderr_units, 4),
        "samples": e.samples,
        "difference": _rounded(e.difference, 4),
        "difference_stderr": _rounded(e.difference_stderr, 4),
        "difference_samples": e.difference_samples,
        "shared_units": _rounded(e.shared_units, 4),
        "shared_recommendation_units": _rounded(e.shared_recommendation_units, 4),
        "ranked": e.ranked,
        "alike": [_option_json(command, a) for a in e.alike],
    }


def _option_json(command: str, option: Any) -> Any:
    """An option as JSON: a lay-away as a list of card names, a card as its name, a word as it is."""
    if command == "discard":
        return set_names(option)
    if command == "play":
        return card_name(option)
    return option


def _info_json(command: str, key: str, value: Any) -> Any:
    """A fact of ``info`` as JSON: the cards in it named."""
    if command == "discard" and key == "heuristic_discard":
        return set_names(value)
    if command == "play" and key == "trick":
        return [card_name(c) for c in value]
    return list(value) if isinstance(value, tuple) else value


def _rounded(x: float | None, nd: int) -> float | None:
    return None if x is None else round(float(x), nd)


def _shown(x: float) -> float:
    """A number as JSON holds it (4 decimals), for the text to round further."""
    return round(float(x), 4)


def advice_text(advice: Advice[Any], title: str, limit: int | None = None) -> str:
    """A small grid: option, expected units, the paired difference from the recommendation
    and its error, win %, expected points and their error, samples; then a legend.

    The options with too few samples to be ranked come last, under a line that says so.
    With ``limit``, only the first ``limit`` options and a line saying how many more.
    Options that play the same show as one row (``+N alike``).  The numbers are those of
    :func:`advice_dict`, rounded further.
    """
    cmd = advice.command
    opts = advice.options if limit is None else advice.options[:limit]
    if cmd == "discard":
        names = [_option_name(cmd, o.option) + (f" +{len(o.alike)} alike" if o.alike else "") for o in opts]
    else:
        names = [" ".join([_option_name(cmd, o.option), *(_option_name(cmd, a) for a in o.alike)]) for o in opts]
    width = max(8, *(len(n) for n in names))
    rows = [f"{title}: {cmd} for {advice.me} ({advice.role}), "
            f"{advice.samples} samples, seed {advice.seed}",
            f"  {'option':<{width}}  {'units':>7}  {'vs best':>7}  {'± error':>7}  "
            f"{'win %':>6}  {'points':>6}  {'± error':>7}  samples"]
    unranked_said = False
    for n, (o, name) in enumerate(zip(opts, names)):
        if not o.ranked and not unranked_said:
            rows.append(f"  too few samples to rank (under {_rank_min_samples()} shared with the top row; "
                        f"not comparable with the rows above):")
            unranked_said = True
        win = "-" if o.win_probability is None else f"{100 * o.win_probability:.1f}"
        pts = "-" if o.expected_points is None else f"{o.expected_points:.1f}"
        err = "-" if o.stderr is None else f"{o.stderr:.2f}"
        diff = "-" if n == 0 else f"{_shown(o.difference):+.2f}"
        diff_err = "-" if n == 0 or o.difference_stderr is None else f"{_shown(o.difference_stderr):.2f}"
        rows.append(f"  {name:<{width}}  {_shown(o.ev_units):>+7.2f}  {diff:>7}  {diff_err:>7}  "
                    f"{win:>6}  {pts:>6}  {err:>7}  {o.samples:>7}")
    rows.append(f"  recommendation: {_option_name(cmd, advice.recommendation)}")
    if len(opts) < len(advice.options):
        more = advice.options[len(opts):]
        count = sum(1 + len(o.alike) for o in more)
        shown = f"{len(more)} more rows, {count} lay-aways" if count != len(more) else f"{count} more lay-aways"
        rows.append(f"  ({shown}: --all shows every one)")
    rows += [f"  units: {units_legend(advice)}",
             "  vs best: units minus the top row's, paired on the samples both have, ± its error",
             "  win % and points: the declarer's, ± the points' standard error"]
    return "\n".join(rows)


def _option_name(command: str, option: Any) -> str:
    """An option for people: a lay-away's four cards, a card, a word."""
    if command == "discard":
        return cards_text(option)
    if command == "play":
        return card_name(option)
    return str(option)
