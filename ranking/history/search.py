"""Search through git history, and a definition's evolution, over the stored history index.

Commits are documents with two fields: the message and the diff text (paths and
changed lines). ``search_history`` ranks them with the lexical channel's BM25
(:mod:`symfuse.ranking.channels.lexical`): ``chunk_type`` commit_message or commit_diff
scores that field alone, neither weighs both as BM25F with the diff as a body.
The filters (time range, author, diff type, repository) are a mask over commits;
with no query the newest matching commits come first. A hit carries the
definitions its diff touched with their own hunks, cut to the answer's budget.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.history.records import Commit, FileChange
from symfuse.indexer.history.store import Head, HistoryOutdated, HistoryStore, history_dir
from symfuse.ranking.channels.documents import Documents
from symfuse.ranking.channels.lexical import Bm25f, LexicalIndex, QueryTerms, rank
from symfuse.ranking.history import terms as history_terms
from symfuse.ranking.query.history_requests import ChunkType, HistoryRequest
from symfuse.ranking.search.repositories import selected

if TYPE_CHECKING:
    from scipy import sparse

CHARS_PER_TOKEN = 4  # the budget's estimate, as the MCP answer budget counts
_ENVELOPE = 200  # characters an answer adds around its hits (total, freshness, paging)
# Messages and diffs together: the message is the head, the diff a body that only adds
# (a diff is long and repeats identifiers; the subject says what the commit is about).
BOTH = Bm25f(body=0.5, b_body=0.75)
ALONE = Bm25f(body=0.0, b_body=0.75)


NO_HISTORY = (
    "no history index: run `symfuse index --history` (or start `symfuse mcp` / "
    "`symfuse lsp` with --history) to index the git history first"
)


class HistoryNotIndexed(SymfuseError):
    """No repository of the workspace has a history index."""


def repository_name(alias: str, path: str) -> str:
    """The ``repository`` a history hit carries: the root's alias, as search hits do
    (``path`` is kept for a name of its own should a repository ever want one)."""
    del path
    return alias


@dataclass(slots=True)
class Histories:
    """Every indexed repository's commits, stacked, with their term matrices."""

    commits: list[Commit]
    repository: list[str]
    times: npt.NDArray[np.int64]
    term_ids: dict[str, int]
    message: sparse.csr_matrix
    diff: sparse.csr_matrix
    heads: dict[str, Head]
    missing: tuple[str, ...]
    _lexical: dict[str, LexicalIndex] = field(default_factory=dict)

    def lexical(self, chunk: ChunkType | None) -> LexicalIndex:
        """BM25 over the messages, the diffs, or the messages with the diffs as a body."""
        from scipy import sparse

        key = chunk.value if chunk else "both"
        found = self._lexical.get(key)
        if found is None:
            n = len(self.commits)
            empty = sparse.csr_matrix((n, self.message.shape[1]))
            head, body = {
                "commit_message": (self.message, empty),
                "commit_diff": (self.diff, empty),
                "both": (self.message, self.diff),
            }[key]
            found = self._lexical[key] = LexicalIndex.build(_documents(head, body, self.term_ids))
        return found


def _documents(
    head: sparse.csr_matrix, body: sparse.csr_matrix, term_ids: dict[str, int]
) -> Documents:

    def length(m: sparse.csr_matrix) -> npt.NDArray[np.float64]:
        return np.asarray(m.sum(axis=1), dtype=np.float64).ravel()

    n = head.shape[0]
    return Documents(
        list(term_ids),
        head,
        length(head),
        body,
        length(body),
        np.zeros(0, dtype=np.int32),
        np.zeros(n + 1, dtype=np.int64),
        term_ids,
    )


def load_histories(index_dir: Path, roots: Mapping[str, str]) -> Histories:
    """The stored histories of ``roots`` (alias -> path); :class:`HistoryNotIndexed`
    when none has one."""
    commits: list[Commit] = []
    names: list[str] = []
    pieces: list[history_terms.SegmentTerms] = []
    heads: dict[str, Head] = {}
    missing: list[str] = []
    for alias, path in roots.items():
        store = HistoryStore(history_dir(index_dir, alias))
        try:
            head = store.read_head()
        except HistoryOutdated:
            head = None
        if head is None:
            missing.append(alias)
            continue
        heads[alias] = head
        for segment in head.segments:
            batch = store.load_segment(segment)
            commits.extend(batch)
            names.extend([repository_name(alias, path)] * len(batch))
            pieces.append(history_terms.segment_terms(store.directory, segment, batch))
    if not heads:
        raise HistoryNotIndexed(NO_HISTORY)
    term_ids, message, diff = history_terms.joined(pieces)
    times = np.asarray([c.time for c in commits], dtype=np.int64)
    return Histories(commits, names, times, term_ids, message, diff, heads, tuple(missing))


@dataclass(frozen=True, slots=True)
class HistoryHit:
    commit: Commit
    repository: str
    score: float


@dataclass(frozen=True, slots=True)
class HistoryResult:
    hits: list[HistoryHit]
    total: int
    request: HistoryRequest
    missing: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The hits, their hunks cut so that the answer fits ``max_tokens``: what the hits
        say besides their hunks is measured first, the hunks get the rest, best hit first."""
        bare = [hit_dict(hit, self.request, 0)[0] for hit in self.hits]
        spent = len(json.dumps(bare)) + _ENVELOPE
        budget = self.request.max_tokens * CHARS_PER_TOKEN - spent
        items = []
        for hit in self.hits:
            item, budget = hit_dict(hit, self.request, budget)
            items.append(item)
        data: dict[str, Any] = {"items": items, "total": self.total}
        if self.missing:
            data["without_history"] = list(self.missing)
        return data


def search_history(histories: Histories, request: HistoryRequest) -> HistoryResult:
    mask = _mask(histories, request)
    wanted = request.offset + request.limit
    if request.query:
        ranking = rank(
            histories.lexical(request.chunk_type),
            request.query,
            mask,
            wanted,
            _weighting(request),
        ).ranking
        positions, scores = ranking.positions.tolist(), ranking.scores.tolist()
        total = len(positions)
        if total >= wanted:  # more may match: count them
            index = histories.lexical(request.chunk_type)
            every, _ = index.scores(QueryTerms.parse(request.query), _weighting(request))
            total = int(np.count_nonzero((every > 0) & mask))
    else:
        matching = np.flatnonzero(mask)
        newest = matching[np.argsort(-histories.times[matching], kind="stable")]
        positions, scores, total = newest[:wanted].tolist(), [0.0] * wanted, len(matching)
    hits = [
        HistoryHit(histories.commits[p], histories.repository[p], round(float(s), 4))
        for p, s in zip(positions, scores, strict=False)
    ][request.offset :]
    return HistoryResult(hits, total, request, histories.missing)


def _weighting(request: HistoryRequest) -> Bm25f:
    return BOTH if request.chunk_type is None else ALONE


def _mask(histories: Histories, request: HistoryRequest) -> npt.NDArray[np.bool_]:
    mask = np.ones(len(histories.commits), dtype=np.bool_)
    if request.since is not None:
        mask &= histories.times >= request.since
    if request.until is not None:
        mask &= histories.times < request.until
    if request.repository or request.exclude_repository:
        include, exclude = request.repository, request.exclude_repository
        chosen = {n for n in set(histories.repository) if selected(n, include, exclude)}
        mask &= np.asarray([n in chosen for n in histories.repository], dtype=np.bool_)
    if request.author or request.diff_type:
        author = (request.author or "").lower()
        kinds = set(request.diff_type)
        for i in np.flatnonzero(mask).tolist():
            commit = histories.commits[i]
            by_author = not author or author in f"{commit.author}\0{commit.email}".lower()
            mask[i] = by_author and (not kinds or any(_file_kinds(f) & kinds for f in commit.files))
    return mask


def _file_kinds(change: FileChange) -> set[str]:
    """What a diff_type matches on a file: its status, and its definitions' changes."""
    return {change.status, *(d.change.value for d in change.definitions)}


def iso_date(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def hit_dict(hit: HistoryHit, request: HistoryRequest, budget: int) -> tuple[dict[str, Any], int]:
    """One hit as the front ends show it; its symbols' hunks spend ``budget`` characters
    (the rest of the budget is returned)."""
    commit = hit.commit
    kinds = set(request.diff_type)
    files: list[dict[str, Any]] = []
    symbols: list[dict[str, Any]] = []
    for change in commit.files:
        if kinds and not _file_kinds(change) & kinds:
            continue
        files.append({"path": change.path, "status": change.status, "old_path": change.old_path})
        for d in change.definitions:
            if kinds and change.status not in kinds and d.change.value not in kinds:
                continue
            diff, budget = _cut(d.diff, budget)
            symbols.append(
                {
                    "name": d.qualified,
                    "kind": d.kind,
                    "change": d.change.value,
                    "file": change.path,
                    "line": d.line,
                    "diff": diff,
                }
            )
    item = {
        "commit": commit.hash,
        "date": iso_date(commit.time),
        "author": commit.author,
        "email": commit.email,
        "subject": commit.subject,
        "repository": hit.repository,
        "score": hit.score,
        "files": files,
        "symbols": symbols,
    }
    return item, budget


def _cut(diff: str, budget: int) -> tuple[str, int]:
    if len(diff) <= budget:
        return diff, budget - len(diff)
    if budget <= len(_CUT):
        return "", 0
    cut = diff[: budget - len(_CUT)].rsplit("\n", 1)[0]
    return cut + _CUT, 0


_CUT = "\n... (cut to max_tokens)"


@dataclass(frozen=True, slots=True)
class EvolutionEntry:
    """A commit that changed a definition, with the diff of the definition's own lines."""

    commit: Commit
    repository: str
    change: str
    file: str
    diff: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "commit": self.commit.hash,
            "date": iso_date(self.commit.time),
            "author": self.commit.author,
            "email": self.commit.email,
            "subject": self.commit.subject,
            "repository": self.repository,
            "change": self.change,
            "file": self.file,
            "diff": self.diff,
        }


def evolution(
    histories: Histories, repository: str, path: str, qualified: str, kind: str, limit: int
) -> list[EvolutionEntry]:
    """The commits of ``repository`` that changed the definition ``qualified`` (of ``kind``)
    of the file ``path``, newest first; before a commit that renamed the file, its old
    path is followed."""
    out: list[EvolutionEntry] = []
    for i in range(len(histories.commits) - 1, -1, -1):
        if histories.repository[i] != repository:
            continue
        commit = histories.commits[i]
        for change in commit.files:
            if change.path != path:
                continue
            for d in change.definitions:
                if d.qualified == qualified and d.kind == kind:
                    out.append(EvolutionEntry(commit, repository, d.change.value, path, d.diff))
                    break
            if change.old_path != change.path:
                path = change.old_path  # before this commit the file had its old name
            break
        if len(out) >= limit:
            break
    return out
