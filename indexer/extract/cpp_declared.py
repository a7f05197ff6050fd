"""The variable a C++ type reference declares, read from the tree around it.

``backtracer tracer_;`` in a class, ``const sink &s`` in a parameter list and ``sink
local;`` in a body each say the type of a name; the linker then reads
``tracer_.enable(n)`` as backtracer's ``enable``
(:mod:`~symfuse.indexer.link.typed`). The query's patterns for types find the type's
name; the variable is the declaration's declarator, read here rather than by more
patterns (each alternation of declarators and type shapes cost the query's compile and
every file's matching about a fifth of a C++ index). A smart pointer
(``std::shared_ptr<sink> sink_``) declares its argument: ``sink_->flush()`` is sink's.
"""

from __future__ import annotations

from tree_sitter import Node

LANGUAGES = frozenset({"cpp", "cuda"})
_DECLARING = frozenset(
    {"field_declaration", "declaration", "parameter_declaration", "optional_parameter_declaration"}
)
_SMART = frozenset({b"shared_ptr", b"unique_ptr"})
_WRAPPING = frozenset({"init_declarator", "pointer_declarator", "reference_declarator"})
_NAMES = frozenset({"identifier", "field_identifier"})


def declared_name(name: Node) -> str:
    """The variable whose declared type ``name`` (a type's name) is, or ""."""
    written = name.parent
    if written is None:
        return ""
    if written.type == "type_descriptor":  # `Sink` of `std::shared_ptr<Sink> s`
        written = _pointer_of(written)
        if written is None:
            return ""
    elif written.type == "template_type" and _pointer_name(written) in _SMART:
        return ""  # the pointer's argument declares the variable
    elif written.type not in ("template_type", "qualified_identifier"):
        written = name
    while written.parent is not None and written.parent.type == "qualified_identifier":
        written = written.parent
    holder = written.parent
    if holder is None or holder.type not in _DECLARING:
        return ""
    if holder.child_by_field_name("type") != written:
        return ""
    declarator = holder.child_by_field_name("declarator")
    while declarator is not None and declarator.type in _WRAPPING:
        inner = declarator.child_by_field_name("declarator")
        declarator = inner if inner is not None else declarator.named_child(0)
    if declarator is None or declarator.type not in _NAMES:
        return ""
    text = declarator.text
    return text.decode() if text is not None else ""


def _pointer_of(argument: Node) -> Node | None:
    """The smart pointer type whose first argument is ``argument``, or None."""
    arguments = argument.parent
    if arguments is None or arguments.type != "template_argument_list":
        return None
    if arguments.named_child(0) != argument:
        return None
    pointer = arguments.parent
    if pointer is None or pointer.type != "template_type" or _pointer_name(pointer) not in _SMART:
        return None
    return pointer


def _pointer_name(template: Node) -> bytes | None:
    name = template.child_by_field_name("name")
    return name.text if name is not None else None
