"""YAML for hand files, read at a cost in proportion to the text.

PyYAML's safe loader builds no Python objects beyond plain data, but an
alias shares a node, so a few hundred bytes of anchors and aliases can stand
for billions of nodes once anything walks them (the "billion laughs").  The
loader here first walks the parser's events, counting every node, an alias
as the whole subtree it stands for, and refuses a text beyond :data:`MAX_NODES` nodes, :data:`MAX_ALIASED`
characters of scalars, :data:`MAX_NESTING` levels of nesting and
:data:`MAX_DOCUMENTS` documents.  A key given twice in one mapping is an
error (YAML says keys are unique; PyYAML keeps the last).  A value that does
not convert (``!!int 1x``, a date with month 13) is a YAML error with its
line, never a raw Python message.

:func:`load_documents` raises :class:`YamlLimit` (a limit was hit) or
:class:`yaml.YAMLError` (not YAML); the hand-file reader words both.
"""

from __future__ import annotations

from typing import Any, Iterable

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode
from yaml.resolver import Resolver

from .echo import brief
from .errors import DobbmError

__all__ = ["MAX_ALIASED", "MAX_DOCUMENTS", "MAX_NESTING", "MAX_NODES", "YamlLimit", "load_documents"]

MAX_NODES = 1_000_000          # nodes in one file, an alias counted as the nodes it stands for
MAX_ALIASED = 32 * 1024 * 1024  # characters of scalars, aliased ones counted each time
MAX_NESTING = 64               # collections open at once; a deal needs 3
MAX_DOCUMENTS = 50_000         # documents in one file
MAX_NUMBER_DIGITS = 30         # a longer integer is kept as its text (no deal needs it)

_CParser: Any
try:   # libyaml's parser, ten times faster than PyYAML's own
    from yaml import cyaml as _cyaml
    _CParser = _cyaml.CParser  # type: ignore[attr-defined]
except (ImportError, AttributeError):   # pragma: no cover
    _CParser = None


class YamlLimit(DobbmError):
    """The text stands for more than the limits allow (message says which): bad input."""


def _check_size(text: str, parser: type) -> None:
    """Walk the parser's events once, counting what the text stands for, before composing.

    Every node counts one, an alias the nodes and scalar characters of what it
    repeats; collections open at once count as nesting.  libyaml's composer
    recurses once per level (deep nesting would crash it), and anything that
    walks the composed data walks aliases expanded: both are bounded here.
    """
    nodes = chars = depth = documents = 0
    weights: dict[str, tuple[int, int]] = {}
    open_: list[tuple[str | None, int, int]] = []
    events: Iterable[Any] = yaml.parse(text, Loader=parser)
    for event in events:
        kind = type(event)
        if kind is ScalarEvent:
            nodes += 1
            chars += len(event.value)
            if event.anchor is not None:
                weights[event.anchor] = (1, len(event.value))
        elif kind is SequenceStartEvent or kind is MappingStartEvent:
            nodes += 1
            depth += 1
            if depth > MAX_NESTING:
                raise YamlLimit(f"nested more than {MAX_NESTING} levels deep: not a hand file")
            open_.append((event.anchor, nodes - 1, chars))
        elif kind is SequenceEndEvent or kind is MappingEndEvent:
            depth -= 1
            anchor, n0, c0 = open_.pop()
            if anchor is not None:
                weights[anchor] = (nodes - n0, chars - c0)
        elif kind is AliasEvent:
            n, c = weights.get(event.anchor, (1, 0))
            nodes += n
            chars += c
        elif kind is DocumentStartEvent:
            documents += 1
            if documents > MAX_DOCUMENTS:
                raise YamlLimit(f"more than {MAX_DOCUMENTS} documents: split the file")
            weights = {}
            continue
        else:
            continue
        if nodes > MAX_NODES:
            raise YamlLimit(f"stands for more than {MAX_NODES} YAML nodes (aliases count as what "
                            f"they repeat): not a hand file")
        if chars > MAX_ALIASED:
            raise YamlLimit(f"its aliases repeat more than {MAX_ALIASED} characters: not a hand file")


class _StrictConstructor(SafeConstructor):
    """The safe constructor, with unique keys and no raw Python conversion errors."""

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (ValueError, TypeError, OverflowError, AttributeError):
            raise ConstructorError(None, None, f"{brief(node.value)} does not read as "
                                   f"{node.tag.rpartition(':')[2] or node.tag}", node.start_mark) from None

    def construct_yaml_int(self, node: ScalarNode) -> Any:
        value = self.construct_scalar(node)
        if isinstance(value, str) and len(value) > MAX_NUMBER_DIGITS:
            return value   # a number too long for any key: kept as text, the key's check says so
        return super().construct_yaml_int(node)

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, MappingNode):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if not isinstance(key_node, ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node)
                try:
                    twice = key in seen
                    seen.add(key)
                except TypeError:   # unhashable: the base class says so
                    continue
                if twice:
                    raise ConstructorError(None, None, f"key {brief(key)} is given twice",
                                           key_node.start_mark)
        mapping: dict[Any, Any] = super().construct_mapping(node, deep)
        return mapping


_StrictConstructor.add_constructor(  # type: ignore[type-var]
    "tag:yaml.org,2002:int", _StrictConstructor.construct_yaml_int)


if _CParser is not None:
    class _Loader(_CParser, _StrictConstructor, Resolver):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            _StrictConstructor.__init__(self)
            Resolver.__init__(self)
else:   # pragma: no cover - libyaml missing: PyYAML's own parser
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Loader(Reader, Scanner, Parser, Composer, _StrictConstructor, Resolver):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)
            _StrictConstructor.__init__(self)
            Resolver.__init__(self)


def load_documents(text: str) -> list[Any]:
    """Every document of ``text`` as plain data (None for an empty one), within the limits."""
    _check_size(text, _Loader)
    loader = _Loader(text)
    try:
        docs = []
        while loader.check_data():  # type: ignore[no-untyped-call]  # untyped in the stubs
            docs.append(loader.get_data())
        return docs
    finally:
        loader.dispose()
