"""The words every front end accepts for kinds and languages, and what a kind filter matches.

One table, read by the request validators (:mod:`symfuse.ranking.query.search_request`), so the CLI,
MCP and the language server's ``kind:``/``lang:`` filters take the same words:

- a kind is a :class:`~symfuse.indexer.model.Kind` value or an alias (``func``, ``cls``,
  ``ctor``, ...);
- a language is a supported language's name, an alias (``py``, ``js``, ``cpp``, ...) or
  one of its file extensions (``.rs`` or ``rs``);
- a filter on ``method`` also matches constructors (a constructor is a method to most
  people asking); ``constructor`` matches constructors only. ``class`` also matches
  structs, the class of Rust, Go, C and Zig (asked for a class there, an agent means
  one); ``interface`` also matches traits (Rust's, Scala's, PHP's), which the language
  server shows as interfaces. ``struct`` and ``trait`` match themselves only.
"""

from __future__ import annotations

from collections.abc import Iterable

from symfuse.indexer.files import languages
from symfuse.indexer.model import Kind

KIND_ALIASES: dict[str, Kind] = {
    "func": Kind.FUNCTION,
    "fn": Kind.FUNCTION,
    "def": Kind.FUNCTION,
    "cls": Kind.CLASS,
    "var": Kind.VARIABLE,
    "const": Kind.CONSTANT,
    "iface": Kind.INTERFACE,
    "ctor": Kind.CONSTRUCTOR,
    "member": Kind.ENUM_MEMBER,
}

LANGUAGE_ALIASES: dict[str, str] = {
    "py": "python",
    "js": "javascript",
    "ts": "typescript",
    "rb": "ruby",
    "cs": "csharp",
    "c#": "csharp",
    "cpp": "cpp",
    "c++": "cpp",
    "golang": "go",
    "objective-c": "objc",
    "shell": "bash",
    "sh": "bash",
    "terraform": "hcl",
    "makefile": "make",
    "docker": "dockerfile",
}

# A filter on the key also matches the kinds it covers.
_COVERS: dict[Kind, frozenset[Kind]] = {
    Kind.METHOD: frozenset({Kind.CONSTRUCTOR}),
    Kind.CLASS: frozenset({Kind.STRUCT}),
    Kind.INTERFACE: frozenset({Kind.TRAIT}),
}


def kind_of(word: str) -> Kind | None:
    """The kind a word names (a Kind value or an alias, any case), or None."""
    word = word.strip().lower()
    alias = KIND_ALIASES.get(word)
    if alias is not None:
        return alias
    try:
        return Kind(word)
    except ValueError:
        return None


def language_of(word: str) -> str | None:
    """The supported language a word names (its name, an alias or a file extension), or None."""
    word = word.strip().lower()
    known = languages.supported()
    if word in known:
        return word
    alias = LANGUAGE_ALIASES.get(word)
    if alias is not None and alias in known:
        return alias
    spec = languages.detect(f"x.{word.lstrip('.')}") if word.strip(".") else None
    return spec.name if spec is not None else None


def matched_kinds(kinds: Iterable[Kind]) -> frozenset[Kind]:
    """What a filter on ``kinds`` matches: each kind and the kinds it covers."""
    out: set[Kind] = set()
    for kind in kinds:
        out.add(kind)
        out |= _COVERS.get(kind, frozenset())
    return frozenset(out)


def kind_words() -> str:
    """Every accepted kind word, for an error message."""
    aliases = ", ".join(f"{alias} ({kind.value})" for alias, kind in KIND_ALIASES.items())
    return f"{', '.join(k.value for k in Kind)}; or {aliases}"
