"""Hand-file texts and helpers shared by the analyzer's tests (views, sampling, analyses)."""

from __future__ import annotations

import pytest

from dobbm_solver.analyzer import View, make_view
from dobbm_solver.handfile import HandFileError, parse_specs

SEATS = ["Anna", "Bert", "Cora", "Dave"]


def view_of(text: str, command: str) -> View:
    [spec] = parse_specs(text, "t.yaml")
    return make_view(spec, command)


def error_of(text: str, command: str) -> HandFileError:
    with pytest.raises(HandFileError) as info:
        view_of(text, command)
    return info.value


def bid_file(hand: str, bids: str = "", extra: str = "") -> str:
    return (f"seats: [Anna, Bert, Cora, Dave]\ndealer: Dave\nme: Bert\n"
            f"hands:\n  Bert: {hand}\n" + (f"bids:\n{bids}" if bids else "") + extra)


BID_PASSED = bid_file("HA H10 HK EA E9 L8 L7 S6", "  - {Anna: pass}\n")

DISCARD = """\
seats: [Anna, Bert, Cora, Dave]
dealer: Cora
me: Dave
hands:
  Dave: H10 HK H8 EK LK LO L9 SU
dobb: EA E10 EU L10
"""

DOUBLE_DEFENDER = """\
seats: [Anna, Bert, Cora, Dave]
dealer: Anna
me: Cora
declarer: Bert
contract: dobbm
hands:
  Cora: HA H10 HK HU E10 EK S9 S7
bids:
  - {Bert: dobbm}
  - {Cora: pass}
  - {Dave: pass}
  - {Anna: pass}
"""

RETOUR = """\
seats: [Anna, Bert, Cora, Dave]
dealer: Anna
me: Bert
declarer: Bert
contract: dobbm
hands:
  Bert: HA H10 HK HO HU EA E10 LA
dobb: HO E10 L7 S6
discard: L7 S6 E7 S8
doublings: 1
"""
