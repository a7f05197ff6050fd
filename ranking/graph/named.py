"""Definitions by the name a user writes: bare, or qualified as its language writes it.

``find_targets`` takes ``send``, ``Client.send``, Rust's and C++'s ``a::b``, PHP's
``A\\B``, Ruby's ``A#b``, Elixir's ``M.f/2``, and finds the definitions whose qualified
name is or ends with it; failing that, the same name qualified by its file, its package,
its public path, its crate, what its type inherits, or a C++ namespace a macro opens.
"""

from __future__ import annotations

import re

from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.link import rust_paths
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.text import paths

_SEPARATORS = re.compile(r"::|->|\\|#")
_ARITY = re.compile(r"(?<=\w)/\d+$")
_PACKAGE_FILES = frozenset({"mod", "lib", "main", "__init__", "index"})  # named by their folder


def _by_file(symbol: Symbol) -> str:
    """The symbol's qualified name after its file's path, as dotted names
    (``src.Uri.resolveImport``, ``src.value.Value`` for ``src/value/mod.rs``; CommonJS's
    ``exports.`` left out)."""
    parts = symbol.file.rsplit(".", 1)[0].split("/")
    if len(parts) > 1 and parts[-1] in _PACKAGE_FILES:
        parts.pop()
    fqn = symbol.fqn.removeprefix("module.").removeprefix("exports.")
    return ".".join([*parts, fqn])


# A file's package or namespace clause, where code names other files' definitions by it
_PACKAGE = {
    "go": re.compile(r"^package\s+(\w+)", re.M),
    "java": re.compile(r"^package\s+([\w.]+)", re.M),
    "kotlin": re.compile(r"^package\s+([\w.]+)", re.M),
    "scala": re.compile(r"^package\s+([\w.]+)", re.M),
    "csharp": re.compile(r"^\s*namespace\s+([\w.]+)", re.M),
    "php": re.compile(r"^namespace\s+([\w\\]+)", re.M),
}


def _in_package(index: Index, symbol: Symbol, dotted: str) -> bool:
    """Whether ``dotted`` is the symbol's qualified name after its file's package
    (``cobra.Command`` for the root's ``package cobra``, ``GuzzleHttp.Client.send`` for
    PHP's ``namespace GuzzleHttp;``), whole or its last parts."""
    clause = _PACKAGE.get(symbol.language)
    if clause is None:
        return False
    found = clause.search(paths.read_source(index, symbol.file).text)
    if found is None:
        return False
    full = f"{found[1].replace(chr(92), '.')}.{symbol.fqn}"
    return full == dotted or full.endswith("." + dotted)


def _inherited(index: Index, dotted: str) -> list[Symbol]:
    """``Type.member`` that ``Type`` inherits, through the supertypes a type hierarchy
    lists (bases, Rust impls' traits, Swift extensions' protocols, Go embeddings)."""
    from symfuse.ranking.graph.hierarchy import inherited_members  # it imports this module

    owner, member = dotted.rsplit(".", 1)
    try:
        types = [s for s in find_targets(index, owner) if s.kind in Kind.TYPES]
    except NotFound:
        return []
    return inherited_members(index, types, member)


def _public(fqn: str) -> str:
    """A Python qualified name without its private modules (``_client``), as a package
    that re-exports it is written: ``httpx.Client.send``."""
    return ".".join(p for p in fqn.split(".") if not p.startswith("_") or p.startswith("__"))


_CPP = frozenset({"cpp", "cuda"})


def _unopened(index: Index, dotted: str) -> list[Symbol]:
    """``fmt::detail::write`` for fmt's ``detail.write``: C++ code that opens its namespace
    with a macro (``FMT_BEGIN_NAMESPACE``, ``NLOHMANN_JSON_NAMESPACE_BEGIN``) leaves it out
    of every qualified name. The leading scopes are dropped while what is left is a C++
    definition's whole qualified name (never for ``std::``: the library's, not ours)."""
    parts = dotted.split(".")
    if parts[0] == "std":
        return []
    named = [index.symbols[i] for i in index.by_name.get(parts[-1], ())]
    for cut in range(1, len(parts)):
        rest = ".".join(parts[cut:])
        found = [s for s in named if s.fqn == rest and s.language in _CPP]
        if found:
            return found
    return []


def find_targets(index: Index, name: str, file: str | None = None) -> list[Symbol]:
    """Definitions named ``name`` (or whose qualified name ends with it), optionally in ``file``."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidRequest("name", "give a name")
    name = name.strip()
    symbols = index.symbols
    name = _ARITY.sub("", name)  # Elixir's and Erlang's `DBConnection.checkout/2`
    found = [symbols[i] for i in index.by_name.get(name, ())]
    dotted = _SEPARATORS.sub(".", name)  # Rust's and C++'s `::`, PHP's `\` and `->`, Ruby's `#`
    if not found and "." in dotted:
        last = dotted.rsplit(".", 1)[1]
        named = [symbols[i] for i in index.by_name.get(last, ())]
        found = [s for s in named if s.fqn == dotted or s.fqn.endswith("." + dotted)]
        if not found:  # qualified by its file: Zig's `Uri.resolveImport`, `value::Value`
            found = [s for s in named if _by_file(s).endswith("." + dotted)]
        if not found:  # by its package: `cobra.Command`, `com.google.gson.Gson.toJson`
            found = [s for s in named if _in_package(index, s, dotted)]
        if not found:  # by its public path: `httpx.Client.send` for httpx._client.Client.send
            found = [s for s in named if _public(s.fqn).endswith(dotted)]
        if not found and "::" in name:  # a Rust path from its crate: `tokio::spawn`
            found = rust_paths.resolve(index, dotted.split("."))
        if not found and "::" in name:  # a C++ namespace a macro opens: `fmt::format_to`
            found = _unopened(index, dotted)
        if not found:  # a member a type inherits: `Flask.register_blueprint` is App's
            found = _inherited(index, dotted)
    if file is not None:
        key = paths.resolve_file(index, file, argument="file")
        found = [s for s in found if s.file == key]
        if not found:
            raise NotFound(f"name: no definition named {name!r} in {key}")
    if not found:
        raise NotFound(f"name: no definition named {name!r}; try search or search_text")
    return found
