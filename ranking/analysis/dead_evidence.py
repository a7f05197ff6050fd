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
- :func:`mentions`: how often each identifier appears in the workspace's text (code
  and strings apart from comments, docstrings and documentation): a name that appears
  more often than it is defined may be used in a way no reference records
  (``getattr(obj, "name")``, a dotted path in a settings file, a template); names
  written as strings, and strings that build names (``"visit_" + kind``).
- :func:`exported_names`: the names listed in any ``__all__``.
- :func:`configured_modules`: the Python modules a configuration file names by path or
  dotted name (``hooks: [scripts/mkdocs_hooks.py]`` in mkdocs.yml): the tool loads them
  and calls their functions by name.
- :func:`reexported_files`: the JavaScript/TypeScript modules a barrel file re-exports
  whole (``export * from "./api"``): what they export is the package's public API.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from symfuse.indexer.files.languages import family
from symfuse.indexer.index import Index
from symfuse.indexer.link.bindings import script_module
from symfuse.indexer.link.chained import parameter_count
from symfuse.indexer.link.inherit import OUT_OF_LINE
from symfuse.indexer.link.resolve import SELF_NAMES
from symfuse.indexer.model import Kind, RefKind, Symbol
from symfuse.ranking.analysis.dead_twins import twins
from symfuse.ranking.channels.names.namesakes import declares_only
from symfuse.ranking.graph.targets import resolver_for
from symfuse.ranking.text import paths

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
        ".mdx",
    }
)
MAX_TEXT_BYTES = 2_000_000
_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages", "dist", "build"})
# A line that is a comment alone (#, //, /*, *): a name there is no use.
_COMMENT_LINE = re.compile(r"^[ \t]*(?:#|//|/\*|\*).*$", re.M)
# In Python only ``#`` starts a comment: a line of a string reading ``*= STAREQUAL`` or
# ``//= DOUBLESLASHEQUAL`` (an operator table read by ``getattr``) is code.
_HASH_COMMENT_LINE = re.compile(r"^[ \t]*#.*$", re.M)
_TRIPLE = re.compile(r"""\"\"\"|'''""")
_DOCSTRING_START = re.compile(r"""[ \t]*[rRuU]?$""")
_BLOCK_COMMENT = re.compile(r"/\*(?:.|\n)*?\*/")
_TRAILING_COMMENT = re.compile(r"""[ \t]#[^'"\n]*$""", re.M)
_CLASS_LITERAL = re.compile(r"\b([A-Z]\w*)(?:\.class|::class)\b|\btypeof\(\s*([A-Z]\w*)\s*\)")
_REFLECTING_LANGUAGES = frozenset({"java", "kotlin", "csharp", "scala", "groovy"})
_PROSE_SUFFIXES = frozenset({".txt", ".rst", ".md"})
_PROSE_LANGUAGES = frozenset({"markdown"})
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")  # `$` for JavaScript's `$rows`
_QUOTED = re.compile(r"""["']([A-Za-z_][A-Za-z0-9_]*)["']""")
# A string that ends where a name is glued on: "visit_" + kind, "clean_%s", f"do_{x}".
# A string that builds a name: "visit_" + kind, "clean_%s", "_get_%s_permissions",
# f"do_{x}": an identifier-like text around one placeholder (or ending in "_").
_TEMPLATE = re.compile(
    r"""[fFrR]?["']([A-Za-z_][A-Za-z0-9_]*_)(?:(%s|%\(\w+\)s|\{[^}'"]*\})([A-Za-z0-9_]*))?["']"""
)


def used_ids(index: Index) -> frozenset[str]:
    """Ids of the definitions that something else in the workspace refers to."""
    return index.derived("dead code: used ids", lambda: _used(index))


def _used(index: Index) -> frozenset[str]:
    import numpy as np

    edges = index.edges
    symbols = index.symbols
    uses = file_level_uses(index)
    used: set[str] = set(uses.used) | set(uses.imported) | _member_values(index)
    if len(edges):
        pairs = np.unique(np.stack([edges.src, edges.dst]), axis=1)
        for src, dst in zip(pairs[0].tolist(), pairs[1].tolist(), strict=True):
            target = symbols[dst]
            if not _inside(index, symbols[src], target.symbol_id):
                used.add(target.symbol_id)
                owner = _owner(index, target)  # used from outside it: its type is in use
                if owner is not None and not _inside(index, symbols[src], owner):
                    used.add(owner)
    used |= _clauses(index, used)
    return frozenset(used | _namesake_macros(index, used) | twins(index, used))


def _owner(index: Index, member: Symbol) -> str | None:
    """The type ``member`` belongs to, when it is a member (a method, a field): used from
    outside, its type is in use though its name may appear nowhere (C#'s static class
    of extension methods, called as ``services.AddMediatR()``)."""
    if member.parent is None or member.kind not in Kind.MEMBERS:
        return None
    parent = index.get(member.parent)
    return parent.symbol_id if parent is not None and parent.kind.is_type else None


def _namesake_macros(index: Index, used: set[str]) -> set[str]:
    """One thing defined in several places: a C macro in several preprocessor branches
    (``#if ... #define BIG 1 #else #define BIG 0``), a C struct and its typedef, a C++
    template and its specializations (``struct is_char<char>``), a C++ member declared in
    a header and defined in a source file, or declared in its class and defined out of
    line (``void flush();``, ``void sink::flush() {}``). A use of one is a use of each;
    overloads in one file stay several things."""
    symbols = index.symbols
    found: set[str] = set()
    for positions in index.by_name.values():
        twice: dict[tuple[str, Kind], list[Symbol]] = {}
        for s in (symbols[i] for i in positions) if len(positions) > 1 else ():
            macro = s.kind is Kind.MACRO  # below, a macro's kind is TYPE: always one thing
            if macro or (s.kind.is_type and family(s.language) == "c"):
                twice.setdefault(("" if macro else s.fqn, Kind.TYPE), []).append(s)
            elif s.language in OUT_OF_LINE and s.kind.is_callable:
                twice.setdefault((s.fqn, s.kind), []).append(s)
        for (_, kind), alike in twice.items():
            ids = [s.symbol_id for s in alike]
            one = kind is Kind.TYPE or len({s.file for s in alike}) > 1
            if len(ids) > 1 and (one or any(map(declares_only, alike))):
                found.update(ids if not used.isdisjoint(ids) else ())
    return found


def _clauses(index: Index, used: set[str]) -> set[str]:
    """An Elixir or Erlang function written as several clauses (``defp empty?([]), do:
    true`` / ``defp empty?(_), do: false``) is one function: a call resolves to its first
    clause, and is a use of each of its arity; so is a Haskell function defined in each
    branch of an ``#if`` (aeson's ``toHashMap`` for either map)."""
    found: set[str] = set()
    for symbol_id in used:
        symbol = index.get(symbol_id)
        if symbol is None or symbol.language not in _CLAUSED:
            continue
        entry = index.files.get(symbol.file)
        repeated = (
            entry.lookups().repeated.get((symbol.parent or "", symbol.name)) if entry else None
        )
        arity = _arity(symbol)
        for clause in repeated or ():
            other = _arity(clause)
            if arity is None or other is None or other == arity:
                found.add(clause.symbol_id)
    return found


def _arity(clause: Symbol) -> int | None:
    """A clause's number of parameters, None where its head is not on its first line."""
    head = clause.signature
    return parameter_count(clause) if head.count("(") == head.count(")") else None


_CLAUSED = frozenset({"elixir", "erlang", "haskell"})


def _member_values(index: Index) -> set[str]:
    """Members read through ``self``/``this`` and not called (``callbacks.append(
    self.on_close)``): a use the graph keeps no edge for (it would crowd PageRank),
    unless from inside the member itself."""
    resolver = resolver_for(index)
    defined = index.by_name
    used: set[str] = set()
    for entry in index.files.values():
        for ref in entry.references():
            if ref.kind is not RefKind.REFERENCE or ref.qualifier not in SELF_NAMES:
                continue
            if ref.name not in defined or ref.enclosing is None:
                continue
            source = index.get(ref.enclosing)
            for hit in resolver.resolve(ref, entry):
                target = hit.target.symbol_id
                if source is None or not _inside(index, source, target):
                    used.add(target)
    return used


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
    id -> the files whose imports (at any level) name it; ``sure``: (target id, file) ->
    the surest link of the file's file-level references to it (impact's threshold)."""

    used: dict[str, set[str]]
    imported: dict[str, set[str]]
    sure: dict[tuple[str, str], float]


def file_level_uses(index: Index) -> FileLevelUses:
    """References the graph has no edge for, having no definition to start one from
    (a module's ``if __name__ == "__main__":`` block, a package ``__init__``'s
    re-exports, registrations), and every file's imports, by target."""
    return index.derived("file level uses", lambda: _file_level(index))


def _file_level(index: Index) -> FileLevelUses:
    resolver = resolver_for(index)
    used: defaultdict[str, set[str]] = defaultdict(set)
    imported: defaultdict[str, set[str]] = defaultdict(set)
    sure: dict[tuple[str, str], float] = {}
    defined = index.by_name
    for key, entry in index.files.items():
        for ref in entry.references():
            if ref.name not in defined:
                continue  # nothing in the workspace is so named: nothing to reach
            is_import = ref.kind is RefKind.IMPORT
            if ref.enclosing is not None and not is_import:
                continue
            table = imported if is_import else used
            for hit in resolver.resolve(ref, entry):
                table[hit.target.symbol_id].add(key)
                if not is_import:
                    pair = (hit.target.symbol_id, key)
                    sure[pair] = max(sure.get(pair, 0.0), hit.confidence)
    return FileLevelUses(dict(used), dict(imported), sure)


@dataclass(frozen=True, slots=True)
class Mentions:
    """What the workspace's text says of names, read in one pass over it.

    ``code``: identifier -> how often it appears in code (indexed sources, templates and
    configuration; strings included, comments and docstrings not); ``prose``: in
    documentation (``.txt``, ``.rst``, Markdown); ``quoted``: identifiers written as a
    whole string (``"save"``); ``built``: a pattern of the names strings build
    (``"visit_" + kind``, ``"_get_%s_permissions"``), None when none does; ``reflected``:
    types handed over as values for reflection (Java ``Foo.class``, Kotlin ``Foo::class``,
    C# ``typeof(Foo)``): a runner may construct them and call their methods by name.
    """

    code: Counter[str]
    prose: Counter[str]
    quoted: frozenset[str]
    built: re.Pattern[str] | None
    reflected: frozenset[str] = frozenset()


def mentions(index: Index) -> Mentions:
    """The workspace's text, read for names (made once per index generation)."""
    return index.derived("dead code: mentions", lambda: _read_mentions(index))


def _read_mentions(index: Index) -> Mentions:
    code: Counter[str] = Counter()
    prose: Counter[str] = Counter()
    quoted: set[str] = set()
    shapes: set[str] = set()
    reflected: set[str] = set()
    for text, is_prose, language in _texts(index):
        if is_prose:
            prose.update(_WORD.findall(text))
            continue
        code.update(_WORD.findall(strip_comments(text, language)))
        if language in _REFLECTING_LANGUAGES:
            reflected.update(a or b for a, b in _CLASS_LITERAL.findall(text))
        quoted.update(_QUOTED.findall(text))
        for head, hole, tail in _TEMPLATE.findall(text):
            if hole or head.endswith("_"):
                shapes.add(f"{re.escape(head)}\\w+{re.escape(tail)}")
    built = re.compile("|".join(sorted(shapes))) if shapes else None
    return Mentions(code, prose, frozenset(quoted), built, frozenset(reflected))


def words(text: str) -> list[str]:
    """The identifiers of ``text``, in order."""
    return _WORD.findall(text)


def strip_comments(text: str, language: str = "") -> str:
    """``text`` without what only mentions names: comment lines, block comments,
    trailing ``#`` comments and docstrings (a string that is a statement of its own).
    ``language``: the file's (Python knows only ``#`` comments), or "" if unknown."""
    text = _strip_docstrings(text)
    if language == "python":
        return _HASH_COMMENT_LINE.sub("", _TRAILING_COMMENT.sub("", text))
    text = _BLOCK_COMMENT.sub("", text)
    text = _TRAILING_COMMENT.sub("", text)
    return _COMMENT_LINE.sub("", text)


def _strip_docstrings(text: str) -> str:
    """``text`` without its docstrings: triple-quoted strings, paired in order, whose
    opening quotes start a line (an assigned one, ``x = \"\"\"...``, is code)."""
    kept: list[str] = []
    at = 0
    quotes = list(_TRIPLE.finditer(text))
    i = 0
    while i < len(quotes):
        opening = quotes[i]
        close = next(
            (j for j in range(i + 1, len(quotes)) if quotes[j].group() == opening.group()), None
        )
        if close is None:
            break
        line_start = text.rfind("\n", 0, opening.start()) + 1
        if _DOCSTRING_START.match(text, line_start, opening.start()):
            kept.append(text[at : opening.start()])
            at = quotes[close].end()
        i = close + 1
    kept.append(text[at:])
    return "".join(kept)


def _texts(index: Index) -> Iterator[tuple[str, bool, str]]:
    """The text of every indexed file, then of the other text files under the roots
    (templates, documentation, configuration), each with whether it is prose and its
    language ("" if not indexed): where a name is used with no reference the index
    could record (``{{ form.as_p }}``)."""
    for key, entry in index.files.items():
        text = paths.read_source(index, key).text
        yield text, entry.language in _PROSE_LANGUAGES, entry.language
    indexed = {index.abs_path(key) for key in index.files}
    for root in index.roots.values():
        for path in _text_files(root):
            if path not in indexed:
                try:
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read(MAX_TEXT_BYTES)
                except OSError:
                    continue
                yield text, os.path.splitext(path)[1].lower() in _PROSE_SUFFIXES, ""


def _text_files(root: str) -> Iterator[str]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS]
        for name in files:
            if os.path.splitext(name)[1].lower() in TEXT_SUFFIXES:
                yield os.path.join(folder, name)


_CONFIG_SUFFIXES = frozenset({".yml", ".yaml", ".toml", ".cfg", ".ini", ".json"})
_PATH_WORD = re.compile(r"[\w./-]+\.py\b")
_DOTTED_WORD = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b")


def configured_modules(index: Index) -> dict[str, str]:
    """Python file -> the configuration file (its name) that names it by path or module."""
    return index.derived("dead code: configured modules", lambda: _configured(index))


def _configured(index: Index) -> dict[str, str]:
    named: dict[str, str] = {}  # a path or a dotted name -> the file naming it
    for root in index.roots.values():
        for path in _text_files(root):
            if os.path.splitext(path)[1].lower() not in _CONFIG_SUFFIXES:
                continue
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read(MAX_TEXT_BYTES)
            except OSError:
                continue
            where = os.path.relpath(path, root)
            for word in _PATH_WORD.findall(text):  # as written, or from the file's folder
                beside = os.path.normpath(os.path.join(os.path.dirname(path), word))
                named.setdefault(os.path.relpath(beside, root), where)
                named.setdefault(os.path.normpath(word), where)
            for word in _DOTTED_WORD.findall(text):
                named.setdefault(word, where)
    found: dict[str, str] = {}
    for key, entry in index.files.items():
        if entry.language != "python":
            continue
        module = entry.rel.removesuffix(".py").replace("/", ".")
        config = named.get(entry.rel) or named.get(module)
        if config is not None:
            found[key] = config
    return found


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


def reexported_files(index: Index) -> dict[str, str]:
    """JavaScript/TypeScript files re-exported whole by another (``export * from
    "./api"``, ``export * as checks from "./checks"``) -> the first such barrel file."""
    return index.derived("dead code: re-exported files", lambda: _reexported(index))


def _reexported(index: Index) -> dict[str, str]:
    found: dict[str, str] = {}
    for key, entry in index.files.items():
        if family(entry.language) != "javascript":
            continue
        for ref in entry.references():
            if ref.kind is not RefKind.IMPORT or ref.enclosing is not None:
                continue
            if ref.name == "*":
                spec = ref.qualifier  # export * from "./api"
            elif ref.alias and not ref.qualifier and _is_export(index, key, ref.line):
                spec = ref.name  # export * as checks from "./checks"
            else:
                continue
            module = script_module(index, entry, spec)
            if module is not None and module.rel != entry.rel:
                found.setdefault(index.key(module.root, module.rel), key)
    return found


def _is_export(index: Index, key: str, line: int) -> bool:
    """Whether the statement on ``line`` is an ``export`` (not an ``import * as``)."""
    return paths.line_text(paths.read_lines(index, key), line).lstrip().startswith("export")


# What a generator writes at the top of its output (Bison, flex, protoc, Go's `go generate`
# tools, Thrift, SWIG, ...): its definitions are what the generator needs, edited at the source.
_GENERATED = re.compile(
    r"generated by|auto-?generated|@generated|do not edit|made by gnu bison", re.I
)
GENERATED_LINES = 12  # a generator's note opens the file


def generated(index: Index, file: str) -> bool:
    """Whether ``file`` says in its first lines that a tool wrote it."""
    found: dict[str, bool] = index.derived("dead code: generated files", dict)
    known = found.get(file)
    if known is None:
        head = "\n".join(paths.read_lines(index, file)[:GENERATED_LINES])
        known = found[file] = _GENERATED.search(head) is not None
    return bool(known)
