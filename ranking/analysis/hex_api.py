"""The public API of a Hex package (Elixir): the functions its users may call.

A folder holding ``mix.exs`` is a Mix project; its package ships ``lib/``. A ``def``,
``defmacro`` or ``defguard`` there is public API: plug's ``Plug.Conn.async_assign/3``,
which nothing in the repository calls, is a function its users call. ``defp`` and its
kin are private to their module; a module written ``@moduledoc false`` is kept out of
the package's documentation, internal: its functions are not API.
"""

from __future__ import annotations

import re

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.analysis.gem_api import ships_lib
from symfuse.ranking.text import paths

_PUBLIC_HEAD = re.compile(r"^\s*(def|defmacro|defguard|defdelegate)\s")
_HIDDEN_MODULE = re.compile(r"^\s*@moduledoc\s+false\b")


def public_api(index: Index, symbol: Symbol) -> str | None:
    """Why users of the Mix project's package may call ``symbol``, or None."""
    if symbol.language != "elixir" or symbol.kind not in (Kind.FUNCTION, Kind.MACRO):
        return None
    if not _PUBLIC_HEAD.match(symbol.signature) or not ships_lib(
        index, symbol.file, "elixir", "mix.exs"
    ):
        return None
    module = index.get(symbol.parent) if symbol.parent is not None else None
    if module is None:
        return None
    lines = paths.read_lines(index, symbol.file)[module.line : symbol.line - 1]
    if any(_HIDDEN_MODULE.match(line) for line in lines):
        return None
    return "public in the Hex package's lib/: its users may call it"
