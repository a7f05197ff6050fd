"""Haskell functions as a reader sees them: the type signature, then every equation.

The grammar makes each equation (``withBool _ f (Bool b) = ...``, ``withBool name _ v =
...``) a declaration of its own and the type signature above them another. A function is
all of them: one definition from its signature to its last equation, named at its first
equation, whose doc is the Haddock comment above the signature and whose signature line
is the type (``camelTo2 :: Char -> String -> String``).
"""

from __future__ import annotations

from tree_sitter import Node

from symfuse.indexer.extract.definitions import Def
from symfuse.indexer.extract.texts import comment_doc

_EQUATIONS = frozenset({"function", "bind"})
_BETWEEN = frozenset({"comment", "haddock", "pragma"})


def whole_functions(defs: dict[int, Def]) -> None:
    """Merge each top-level function's equations into its first, which starts at the
    type signature above it when there is one (``defs`` by their name's start byte)."""
    equations = {
        (d.node.start_byte, d.node.end_byte): key
        for key, d in defs.items()
        if d.node.type in _EQUATIONS and _top_level(d.node)
    }
    for key in sorted(equations.values()):
        entry = defs.get(key)
        if entry is None:
            continue  # merged into an earlier equation
        name = entry.name_node.text
        last = entry.node
        after = _next(last)
        while after is not None and after.type in _EQUATIONS and _named(after) == name:
            defs.pop(equations.get((after.start_byte, after.end_byte), -1), None)
            last, after = after, _next(after)
        before = _previous(entry.node)
        if before is not None and before.type == "signature" and _named(before) == name:
            entry.doc = entry.doc or _doc(before)
            entry.body, entry.node = last, before
        elif last is not entry.node:
            entry.body = last


def instance_types(defs: dict[int, Def]) -> None:
    """Name each instance after the type it is for, as a Rust impl is: the head of its
    first type pattern (``instance ToJSON (Const a b)``: ``Const``); an instance over a
    type variable, a list or a tuple keeps its class's name."""
    for entry in defs.values():
        if entry.node.type == "instance":
            head = _head_type(entry.node.child_by_field_name("patterns"))
            if head is not None:
                entry.name_node = head


def _head_type(node: Node | None) -> Node | None:
    while node is not None and node.type in ("type_patterns", "parens", "apply"):
        node = node.named_children[0] if node.named_children else None
    return node if node is not None and node.type == "name" else None


def _top_level(node: Node) -> bool:
    """A module's or an instance's declaration (an instance's equations are its methods)."""
    return node.parent is not None and node.parent.type in ("declarations", "instance_declarations")


def _named(node: Node) -> bytes | None:
    """The name a declaration defines: an operator's without its parentheses, ``(.:?)``
    and an infix equation's ``a .:? b`` both define ``.:?``."""
    name = node.child_by_field_name("name")
    if name is None and node.type == "function":
        infix = next((c for c in node.named_children if c.type == "infix"), None)
        name = None if infix is None else infix.child_by_field_name("operator")
    if name is None or name.text is None:
        return None
    return name.text.strip(b"()") if name.type == "prefix_id" else name.text


def _next(node: Node) -> Node | None:
    sibling = node.next_named_sibling
    while sibling is not None and sibling.type in _BETWEEN:
        sibling = sibling.next_named_sibling
    return sibling


def _previous(node: Node) -> Node | None:
    sibling = node.prev_named_sibling
    while sibling is not None and sibling.type == "pragma":  # {-# INLINE f #-}
        sibling = sibling.prev_named_sibling
    return sibling


def _doc(signature: Node) -> str:
    """The Haddock comment above ``signature``; for a file's first declaration it sits
    before the list of declarations."""
    doc = comment_doc(signature)
    if doc or signature.prev_sibling is not None or signature.parent is None:
        return doc
    return comment_doc(signature.parent)
