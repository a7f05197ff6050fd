"""How many arguments a call passes, read from its tree (issue 36: overloads).

The linker tells a method's overloads apart by their parameter counts
(:func:`symfuse.indexer.link.chained.parameter_count`); a call reference carries the
count of its argument list's children here. Only the languages whose methods overload
count (:data:`COUNTED`); every other reference says :data:`UNKNOWN`.
"""

from __future__ import annotations

from tree_sitter import Node

UNKNOWN = -1  # not a call, a language that does not count, or a count no one can say
# languages with overloads that calls choose among by their number of arguments
COUNTED = frozenset({"java", "csharp", "kotlin", "cpp", "typescript", "tsx"})
_HOPS = 4  # from the callee's name up to its call (`o.m<int>(x)`: name, template, field, call)
# an argument that stands for any number of them (`f(...xs)`, `g(args...)`, `h(*xs)`)
_SPREADS = frozenset({"spread_element", "parameter_pack_expansion", "spread_argument"})
# an argument list (not a tagged template's string: `` html`<p>${x}</p>` ``)
_LISTS = frozenset({"argument_list", "arguments", "initializer_list"})


def argument_count(name: Node) -> int:
    """The number of arguments the call whose callee is ``name`` passes; UNKNOWN when
    ``name`` is no callee of a call within a few levels, or an argument is spread.

    Arguments are the named children of the call's argument list (comments aside), so a
    comma in a string or a nested call is no argument; Kotlin's trailing lambda
    (``items.forEach { }``) is one."""
    node = name
    for _ in range(_HOPS):
        parent = node.parent
        if parent is None:
            return UNKNOWN
        node = parent
        listed = node.child_by_field_name("arguments")
        if listed is not None and listed.type == "template_argument_list":
            continue  # C++'s `encode<int>()`: the call's arguments are further out
        if listed is None and node.type == "call_expression":
            return _kotlin_count(node, name)
        if listed is not None:
            after = listed.start_byte >= name.end_byte and listed.type in _LISTS
            return _count(listed) if after else UNKNOWN
    return UNKNOWN


def _count(listed: Node) -> int:
    count = 0
    for child in listed.named_children:
        kind = child.type
        if kind in _SPREADS:
            return UNKNOWN
        if "comment" not in kind:
            count += 1
    return count


def _kotlin_count(call: Node, name: Node) -> int:
    """``f(a, b) { }``: the value arguments of the call's suffix, and its lambda."""
    suffix = call.named_children[-1] if call.named_child_count else None
    if suffix is None or suffix.type != "call_suffix" or suffix.start_byte < name.end_byte:
        return UNKNOWN
    count = 0
    for part in suffix.named_children:
        if part.type == "value_arguments":
            count += _count(part)
        elif part.type == "annotated_lambda":
            count += 1
    return count
