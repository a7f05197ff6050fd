"""Qualified names as each language writes them: ``A.B``, ``A::B``, ``A\\B``, ``a->b``.

A qualified name's last part is a definition's name; the parts before it say where it
lives, in whatever a language puts there: the enclosing class or namespace (its fqn), a
package or module that is a folder or a file (``serde_json::ser::Formatter`` is the
``Formatter`` of ``src/ser.rs``; ``Uri.resolveImport`` the ``resolveImport`` of
``src/Uri.zig``; ``GuzzleHttp\\Client::requestAsync`` a method of ``Client`` in
``src/Client.php``). Of the definitions so named, those whose fqn or path hold most of
the qualifier's parts lead the identity channel (a dotted query: at the fqn-suffix tier,
which the exact-name guard raises; a sentence naming one: as an exact name). A part that
names nothing (a crate's or vendor's own name) counts for no candidate and changes no
order.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symfuse.indexer.extract.texts import short_name
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.fusion.roles import Role, role_of
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.search.channel_run import ChannelRun, names_lead

_SEPARATOR = re.compile(r"::|->|\\|\.|#|/")
_ARGUMENTS = re.compile(r"\(.*\)$")
# a qualified name inside a sentence, with a call's arguments when written
_IN_PROSE = re.compile(r"[\w$]+(?:(?:::|->|\\|\.|#)[\w$!?]+)+(?:\([^()]*\))?")


def qualified_parts(token: str) -> tuple[list[str], str] | None:
    """``A::B::c(x)`` -> (["a", "b"], "c"): the qualifier's parts, lower-cased, and the
    name; None when ``token`` is not a qualified name."""
    bare = _ARGUMENTS.sub("", token.strip().strip("`"))
    parts = [p for p in _SEPARATOR.split(bare) if p]
    if len(parts) < 2 or not all(re.fullmatch(r"[\w$!?]*[^\W\d_][\w$!?]*", p) for p in parts):
        return None  # each part a word with a letter: `$.foo[0]` is a JSON path, `1.5` a number
    return [p.lower() for p in parts[:-1]], parts[-1]


def _loose(word: str) -> str:
    return word.replace("_", "").replace("-", "")


def _tail(word: str) -> str:
    """A package name's last word, the folder it often lives in (Rust's crate
    ``grep_searcher`` is ``crates/searcher``)."""
    return word.rpartition("_")[2]


_DEEPEST = 8  # supertypes followed from a qualifier's type (and the fit of its own members)


def _fit(
    qualifier: list[str],
    name: str,
    symbol: Symbol,
    arguments: list[str],
    supertypes: dict[str, int],
) -> tuple[int, ...]:
    """How well ``symbol`` fits the qualified name (smaller is better): living somewhere
    the qualifier says, then the product's code before a test's (nlohmann's ``tests/abi``
    copy of json.hpp shows the namespace the library opens by a macro), the fqn ending in
    the qualifier (or, where the qualifier's type has no such member, a member of a type
    it inherits from, the nearer the better: ``Flask.register_blueprint`` is App's), the
    qualifier's parts among its scopes (twice) and its path's folders and stem, the call's
    argument words in its signature, the name as written, fewer scopes, a type or module
    before a routine."""
    scopes = [w for w in _SEPARATOR.split(symbol.container.lower()) if w]
    if symbol.kind is Kind.CONSTRUCTOR and scopes and scopes[-1] == symbol.name.lower():
        scopes.pop()  # `Jsoup.Jsoup` lives where its class does: `org.jsoup.Jsoup` is both
    folder, _, file = symbol.file.lower().rpartition("/")
    path = {w for w in folder.split("/") if w} | {file.split(".", 1)[0]}
    path |= {_loose(w) for w in path}
    loose_scopes = set(scopes) | {_loose(w) for w in scopes} | _module_path(symbol)
    suffix = _DEEPEST if scopes[-len(qualifier) :] == qualifier else 0
    if symbol.name.lower() == ".".join([*qualifier, name.lower()]):
        suffix = _DEEPEST + 1  # named whole: Elixir's and Haskell's modules (`Text.Pandoc.Char`)
    holder = symbol.parent or symbol.container  # a Go method's receiver type
    if not suffix and holder in supertypes:
        suffix = _DEEPEST - supertypes[holder]
    in_scope = sum(q in loose_scopes or _loose(q) in loose_scopes for q in qualifier)
    on_path = sum(q in path or _loose(q) in path or _tail(q) in path for q in qualifier)
    signature = symbol.signature.lower()
    said = sum(a in signature for a in arguments)
    routine = symbol.kind in Kind.CALLABLES
    place = 2 * in_scope + on_path
    nowhere = not suffix and not place
    side = role_of(symbol.file) is not Role.PRODUCT  # a test's copy or reopening
    return (nowhere, side, -suffix, -place, -said, symbol.name != name, len(scopes), routine)


_CRATE_ROOTS = frozenset({"mod", "lib", "main"})  # files that are their folder's module


def _module_path(symbol: Symbol) -> set[str]:
    """The modules a Rust file is, as its crate names them (tokio's
    ``tokio/src/sync/mutex.rs``: ``sync``, ``mutex``): scopes as much as its fqn's."""
    if symbol.language != "rust" or "/src/" not in f"/{symbol.file}":
        return set()
    below = f"/{symbol.file}".rsplit("/src/", 1)[1].lower().split("/")
    stem = below[-1].split(".", 1)[0]
    return set(below[:-1]) | ({stem} - _CRATE_ROOTS)


Fit = tuple[int, ...]  # :func:`_fit`'s key, smaller is better
_PLACE = 5  # a fit's first items: where it lives, before how it is written
_WRITTEN, _TOP = 5, 6  # a fit's items: named as written (0), at the top level (0)
Offer = tuple[Fit, float, int]  # (fit, -PageRank, position): sorted, the choice's order


def _lives_nowhere(best: Fit) -> bool:
    """Whether the best fit lives nowhere the qualifier says (no scope, no path part)."""
    return bool(best[0])


@dataclass(frozen=True, slots=True)
class Fits:
    """What choosing a qualified name's definitions reads of a corpus: the best fit of
    all, the definitions that may be chosen (``offered``, sorted), how many are named as
    written and how many of those at the top level. The fits of disjoint corpora add up
    (:meth:`joined`), so the shards of many repositories choose as one index does."""

    best: Fit | None
    offered: tuple[Offer, ...]
    written: int = 0
    top: int = 0

    def chosen(self) -> npt.NDArray[np.int64]:
        """The positions that fit best, by PageRank; none when none lives where the
        qualifier says and there are several (a part naming nothing, such as a crate's
        own name, then decides nothing): then the one written as named, else the
        top-level ones if not all are."""
        if self.best is None:
            return np.zeros(0, dtype=np.int64)
        if _lives_nowhere(self.best):
            written = [p for fit, _, p in self.offered if fit[_WRITTEN] == 0]
            top = [p for fit, _, p in self.offered if fit[_WRITTEN] == 0 and fit[_TOP] == 0]
            if self.written == 1:
                return np.asarray(written, dtype=np.int64)
            return np.asarray(top if self.top < self.written else [], dtype=np.int64)
        best = self.best[:_PLACE]
        return np.asarray([p for fit, _, p in self.offered if fit[:_PLACE] == best], dtype=np.int64)

    def moved(self, where: Callable[[int], int]) -> Fits:
        """These fits with each offered position ``p`` read as ``where(p)``."""
        offered = tuple((fit, rank, where(p)) for fit, rank, p in self.offered)
        return dataclasses.replace(self, offered=offered)

    @classmethod
    def joined(cls, parts: Sequence[Fits]) -> Fits:
        """The fits of the union of disjoint corpora (positions already in one numbering)."""
        bests = [p.best for p in parts if p.best is not None]
        offered = tuple(sorted(o for p in parts for o in p.offered))
        written = sum(p.written for p in parts)
        return cls(min(bests) if bests else None, offered, written, sum(p.top for p in parts))


def qualified_fits(
    index: Index,
    prepared: Prepared,
    token: str,
    mask: npt.NDArray[np.bool_] | None,
) -> Fits:
    """How the definitions ``token`` (a qualified name) names fit it (:func:`_fit`),
    offering those that :meth:`Fits.chosen` may choose, here or joined with others'."""
    parsed = qualified_parts(token)
    if parsed is None:
        return Fits(None, ())
    qualifier, name = parsed
    call = _ARGUMENTS.search(token.strip().strip("`"))
    arguments = re.findall(r"\w+", call.group(0).lower()) if call else []
    found = prepared.names.lower.equal(name.lower())
    whole = prepared.names.lower.equal(".".join([*qualifier, name.lower()]))
    if whole.shape[0]:  # a module named by its dotted path, as Elixir and Haskell write it
        found = np.union1d(found, whole)
    if mask is not None:
        found = found[mask[found]]
    symbols = index.symbols
    owner = qualifier[-1]
    own = any(_SEPARATOR.split(symbols[p].container.lower())[-1] == owner for p in found.tolist())
    supertypes = {} if own else _supertypes(index, prepared, owner)
    fits = sorted(
        (
            _fit(qualifier, name, symbols[p], arguments, supertypes),
            -float(prepared.pagerank[p]),
            p,
        )
        for p in found.tolist()
        if symbols[p].kind not in Kind.UNITS
    )
    if not fits:
        return Fits(None, ())
    best = fits[0][0]
    written = [o for o in fits if o[0][_WRITTEN] == 0]
    top = [o for o in written if o[0][_TOP] == 0]
    things = _things(symbols, written)  # a type and its impl blocks or extensions are one
    if _lives_nowhere(best):
        offered = tuple(written if things == 1 else top)
    else:
        offered = tuple(o for o in fits if o[0][:_PLACE] == best[:_PLACE])
    return Fits(best, offered, things, _things(symbols, top))


def _things(symbols: Sequence[Symbol], offers: Sequence[Offer]) -> int:
    """How many distinct definitions ``offers`` name: one per file and qualified name."""
    return len({(symbols[p].file, symbols[p].fqn) for _, _, p in offers})


def _supertypes(index: Index, prepared: Prepared, owner: str) -> dict[str, int]:
    """The ids and fqns of the types that the types named ``owner`` (lower-cased) extend or
    implement, as written in their declarations, with how many levels up each is (a
    name's every type of that name: a nudge among namesakes needs no resolver)."""
    symbols = index.symbols
    frontier = [
        symbols[p] for p in prepared.names.lower.equal(owner).tolist()
        if symbols[p].kind in Kind.TYPES
    ]  # fmt: skip
    found: dict[str, int] = {}
    for depth in range(1, _DEEPEST):
        written = {short_name(b) for s in frontier for b in (*s.extends, *s.implements)}
        frontier = [
            symbols[i] for n in written for i in index.by_name.get(n, ())
            if symbols[i].kind in Kind.TYPES and symbols[i].symbol_id not in found
        ]  # fmt: skip
        for s in frontier:
            found.setdefault(s.symbol_id, depth)
            found.setdefault(s.fqn, depth)  # for members declared beside it (Go's methods)
        if not frontier:
            break
    return found


def qualified_matches(
    index: Index,
    prepared: Prepared,
    token: str,
    mask: npt.NDArray[np.bool_] | None,
) -> npt.NDArray[np.int64]:
    """The definitions ``token`` (a qualified name) names that fit it best, by PageRank
    (:meth:`Fits.chosen`)."""
    return qualified_fits(index, prepared, token, mask).chosen()


def qualified_tokens(query: str, *, dotted: bool) -> list[str]:
    """The qualified names a query writes: the whole query when ``dotted``, else each
    qualified code token of a sentence."""
    return [query] if dotted else _IN_PROSE.findall(query)


_PAIR = re.compile(r"\s*([A-Za-z_$][\w$]*)\s+([A-Za-z_$][\w$]*)\s*")


def paired_name(query: str) -> str | None:
    """A query of two names, a scope's and then a member's (``basic_memory_buffer grow``,
    ``redisContext fd``), as the qualified name it spells (``basic_memory_buffer.grow``).
    Read for mixed queries only (one of the names written as code): ``Parse header`` is
    two words."""
    found = _PAIR.fullmatch(query)
    return None if found is None else f"{found.group(1)}.{found.group(2)}"


def with_qualified_names(
    index: Index,
    prepared: Prepared,
    run: ChannelRun,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    *,
    dotted: bool,
) -> ChannelRun:
    """``run`` with the definitions the query's qualified names name leading the identity
    channel: the whole query when ``dotted``, else each qualified code token of a
    sentence (then as exact names the guard puts first)."""
    tokens = qualified_tokens(query, dotted=dotted)
    found = [qualified_matches(index, prepared, t, mask) for t in tokens]
    pair = None if dotted or tokens else paired_name(query)
    if pair is not None:  # only where the first names the second's scope, file or folder
        fits = qualified_fits(index, prepared, pair, mask)
        if fits.best is not None and not _lives_nowhere(fits.best):
            found.append(fits.chosen())
    known = np.concatenate(found) if found else np.zeros(0, dtype=np.int64)
    if not known.shape[0]:
        return run
    known = known[np.sort(np.unique(known, return_index=True)[1])]
    tier = MatchTier.FQN_SUFFIX if dotted else MatchTier.EXACT
    return names_lead(prepared, run, known, tier, run.spelled or not dotted)
