"""One function per operation, each answering its validated request.

The front ends call these and nothing below them: ``search`` routes call-graph
questions itself, and a ``target`` is looked up in the index here (an id the
index knows is an id; otherwise a name, or for ``get`` a path), so no front
end guesses. :data:`OPERATIONS` lists every operation with its request model,
which is what the CLI options and the MCP tool schemas are generated from.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.query.responses import CallQuery, SearchItem, SearchResponse
from symfuse.ranking.query.search_request import MAX_LIMIT, Aggregation, SearchRequest
from symfuse.ranking.search import repositories

# What only some operations need is imported where it is used: every CLI command builds
# its options from OPERATIONS, and a search has no use for the git history, the import
# graph (networkx), the dead-code rules or the other operations' request models (a
# noticeable part of a warm `symfuse search`).
if TYPE_CHECKING:
    from symfuse.ranking.analysis.dead_code import DeadCodeResult
    from symfuse.ranking.analysis.impact import ImpactResult
    from symfuse.ranking.graph import targets as _targets
    from symfuse.ranking.graph.call_questions import CallGraphAnswer
    from symfuse.ranking.graph.dependencies import Dependencies
    from symfuse.ranking.graph.hierarchy import CallGraphResult, TypeHierarchyResult
    from symfuse.ranking.graph.usages import UsagesResult
    from symfuse.ranking.history.search import EvolutionEntry, Histories, HistoryResult
    from symfuse.ranking.query.analysis_requests import DeadCodeRequest, ImpactRequest
    from symfuse.ranking.query.fields import Request
    from symfuse.ranking.query.history_requests import HistoryRequest
    from symfuse.ranking.query.parse import ParsedQuery
    from symfuse.ranking.query.requests import (
        CallsRequest,
        DepsRequest,
        GetRequest,
        HierarchyRequest,
        ReadRequest,
        ReposRequest,
        TextRequest,
        UsagesRequest,
    )
    from symfuse.ranking.search.details import FileOutline, SymbolDetail
    from symfuse.ranking.text import search as text_search
    from symfuse.ranking.text.reading import FileText

    # a name several definitions answer to: the front ends word the choice in their own
    # arguments, from its candidates (imported on first use, by __getattr__)
    AmbiguousTarget = _targets.AmbiguousTarget
    Candidate = _targets.Candidate

_ID_SHAPE = re.compile(r"^\S+::\S+#\w+$")  # path::Qualified.name#kind, as ids are written


@dataclass(frozen=True, slots=True)
class Operation:
    """An operation as the front ends publish it: its name, request model and summary.

    ``model`` names the request model; :attr:`request` imports it on first use, so that a
    command builds only its own models (pydantic builds a model's validator when the
    class is made: a search has no use for the other operations').
    """

    name: str
    model: str
    summary: str

    @property
    def request(self) -> type[Request]:
        """The request model, which validates this operation's arguments."""
        module = f"symfuse.ranking.query.{_MODULES.get(self.model, 'requests')}"
        found: type[Request] = getattr(importlib.import_module(module), self.model)
        return found


# The module of each request model not in .requests.
_MODULES = {
    "SearchRequest": "search_request",
    "DeadCodeRequest": "analysis_requests",
    "ImpactRequest": "analysis_requests",
    "HistoryRequest": "history_requests",
}
OPERATIONS: tuple[Operation, ...] = (
    Operation("search", "SearchRequest", "ranked symbol search (Signal Fusion)"),
    Operation("usages", "UsagesRequest", "find the usages of a symbol (by id, or by name)"),
    Operation("text", "TextRequest", "search the text of the code, docs and config files"),
    Operation("get", "GetRequest", "show a symbol's source, or a file's outline"),
    Operation("callers", "CallsRequest", "who calls a symbol"),
    Operation("callees", "CallsRequest", "what a symbol calls"),
    Operation("hierarchy", "HierarchyRequest", "supertypes and subtypes of a type"),
    Operation("deps", "DepsRequest", "the files a file imports, and the files that import it"),
    Operation("repos", "ReposRequest", "the repositories (roots): alias, path, languages, counts"),
    Operation("dead", "DeadCodeRequest", "definitions nothing in the workspace refers to"),
    Operation("impact", "ImpactRequest", "what a change to a symbol, file or diff reaches"),
    Operation("read", "ReadRequest", "read a text file under the roots, or a range of its lines"),
    Operation("history", "HistoryRequest", "search the git history: commit messages and diffs"),
    Operation("status", "StatusRequest", "the state of the index"),
    Operation("reindex", "ReindexRequest", "re-index everything, or only the given files"),
)


def operation(name: str) -> Operation:
    return next(op for op in OPERATIONS if op.name == name)


def __getattr__(name: str) -> object:
    """``AmbiguousTarget`` and ``Candidate``, imported on first use (a search has none)."""
    if name not in ("AmbiguousTarget", "Candidate"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from symfuse.ranking.graph import targets

    value: object = getattr(targets, name)
    globals()[name] = value
    return value


def search(
    index: Index,
    request: SearchRequest,
    *,
    directory: Path | None = None,
    prepared: Prepared | None = None,
    histories: Histories | None = None,
    parsed: ParsedQuery | None = None,
) -> SearchResponse | CallGraphAnswer:
    """Ranked symbols; a call-graph question ("who calls X") is answered from the graph.
    ``parsed``: the query door's reading of ``request``, when the caller made it already.

    Roots that cannot be read are left out and named in ``errors``; ``per_repo``
    asks each repository for its share of the limit (:mod:`symfuse.ranking.search.repositories`).
    """
    from symfuse.ranking.query.parse import parse
    from symfuse.ranking.search.pipeline import search as ranked

    if request.at_commit is not None:
        return _search_at(index, request, directory)
    errors = repositories.unreadable(index.roots)
    asked = request
    if errors:
        gone = tuple(e.repository for e in errors)
        asked = asked.model_copy(
            update={"exclude_repository": (*request.exclude_repository, *gone)}
        )
    per_repo = request.aggregation_mode is Aggregation.PER_REPO and len(index.roots) > 1
    if per_repo:
        wider = min(MAX_LIMIT, request.limit * len(index.roots))
        asked = asked.model_copy(update={"limit": wider})
    parsed = parsed if parsed is not None else parse(request)
    if parsed.call is not None:
        routed = call_answer(index, asked, parsed.call, prepared=prepared)
        if routed is not None:
            return routed
    response = ranked(index, asked, directory=directory, prepared=prepared, parsed=parsed)
    if per_repo:
        items = repositories.spread(response.items, request.limit, lambda i: i.symbol.root)
        response = dataclasses.replace(response, items=tuple(items), limit=request.limit)
    if errors:
        response = dataclasses.replace(response, errors=tuple(errors))
    if request.include_removed:
        response = _with_removed(index, request, response, histories)
    return response


def call_answer(
    index: Index,
    request: SearchRequest,
    call: CallQuery,
    *,
    prepared: Prepared | None = None,
) -> CallGraphAnswer | None:
    """The call graph's answer to the question ``call`` that ``request`` asks (None when
    it names no symbol the request's filters leave in): read by name, nothing ranked, so
    no ranking structures are needed (without ``prepared``, the quick filter table)."""
    from symfuse.ranking.channels.names.names_only import filter_table
    from symfuse.ranking.graph.call_questions import call_graph_answer, named_targets
    from symfuse.ranking.search.pipeline import search_mask

    filters = prepared.filters if prepared is not None else filter_table(index)
    targets = named_targets(index, call, search_mask(index, filters, request))
    return call_graph_answer(index, request.query, call, targets, request.limit, request.offset)


def _with_removed(
    index: Index,
    request: SearchRequest,
    response: SearchResponse,
    histories: Histories | None,
) -> SearchResponse:
    """``response`` with the deleted definitions named like the query after its items."""
    from symfuse.ranking.history import at_commit

    if histories is None:
        raise InvalidRequest("include_removed", "needs the history index: run with --history")
    words = [w.lower() for w in request.query.split() if w.isidentifier()]
    room = max(0, request.limit - len(response.items))
    found = at_commit.removed_matching(histories, index, words, room) if words and room else []
    items = [SearchItem(r.symbol, 0.0, removed_in=r.commit) for r in found]
    return dataclasses.replace(
        response, items=(*response.items, *items), total=response.total + len(items)
    )


def _search_at(
    index: Index, request: SearchRequest, directory: Path | None
) -> SearchResponse | CallGraphAnswer:
    """``request`` over one repository's tree as of ``at_commit`` (:mod:`.tree_at`)."""
    from symfuse.ranking.history import tree_at

    assert request.at_commit is not None
    alias = tree_at.repository_for(index, request.repository, request.exclude_repository)
    cache = directory if directory is not None else Path(tempfile.gettempdir()) / "symfuse"
    snap = tree_at.snapshot(index, alias, request.at_commit, cache)
    plain = request.model_copy(
        update={"at_commit": None, "repository": (), "exclude_repository": ()}
    )
    answer = search(snap.index, plain, directory=snap.directory)
    if isinstance(answer, SearchResponse):
        return dataclasses.replace(answer, at_commit=snap.commit)
    return answer


def usages(index: Index, request: UsagesRequest) -> UsagesResult:
    from symfuse.ranking.graph.targets import request_overloads
    from symfuse.ranking.graph.usages import UsageScope, find_usages

    return find_usages(
        index,
        symbol_id=request_overloads(index, request),
        kinds=request.kinds or None,
        limit=request.limit,
        offset=request.offset,
        include_declaration=request.include_declaration,
        min_confidence=request.min_confidence,
        scope=UsageScope(request.file_pattern, request.exclude_path, request.include_tests),
    )


def text(index: Index, request: TextRequest) -> text_search.TextSearchResult:
    from symfuse.ranking.text import search as text_search

    return text_search.search_text(
        index,
        request.pattern,
        regex=request.regex,
        case_sensitive=request.case_sensitive,
        edit_distance=request.distance,
        file_pattern=list(request.file_pattern) or None,
        language=request.language,
        exclude_path=list(request.exclude_path) or None,
        snippet_lines=request.snippet_lines,
        limit=request.limit,
        offset=request.offset,
        timeout=request.timeout,
        code_only=request.code_only,
    )


def get(
    index: Index, request: GetRequest, histories: Histories | None = None
) -> SymbolDetail | FileOutline:
    """A symbol's source (and with ``show_evolution`` the commits that changed it), or a
    file's outline. With ``show_evolution`` a target that is neither an id nor a file is a
    name (``symfuse evolution Order.total``)."""
    from symfuse.ranking.search.details import SymbolDetail, get_symbol

    symbol_id, path = request.symbol_id, request.path
    overloads: list[str] = []
    if request.target is not None:
        target = request.target
        if index.get(target) is None and _ID_SHAPE.match(target) and _by_history(request):
            symbol_id = target  # an id of a definition since removed: read from git
        elif request.include_removed and not _named(index, target):
            return _from_git(index, request, None, target, histories)
        else:
            named, overloads = _named_or_overload(index, target)
            symbol_id, path = (None, named) if isinstance(named, str) else (named.symbol_id, None)
    if symbol_id is not None and (
        request.at_commit or (request.include_removed and index.get(symbol_id) is None)
    ):
        return _from_git(index, request, symbol_id, None, histories)
    found = get_symbol(
        index,
        symbol_id=symbol_id,
        path=path,
        line=request.line,
        context_lines=request.context_lines,
        max_lines=request.offset + request.max_lines,
    )
    if overloads and isinstance(found, SymbolDetail):
        found = dataclasses.replace(found, overloads=tuple(overloads))
    if not request.show_evolution or not isinstance(found, SymbolDetail):
        return found
    if histories is None:
        from symfuse.ranking.history.search import NO_HISTORY, HistoryNotIndexed

        raise HistoryNotIndexed(NO_HISTORY)
    return dataclasses.replace(
        found, evolution=tuple(_evolution(index, histories, found.symbol, request))
    )


def _named_or_overload(index: Index, target: str) -> tuple[Symbol | str, list[str]]:
    """What ``target`` names; of overloads, the most linked and the others' ids."""
    from symfuse.ranking.graph.targets import AmbiguousTarget, most_linked_overload, resolve_target

    try:
        return resolve_target(index, target, files=True), []
    except AmbiguousTarget as exc:
        return most_linked_overload(index, exc)


def _by_history(request: GetRequest) -> bool:
    return request.include_removed or request.at_commit is not None


def _named(index: Index, target: str) -> bool:
    """Whether the target names something indexed now (not: a definition since removed)."""
    from symfuse.ranking.graph.targets import resolve_target

    try:
        resolve_target(index, target, files=True)
    except NotFound:
        return False
    except InvalidRequest:
        return True  # ambiguous: named more than once
    return True


def _from_git(
    index: Index,
    request: GetRequest,
    symbol_id: str | None,
    name: str | None,
    histories: Histories | None,
) -> SymbolDetail:
    """The definition read from git: as of ``at_commit``, or (``include_removed``) from
    the commit before the one that deleted it."""
    from symfuse.ranking.history import at_commit
    from symfuse.ranking.history.search import NO_HISTORY, HistoryNotIndexed

    wanted = at_commit.Wanted.of_id(index, symbol_id) if symbol_id else None
    if request.at_commit is None and histories is None:
        raise HistoryNotIndexed(NO_HISTORY)
    if wanted is None and name is not None:
        if histories is None:
            raise HistoryNotIndexed(NO_HISTORY)
        wanted = at_commit.removed(histories, index, name, None)
        if wanted is None:
            raise NotFound(f"target: no definition named {name!r}, now or in the history")
    assert wanted is not None
    root = at_commit.root_path(index, wanted.alias)
    if request.at_commit is not None:
        commit = at_commit.resolve_commit(root, request.at_commit)
        shown = commit
    else:
        assert histories is not None
        deleted_in = at_commit.deleting_commit(histories, index, wanted)
        if deleted_in is None:
            raise NotFound(
                f"symbol_id: {symbol_id or name} is not in the index nor deleted in its history"
            )
        commit = at_commit.resolve_commit(root, f"{deleted_in}~1")
        shown = commit
    detail = at_commit.detail_at(
        index,
        wanted,
        commit,
        context_lines=request.context_lines,
        max_lines=request.offset + request.max_lines,
        shown_at=shown,
    )
    if request.show_evolution and histories is not None:
        return dataclasses.replace(
            detail, evolution=tuple(_evolution(index, histories, detail.symbol, request))
        )
    return detail


def _evolution(
    index: Index, histories: Histories, symbol: Symbol, request: GetRequest
) -> list[EvolutionEntry]:
    from symfuse.indexer.history.touched import qualified_name
    from symfuse.ranking.history.search import evolution, repository_name

    root = symbol.root if symbol.root in index.roots else next(iter(index.roots))
    prefix = f"{root}/"
    rel = (
        symbol.file[len(prefix) :]
        if len(index.roots) > 1 and symbol.file.startswith(prefix)
        else symbol.file
    )
    qualified = qualified_name(symbol.symbol_id)
    repository = repository_name(root, index.roots[root])
    return evolution(
        histories, repository, rel, qualified, symbol.kind.value, request.evolution_limit
    )


def history(histories: Histories, request: HistoryRequest) -> HistoryResult:
    from symfuse.ranking.history.search import search_history

    return search_history(histories, request)


def callers(index: Index, request: CallsRequest) -> CallGraphResult:
    """Who calls the target; a name that overloads bear, each of them (:func:`usages`)."""
    from symfuse.ranking.graph import hierarchy as graph
    from symfuse.ranking.graph.targets import request_overloads

    roots = request_overloads(index, request)
    return graph.callers(index, roots, request.depth, request.offset + request.limit)


def callees(index: Index, request: CallsRequest) -> CallGraphResult:
    from symfuse.ranking.graph import hierarchy as graph
    from symfuse.ranking.graph.targets import request_overloads

    roots = request_overloads(index, request)
    return graph.callees(index, roots, request.depth, request.offset + request.limit)


def hierarchy(index: Index, request: HierarchyRequest) -> TypeHierarchyResult:
    from symfuse.ranking.graph import hierarchy as graph
    from symfuse.ranking.graph.targets import request_type

    root = request_type(index, request)
    return graph.type_hierarchy(index, root.symbol_id, request.depth, request.direction.value)


def deps(index: Index, request: DepsRequest) -> Dependencies:
    from symfuse.ranking.graph.dependencies import dependencies

    return dependencies(index, request.target, request.depth)


def repos(
    index: Index, request: ReposRequest, directory: Path | None = None
) -> list[repositories.Repository]:
    """The repositories; with the index ``directory``, whether each has its history indexed."""
    files = ((e.root, e.language, e.definition_count) for e in index.files.values())
    found = repositories.listing(index.roots, files, request.repository)
    if directory is None:
        return found
    return [dataclasses.replace(r, history=_has_history(directory, r.alias)) for r in found]


def _has_history(directory: Path, alias: str) -> bool:
    from symfuse.indexer.history.store import HistoryOutdated, HistoryStore, history_dir

    try:
        return HistoryStore(history_dir(directory, alias)).read_head() is not None
    except HistoryOutdated:
        return False


def dead(index: Index, request: DeadCodeRequest) -> DeadCodeResult:
    from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code

    scope = DeadCodeScope(
        file_pattern=request.file_pattern,
        kinds=request.kind,
        languages=request.language,
        include_tests=request.include_tests,
        min_confidence=request.min_confidence,
    )
    return dead_code(index, scope, request.limit, request.offset)


def impact(index: Index, request: ImpactRequest) -> ImpactResult:
    """The impact of a diff, of a file's definitions, or of one symbol (by id or name)."""
    from symfuse.ranking.analysis.impact import changed_by_diff, changed_in_file
    from symfuse.ranking.analysis.impact import impact as impact_of
    from symfuse.ranking.graph.targets import resolve_changed

    if request.diff is not None:
        changed = changed_by_diff(index, request.diff)
    else:
        found = resolve_changed(index, request.target or "", request.file)
        changed = found if isinstance(found, list) else changed_in_file(index, found)
    return impact_of(
        index, changed, request.depth, request.limit, request.offset, request.min_confidence
    )


def read(index: Index, request: ReadRequest) -> FileText:
    from symfuse.ranking.text.reading import read_file

    return read_file(index, request)
