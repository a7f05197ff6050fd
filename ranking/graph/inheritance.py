"""The whole workspace's inheritance at once: every type's bases and derived types.

:mod:`symfuse.ranking.graph.hierarchy` walks one type's hierarchy for a reader; the
dead-code report and the impact of a change ask it of thousands of types, so the
relation is tabled once per index generation: the graph's INHERITS and IMPLEMENTS
edges, plus bases written in a type's declaration that the resolver left unlinked,
matched by name among the workspace's types of the same language family (every
namesake: a wider hierarchy only makes both reports more careful; a dotted base,
``simple_server.ServerHandler``, only a type whose qualified name ends so). A written base
that names no workspace type is kept by name as an ``outside`` base.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from symfuse.indexer.extract.texts import short_name
from symfuse.indexer.files.languages import family
from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind, Kind, Symbol


@dataclass(frozen=True, slots=True)
class Inheritance:
    """Type id -> its bases' ids, its derived types' ids and its bases outside the
    workspace (by name as written)."""

    bases: dict[str, list[str]]
    derived: dict[str, list[str]]
    outside: dict[str, list[str]]

    def ancestors(self, type_id: str) -> list[str]:
        """Every supertype, nearest first."""
        return _closure(self.bases, type_id)

    def descendants(self, type_id: str) -> list[str]:
        """Every subtype, nearest first."""
        return _closure(self.derived, type_id)

    def outside_bases(self, type_id: str) -> list[str]:
        """Bases outside the workspace of the type or of any of its supertypes."""
        found = list(self.outside.get(type_id, ()))
        for other in self.ancestors(type_id):
            found.extend(self.outside.get(other, ()))
        return found


def _closure(table: dict[str, list[str]], start: str) -> list[str]:
    seen = {start}
    order: list[str] = []
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for other in table.get(node, ()):
                if other not in seen:
                    seen.add(other)
                    order.append(other)
                    following.append(other)
        frontier = following
    return order


def inheritance(index: Index) -> Inheritance:
    """The inheritance of ``index`` (made once per index generation)."""
    return index.derived("inheritance", lambda: _build(index))


def _build(index: Index) -> Inheritance:
    symbols = index.symbols
    linked: defaultdict[str, list[tuple[Symbol, float]]] = defaultdict(list)
    edges = index.edges
    mask = (edges.kind == int(EdgeKind.INHERITS)) | (edges.kind == int(EdgeKind.IMPLEMENTS))
    src_ids, dst_ids = edges.src[mask].tolist(), edges.dst[mask].tolist()
    for src, dst, weight in zip(src_ids, dst_ids, edges.weight[mask].tolist(), strict=True):
        linked[symbols[src].symbol_id].append((symbols[dst], weight))
    types_by_name = _types_by_name(symbols)
    bases: defaultdict[str, list[str]] = defaultdict(list)
    outside: defaultdict[str, list[str]] = defaultdict(list)
    for symbol in symbols:
        if not (symbol.extends or symbol.implements or symbol.symbol_id in linked):
            continue
        written = [_written(w) for w in (*symbol.extends, *symbol.implements)]
        found = [
            (base, w) for base, w in linked.get(symbol.symbol_id, ()) if _fits(base, w, written)
        ]
        bases[symbol.symbol_id].extend(base.symbol_id for base, _ in found)
        names = {base.name for base, _ in found}
        for dotted in written:
            name = short_name(dotted)
            if not name or name in names:
                continue
            group = (name, family(symbol.language))
            matches = [
                t
                for t in types_by_name.get(group, ())
                if t.symbol_id != symbol.symbol_id and _fits(t, 0.0, [dotted])
            ]
            if matches:
                bases[symbol.symbol_id].extend(t.symbol_id for t in matches)
            else:
                outside[symbol.symbol_id].append(name)
    derived: defaultdict[str, list[str]] = defaultdict(list)
    for type_id, found_ids in bases.items():
        for base_id in found_ids:
            derived[base_id].append(type_id)
    return Inheritance({k: v for k, v in bases.items() if v}, dict(derived), dict(outside))


def _written(text: str) -> str:
    """A base as written, without its arguments: ``Generic[T]`` -> ``Generic``."""
    return text.split("[", 1)[0].split("(", 1)[0].split("<", 1)[0].strip()


def _fits(base: Symbol, weight: float, written: list[str]) -> bool:
    """Whether a base the resolver linked by name alone (weight below 1), or one matched
    by name here, is the one written: a dotted base (``simple_server.ServerHandler``)
    names a type of that module only."""
    if weight >= 1.0:
        return True
    dotted = [w for w in written if short_name(w) == base.name and "." in w]
    return not dotted or any(base.fqn.endswith("." + w) for w in dotted)


def _types_by_name(symbols: list[Symbol]) -> dict[tuple[str, str], list[Symbol]]:
    table: defaultdict[tuple[str, str], list[Symbol]] = defaultdict(list)
    for symbol in symbols:
        if symbol.kind in Kind.TYPES:
            table[(symbol.name, family(symbol.language))].append(symbol)
    return dict(table)
