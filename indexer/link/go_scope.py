"""Go's package scope, for the resolver (:mod:`.resolve`).

A Go package is a folder: a bare name in one of its files stands for the package-level
definition of that name in any file of the folder, as sure as a name of the file itself.
Files ending ``_test.go`` are built only with the package's tests: other files never see
their names, and other packages never do (``cart.Helper`` from ``export_test.go`` is seen
only by the folder's own tests).

A package declares a name once per build, so same-named package-level definitions in
several of its (non-test) files are variants of one declaration for different builds
(gin's ``Binding`` in ``binding.go``, ``//go:build !nomsgpack``, and in
``binding_nomsgpack.go``, ``//go:build nomsgpack``): each is a full-confidence target.
The one exception is a test file's name that both a test file and a product file define:
the folder then holds two packages (``cart`` and the external ``cart_test``), and the
package clause the index does not keep would tell which; each gets 0.5. Files of
another package clause in the folder (``//go:build ignore`` generators of ``package
main``) are taken as the folder's package too.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from symfuse.indexer.files.languages import family
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import Kind, RefKind, Symbol

if TYPE_CHECKING:
    from symfuse.indexer.link.resolve import Resolution

TEST_SUFFIX = "_test.go"


def is_test(rel: str) -> bool:
    return rel.endswith(TEST_SUFFIX)


def package_definitions(
    index: Index, name: str, folders: list[str], root: str | None, with_tests: bool
) -> list[tuple[Symbol, bool]]:
    """The package-level definitions (not methods) called ``name`` in these folders (of
    ``root``, or any), each with whether its file is a test file; test files' only
    ``with_tests``."""
    found = []
    symbols = index.symbols
    for symbol in (symbols[at] for at in index.by_name.get(name, ())):
        if symbol.parent is not None or symbol.kind is Kind.METHOD:
            continue
        if root is not None and symbol.root != root:
            continue
        home = index.files.get(symbol.file)
        if home is None or home.language != "go" or posixpath.dirname(home.rel) not in folders:
            continue
        test = is_test(home.rel)
        if with_tests or not test:
            found.append((symbol, test))
    return found


def as_one_declaration(found: list[tuple[Symbol, bool]], how: str) -> list[Resolution]:
    """The definitions a package-scoped name stands for: build variants of one
    declaration at 1.0; split 0.5 when test and product files both define it."""
    from symfuse.indexer.link.resolve import Resolution

    confidence = 0.5 if len({test for _, test in found}) > 1 else 1.0
    return [Resolution(symbol, confidence, how) for symbol, _ in found]


def same_package(index: Index, name: str, entry: FileEntry) -> list[Resolution]:
    """A bare name of a Go file defined at package level in another file of its folder."""
    from symfuse.indexer.link.resolve import SCOPE

    folder = posixpath.dirname(entry.rel)
    found = package_definitions(index, name, [folder], entry.root, is_test(entry.rel))
    return as_one_declaration(found, SCOPE) if found else []


def indexed_type(kind: RefKind, entry: FileEntry) -> bool:
    """Go parses ``c.handlers[c.index](c)`` as a generic type ``pkg.Type[Arg]``: its "type"
    may be a variable's field (:func:`.typed.by_receiver` looks for the variable)."""
    return kind is RefKind.TYPE and family(entry.language) == "go"


# (path, content digest) -> the package names the file imports: a pure function of the
# file's text, so shared by every index (bounded)
_PACKAGES: dict[tuple[str, str], frozenset[str]] = {}
# a module path's version (`/v2`, gopkg.in's `.v3`): the package is named before it
_VERSION = re.compile(r"(?:/v\d+|\.v\d+)$")


def names_a_package(name: str, entry: FileEntry) -> bool:
    """Whether ``name`` in the Go file ``entry`` is a package it imports (by its alias, or
    the last element of its path)."""
    return entry.language == "go" and name in imported_names(entry)


def imported_names(entry: FileEntry) -> frozenset[str]:
    """The names ``entry``'s imports bind: a Go package's (its alias, or the last element
    of its path), else each import's alias or name (remembered by path and content)."""
    key = (entry.path, entry.stamp.digest)
    names = _PACKAGES.get(key)
    if names is None:
        if len(_PACKAGES) > 100_000:
            _PACKAGES.clear()
        go = entry.language == "go"
        names = _PACKAGES[key] = frozenset(
            ref.alias or (_VERSION.sub("", ref.name).rsplit("/", 1)[-1] if go else ref.name)
            for ref in entry.imports()
        )
    return names
