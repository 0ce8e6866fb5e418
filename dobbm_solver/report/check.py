"""``dobbm check``: a deal or an advice view checked, as JSON and as text (normalised YAML)."""

from __future__ import annotations

from typing import Any

import yaml

from ..deal import Deal, replay
from ..handfile import HandSpec, deal_to_dict, dump_deal_yaml, dump_spec_yaml, spec_to_dict
from ..notation import format_deal_line, format_spec_line
from .diagram import deal_diagram

__all__ = ["check_dict", "check_text", "check_view_dict", "check_view_text", "check_line", "check_view_line"]


def check_dict(deal: Deal) -> dict[str, Any]:
    """The YAML form of a deal and its one-line notation (``dobbm check --json``), then
    ``dealt`` (the 8 cards each seat was dealt) and ``deal_dealt`` (the notation's dealt form)."""
    return {**deal_to_dict(deal), "deal": format_deal_line(deal),
            "dealt": deal_to_dict(deal, dealt=True)["dealt"], "deal_dealt": format_deal_line(deal, dealt=True)}


def _dealt_comment(dealt: dict[str, str], line: str) -> str:
    """The dealt form as a comment after the YAML: its notation, then the ``dealt:`` that
    may stand for ``hands:``."""
    block = yaml.safe_dump({"dealt": dealt}, sort_keys=False, default_flow_style=False, width=1000)
    return ("\n# as dealt, the 8 cards each seat was dealt (dealt: instead of hands:):\n# " + line + "\n"
            + "\n".join(f"# {b}" for b in block.rstrip("\n").split("\n")))


def check_text(deal: Deal, title: str, diagram: bool = False) -> str:
    """A deal checked: a comment with its notation, then its normalised YAML document, then
    the dealt form (:func:`_dealt_comment`); with ``diagram``, the hands and the tricks so
    far after it, as YAML comments."""
    text = (f"# {title}: ok\n# {format_deal_line(deal)}\n" + dump_deal_yaml(deal).rstrip("\n")
            + _dealt_comment(deal_to_dict(deal, dealt=True)["dealt"], format_deal_line(deal, dealt=True)))
    if diagram:
        text += "\n" + "\n".join("#" + line for line in deal_diagram(deal, at_lead=replay(deal, check=False).finished))
    return text


VIEW_COMMANDS = {"bid": "dobbm bid", "discard": "dobbm discard", "double": "dobbm double",
                 "play": "dobbm play"}


def check_view_dict(spec: HandSpec, command: str) -> dict[str, Any]:
    """An advice view checked (``dobbm check --json`` on a document with ``me``): its YAML
    form, its one-line notation and the command it is a view for; ``dealt`` and
    ``deal_dealt`` as in :func:`check_dict`."""
    return {**spec_to_dict(spec), "deal": format_spec_line(spec), "command": command,
            "dealt": spec_to_dict(spec, dealt=True)["dealt"], "deal_dealt": format_spec_line(spec, dealt=True)}


def check_view_text(spec: HandSpec, command: str, title: str) -> str:
    """An advice view checked: a comment with what it is for and its notation, then its YAML,
    then the dealt form."""
    return (f"# {title}: ok, a view for {VIEW_COMMANDS[command]}\n# {format_spec_line(spec)}\n"
            + dump_spec_yaml(spec).rstrip("\n")
            + _dealt_comment(spec_to_dict(spec, dealt=True)["dealt"], format_spec_line(spec, dealt=True)))


def check_line(deal: Deal) -> str:
    """A deal checked, as its one-line notation only (``dobbm check --line``)."""
    return format_deal_line(deal)


def check_view_line(spec: HandSpec) -> str:
    """An advice view checked, as its one-line notation only (``dobbm check --line``)."""
    return format_spec_line(spec)
