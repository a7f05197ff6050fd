"""Swift's implicit members: ``.accept("x")``, ``.retry``, ``.defaultUserAgent`` name a
static member or an enum case of the type the context expects (a parameter's, a return
type's, an array's element type), which the linker does not infer. The written name is
a guess among the workspace's static members and enum cases of that name, never an
instance member (Alamofire's ``Result`` extension properties ``success`` and
``failure`` are no ``.success(value)``), and nothing when no type of the workspace has
one (``.none``, ``.utf8``: the standard library's).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from symfuse.indexer.index import FileEntry
from symfuse.indexer.model import Kind, Symbol

if TYPE_CHECKING:
    from symfuse.indexer.link.resolve import Resolution, Resolver

IMPLICIT = "."  # the qualifier swift.scm writes for an implicit member
_STATIC = re.compile(r"\b(static|class)\s")


def implicit_member(resolver: Resolver, name: str, entry: FileEntry) -> list[Resolution]:
    """The static members and enum cases named ``name`` in the reference's root."""
    from symfuse.indexer.link.resolve import MAX_CANDIDATES, Resolution

    key = (entry.root, name)
    known = resolver.implicit.get(key)
    if known is not None:
        return known
    positions = resolver.index.by_name.get(name, ())
    found = [
        resolver.symbols[i]
        for i in positions
        if resolver.symbols[i].root == entry.root and _static(resolver.symbols[i])
    ]
    if not found or len(found) > MAX_CANDIDATES:
        resolver.implicit[key] = []
        return []
    one = 0.8 if len(found) == 1 else 0.5
    confidence = round(1.0 / len(found) * one, 3)
    answer = [Resolution(s, confidence) for s in found]
    resolver.implicit[key] = answer
    return answer


def _static(symbol: Symbol) -> bool:
    if symbol.language != "swift" or symbol.parent is None:
        return False
    return symbol.kind is Kind.ENUM_MEMBER or (
        symbol.kind in Kind.MEMBERS and _STATIC.search(symbol.signature) is not None
    )
