"""Name search for an editor's symbol picker: the fused editor profile and its fallbacks.

An editor user is typing a name. :func:`editor_search` answers with the fused
:func:`~symfuse.ranking.search.pipeline.search` under :data:`EDITOR_WEIGHTS` when the
prepared structures of the index are at hand; just after an edit, while they
are rebuilt (a few hundred milliseconds), with :func:`stale_search`: the
previous structures for the files that did not change, merged with the quick
ranking of the changed files; on a cold start (preparing a large workspace
takes seconds), with :func:`~symfuse.ranking.channels.names.names_only.quick_search`.
"""

from __future__ import annotations

import glob
from collections.abc import Sequence

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels import identity
from symfuse.ranking.channels.identity import NameTable
from symfuse.ranking.channels.names.name_words import word_ranked
from symfuse.ranking.channels.names.names_only import QuickHit, quick_search, quick_search_files
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.query.search_request import (
    MAX_LIMIT,
    FusionWeights,
    SearchMode,
    SearchRequest,
    SemanticMode,
)
from symfuse.ranking.search.pipeline import search
from symfuse.ranking.search.unnamed import one_identifier

# The editor profile: the user is typing a name, so the name channels lead; BM25 and
# PageRank only order what they found; embeddings stay off (paraphrases are not names).
EDITOR_WEIGHTS = FusionWeights(identity=0.6, fuzzy=0.4, lexical=0.1, structural=0.1, similarity=0.0)
MAX_STALE_FILES = 50  # more files changed since the last prepared index: quick_search


def editor_request(
    query: str,
    *,
    limit: int,
    kinds: Sequence[Kind] = (),
    languages: Sequence[str] = (),
    file_pattern: Sequence[str] = (),
    exclude_path: Sequence[str] = (),
) -> SearchRequest:
    """The fused search request of the editor profile (single mode, no embeddings).

    Raises ``InvalidRequest`` for an empty or too long query.
    """
    return SearchRequest.from_mapping(
        {
            "query": query,
            "kind": [k.value for k in kinds],
            "language": list(languages),
            "file_pattern": list(file_pattern),
            "exclude_path": list(exclude_path),
            "limit": max(1, min(limit, MAX_LIMIT)),
            "mode": SearchMode.SINGLE.value,
            "semantic": SemanticMode.OFF.value,
            "fusion_weights": EDITOR_WEIGHTS,
        }
    )


def changed_files(old: Index, new: Index) -> list[str]:
    """Files of ``new`` whose entry is not ``old``'s, then files of ``old`` gone from ``new``.

    Index snapshots share the entries of unchanged files, so this is one identity
    check per file.
    """
    changed = [k for k, entry in new.files.items() if old.files.get(k) is not entry]
    return changed + [k for k in old.files if k not in new.files]


def editor_search(
    index: Index,
    query: str,
    *,
    limit: int,
    prepared: Prepared | None,
    kinds: Sequence[Kind] = (),
    languages: Sequence[str] = (),
    file_pattern: Sequence[str] = (),
    previous: tuple[Index, Prepared] | None = None,
) -> list[Symbol]:
    """Best first, at most ``limit``, by the freshest ranking at hand.

    - ``prepared`` (the structures of exactly ``index``): the fused search with
      :data:`EDITOR_WEIGHTS`;
    - else ``previous`` (an earlier index of the same workspace with its
      structures, while those of ``index`` are being rebuilt after an edit) and
      at most :data:`MAX_STALE_FILES` files changed since: :func:`stale_search`;
    - else (a cold start) :func:`quick_search`; a query of several words that names
      nothing, by the words of names and paths (:func:`word_ranked`).

    An empty query lists what the filters select. Raises ``InvalidRequest`` for a
    query the fused search rejects (too long).
    """
    text = query.strip()
    if prepared is not None and prepared.generation == index.generation and text:
        request = editor_request(
            text, limit=limit, kinds=kinds, languages=languages, file_pattern=file_pattern
        )
        # one identifier of several parts: what no name channel found (a body holding one
        # of its parts) is left out, as the quick ranking leaves it out on a cold start
        answer = search(index, request, prepared=prepared, named=one_identifier(text))
        return [item.symbol for item in answer.items]
    if previous is not None and text and previous[0].roots == index.roots:
        changed = changed_files(previous[0], index)
        if len(changed) <= MAX_STALE_FILES:
            return stale_search(
                index,
                text,
                previous,
                changed,
                limit=limit,
                kinds=kinds,
                languages=languages,
                file_pattern=file_pattern,
            )
    hits = quick_search(
        index, text, limit=limit, kinds=kinds, languages=languages, file_pattern=file_pattern
    )
    if not hits and len(text.split()) > 1:  # a sentence names nothing: its words may
        hits, _ = word_ranked(
            index, text, limit=limit, kinds=kinds, languages=languages, file_pattern=file_pattern
        )
    return [h.symbol for h in hits]


def stale_search(
    index: Index,
    query: str,
    previous: tuple[Index, Prepared],
    changed: Sequence[str],
    *,
    limit: int,
    kinds: Sequence[Kind] = (),
    languages: Sequence[str] = (),
    file_pattern: Sequence[str] = (),
) -> list[Symbol]:
    """The fused search of the previous index for the files that did not change, merged
    with the quick ranking of the ``changed`` files of ``index``.

    The fused answer excludes the changed files (their old symbols may be gone);
    the changed files' symbols are ranked by :func:`quick_search_files` over a table of theirs
    alone. Merge: the fused order is kept, and each changed-file match goes before
    the first fused item whose identity tier is worse than its own (a name typed
    exactly, in the buffer just edited, comes first, as the exact-name guard would
    put it). Both parts are fresh: unchanged files' symbols are the same objects in
    both indexes.
    """
    old, old_prepared = previous
    exclude = [glob.escape(k) for k in changed]
    request = editor_request(
        query,
        limit=limit,
        kinds=kinds,
        languages=languages,
        file_pattern=file_pattern,
        exclude_path=exclude,
    )
    answer = search(old, request, prepared=old_prepared, named=one_identifier(query))
    fused = [item.symbol for item in answer.items]
    fresh = quick_search_files(
        index,
        query,
        changed,
        limit=limit,
        kinds=kinds,
        languages=languages,
        file_pattern=file_pattern,
    )
    if not fresh:
        return fused
    # a symbol's tier is its own names' (a table of the page alone: the old index's
    # position dict would be made on each edit's first answer)
    fused_tier = identity.tiers(NameTable.build(fused), query).tolist()
    return _merged(fused, fused_tier, fresh)[:limit]


def _merged(fused: list[Symbol], fused_tier: list[int], fresh: list[QuickHit]) -> list[Symbol]:
    """``fused`` in its order, each of ``fresh`` put before the first fused item whose
    identity tier (``fused_tier``, aligned with it) is worse than its own."""
    merged: list[Symbol] = []
    at = 0
    for hit in fresh:
        while at < len(fused) and fused_tier[at] <= hit.tier:
            merged.append(fused[at])
            at += 1
        merged.append(hit.symbol)
    merged.extend(fused[at:])
    return merged
