"""What the dead-code report weighs: which definitions something uses, which names the
workspace's text mentions, and which names a module exports.

Each table is read from the whole workspace once per index generation
(:meth:`~symfuse.indexer.index.Index.derived`) and is conservative on purpose: a
definition counts as used on any sign of use, because a wrong "dead" costs an agent
a deleted function that was needed, while a missed one costs nothing.

- :func:`used_ids`: the targets of the graph's edges (from any definition but the
  target itself or one inside it: a recursive call is no use) and of the references
  written at file level, which make no edge (a module's ``if __name__ == "__main__":``
  block, a re-export in a package ``__init__``, a decorator, a registration call).
- :func:`mentions`: how often each identifier appears in the text of the indexed
  files (code, strings, comments, documents): a name that appears more often than it
  is defined may be used in a way no reference records (``getattr(obj, "name")``, a
  dotted path in a settings file, a template).
- :func:`exported_names`: the names listed in any ``__all__``.
- :func:`dispatch_prefixes`: ``"visit_"``, ``"clean_%s"``, ``f"do_{x}"``: string
  literals that end where a name is glued on, the mark of methods found by name.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from symfuse.indexer.index import Index
from symfuse.indexer.model import RefKind, Symbol
from symfuse.ranking import paths
from symfuse.ranking.targets import resolver_for

# Files that are not indexed but may name definitions: templates, documentation, settings.
TEXT_SUFFIXES = frozenset(
    {
        ".html",
        ".htm",
        ".txt",
        ".rst",
        ".md",
        ".jinja",
        ".jinja2",
        ".j2",
        ".tmpl",
        ".tpl",
        ".xml",
        ".json",
        ".yml",
        ".yaml",
        ".toml",
        ".cfg",
        ".ini",
        ".in",
        ".hbs",
        ".mustache",
    }
)
MAX_TEXT_BYTES = 2_000_000
_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages", "dist", "build"})
# A line that is a comment alone (#, //, /*, *): a name there is no use.
_COMMENT_LINE = re.compile(r"^[ \t]*(?:#|//|/\*|\*).*$", re.M)
_DOCSTRING = re.compile(r"""^[ \t]*[rRuU]?(\"\"\"|''')(?:.|\n)*?\1""", re.M)
_BLOCK_COMMENT = re.compile(r"/\*(?:.|\n)*?\*/")
_TRAILING_COMMENT = re.compile(r"""[ \t]#[^'"\n]*$""", re.M)
_PROSE_SUFFIXES = frozenset({".txt", ".rst", ".md"})
_PROSE_LANGUAGES = frozenset({"markdown"})
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")  # `$` for JavaScript's `$rows`
_QUOTED = re.compile(r"""["']([A-Za-z_][A-Za-z0-9_]*)["']""")
# A string that ends where a name is glued on: "visit_" + kind, "clean_%s", f"do_{x}".
_PREFIX = re.compile(r"""["']([A-Za-z][A-Za-z0-9]*_)(?:["']|%s|\{)""")


def used_ids(index: Index) -> frozenset[str]:
    """Ids of the definitions that something else in the workspace refers to."""
    return index.derived("dead code: used ids", lambda: _used(index))


def _used(index: Index) -> frozenset[str]:
    import numpy as np

    edges = index.edges
    symbols = index.symbols
    uses = file_level_uses(index)
    used: set[str] = set(uses.used) | set(uses.imported)
    if len(edges):
        pairs = np.unique(np.stack([edges.src, edges.dst]), axis=1)
        for src, dst in zip(pairs[0].tolist(), pairs[1].tolist(), strict=True):
            target = symbols[dst].symbol_id
            if target not in used and not _inside(index, symbols[src], target):
                used.add(target)
    return frozenset(used)


def _inside(index: Index, symbol: Symbol, ancestor: str) -> bool:
    """Whether ``symbol`` is ``ancestor`` or sits inside it (a use from within)."""
    current: Symbol | None = symbol
    while current is not None:
        if current.symbol_id == ancestor:
            return True
        current = index.get(current.parent) if current.parent is not None else None
    return False


@dataclass(frozen=True, slots=True)
class FileLevelUses:
    """What the graph's edges leave out. ``used``: target id -> the files whose file-level
    references (outside every definition, imports aside) reach it; ``imported``: target
    id -> the files whose imports (at any level) name it."""

    used: dict[str, set[str]]
    imported: dict[str, set[str]]


def file_level_uses(index: Index) -> FileLevelUses:
    """References the graph has no edge for, having no definition to start one from
    (a module's ``if __name__ == "__main__":`` block, a package ``__init__``'s
    re-exports, registrations), and every file's imports, by target."""
    return index.derived("file level uses", lambda: _file_level(index))


def _file_level(index: Index) -> FileLevelUses:
    resolver = resolver_for(index)
    used: defaultdict[str, set[str]] = defaultdict(set)
    imported: defaultdict[str, set[str]] = defaultdict(set)
    for key, entry in index.files.items():
        for ref in entry.references():
            is_import = ref.kind is RefKind.IMPORT
            if ref.enclosing is not None and not is_import:
                continue
            table = imported if is_import else used
            for hit in resolver.resolve(ref, entry):
                table[hit.target.symbol_id].add(key)
    return FileLevelUses(dict(used), dict(imported))


@dataclass(frozen=True, slots=True)
class Mentions:
    """Identifier -> how often it appears: in code (indexed sources, templates and
    configuration; strings included, comments and docstrings not) and in prose
    (documentation: ``.txt``, ``.rst``, Markdown)."""

    code: Counter[str]
    prose: Counter[str]


def mentions(index: Index) -> Mentions:
    """How often each identifier appears in the workspace's text (made once per index)."""
    return index.derived("dead code: mentions", lambda: _count_words(index))


def _count_words(index: Index) -> Mentions:
    code: Counter[str] = Counter()
    prose: Counter[str] = Counter()
    for text, is_prose in _texts(index):
        if is_prose:
            prose.update(_WORD.findall(text))
        else:
            code.update(_WORD.findall(strip_comments(text)))
    return Mentions(code, prose)


def words(text: str) -> list[str]:
    """The identifiers of ``text``, in order."""
    return _WORD.findall(text)


def strip_comments(text: str) -> str:
    """``text`` without what only mentions names: comment lines, block comments,
    trailing ``#`` comments and docstrings (a string that is a statement of its own)."""
    text = _DOCSTRING.sub("", text)
    text = _BLOCK_COMMENT.sub("", text)
    text = _TRAILING_COMMENT.sub("", text)
    return _COMMENT_LINE.sub("", text)


def _texts(index: Index) -> Iterator[tuple[str, bool]]:
    """The text of every indexed file, then of the other text files under the roots
    (templates, documentation, configuration), each with whether it is prose: where a
    name is used with no reference the index could record (``{{ form.as_p }}``)."""
    for key, entry in index.files.items():
        yield paths.read_source(index, key).text, entry.language in _PROSE_LANGUAGES
    indexed = {index.abs_path(key) for key in index.files}
    for root in index.roots.values():
        for path in _text_files(root):
            if path not in indexed:
                try:
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read(MAX_TEXT_BYTES)
                except OSError:
                    continue
                yield text, os.path.splitext(path)[1].lower() in _PROSE_SUFFIXES


def _text_files(root: str) -> Iterator[str]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS]
        for name in files:
            if os.path.splitext(name)[1].lower() in TEXT_SUFFIXES:
                yield os.path.join(folder, name)


def quoted_names(index: Index) -> frozenset[str]:
    """Identifiers written as a whole string literal somewhere (``"save"``, ``'Meta'``)."""
    return index.derived("dead code: quoted", lambda: _quoted(index, _QUOTED))


def dispatch_prefixes(index: Index) -> frozenset[str]:
    """Prefixes that code glues names onto to find methods (``"visit_"``, ``"clean_%s"``)."""
    return index.derived("dead code: prefixes", lambda: _quoted(index, _PREFIX))


def _quoted(index: Index, pattern: re.Pattern[str]) -> frozenset[str]:
    found: set[str] = set()
    for key in index.files:
        found.update(pattern.findall(paths.read_source(index, key).text))
    return frozenset(found)


def exported_names(index: Index) -> frozenset[str]:
    """Names listed in some module's ``__all__`` (read from its source lines)."""
    return index.derived("dead code: exported", lambda: frozenset(_all_lists(index)))


def _all_lists(index: Index) -> Iterable[str]:
    for i in index.by_name.get("__all__", ()):
        symbol = index.symbols[i]
        lines = paths.read_lines(index, symbol.file)[symbol.line - 1 : symbol.end_line]
        yield from _QUOTED.findall("\n".join(lines))


def imported_names(index: Index) -> frozenset[str]:
    """Names some import statement names, resolved or not (``from x import name``)."""
    return index.derived("dead code: imported", lambda: _imported(index))


def _imported(index: Index) -> frozenset[str]:
    return frozenset(
        ref.name
        for entry in index.files.values()
        for ref in entry.references()
        if ref.kind is RefKind.IMPORT
    )
