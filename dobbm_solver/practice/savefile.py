"""The session file of ``dobbm practice --save``: the hands as played, one YAML document each.

Each hand finished is appended at once, whole (a quit or a kill keeps the
hands before), in the played-hand form every command reads: the hands as
dealt (``dealt``), the Dobb, the lay-away, the tricks, the doublings, the
dealer and the bids, with a comment naming the player's seat and who doubled.
The dealer of each hand is the declarer of the hand before (the rule book),
so ``dobbm score FILE`` totals the file as a session.

The file's first line is :data:`HEADER`.  Only a file that does not exist,
is empty, or starts with that line (one this command wrote) is written, and
then from its start when the first hand ends; anything else is refused and
left byte for byte as it was.  The file is locked while a session writes it, and only a regular file
is opened (the policy of :mod:`dobbm_solver.resultfile`).
"""

from __future__ import annotations

import yaml

from ..errors import DobbmError, DobbmRuntimeError
from ..handfile import deal_to_dict
from ..resultfile import LockedFile
from .game import HandPlayed

__all__ = ["HEADER", "PracticeFileError", "PracticeWriteError", "SessionFile", "hand_document"]

#: The first line of every session file this command writes.
HEADER = "# dobbm practice: a session, the hands as played (dobbm score FILE totals them)"


class PracticeFileError(DobbmError):
    """A --save file that is not one practice wrote (bad input: it is left as it is)."""


class PracticeWriteError(DobbmRuntimeError):
    """A hand that could not be written (a full disk)."""


class _Dumper(yaml.SafeDumper):
    """Block style, except the seat list and the bids, which read best on one line."""


class _Flow(list[object]):
    pass


_Dumper.add_representer(_Flow, lambda dumper, data: dumper.represent_sequence(
    "tag:yaml.org,2002:seq", data, flow_style=True))


def hand_document(hand: HandPlayed, number: int, seed: int) -> str:
    """Hand ``number`` of a session seeded ``seed`` as one YAML document with its comment."""
    deal = hand.deal
    assert deal is not None
    res = hand.result
    doc = deal_to_dict(deal, dealt=True)
    doc["seats"] = _Flow(doc["seats"])
    doc["bids"] = _Flow([{seat: bid} for seat, bid in res.bids])
    names = ["Schwacher", "Retour"]
    said = ", ".join(f"{seat} said {names[min(i, 1)]}" for i, seat in enumerate(res.doubled_by))
    comment = (f"# hand {number} (deal {hand.board.index + 1} of seed {seed}): {hand.me} was the player"
               + (f"; {said}" if said else "") + "\n")
    return comment + yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                               default_flow_style=False, width=1000)


class SessionFile:
    """The --save file of a session, open and locked, written from its start (see the module)."""

    def __init__(self, path: str) -> None:
        self.name = f"--save {path}"
        self.file = LockedFile(path, self.name, error=PracticeFileError, write_error=PracticeWriteError,
                               busy="another practice session is writing this file; refused, left as it is")
        try:
            first = next((line for _, line in self.file.lines(cap=4096)), self.file.tail)
        except PracticeFileError:
            first = b"?"
        if self.file.size and first.rstrip(b"\r") != HEADER.encode():
            self.file.close()
            raise PracticeFileError(f"{self.name}: not a session file of dobbm practice (its first line is "
                                    f"not {HEADER[:24]!r}...); refused, left as it is: give another file")
        self.hands = 0

    def write(self, hand: HandPlayed, seed: int) -> None:
        """Write the finished ``hand`` whole as the next document; the first replaces what
        the file held (a session it wrote before), so that a session ended before its
        first hand leaves the file as it was."""
        self.hands += 1
        if self.hands == 1:
            self.file.replace((HEADER + "\n" + hand_document(hand, 1, seed)).encode("utf-8"))
        else:
            self.file.append(("---\n" + hand_document(hand, self.hands, seed)).encode("utf-8"))

    def close(self) -> None:
        self.file.close()
