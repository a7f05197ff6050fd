"""The name -> shard table: a name query asks only the shards that define the name.

``symfuse shards build`` writes each shard's names (lowercased, sorted, once each)
beside it (``names.msgpack``) and all of them into the shard directory's table
(``names-table.msgpack``), atomically, after the shards. With routing on
(``--route-names``), an identifier-shaped query is asked only of the shards that
define a name equal to it or starting with it, ignoring case; when none does (a
typo, prose), every shard is asked.

The price: candidates other shards would add below the name matches (BM25 on
another word of the name, similar names) are not seen, so the top 10 can differ
from one index's further down; ``tests/bench/shard_bench.py`` reports how much, and
how many shards a query asks.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import msgpack

from symfuse.indexer.errors import IndexCorrupt
from symfuse.indexer.store.atomic import atomic_write
from symfuse.ranking.api import is_identifier_shaped

NAMES = "names.msgpack"  # one shard's names, beside its manifest
NAME_TABLE = "names-table.msgpack"  # every shard's, in the shard directory


def names_bytes(names: Iterable[str]) -> bytes:
    """A shard's names as its ``names.msgpack`` holds them."""
    return bytes(msgpack.packb(sorted({n.lower() for n in names}), use_bin_type=True))


@dataclass(frozen=True, slots=True)
class NameRoutes:
    """alias -> that shard's lowercased names, sorted."""

    names: dict[str, list[str]]

    def shards_for(self, query: str) -> set[str] | None:
        """The shards defining a name equal to or starting with ``query`` (any case);
        None when the query is not a plain identifier or no shard defines such a name."""
        text = query.strip().lower()
        if not text or not is_identifier_shaped(text) or any(c in text for c in ".:#"):
            return None
        found = {alias for alias, names in self.names.items() if _has_prefix(names, text)}
        return found or None

    @classmethod
    def read(cls, out: Path) -> NameRoutes | None:
        """The table in ``out``; None when there is none (shards of an older build)."""
        try:
            raw = (out / NAME_TABLE).read_bytes()
        except FileNotFoundError:
            return None
        try:
            data = msgpack.unpackb(raw, raw=False)
            return cls({str(a): [str(n) for n in names] for a, names in data.items()})
        except (ValueError, TypeError, AttributeError, msgpack.UnpackException) as exc:
            raise IndexCorrupt(f"the name table {out / NAME_TABLE} is unreadable: {exc}") from exc


def _has_prefix(names: list[str], text: str) -> bool:
    at = bisect.bisect_left(names, text)
    return at < len(names) and names[at].startswith(text)


def write_name_table(out: Path, shards: dict[str, Path]) -> None:
    """Every shard's names (alias -> its folder) into ``out``'s table, atomically."""
    table = {}
    for alias, directory in shards.items():
        path = directory / NAMES
        if path.is_file():
            table[alias] = msgpack.unpackb(path.read_bytes(), raw=False)
    atomic_write(out / NAME_TABLE, bytes(msgpack.packb(table, use_bin_type=True)))
