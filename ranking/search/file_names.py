"""A name that is a code file's stem: the file, right after the definitions of the name.

An agent asks for a module by its file's name: click's ``testing`` (src/click/testing.py,
its test runner), cobra's ``args`` (args.go), redis's ``quicklist`` (quicklist.c beside
the struct in quicklist.h). A name query ranks definitions; a file's unit is named after
the whole file name, which the name matches only as a prefix, and the test files that
say the word rank above it, so the file was often missing from the first ten. When the
query, as written, is the stem of at most :data:`MAX_FILES` product code files (a C file
and its header; not ``base``, the stem of twenty ``base.py``), a folder's entry file
(``value/mod.rs``, ``_transports/__init__.py``, ``platform/index.js``:
:data:`~symfuse.ranking.search.filters.ENTRY_STEMS`) counting under its folder's name as
well (:meth:`~symfuse.ranking.search.filters.FilterTable.file_stems`), each of those files
joins the answer after the exact definitions of the name that a module stands beside
(types, objects and modules of product code) and before the other exact matches (routines:
a module beats a function of its name, as a type does; fields, properties, keys, headings,
side code), but never before the first exact match unless that match is a module declared
without a body (Rust's ``pub mod mpsc;``, which only says where the module's file is: the
file goes first, the file of the first such declaration before the others); a file the
answer shows before that point, or within :data:`NEAR` places after it, is left where it
is. The editor's picker (names being typed) and a sharded index's fused answer
(:mod:`symfuse.ranking.shards`, whose parts send no file units for it yet) do not place
them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.query.responses import Adjustment, Change
from symfuse.ranking.search.filters import FilterTable, SymbolRoles
from symfuse.ranking.search.ranked import Ranked

MAX_FILES = 2  # files of one stem that a name may stand for
NEAR = 2  # places after the insertion point where a file shown already stays
# what an exact match must be to keep its place before the file: a type or module of the name
DEFINITIONS = Kind.TYPES | {Kind.OBJECT, Kind.MODULE, Kind.NAMESPACE}
NAMED = "its file's name is the query"


def named_files(
    filters: FilterTable, query: str, mask: npt.NDArray[np.bool_] | None
) -> tuple[int, ...]:
    """The positions of the product code files' units whose stem is ``query`` as written
    (:meth:`FilterTable.file_stems`), when at most :data:`MAX_FILES` such files are left
    by the request's filters (``mask``; a test file of the stem, ``foo.test.ts``, is not
    one of them)."""
    found = filters.file_stems().get(query.strip(), [])
    if not found:
        return ()
    at = np.asarray(found, dtype=np.int64)
    keep = ~filters.side_code(at)
    if mask is not None:
        keep &= mask[at]
    chosen = at[keep].tolist()
    return tuple(chosen) if len(chosen) <= MAX_FILES else ()


def files_placed(
    fused: Fused,
    levels: npt.NDArray[np.int8],
    lifted: npt.NDArray[np.bool_],
    ranked: Ranked,
    matched: int,
) -> tuple[Fused, npt.NDArray[np.int8], npt.NDArray[np.bool_], int]:
    """``fused`` (ordered by the guard, ``levels`` and ``lifted`` aligned) with the units
    of ``ranked.named_files`` (a name's files: :func:`named_files`) placed as the module
    doc says, and ``matched`` counting them."""
    if not ranked.named_files:
        return fused, levels, lifted, matched
    symbols = ranked.symbols
    exact = int(np.searchsorted(levels, 2 * MatchTier.CASE_INSENSITIVE, side="left"))
    head = fused.positions[:exact]
    at = _after_definitions(head, symbols, ranked.roles)
    if at == exact or not _declared(symbols[int(head[at])]):
        at = max(at, min(exact, 1))  # the first exact match stays first
    shown = {symbols[p].file for p in fused.positions[: at + NEAR].tolist()}
    joining = [p for p in ranked.named_files if symbols[p].file not in shown]
    if not joining:
        return fused, levels, lifted, matched
    if at < exact:  # the file of the first module declared without a body first
        declared = [symbols[p] for p in head[at:].tolist() if _declared(symbols[p])]
        joining.sort(key=lambda p: _declaring(symbols[p].file, declared))
    count = len(joining)
    score = float(fused.scores[max(at - 1, 0)]) if len(fused) else 1.0
    out = _inserted(fused, at, np.asarray(joining, dtype=np.int64), score)
    levels = np.insert(levels, at, np.full(count, 2 * MatchTier.EXACT, dtype=levels.dtype))
    lifted = np.insert(lifted, at, np.ones(count, dtype=np.bool_))
    return out, levels, lifted, matched + count


def _after_definitions(
    head: npt.NDArray[np.int64], symbols: Sequence[Symbol], roles: SymbolRoles
) -> int:
    """How many of the exact matches ``head`` lead as product definitions of the name."""
    side = roles.side_code(head)
    for i, position in enumerate(head.tolist()):
        symbol = symbols[position]
        if side[i] or symbol.kind not in DEFINITIONS or _declared(symbol):
            return i
    return int(head.shape[0])


def _declaring(file: str, declared: Sequence[Symbol]) -> int:
    """The place in ``declared`` of the first declaration whose module ``file`` is
    (``a/b.rs`` or ``a/b/mod.rs`` for ``mod b;`` in ``a/mod.rs``, ``a/lib.rs`` or ``a.rs``)."""
    for i, symbol in enumerate(declared):
        folder, _, base = symbol.file.rpartition("/")
        stem = base.rsplit(".", 1)[0]
        inside = folder if stem in ("mod", "lib", "main") else f"{folder}/{stem}".lstrip("/")
        prefix = f"{inside}/{symbol.name}" if inside else symbol.name
        if file in (f"{prefix}.rs", f"{prefix}/mod.rs"):
            return i
    return len(declared)


def _declared(symbol: Symbol) -> bool:
    """A module declared without a body (Rust's ``pub mod mpsc;``): its file is where it
    is defined, so the file goes before it."""
    return symbol.kind is Kind.MODULE and symbol.prototype


def _inserted(fused: Fused, at: int, units: npt.NDArray[np.int64], score: float) -> Fused:
    """``fused`` with ``units`` at place ``at``, each scored ``score``, ranked by no channel."""
    count = units.shape[0]
    notes = fused.notes
    if notes is not None:
        why = ((Adjustment(Change.GUARD, NAMED, moved=(0, at + 1)),),) * count
        notes = (*notes[:at], *why, *notes[at:])
    rescored = fused.rescored
    if rescored is not None:
        rescored = np.insert(rescored, at, np.zeros(count, dtype=np.bool_))
    return Fused(
        np.insert(fused.positions, at, units),
        np.insert(fused.scores, at, np.full(count, score)),
        {c: np.insert(r, at, np.zeros(count, dtype=r.dtype)) for c, r in fused.ranks.items()},
        {c: np.insert(v, at, np.zeros(count)) for c, v in fused.contributions.items()},
        fused.weights,
        rescored,
        notes,
    )
