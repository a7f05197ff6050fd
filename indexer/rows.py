"""Symbols and references <-> compact msgpack rows (lists), the on-disk shape.

Rows keep a fixed field order; ``SCHEMA`` changes whenever that order or the
meaning of a field does, and older indexes are then rebuilt.
"""

from __future__ import annotations

from typing import Any

import msgpack

from symfuse.indexer.model import Kind, Reference, RefKind, Symbol

SCHEMA = 1

_KINDS = list(Kind)
_KIND_CODE = {kind: code for code, kind in enumerate(_KINDS)}
_REF_KINDS = list(RefKind)
_REF_KIND_CODE = {kind: code for code, kind in enumerate(_REF_KINDS)}


def symbol_row(s: Symbol) -> list[Any]:
    return [
        s.symbol_id,
        s.name,
        _KIND_CODE[s.kind],
        s.fqn,
        s.signature,
        s.line,
        s.col,
        s.end_line,
        s.end_col,
        s.name_line,
        s.name_col,
        s.name_end_line,
        s.name_end_col,
        s.parent,
        list(s.decorators),
        list(s.extends),
        list(s.implements),
        s.doc,
    ]


def symbol_from_row(row: list[Any], file: str, root: str, language: str) -> Symbol:
    # Positional, unpacked at once: this runs for every symbol whenever an index loads.
    (sid, name, kind, fqn, signature, line, col, end_line, end_col) = row[:9]
    (name_line, name_col, name_end_line, name_end_col, parent) = row[9:14]
    decorators, extends, implements, doc = row[14:18]
    return Symbol(
        sid,
        name,
        _KINDS[kind],
        fqn,
        signature,
        language,
        file,
        root,
        line,
        col,
        end_line,
        end_col,
        name_line,
        name_col,
        name_end_line,
        name_end_col,
        parent,
        tuple(decorators) if decorators else (),
        tuple(extends) if extends else (),
        tuple(implements) if implements else (),
        doc,
    )


def pack_references(refs: list[Reference], symbol_ids: dict[str, int]) -> bytes:
    """References of one file as one msgpack blob, decoded only when someone asks."""
    rows = [
        [
            r.name,
            r.line,
            r.col,
            _REF_KIND_CODE[r.kind],
            symbol_ids.get(r.enclosing, -1) if r.enclosing else -1,
            r.qualifier,
            r.alias,
        ]
        for r in refs
    ]
    return msgpack.packb(rows, use_bin_type=True)  # type: ignore[no-any-return]


def unpack_references(blob: bytes, file: str, symbols: list[Symbol]) -> list[Reference]:
    rows = msgpack.unpackb(blob, raw=False)
    ids: list[str | None] = [s.symbol_id for s in symbols]
    ids.append(None)  # row[4] == -1, a reference at file level, picks this
    kinds = _REF_KINDS
    # Positional arguments: this runs for every reference of a workspace at load time.
    return [
        Reference(name, file, line, col, kinds[kind], ids[enclosing], qualifier, alias)
        for name, line, col, kind, enclosing, qualifier, alias in rows
    ]


def pack_record(symbol_rows: list[list[Any]], refs_blob: bytes, ref_names: list[str]) -> bytes:
    """One file as stored: its symbol rows, its references blob, the names it refers to."""
    return msgpack.packb([symbol_rows, refs_blob, ref_names], use_bin_type=True)  # type: ignore[no-any-return]


def unpack_record(record: bytes) -> tuple[list[list[Any]], bytes, list[str]]:
    symbol_rows, refs_blob, ref_names = msgpack.unpackb(record, raw=False)
    return symbol_rows, refs_blob, ref_names
