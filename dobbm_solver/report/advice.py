"""``dobbm bid``, ``discard``, ``double`` and ``play``: an advice as JSON and as text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:   # the analyzer is imported only when one of its commands runs
    from ..analyzer import Advice

__all__ = ["advice_dict", "advice_text", "advice_partial"]


def advice_partial(advice: Advice) -> bool:
    """True when Ctrl-C stopped the sampling: the estimates rest on the samples solved so far."""
    return bool(advice.info.get("stopped") == "interrupted")


def advice_dict(advice: Advice) -> dict[str, Any]:
    """The JSON object of an advice, with ``partial`` (see :func:`advice_partial`)."""
    return {**advice.to_json(), "partial": advice_partial(advice)}


def advice_text(advice: Advice, title: str, limit: int | None = None) -> str:
    """A small grid: option, expected units, win %, expected points, error.

    With ``limit``, only the first ``limit`` options and a line saying how many more.
    Options that play the same show as one row (``+N alike``).
    """
    opts = advice.options if limit is None else advice.options[:limit]
    if advice.command == "discard":
        names = [_option_name(o.option) + (f" +{len(o.alike)} alike" if o.alike else "") for o in opts]
    else:
        names = [" ".join([_option_name(o.option), *map(_option_name, o.alike)]) for o in opts]
    width = max(8, *(len(n) for n in names))
    rows = [f"{title}: {advice.command} for {advice.me} ({advice.role}), "
            f"{advice.samples} samples, seed {advice.seed}",
            f"  {'option':<{width}}  {'units':>7}  {'win %':>6}  {'points':>6}  {'± error':>7}  samples",
            "  (units: your expected units; win % and points: the declarer's; error: of the points)"]
    for o, name in zip(opts, names):
        win = "-" if o.win_probability is None else f"{100 * o.win_probability:.1f}"
        pts = "-" if o.expected_points is None else f"{o.expected_points:.1f}"
        err = "-" if o.stderr is None else f"{o.stderr:.2f}"
        rows.append(f"  {name:<{width}}  {o.ev_units:>+7.2f}  {win:>6}  {pts:>6}  "
                    f"{err:>7}  {o.samples:>7}")
    rows.append(f"  recommendation: {_option_name(advice.recommendation)}")
    if len(opts) < len(advice.options):
        more = advice.options[len(opts):]
        count = sum(1 + len(o.alike) for o in more)
        shown = f"{len(more)} more rows, {count} lay-aways" if count != len(more) else f"{count} more lay-aways"
        rows.append(f"  ({shown}: --all shows every one)")
    return "\n".join(rows)


def _option_name(option: object) -> str:
    return " ".join(option) if isinstance(option, (tuple, list)) else str(option)
