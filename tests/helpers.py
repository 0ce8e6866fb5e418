"""Small helpers shared by several test files."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import yaml
from click.testing import CliRunner, Result

from dobbm_solver import cli
from dobbm_solver.cards import cardset, parse_cards
from dobbm_solver.deal import Deal
from dobbm_solver.handfile import parse_deal_text

# the solved positions of the independent solvers (see tests/data/oracle/README.md)
ORACLE = Path(__file__).resolve().parent / "data" / "oracle" / "positions.json"


def load_script(path: str) -> ModuleType:
    """A script of the repository (``path`` from its root, say ``benchmarks/ab_core.py``)
    loaded as a module, for its functions."""
    file = Path(__file__).resolve().parents[1] / path
    spec = importlib.util.spec_from_file_location(file.stem, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (read from /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


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


def oracle_deals() -> list[Deal]:
    """The deals of the oracle positions (their answers left out)."""
    deals = []
    for n, pos in enumerate(json.loads(ORACLE.read_text())):
        raw = {k: v for k, v in pos.items() if k not in ("declarer_points", "cards")}
        [deal] = parse_deal_text(yaml.safe_dump(raw), f"oracle[{n}]")
        deals.append(deal)
    return deals


def run(*args: str, input: str | None = None) -> Result:
    """``dobbm ARGS`` in this process, with ``input`` on its standard input."""
    return CliRunner().invoke(cli.main, list(args), input=input)


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
    return result
