"""The records that cross layers: symbols, references, edges and per-file results.

Lines are 1-based. Columns are 1-based and counted in Unicode code points, so
``file:line:col`` reads the way editors and compilers print it; the LSP layer
converts them to the client's position encoding from the line's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum, StrEnum
from operator import attrgetter
from typing import ClassVar, NamedTuple


class Kind(StrEnum):
    """One normalized vocabulary of definition kinds, 1:1 with LSP ``SymbolKind``."""

    FILE = "file"
    MODULE = "module"
    NAMESPACE = "namespace"
    PACKAGE = "package"
    CLASS = "class"
    METHOD = "method"
    PROPERTY = "property"
    FIELD = "field"
    CONSTRUCTOR = "constructor"
    ENUM = "enum"
    INTERFACE = "interface"
    FUNCTION = "function"
    VARIABLE = "variable"
    CONSTANT = "constant"
    STRING = "string"
    NUMBER = "number"
    BOOLEAN = "boolean"
    ARRAY = "array"
    OBJECT = "object"
    KEY = "key"
    NULL = "null"
    ENUM_MEMBER = "enum_member"
    STRUCT = "struct"
    EVENT = "event"
    OPERATOR = "operator"
    TYPE_PARAMETER = "type_parameter"
    # The kinds below have no SymbolKind of their own; each maps to the closest one.
    TRAIT = "trait"
    TYPE = "type"
    MACRO = "macro"
    UNION = "union"
    HEADING = "heading"  # a document's section title (Markdown); appended: codes are stored
    REGION = "region"  # code outside every definition (extract/units.py)

    # Families of kinds, set below the class (an enum body would make them members).
    # Every module asks these rather than listing kinds of its own.
    CALLABLES: ClassVar[frozenset[Kind]]
    """Routines: functions, methods, constructors and macros."""
    CALL_TARGETS: ClassVar[frozenset[Kind]]
    """What a call may name: a routine, or a class or struct (calling one constructs it)."""
    TYPES: ClassVar[frozenset[Kind]]
    """Type declarations: classes, structs, interfaces, traits, enums, unions, aliases."""
    TYPE_TARGETS: ClassVar[frozenset[Kind]]
    """What a type reference may name: a type declaration or a generic's parameter."""
    CONTAINERS: ClassVar[frozenset[Kind]]
    """Kinds whose functions are methods and whose assignments are fields."""
    MEMBERS: ClassVar[frozenset[Kind]]
    """What lives on an instance or a class: fields, properties, methods, constructors."""
    VALUES: ClassVar[frozenset[Kind]]
    """Names bound to values: variables, constants, fields and properties."""
    DOCUMENTS: ClassVar[frozenset[Kind]]
    """What documents and data files define: headings and keys; ranked below code."""
    UNITS: ClassVar[frozenset[Kind]]
    """Searchable units that are not definitions (a code file's own unit and its regions,
    see extract/units.py): searched like any kind, left out of outlines, positions and
    the graph's targets."""

    @property
    def lsp_number(self) -> int:
        """The LSP ``SymbolKind`` value (the protocol's integers, kept here without pygls)."""
        return _LSP_SYMBOL_KIND[self]

    @property
    def is_container(self) -> bool:
        """Kinds whose functions are methods and whose assignments are fields."""
        return self in Kind.CONTAINERS

    @property
    def is_callable(self) -> bool:
        return self in Kind.CALLABLES

    @property
    def is_type(self) -> bool:
        return self in Kind.TYPES


Kind.CALLABLES = frozenset({Kind.FUNCTION, Kind.METHOD, Kind.CONSTRUCTOR, Kind.MACRO})
Kind.CALL_TARGETS = Kind.CALLABLES | {Kind.CLASS, Kind.STRUCT}
Kind.TYPES = frozenset(
    {Kind.CLASS, Kind.STRUCT, Kind.INTERFACE, Kind.TRAIT, Kind.ENUM, Kind.UNION, Kind.TYPE}
)
Kind.TYPE_TARGETS = Kind.TYPES | {Kind.TYPE_PARAMETER}
Kind.CONTAINERS = frozenset(
    {Kind.CLASS, Kind.STRUCT, Kind.INTERFACE, Kind.TRAIT, Kind.ENUM, Kind.UNION, Kind.OBJECT}
)
Kind.MEMBERS = frozenset({Kind.FIELD, Kind.PROPERTY, Kind.METHOD, Kind.CONSTRUCTOR})
Kind.VALUES = frozenset({Kind.VARIABLE, Kind.CONSTANT, Kind.FIELD, Kind.PROPERTY})
Kind.DOCUMENTS = frozenset({Kind.HEADING, Kind.KEY})
Kind.UNITS = frozenset({Kind.FILE, Kind.REGION})


_LSP_SYMBOL_KIND: dict[Kind, int] = {
    Kind.FILE: 1,
    Kind.MODULE: 2,
    Kind.NAMESPACE: 3,
    Kind.PACKAGE: 4,
    Kind.CLASS: 5,
    Kind.METHOD: 6,
    Kind.PROPERTY: 7,
    Kind.FIELD: 8,
    Kind.CONSTRUCTOR: 9,
    Kind.ENUM: 10,
    Kind.INTERFACE: 11,
    Kind.FUNCTION: 12,
    Kind.VARIABLE: 13,
    Kind.CONSTANT: 14,
    Kind.STRING: 15,
    Kind.NUMBER: 16,
    Kind.BOOLEAN: 17,
    Kind.ARRAY: 18,
    Kind.OBJECT: 19,
    Kind.KEY: 20,
    Kind.NULL: 21,
    Kind.ENUM_MEMBER: 22,
    Kind.STRUCT: 23,
    Kind.EVENT: 24,
    Kind.OPERATOR: 25,
    Kind.TYPE_PARAMETER: 26,
    Kind.TRAIT: 11,
    Kind.TYPE: 26,
    Kind.MACRO: 12,
    Kind.UNION: 23,
    Kind.HEADING: 15,  # String, as editors' Markdown outlines show headings
    Kind.REGION: 3,  # Namespace: editors draw it as a block, `{}`
}


class RefKind(StrEnum):
    """What a reference does with the name it mentions."""

    CALL = "call"
    REFERENCE = "reference"
    IMPORT = "import"
    INHERIT = "inherit"
    IMPLEMENT = "implement"
    DECORATE = "decorate"
    TYPE = "type"


class EdgeKind(IntEnum):
    """Definition -> definition edges of the graph, one per resolved reference kind."""

    CALLS = 0
    REFERENCES = 1
    IMPORTS = 2
    INHERITS = 3
    IMPLEMENTS = 4
    DECORATES = 5
    TYPE_OF = 6

    @classmethod
    def of(cls, ref_kind: RefKind) -> EdgeKind:
        return _EDGE_OF_REF[ref_kind]


_EDGE_OF_REF: dict[RefKind, EdgeKind] = {
    RefKind.CALL: EdgeKind.CALLS,
    RefKind.REFERENCE: EdgeKind.REFERENCES,
    RefKind.IMPORT: EdgeKind.IMPORTS,
    RefKind.INHERIT: EdgeKind.INHERITS,
    RefKind.IMPLEMENT: EdgeKind.IMPLEMENTS,
    RefKind.DECORATE: EdgeKind.DECORATES,
    RefKind.TYPE: EdgeKind.TYPE_OF,
}


@dataclass(slots=True, unsafe_hash=True)
class Symbol:
    """A definition. ``line..end_col`` is the whole definition; ``name_*`` the name alone.

    Hashed and compared by value like a frozen record, but not frozen: a frozen
    dataclass's ``__init__`` sets each of these 21 fields through
    ``object.__setattr__``, and every symbol of a workspace is built twice (by the
    parser, then by whoever loads it). Treat instances as read-only.
    """

    symbol_id: str
    name: str
    kind: Kind
    fqn: str
    signature: str
    language: str
    file: str
    root: str
    line: int
    col: int
    end_line: int
    end_col: int
    name_line: int
    name_col: int
    name_end_line: int
    name_end_col: int
    parent: str | None = None
    decorators: tuple[str, ...] = ()
    extends: tuple[str, ...] = ()
    implements: tuple[str, ...] = ()
    doc: str = ""

    def __reduce__(self) -> tuple[type[Symbol], tuple[object, ...]]:
        # Pickled as its fields in order (the tokenizer's processes get each file's
        # symbols): a slotted dataclass otherwise pickles a dict of its slots per object.
        return (Symbol, _FIELDS(self))

    @property
    def span(self) -> Span:
        """The whole definition."""
        return Span(self.line, self.col, self.end_line, self.end_col)

    @property
    def name_span(self) -> Span:
        """The definition's name alone (LSP ``selectionRange``)."""
        return Span(self.name_line, self.name_col, self.name_end_line, self.name_end_col)

    @property
    def container(self) -> str:
        """The qualified name of the enclosing scope ("" at top level)."""
        head, _, _ = self.fqn.rpartition(".")
        return head

    @property
    def prototype(self) -> bool:
        """A one-line declaration ending in ``;`` (C++'s ``void flush();`` in its class):
        the body, if any, is defined elsewhere."""
        return self.line == self.end_line and self.signature.rstrip().endswith(";")


@dataclass(slots=True)
class Reference:
    """A use of a name inside a file, tagged with the definition it sits in.

    ``qualifier`` is the receiver or module written before the name (``os.path``
    in ``os.path.join``; ``a.b`` in ``from a.b import c``); ``alias`` is the local
    name an import binds when it differs from ``name``; ``args`` is how many arguments
    a call passes (-1: unknown, not a call, or a language whose calls are not counted).

    Not frozen, unlike the other records: hundreds of thousands are created per
    index, and a frozen dataclass's ``__init__`` costs several times as much.
    Treat instances as read-only.
    """

    name: str
    file: str
    line: int
    col: int
    kind: RefKind
    enclosing: str | None = None
    qualifier: str = ""
    alias: str = ""
    args: int = -1


@dataclass(frozen=True, slots=True)
class FileStamp:
    """What incremental indexing compares: size and mtime first, then the content hash."""

    size: int
    mtime_ns: int
    digest: str


@dataclass(slots=True)
class FileRecord:
    """Everything extracted from one file, stored and replaced as a unit."""

    path: str
    root: str
    language: str
    stamp: FileStamp
    symbols: list[Symbol] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class Span(NamedTuple):
    """Where a piece of source sits: 1-based lines and 1-based code-point columns, the end
    exclusive. A named tuple, not a dataclass: two are made for every definition parsed."""

    line: int
    col: int
    end_line: int
    end_col: int


class Skipped(NamedTuple):
    """A file or folder left out of the index, and why.

    A named tuple rather than a dataclass so that reports still read as ``(path, reason)``
    pairs where front ends and scripts unpack them (``dict(report.skipped)``).
    """

    path: str
    reason: str


class FileProblem(NamedTuple):
    """Something wrong in a file that was indexed anyway (a ``(path, problem)`` pair)."""

    path: str
    problem: str


_FIELDS = attrgetter(*(f.name for f in fields(Symbol)))
