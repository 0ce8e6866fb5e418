"""Input echoed in an error message, bounded: a 40 MB scalar must not make a 40 MB error line.

:func:`brief` is the ``repr`` of a value cut to :data:`ECHO_CHARS` characters
with an ellipsis; the work it does is bounded too (a long string is cut before
its ``repr``, containers are shown a few items deep).
"""

from __future__ import annotations

import reprlib

__all__ = ["ECHO_CHARS", "brief", "describe"]

ECHO_CHARS = 60

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = ECHO_CHARS + 2
_REPR.maxother = ECHO_CHARS
_REPR.maxlong = ECHO_CHARS
for _name in ("maxlist", "maxtuple", "maxdict", "maxset", "maxfrozenset", "maxdeque", "maxarray"):
    setattr(_REPR, _name, 6)


def _cut(text: str) -> str:
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS - 1] + "…"


def brief(value: object) -> str:
    """``repr(value)``, at most :data:`ECHO_CHARS` characters (cut ones end in ``…``)."""
    if isinstance(value, str):
        return _cut(repr(value[:ECHO_CHARS + 1]) if len(value) > ECHO_CHARS else repr(value))
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * ECHO_CHARS:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    try:
        return _cut(_REPR.repr(value))
    except Exception:   # a value whose repr fails: say what it is
        return f"a {type(value).__name__}"


def describe(value: object) -> str:
    """The type and bounded repr of a value: ``list ['a', 'b']``."""
    return f"{type(value).__name__} {brief(value)}"
