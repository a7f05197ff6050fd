"""Which files are which language, and the tree-sitter query that reads each one.

A language is supported when ``queries/<name>.scm`` exists beside this module.
Adding one is a row in ``LANGUAGES``, a query file, a fixture and a golden dump.

The tables, grammars and compiled queries below are memoized for the process
(``functools.cache``): they depend only on this module, the installed grammar
package and the packaged ``.scm`` files, never on a workspace or an index, so
every index shares them and no test can leave one behind for another.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # imported where a file is parsed: `symfuse index` with nothing new parses none
    from tree_sitter import Language, Parser, Query


@dataclass(frozen=True, slots=True)
class LanguageSpec:
    """How one language is recognised and read.

    ``grammar`` is the tree-sitter-language-pack name; ``module_fqn`` says that a
    file's path is part of its symbols' qualified names (Python-style packages);
    ``comment_docs`` says that comments right above a definition are its doc;
    ``stand_in`` that the grammar is a close relative's (Teal read as Lua), whose syntax
    errors are expected and not reported as the file's problems.
    """

    name: str
    extensions: tuple[str, ...]
    grammar: str = ""
    filenames: tuple[str, ...] = ()
    module_fqn: bool = False
    comment_docs: bool = True
    stand_in: bool = False

    @property
    def grammar_name(self) -> str:
        return self.grammar or self.name


LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec("python", (".py", ".pyi", ".pyw"), module_fqn=True),
    LanguageSpec("javascript", (".js", ".mjs", ".cjs", ".jsx")),
    LanguageSpec("typescript", (".ts", ".mts", ".cts")),
    LanguageSpec("tsx", (".tsx",)),
    LanguageSpec("go", (".go",)),
    LanguageSpec("rust", (".rs",)),
    LanguageSpec("java", (".java",)),
    LanguageSpec("c", (".c", ".h")),
    LanguageSpec("cpp", (".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".inl")),
    LanguageSpec("csharp", (".cs",)),
    LanguageSpec("ruby", (".rb", ".rake", ".gemspec"), filenames=("Rakefile", "Gemfile")),
    LanguageSpec("php", (".php",)),
    LanguageSpec("kotlin", (".kt", ".kts")),
    LanguageSpec("swift", (".swift",)),
    LanguageSpec("scala", (".scala", ".sc")),
    LanguageSpec("lua", (".lua",)),
    # Teal (typed Lua): no grammar in the pack; Lua's recovers its functions and records
    LanguageSpec("teal", (".tl",), grammar="lua", stand_in=True),
    LanguageSpec("bash", (".sh", ".bash")),
    LanguageSpec("dart", (".dart",)),
    LanguageSpec("elixir", (".ex", ".exs")),
    LanguageSpec("haskell", (".hs",)),
    LanguageSpec("ocaml", (".ml",)),
    LanguageSpec("zig", (".zig",)),
    LanguageSpec("julia", (".jl",)),
    LanguageSpec("r", (".r", ".R")),
    LanguageSpec("perl", (".pl", ".pm")),
    LanguageSpec("objc", (".m", ".mm")),
    LanguageSpec("groovy", (".groovy", ".gradle")),
    LanguageSpec("erlang", (".erl", ".hrl")),
    LanguageSpec("elm", (".elm",)),
    LanguageSpec("solidity", (".sol",)),
    LanguageSpec("proto", (".proto",)),
    LanguageSpec("clojure", (".clj", ".cljs", ".cljc")),
    LanguageSpec("fsharp", (".fs", ".fsi")),
    LanguageSpec("nim", (".nim",)),
    LanguageSpec("gleam", (".gleam",)),
    LanguageSpec("cuda", (".cu", ".cuh")),
    LanguageSpec("hcl", (".tf", ".hcl"), grammar="terraform"),
    LanguageSpec("nix", (".nix",)),
    LanguageSpec("glsl", (".glsl", ".vert", ".frag", ".geom", ".comp", ".tesc", ".tese")),
    LanguageSpec("hlsl", (".hlsl", ".hlsli", ".fx")),
    LanguageSpec("sql", (".sql",)),
    LanguageSpec("vue", (".vue",), grammar="typescript"),
    LanguageSpec("svelte", (".svelte",), grammar="typescript"),
    LanguageSpec("fortran", (".f90", ".f95", ".f03", ".f08")),
    LanguageSpec("make", (".mk", ".mak"), filenames=("Makefile", "makefile", "GNUmakefile")),
    LanguageSpec("dockerfile", (".dockerfile",), filenames=("Dockerfile", "Containerfile")),
    LanguageSpec("yaml", (".yaml", ".yml")),
    LanguageSpec("toml", (".toml",)),
    LanguageSpec("markdown", (".md", ".markdown")),
)


# How a `.h` file's language is chosen (indexer/files/headers.py decides), in one line
# for `symfuse languages` and the README.
HEADER_RULE = (
    "compile_commands.json when it lists the header; else its text (namespace, template,"
    " access specifiers, ::, @interface, #import); else its project (the sources whose"
    " include paths cover it, then the nearest .cpp/.cc/.m files); else C"
)


# Languages whose files see one another's definitions by bare name, and whose imports
# read alike: each maps to the family it belongs to (any other is its own family).
_FAMILY = {
    "typescript": "javascript",
    "tsx": "javascript",
    "cpp": "c",
    "cuda": "c",
    "objc": "c",
    "vue": "javascript",
    "svelte": "javascript",
    "glsl": "c",
    "hlsl": "c",
    "teal": "lua",
}


def family(name: str) -> str:
    """The family of a language: ``javascript`` for TypeScript, ``c`` for C++; else itself."""
    return _FAMILY.get(name, name)


_INHERITS = "; inherits:"


@functools.cache
def _query_text(name: str) -> str | None:
    """A language's query; a first line ``; inherits: a,b`` puts those queries first.

    (The convention of nvim-treesitter: TSX is TypeScript plus JSX patterns.) Read once:
    :func:`supported` and every update's extractor fingerprint ask for each of them.
    """
    resource = _queries().joinpath(f"{name}.scm")
    if not resource.is_file():
        return None
    text = resource.read_text(encoding="utf-8")
    first = text.split("\n", 1)[0]
    if not first.startswith(_INHERITS):
        return text
    parents = [p.strip() for p in first[len(_INHERITS) :].split(",") if p.strip()]
    inherited = [_query_text(parent) for parent in parents if parent != name]
    return "\n".join([*(t for t in inherited if t is not None), text])


@functools.cache
def _queries() -> resources.abc.Traversable:
    return resources.files("symfuse.indexer.extract.queries")


def query_source(name: str) -> str:
    """The full text of a language's query, inherited parts included."""
    text = _query_text(name)
    if text is None:
        raise KeyError(f"no query for language {name!r}")
    return text


@functools.cache
def supported() -> dict[str, LanguageSpec]:
    """Languages that have a query file, by name."""
    return {spec.name: spec for spec in LANGUAGES if _query_text(spec.name) is not None}


@functools.cache
def _by_suffix() -> dict[str, LanguageSpec]:
    table: dict[str, LanguageSpec] = {}
    for spec in supported().values():
        for ext in spec.extensions:
            table[ext] = spec
    return table


@functools.cache
def _by_filename() -> dict[str, LanguageSpec]:
    return {fname: spec for spec in supported().values() for fname in spec.filenames}


def detect(path: str, head: bytes | None = None) -> LanguageSpec | None:
    """The language of a file by its name, or None when we do not index it; a script
    without an extension (``bin/luarocks``: :func:`may_be_script`) by its first bytes
    ``head``, when given: a ``#!`` line naming an interpreter (:func:`by_shebang`)."""
    name = path.rsplit("/", 1)[-1]
    spec = _by_filename().get(name)
    if spec is not None:
        return spec
    dot = name.rfind(".")
    if dot < 0 and head is not None and may_be_script(path):
        return by_shebang(head)
    if dot <= 0:  # no extension, or a dot file such as .bashrc
        return None
    suffix = name[dot:]
    table = _by_suffix()
    return table.get(suffix) or table.get(suffix.lower())


# folders of a repository's programs: an extensionless file there may be a script
SCRIPT_DIRS = frozenset({"bin", "sbin", "exe", "script", "scripts", "libexec"})


def may_be_script(path: str) -> bool:
    """An extensionless file in a folder of programs (``bin/rails``, ``exe/rackup``): its
    language is read from its ``#!`` line. Elsewhere such a file is a benchmark harness,
    a fixture or a tool (ripgrep's ``benchsuite/benchsuite``, a Python script, lowered its
    mined commit subjects: tests/bench/README.md, session 35)."""
    folder, _, name = path.rpartition("/")
    return "." not in name and folder.rsplit("/", 1)[-1] in SCRIPT_DIRS


def may_index(path: str) -> bool:
    """Whether a file of this name may be indexed: a language's name or extension, or a
    script's (if its ``#!`` line names a language: :func:`by_shebang`)."""
    return detect(path) is not None or may_be_script(path)


SHEBANG_BYTES = 256  # what is read of an extensionless file to find its `#!` line
# an interpreter named on a `#!` line (its version digits cut: python3.12) -> language. Not
# the shells: a repository's extensionless shell scripts are its build and test tooling,
# and as ranked units they pushed library code down (the mined commit subjects of jq and
# redis: tests/bench/README.md, session 35)
_INTERPRETERS = {
    "python": "python",
    "pypy": "python",
    "ruby": "ruby",
    "node": "javascript",
    "nodejs": "javascript",
    "lua": "lua",
    "luajit": "lua",
    "perl": "perl",
    "php": "php",
    "Rscript": "r",
    "elixir": "elixir",
    "julia": "julia",
    "escript": "erlang",
    "groovy": "groovy",
}


def by_shebang(head: bytes) -> LanguageSpec | None:
    """The language a ``#!`` line at the start of ``head`` names (``#!/usr/bin/env lua``,
    ``#!/usr/bin/env -S python3 -u``), when we index it and it is no shell."""
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].split()
    program = words[0].rsplit(b"/", 1)[-1] if words else b""
    if program == b"env":  # its options and VAR=value settings come first
        named = [w for w in words[1:] if not w.startswith(b"-") and b"=" not in w]
        program = named[0] if named else b""
    language = _INTERPRETERS.get(program.decode("ascii", "replace").rstrip("0123456789."))
    return supported().get(language) if language else None


@functools.cache
def grammar(name: str) -> Language:
    from tree_sitter_language_pack import get_language

    return get_language(cast(Any, supported()[name].grammar_name))


@functools.cache
def query(name: str) -> Query:
    """The compiled definitions-and-references query of a language. The captures that say
    a use's role (``@reference.call``, ``@local``) are disabled: a pattern that finds a use
    has one (:func:`reference_roles` reads it from the pattern's text), and the binding
    would make a node of it for every match, next to its ``@name``, most matches being
    uses (tests/bench/README.md, session 32)."""
    from tree_sitter import Query

    compiled = Query(grammar(name), query_source(name))
    for capture in set(reference_roles(name).values()):
        compiled.disable_capture(capture)
    return compiled


_ROLE_CAPTURE = re.compile(r"@(reference\.[\w-]+|local|global)(?![\w.-])")


@functools.cache
def reference_roles(name: str) -> dict[int, str]:
    """Pattern number -> the role capture of each pattern of the language's query that
    finds a use (``reference.<kind>``, ``local`` or ``global``): one a pattern, never beside a
    ``@definition.`` (tests/indexer/test_languages.py checks every language)."""
    found: dict[int, str] = {}
    for number, pattern in enumerate(query_patterns(query_source(name))):
        roles = set(_ROLE_CAPTURE.findall(pattern))
        if len(roles) == 1 and "@definition." not in pattern:
            found[number] = roles.pop()
    return found


@functools.cache
def definitions_query(name: str) -> Query:
    """The query without its reference patterns: what reading definitions alone needs
    (the history index extracts every version of a file; references are most matches).
    Compiled from those patterns' text alone: a third to a half of the full query's
    compile (its patterns are numbered apart: see extract/tags.py ``_ROLES``)."""
    from tree_sitter import Query

    kept = [p for p in query_patterns(query_source(name)) if _defines(p)]
    return Query(grammar(name), "\n".join(kept))


def _defines(pattern: str) -> bool:
    return "@definition." in pattern or not (
        "@reference." in pattern or "@local" in pattern or "@global" in pattern
    )


_TAIL = re.compile(r"(?:[ \t]*(?:@[\w.\-]+|[*+?]))*")  # a pattern's captures and quantifier


def query_patterns(source: str) -> list[str]:
    """The top-level patterns of a query's text, in order, each with the captures and the
    quantifier that follow it (the patterns tree-sitter numbers; comments left out)."""
    found: list[str] = []
    depth, start, at, size = 0, 0, 0, len(source)
    while at < size:
        char = source[at]
        if char == ";":  # a comment, to the end of its line
            newline = source.find("\n", at)
            at = size if newline < 0 else newline
            continue
        if char == '"':  # a string: brackets in it are text
            at += 1
            while at < size and source[at] != '"':
                at += 2 if source[at] == "\\" else 1
        elif char in "([":
            start = at if depth == 0 else start
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth == 0:
                end = _TAIL.match(source, at + 1)
                at = end.end() if end is not None else at + 1
                found.append(source[start:at])
                continue
        at += 1
    return found


def parser(name: str) -> Parser:
    from tree_sitter import Parser

    return Parser(grammar(name))
