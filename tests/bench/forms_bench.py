"""Names as agents write them: each repository's central definitions asked in its own forms.

Over the findability corpora (all three sets, ``findability_bench.py`` writes them out), each
repository's most central product definitions (by PageRank) are asked four ways:

- ``qualified``: a type by its qualified name in the language's separator (Ruby, C++ and
  Rust ``::``, PHP ``\\``, else ``.``); Java, Kotlin and Scala types by package
  (``org.jsoup.nodes.Element``), Rust types by crate path (``grep_searcher::Searcher``);
- ``prose``: a type with a docstring, by its qualified name followed by the doc's first
  words ("Text.Pandoc.Char module ...");
- ``members``: a method or function as its language writes one (Ruby ``A::B#m``, PHP
  ``A\\B::m``, Go ``pkg.T.M``, else the qualified name);
- ``words``: a name of two to four parts by its lower-case words ("to json");
- ``questions``: a routine of two parts or more named inside a question, bare or quoted as
  code, or a short request, in turn ("how does build_request handle errors", "what does
  `iter_bytes` do", "bug in parse_args when the input is empty"), a type ("how is
  Session used", "what does HTTPMethod represent");
- ``scoped``: a method by its name and its type's, in turn "the read method of Protected"
  and "how does Protected read work" (a hit: the first answer has the name, in that type);
- ``files``: a code file by its stem as written (``termui``, ``quicklist``, ``flag_groups``),
  where at most two files of the repository have that stem (a C file and its header), not
  a folder's entry file (``__init__``, ``index``, ``mod``);
- ``folders``: a folder's entry file (``value/mod.rs``, ``_transports/__init__.py``) by the
  folder's name, where at most two files answer to that name.

A hit: for ``qualified`` and ``members`` the first answer is the definition or one of the
same qualified name (a copy in another folder); for ``prose``, ``files`` and ``folders``
its file is among the first three answers' files; for ``words`` and ``questions`` the
first answer has its name (``scoped``: in that type). No set is written down: the
questions come from each index, so they follow the code.
Misses are listed with ``--show-misses``. Quality only; no timing.

    python tests/bench/forms_bench.py
    python tests/bench/forms_bench.py --repos jhy+jsoup,sinatra+sinatra --show-misses
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import findability_bench as fb

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, SearchResponse, prepare
from symfuse.ranking.channels.tokens import split_identifier
from symfuse.ranking.fusion.roles import Role, role_of
from symfuse.ranking.query import operations

SETS = (fb.DATA, fb.DATA.parent / "findability_fresh", fb.DATA.parent / "findability_fresh2")
SEPARATOR = {"ruby": "::", "cpp": "::", "rust": "::", "php": "\\"}
TYPES = frozenset({Kind.CLASS, Kind.STRUCT, Kind.INTERFACE, Kind.ENUM, Kind.MODULE})
ROUTINES = frozenset({Kind.METHOD, Kind.FUNCTION})
PER_REPO = {
    "qualified": 40,
    "prose": 40,
    "members": 30,
    "words": 40,
    "questions": 20,
    "scoped": 20,
    "files": 30,
    "folders": 20,
}
QUESTIONS = ("how does {} handle errors", "what does `{}` do", "bug in {} when the input is empty")
TYPE_QUESTIONS = ("how is {} used", "what does {} represent")
MEMBER_QUESTIONS = ("the {0} method of {1}", "how does {1} {0} work")
FILE_STEM = 4  # letters a file's stem has at least to be asked (not `io`, `mod`)
# stems that name the folder's module, not a file's (asked by the folder's name, if at all)
ENTRY_STEMS = frozenset({"__init__", "__main__", "index", "main", "init", "lib", "mod"})
FOLDER_ENTRIES = frozenset({"__init__", "index", "init", "mod"})  # a folder's own module


@dataclass(frozen=True, slots=True)
class Ask:
    probe: str
    repo: str
    query: str
    want: Symbol


@dataclass(slots=True)
class Tally:
    asked: int = 0
    hits: int = 0
    misses: list[str] = field(default_factory=list)


def qualified_form(symbol: Symbol, repo: str) -> str | None:
    """A type's name as its language qualifies it: package, crate path or separators."""
    parts = symbol.file.split("/")
    if symbol.language in ("java", "kotlin", "scala"):
        for root in ("java", "kotlin", "scala"):
            if root in parts[:-1]:
                return ".".join([*parts[parts.index(root) + 1 : -1], symbol.fqn])
    if symbol.language == "rust" and "src" in parts:
        at = parts.index("src")
        crate = parts[at - 1] if at else repo.rsplit("/", maxsplit=1)[-1]
        modules = parts[at + 1 : -1]
        stem = parts[-1].removesuffix(".rs")
        modules += [] if stem in ("lib", "mod", "main") else [stem]
        return "::".join([crate.replace("-", "_"), *modules, *symbol.fqn.split(".")])
    return symbol.fqn.replace(".", SEPARATOR.get(symbol.language, "."))


def member_form(symbol: Symbol) -> str:
    head, _, last = symbol.fqn.rpartition(".")
    if symbol.language == "ruby" and symbol.kind is Kind.METHOD and head:
        return f"{head.replace('.', '::')}#{last}"
    if symbol.language == "php" and head:
        return f"{head.replace('.', chr(92))}::{last}"
    if symbol.language == "go":
        folder = symbol.file.split("/")[-2] if "/" in symbol.file else ""
        return f"{folder}.{symbol.fqn}" if folder else symbol.fqn
    return symbol.fqn.replace(".", SEPARATOR.get(symbol.language, "."))


def _central(index: Index, kinds: frozenset[Kind], keep: Callable[[Symbol], bool]) -> list[Symbol]:
    chosen = [
        i
        for i, s in enumerate(index.symbols)
        if s.kind in kinds and role_of(s.file) is Role.PRODUCT and keep(s)
    ]
    chosen.sort(key=lambda i: -index.pagerank[i])
    return [index.symbols[i] for i in chosen]


def _doc_words(symbol: Symbol) -> list[str]:
    return [w.lower() for w in symbol.doc.replace("`", " ").split() if w.isalpha()][:6]


def asks(index: Index, repo: str) -> Iterator[Ask]:
    """The questions of every probe over one repository's index (each query once)."""
    seen: set[tuple[str, str]] = set()

    def once(probe: str, query: str | None, symbol: Symbol) -> Iterator[Ask]:
        if query and (probe, query) not in seen:
            seen.add((probe, query))
            yield Ask(probe, repo, query, symbol)

    qualified = _central(index, TYPES, lambda s: "." in s.fqn)
    for symbol in qualified[: PER_REPO["qualified"]]:
        yield from once("qualified", qualified_form(symbol, repo), symbol)
    described = [s for s in _central(index, TYPES, lambda s: True) if len(_doc_words(s)) >= 4]
    for symbol in described[: PER_REPO["prose"]]:
        name = symbol.fqn.replace(".", SEPARATOR.get(symbol.language, "."))
        yield from once("prose", f"{name} {' '.join(_doc_words(symbol))}", symbol)
    members = _central(index, ROUTINES, lambda s: "." in s.fqn)
    for symbol in members[: PER_REPO["members"]]:
        yield from once("members", member_form(symbol), symbol)
    spelled = _central(
        index,
        TYPES | ROUTINES,
        lambda s: 2 <= len(split_identifier(s.name)) <= 4 and s.name.replace("_", "").isalpha(),
    )
    for symbol in spelled[: PER_REPO["words"]]:
        yield from once("words", " ".join(split_identifier(symbol.name)), symbol)
    for kinds, forms in ((ROUTINES, QUESTIONS), (TYPES - {Kind.MODULE}, TYPE_QUESTIONS)):
        named = _central(index, kinds, lambda s: s.name.isidentifier() and _asked_by_name(s))
        names = list(dict.fromkeys(s.name for s in named))[: PER_REPO["questions"]]
        by_name = {s.name: s for s in reversed(named)}  # each name's most central one
        for i, name in enumerate(names):
            yield from once("questions", forms[i % len(forms)].format(name), by_name[name])
    methods = _central(index, ROUTINES, lambda s: _scope(s)[:1].isupper() and s.name.isalpha())
    for i, symbol in enumerate(methods[: PER_REPO["scoped"]]):
        question = MEMBER_QUESTIONS[i % 2].format(symbol.name, _scope(symbol))
        yield from once("scoped", question, symbol)
    for symbol in _files(index)[: PER_REPO["files"]]:
        yield from once("files", _stem(symbol.file), symbol)
    for symbol in _folders(index)[: PER_REPO["folders"]]:
        yield from once("folders", symbol.file.split("/")[-2], symbol)


def _scope(symbol: Symbol) -> str:
    """The last part of the qualified name of ``symbol``'s scope ("" at the top)."""
    return symbol.container.rpartition(".")[2]


def _asked_by_name(symbol: Symbol) -> bool:
    """A routine of two name parts or more, or a capitalised type."""
    if symbol.kind in ROUTINES:
        return len(split_identifier(symbol.name)) >= 2
    return symbol.name[:1].isupper()


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].split(".", 1)[0]


def _names(path: str) -> list[str]:
    """What a file is asked by: its stem, and a folder's entry file its folder's name."""
    parts = path.split("/")
    stem = _stem(path)
    return [stem, parts[-2]] if stem in FOLDER_ENTRIES and len(parts) > 1 else [stem]


def _asked(index: Index, name_of: Callable[[Symbol], str | None]) -> list[Symbol]:
    """The product code files' units ``name_of`` names (a name of four letters or more, at
    most two files answering to it), the files with the most central definitions first."""
    units = [s for s in index.symbols if s.kind is Kind.FILE and role_of(s.file) is Role.PRODUCT]
    sharing: dict[str, int] = {}
    for unit in units:
        for name in _names(unit.file):
            sharing[name] = sharing.get(name, 0) + 1
    weight: dict[str, float] = {}
    for i, s in enumerate(index.symbols):
        weight[s.file] = max(weight.get(s.file, 0.0), float(index.pagerank[i]))
    asked = []
    for unit in units:
        name = name_of(unit)
        if name and sharing[name] <= 2 and len(name) >= FILE_STEM:
            asked.append(unit) if name.replace("_", "").isalnum() else None
    return sorted(asked, key=lambda u: (-weight.get(u.file, 0.0), u.file))


def _files(index: Index) -> list[Symbol]:
    """Files asked by their stem (not a folder's entry file)."""
    return _asked(index, lambda u: None if _stem(u.file) in ENTRY_STEMS else _stem(u.file))


def _folders(index: Index) -> list[Symbol]:
    """Folders' entry files asked by the folder's name."""
    return _asked(index, lambda u: _names(u.file)[1] if len(_names(u.file)) > 1 else None)


def hit(ask: Ask, answer: SearchResponse) -> bool:
    items = [item.symbol for item in answer.items]
    if not items:
        return False
    first, want = items[0], ask.want
    if ask.probe in ("prose", "files", "folders"):
        return want.file in {s.file for s in items[:3]}
    if ask.probe in ("words", "questions"):
        return first.name == want.name
    if ask.probe == "scoped":
        return first.name == want.name and _scope(first) == _scope(want)
    return first.fqn == want.fqn


def run(repos: list[fb.RepoSet]) -> dict[str, Tally]:
    tallies = {probe: Tally() for probe in PER_REPO}
    for repo in repos:
        root = fb.materialise(repo, fb.DEFAULT_MIRRORS)
        directory = fb.INDEXES / repo.slot
        index, _ = update_index(IndexConfig(roots=(root,), index_dir=directory, progress=False))
        prepared = prepare(index, directory)
        for ask in asks(index, repo.repo):
            request = SearchRequest.from_mapping({"query": ask.query, "limit": 3})
            answer = operations.search(index, request, directory=directory, prepared=prepared)
            tally = tallies[ask.probe]
            tally.asked += 1
            if not isinstance(answer, SearchResponse):  # read as a call-graph question
                kind = type(answer).__name__
                tally.misses.append(f"{repo.name}: {ask.query!r} -> a {kind}")
                continue
            if hit(ask, answer):
                tally.hits += 1
                continue
            top = answer.items[0].symbol if answer.items else None
            got = f"{top.file}:{top.line} {top.fqn} ({top.kind.value})" if top else "nothing"
            tally.misses.append(
                f"{repo.name}: {ask.query!r} -> {got}; wanted {ask.want.file}:{ask.want.line}"
            )
        print(f"{repo.repo}: done", file=sys.stderr)
    return tallies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repos", default="", help="comma-separated, e.g. jhy+jsoup")
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args(argv)
    wanted = {r for r in args.repos.split(",") if r}
    repos = [r for d in SETS for r in fb.load_set(d) if not wanted or r.key in wanted]
    tallies = run(repos)
    print(f"## forms_bench: {len(repos)} repositories\n")
    print("| probe | asked | hit | rate |\n| --- | ---: | ---: | ---: |")
    for probe, tally in tallies.items():
        rate = tally.hits / tally.asked if tally.asked else 0.0
        print(f"| {probe} | {tally.asked} | {tally.hits} | {rate:.3f} |")
    if args.show_misses:
        for probe, tally in tallies.items():
            print(f"\n### {probe} misses\n")
            print("\n".join(f"- {m}" for m in tally.misses) or "(none)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
