"""Which of the definitions named exactly as the query comes first.

Their lexical and similarity ranks say nothing about which namesake is meant (they
match the name alike, and a long class body only lowers BM25), so among them the
order is, most significant first:

1. library code before test, example and benchmark code (:mod:`symfuse.ranking.fusion.roles`),
   unless the request leaves such code out or the query asks for it: ``compile`` is
   the library's function, not a test's local ``var compile``;
2. for a qualified query, one whose qualified name ends as the query writes it, case and
   all, before one whose qualifier differs in case (gin's interface method
   ``ResponseWriter.Status`` before the struct's ``responseWriter.Status``, which a bare
   ``Status`` or ``responseWriter.Status`` still finds first);
3. a definition before a variable that only binds an import
   (``var compile = require('./compile')``, ``const x = await import("./x")``);
4. the newest copy before older ones: a namesake under ``v3/`` after one under ``v4/``,
   one under ``legacy/``, ``deprecated/`` or ``compat/`` after the others; a version the
   query names (``ZodError in zod v3``) before the others (:func:`asked_versions`);
5. a definition with a body before a declaration of it: an interface's or a trait's
   method (Go's ``Handler.ServeHTTP`` after ``Engine.ServeHTTP``), a C prototype;
6. a definition in a file named after it (``client.py``, ``Router.swift``, and a file
   whose name begins so before a dot, ``JToken.Async.cs``) first;
7. a type before a free routine, and a free routine before a member or a value: the
   bare name reaches a type or a module's function as written, a method only through
   its owner (``Query`` is FastAPI's class ``Query``, not the function of that name;
   ``patch`` is requests' ``api.patch``, not ``Session.patch``, which ``Session.patch``
   asks for); first of all a type built on a base of its own name, the layer a package
   exports over it (flask's ``Blueprint(SansioBlueprint)`` over ``sansio.Blueprint``);
8. one its signature leaves public before one a modifier restricts (tokio's ``pub struct
   Mutex`` before its internal ``pub(crate) struct Mutex``; ``private``, ``protected``,
   ``internal``, ``fileprivate``, written before its name);
9. one in a file of exactly its name before one in a file of its name and more (a partial
   type's parts: ``PolicyWrap.cs`` before ``PolicyWrap.ContextAndKeys.cs``);
10. the identity channel's order: name length, then PageRank (``Model`` is
    django.db.models.Model, the most linked definition, not one of Django's many
    test-local ``class Model``).

Only the namesakes are looked at (a handful per query), and the keys feed
:func:`~symfuse.ranking.fusion.rrf.guard_first`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from symfuse.indexer.extract.texts import binds_an_import
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.channels.tokens import QUALIFIED_SEPARATORS
from symfuse.ranking.fusion.roles import asks_for_side_code
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.query.search_request import Channel, IncludeTests, SearchRequest
from symfuse.ranking.search.filters import SymbolRoles

# Steps of the key, most significant last: the identity rank stays below PART_STEP (capped
# at UNRANKED), the kind's steps (up to three) below STEM_STEP.
UNRANKED = (1 << 30) - 1  # the identity rank of a namesake the channel did not rank
PART_STEP = 1 << 30  # a file named after it with more after a dot: one part of the type
RESTRICTED_STEP = 1 << 31  # a modifier keeps it from the package's public face
KIND_STEP = 1 << 32
STEM_STEP = 1 << 34
DECLARED_STEP = 1 << 35
OLDER_STEP = 1 << 36
ALIAS_STEP = 1 << 37
QUALIFIER_STEP = 1 << 38
SIDE_STEP = 1 << 39
_DECLARING = ("#interface", "#trait")  # the kinds whose methods are declared, not defined
VERSION_FOLDER = re.compile(r"^v(\d+)$")  # `v4`: a version of the code beside another
_VERSION_WORD = re.compile(r"\bv(\d+)\b", re.IGNORECASE)  # `v3` in a query's words
_STALE = frozenset({"legacy", "deprecated", "compat", "_compat", "obsolete", "old"})
_FREE_ROUTINES = frozenset({Kind.FUNCTION, Kind.MACRO})


def asked_versions(query: str) -> frozenset[int]:
    """The versions a query names as version folders are named (``v3`` in "ZodError
    class in zod v3"): their copies come first among namesakes and in a prose head."""
    return frozenset(int(m) for m in _VERSION_WORD.findall(query))


def written_parts(query: str) -> tuple[str, ...]:
    """The parts of a qualified query as written (``ResponseWriter.Status``: two); none
    for another query."""
    parts = tuple(QUALIFIED_SEPARATORS.split(query.strip()))
    return parts if len(parts) > 1 and all(parts) else ()


def chosen_version(versions: Sequence[int], asked: frozenset[int]) -> int:
    """Of the version folders of some copies (-1: none), the one that answers: the
    highest the query names, else the highest."""
    wanted = asked.intersection(versions)
    return max(wanted) if wanted else max(versions)


def sides_lower(request: SearchRequest, query: str) -> bool:
    """Whether test, example and benchmark namesakes go after library ones: when the
    request ranks such code with the rest and the query does not ask for it."""
    return request.include_tests is IncludeTests.TRUE and not asks_for_side_code(query)


def echoes_unguarded(
    symbols: Sequence[Symbol],
    fused: Fused,
    levels: npt.NDArray[np.int8],
    keys: npt.NDArray[np.int64],
) -> npt.NDArray[np.int8]:
    """``levels`` with the exact-name guard taken from the variables that only bind an
    import and that the guard's order (``levels``, then the namesake ``keys``) puts after
    another definition of the name, but the first of them: ``InternPool`` is the struct,
    then one ``const InternPool = @import(...)``, not the one each user file repeats.
    They rank by their fused scores, like any other item; a binding before every other
    namesake (a module that re-exports the name, the tests' copies after it) keeps its
    place."""
    named = np.flatnonzero(levels < 2 * MatchTier.NONE)
    if named.shape[0] < 2:
        return levels
    named = named[np.lexsort((keys[named], levels[named]))]
    positions = fused.positions[named].tolist()
    echo = np.fromiter((binds_an_import(symbols[p]) for p in positions), np.bool_, len(named))
    after = echo & np.logical_or.accumulate(~echo)  # after a definition that binds nothing
    after[np.argmax(after)] = False  # the first of them stays, where it shows one use
    out = levels.copy()
    out[named[after]] = 2 * MatchTier.NONE
    return out


def namesake_keys(
    symbols: Sequence[Symbol],
    fused: Fused,
    levels: npt.NDArray[np.int8],
    filters: SymbolRoles,
    sides_last: bool,
    asked: frozenset[int] = frozenset(),
    written: tuple[str, ...] = (),
) -> npt.NDArray[np.int64]:
    """Per item of ``fused`` (aligned with ``levels``, the guard levels), the order of
    the exact namesakes (see the module docstring; ``asked``: :func:`asked_versions`,
    ``written``: :func:`written_parts`); 0 for every other item."""
    keys = np.zeros(len(fused), dtype=np.int64)
    identity = fused.ranks.get(Channel.IDENTITY)
    if identity is None:
        return keys
    named = levels < 2 * MatchTier.FQN_SUFFIX  # exact, or exact but for case and separators
    at = np.flatnonzero(named)
    if not at.shape[0]:
        return keys
    ranked = np.minimum(np.where(identity[at] > 0, identity[at], UNRANKED), UNRANKED)
    ranked = ranked.astype(np.int64)
    positions = fused.positions[at]
    aliases = np.fromiter(
        (binds_an_import(symbols[int(p)]) for p in positions), dtype=np.bool_, count=len(at)
    )
    ranked += aliases.astype(np.int64) * ALIAS_STEP
    if written:
        ranked += _qualifier_steps(symbols, positions, written)
    ranked += _places(symbols, positions, asked)
    if sides_last:
        ranked += filters.side_code(positions).astype(np.int64) * SIDE_STEP
    keys[at] = ranked
    return keys


def _qualifier_steps(
    symbols: Sequence[Symbol], positions: npt.NDArray[np.int64], written: tuple[str, ...]
) -> npt.NDArray[np.int64]:
    """Step 2: :data:`QUALIFIER_STEP` for each namesake whose qualified name does not end
    in the query's parts as written."""
    tails = (
        QUALIFIED_SEPARATORS.split(symbols[p].fqn)[-len(written) :] for p in positions.tolist()
    )
    steps = [tail != list(written) for tail in tails]
    return np.asarray(steps, dtype=np.int64) * QUALIFIER_STEP


def declares_only(symbol: Symbol) -> bool:
    """An interface's or trait's method (not a type nested in one: jsoup's enum
    ``Connection.Method``), or a one-line prototype ending in ``;``."""
    parent = symbol.parent or ""
    if parent.endswith(_DECLARING) and symbol.kind not in Kind.TYPES:
        return True
    return symbol.prototype


def _places(
    symbols: Sequence[Symbol], positions: npt.NDArray[np.int64], asked: frozenset[int]
) -> npt.NDArray[np.int64]:
    """Steps 4 to 9 of the order for the namesakes at ``positions``."""
    chosen = [symbols[int(p)] for p in positions.tolist()]
    versions = [_version(s.file) for s in chosen]
    answering = chosen_version(versions, asked)
    keys = np.zeros(len(chosen), dtype=np.int64)
    for i, symbol in enumerate(chosen):
        folders = symbol.file.lower().split("/")[:-1]
        if 0 <= versions[i] != answering or any(f in _STALE for f in folders):
            keys[i] += OLDER_STEP
        if declares_only(symbol):
            keys[i] += DECLARED_STEP
        keys[i] += _stem_step(symbol)
    return keys + _kind_steps(chosen) + _restricted_steps(chosen)


# A modifier written before a definition's name that keeps it out of its package's or
# crate's public face: Rust's pub(crate) / pub(super) / pub(in path), private (Scala's
# private[pkg] too), protected, internal (C#, Kotlin, Swift), fileprivate.
_RESTRICTING = re.compile(
    r"(?<![\w.])(?:pub\((?:crate|super|self|in\s[^)]*)\)|private|protected|internal|fileprivate)"
    r"(?![\w.])"
)
# ... and one that opens it to every user (Rust's bare pub, public, export, Swift's open)
_OPENING = re.compile(r"(?<![\w.])(?:pub(?!\s*\()|public|export|open)(?![\w.])")


def _head(symbol: Symbol) -> str:
    """What ``symbol``'s signature writes before its name (its modifiers)."""
    return symbol.signature.split(symbol.name, 1)[0] if symbol.name else ""


def _restricted_steps(chosen: Sequence[Symbol]) -> npt.NDArray[np.int64]:
    """Step 7, among definitions of one name only (``worker metrics`` spells a struct and
    a field, either of which it may mean): a restricted one after one its signature
    declares public (``pub``, ``public``, ``export``, ``open``; an impl block or a field
    with no modifier says nothing)."""
    heads = [_head(s) for s in chosen]
    public = {s.name for s, head in zip(chosen, heads, strict=True) if _OPENING.search(head)}
    steps = [
        s.name in public and _RESTRICTING.search(head) is not None
        for s, head in zip(chosen, heads, strict=True)
    ]
    return np.asarray(steps, dtype=np.int64) * RESTRICTED_STEP


def _kind_steps(chosen: Sequence[Symbol]) -> npt.NDArray[np.int64]:
    """Step 6, among definitions of one name only (a traceback's frames, each named
    otherwise, keep their order): a step per kind rank above the name's best."""
    ranks = [_kind_rank(s) for s in chosen]
    best: dict[str, int] = {}
    for symbol, rank in zip(chosen, ranks, strict=True):
        best[symbol.name] = min(rank, best.get(symbol.name, rank))
    steps = [rank - best[s.name] for s, rank in zip(chosen, ranks, strict=True)]
    return np.asarray(steps, dtype=np.int64) * KIND_STEP


def _kind_rank(symbol: Symbol) -> int:
    """0 for a type over a base of its name, 1 for another type, 2 for a free routine,
    3 for the rest (members, values)."""
    if symbol.kind in Kind.TYPES:
        return 0 if any(_names_it(base, symbol.name) for base in symbol.extends) else 1
    return 2 if symbol.kind in _FREE_ROUTINES else 3


def _names_it(base: str, name: str) -> bool:
    """Whether a base as written is a class named ``name``: ``sansio.Blueprint``, or an
    alias made of a prefix and the name (``SansioBlueprint``, ``BaseSession``)."""
    last = base.rsplit(".", 1)[-1].split("[", 1)[0].split("<", 1)[0]
    return last == name or (last.endswith(name) and last[: -len(name)][:1].isupper())


def _version(path: str) -> int:
    """The highest version folder (``v4``) on ``path``; -1 for none."""
    found = [int(m[1]) for f in path.split("/")[:-1] if (m := VERSION_FOLDER.match(f.lower()))]
    return max(found, default=-1)


def _stem_step(symbol: Symbol) -> int:
    """0 when the file's name is the definition's and an extension (case and ``_``/``-``
    aside), :data:`PART_STEP` when its name begins so and goes on after a dot, else
    :data:`STEM_STEP`."""
    name = _plain(symbol.name)
    base = symbol.file.rsplit("/", 1)[-1]
    if _plain(base.rsplit(".", 1)[0]) == name:
        return 0
    return PART_STEP if _plain(base.split(".", 1)[0]) == name else STEM_STEP


def _plain(text: str) -> str:
    return text.replace("_", "").replace("-", "").lower()
