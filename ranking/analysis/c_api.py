"""The public API of a C or C++ library: the headers its build installs.

A root's build file says which headers its users get: CMake's ``install(FILES a.h ...)``
and ``install(DIRECTORY include/ ...)``, a Makefile's install recipe copying ``.h``
files (``$(INSTALL) hiredis.h read.h $(INSTALL_INCLUDE_PATH)``, ``adapters/*.h``),
Automake's ``include_HEADERS``, Meson's ``install_headers``; and a build that installs
anything installs its root's ``include/`` folder, the convention (fmt lists its headers
through a loop). What such a header defines (macros, types, enums and their members,
inline functions) is what the library's users may use, though nothing in the
repository does: hiredis's ``REDIS_SSL_VERIFY_CLIENT_ONCE``. A header the build keeps
to itself (hiredis's ``dict.h``) stays under the usual rules.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol

_LANGUAGES = frozenset({"c", "cpp", "objc", "cuda"})
_HEADER = re.compile(r"[\w./*${}-]+\.(?:h|hh|hpp|hxx|h\+\+|inl|ipp|tcc)$", re.I)
_CMAKE_INSTALL = re.compile(r"\binstall\s*\(([^)]*)\)", re.I)
_CMAKE_SET = re.compile(r"\bset\s*\(\s*(\w+)([^)]*)\)", re.I)
_CMAKE_KEYWORDS = re.compile(r"^[A-Z_]+$")
_MESON_HEADERS = re.compile(r"\binstall_headers\s*\(([^)]*)\)")
_MESON_SUBDIR = re.compile(r"\binstall_subdir\s*\(\s*'([^']+)'")
_MAKE_INSTALL = re.compile(r"\$\(INSTALL\w*\)|\binstall\b|\bcp\b")
_MAKEFILES = ("Makefile", "GNUmakefile", "makefile")
_INSTALLS = re.compile(
    r"\binstall(?:_headers|_subdir)?\s*\(|^install\w*\s*:|^\w*_HEADERS\s*\+?=", re.I | re.M
)
_AUTOMAKE = re.compile(r"^(?:\w+_)?(?:include|pkginclude)_HEADERS\s*\+?=((?:.*\\\n)*.*)", re.M)


def public_api(index: Index, symbol: Symbol) -> str | None:
    """Why users of the root's C or C++ library may use ``symbol``, or None."""
    if symbol.language not in _LANGUAGES:
        return None
    installed = _installed(index).get(symbol.root)
    if not installed:
        return None
    rel = symbol.file.split("/", 1)[1] if len(index.roots) > 1 else symbol.file
    for pattern, build in installed:
        if rel == pattern or rel.startswith(pattern + "/") or fnmatch.fnmatchcase(rel, pattern):
            return f"in a header {build} installs: the library's users may use it"
    return None


def _installed(index: Index) -> dict[str, tuple[tuple[str, str], ...]]:
    """Root alias -> (installed header or folder or glob, the build file naming it)."""
    return index.derived("c: installed headers", lambda: _read(index))


def _read(index: Index) -> dict[str, tuple[tuple[str, str], ...]]:
    found: dict[str, tuple[tuple[str, str], ...]] = {}
    for alias, root in index.roots.items():
        named: list[tuple[str, str]] = []
        for name, reader in (
            ("CMakeLists.txt", _cmake),
            ("meson.build", _meson),
            *((make, _make) for make in _MAKEFILES),
            ("Makefile.am", _automake),
        ):
            text = _text(Path(root) / name)
            if text is not None and _INSTALLS.search(text):
                named.extend((path, name) for path in reader(text))
        if named and (Path(root) / "include").is_dir():  # the convention, however listed
            named.append(("include", named[0][1]))
        if named:
            found[alias] = tuple(dict.fromkeys(named))
    return found


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _cmake(text: str) -> list[str]:
    """Headers and folders of ``install(FILES ...)`` / ``install(DIRECTORY ...)``, with
    the ``set()`` variables they name expanded."""
    text = re.sub(r"#[^\n]*", "", text)
    variables = {m[1]: m[2].split() for m in _CMAKE_SET.finditer(text)}
    out: list[str] = []
    for block in _CMAKE_INSTALL.finditer(text):
        words = _expanded(block[1].split(), variables)
        if words and words[0].upper() == "DIRECTORY":
            for word in words[1:]:
                if _CMAKE_KEYWORDS.match(word):
                    break
                out.append(_plain(word))
        else:
            out.extend(_plain(w) for w in words if _HEADER.match(w))
    return out


def _expanded(words: list[str], variables: dict[str, list[str]]) -> list[str]:
    out: list[str] = []
    for word in words:
        name = re.fullmatch(r"\$\{(\w+)\}", word)
        out.extend(variables.get(name[1], []) if name else [word])
    return out


def _meson(text: str) -> list[str]:
    out = [
        _plain(w)
        for block in _MESON_HEADERS.finditer(text)
        for w in re.findall(r"'([^']+)'", block[1])
        if _HEADER.match(w)
    ]
    return out + [_plain(m[1]) for m in _MESON_SUBDIR.finditer(text)]


def _make(text: str) -> list[str]:
    """The ``.h`` words of recipe lines that install or copy (``$(INSTALL) a.h b.h DIR``)."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("\t") and _MAKE_INSTALL.search(line):
            out.extend(_plain(w) for w in line.split() if _HEADER.match(w) and "$" not in w)
    return out


def _automake(text: str) -> list[str]:
    """``include_HEADERS = src/jv.h src/jq.h`` (and ``pkginclude_``, ``nobase_``...)."""
    return [_plain(w) for m in _AUTOMAKE.finditer(text) for w in m[1].split() if _HEADER.match(w)]


def _plain(word: str) -> str:
    """A path as the index keys it: no quotes, no ``./``, no trailing ``/``."""
    word = word.strip("\"'")
    word = word.removeprefix("${CMAKE_CURRENT_SOURCE_DIR}/").removeprefix("./")
    return word.rstrip("/")
