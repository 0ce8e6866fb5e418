"""Small helpers shared by several test files."""

from __future__ import annotations

from pathlib import Path

from dobbm_solver.cards import cardset, parse_cards


def children(pid: int, *, recursive: bool = False) -> list[int]:
    """The process ids whose parent is ``pid`` (read from /proc); with
    ``recursive`` their children too, and so on."""
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(d.name))
    if recursive:
        kids += [k for kid in list(kids) for k in children(kid, recursive=True)]
    return kids


def cs(text: str) -> int:
    """The card set of a card list such as ``"HA H10 EK"``."""
    return cardset(parse_cards(text))
