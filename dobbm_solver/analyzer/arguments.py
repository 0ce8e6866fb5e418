"""The arguments every analysis takes, checked: samples, seed, target, the view.

``jobs`` has one meaning everywhere: :func:`dobbm_solver._pool.resolve_jobs`.
"""

from __future__ import annotations

import secrets

from ..errors import OptionError
from .view import View


def resolve_seed(seed: int | None) -> int:
    """``seed``, or a fresh random one for None (reported in the advice)."""
    if seed is None:
        return secrets.randbits(32)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise OptionError(f"seed must be a whole number, not {seed!r}")
    return seed


def resolve_samples(samples: int | None, minimum: int = 2) -> int | None:
    """A fixed sample count of at least ``minimum``, or None (adaptive)."""
    if samples is None:
        return None
    if not isinstance(samples, int) or isinstance(samples, bool) or samples < minimum:
        raise OptionError(f"samples must be a whole number, at least {minimum}, not {samples!r}")
    return samples


def check_view(view: View, command: str) -> None:
    """``view`` was made for ``command``."""
    if not isinstance(view, View) or view.command != command:
        got = view.command if isinstance(view, View) else type(view).__name__
        raise OptionError(f"{command} needs a view made for it (make_view(spec, {command!r})), not {got!r}")


def check_target(target: float, name: str = "target_stderr", what: str = "number of points") -> float:
    """A positive finite ``name`` (by default the target standard error, in points), as a float."""
    if not isinstance(target, (int, float)) or isinstance(target, bool) or not 0 < target < float("inf"):
        raise OptionError(f"{name} must be a positive {what}, not {target!r}")
    return float(target)
