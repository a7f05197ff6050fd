"""Symbols and references <-> compact msgpack rows (lists), the on-disk shape.

Rows keep a fixed field order; ``SCHEMA`` changes whenever that order or the
meaning of a field does, and older indexes are then rebuilt.
"""

from __future__ import annotations

import hashlib
import zlib
from typing import Any

import msgpack

from symfuse.indexer.model import Kind, Reference, RefKind, Symbol

SCHEMA = 4  # 4: a reference row ends with the number of arguments a call passes

_KINDS = list(Kind)
_KIND_CODE = {kind: code for code, kind in enumerate(_KINDS)}
_KIND_SUFFIX = ["#" + kind.value for kind in _KINDS]  # an id's end, by kind code
_REF_KINDS = list(RefKind)
REF_KIND_CODE = {kind: code for code, kind in enumerate(_REF_KINDS)}
_IMPORT_CODE = REF_KIND_CODE[RefKind.IMPORT]


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


def symbol_rows(symbols: list[Symbol]) -> list[list[Any]]:
    """One file's symbols as stored: :func:`symbol_row`, less what the rows before it say.

    A parent that is an earlier symbol of the file is its position there; the id and the
    qualified name are None when they are the ones its file, parent, name and kind make
    (``path::Parent.name#kind``, ``parent.fqn + "." + name``): most ids, parents and
    qualified names repeat what the file's own rows say.
    """
    at: dict[str, int] = {}
    out = []
    for i, symbol in enumerate(symbols):
        row = symbol_row(symbol)
        place = at.get(symbol.parent) if symbol.parent is not None else None
        parent = None if place is None else symbols[place]
        if parent is not None:
            row[13] = place
            if symbol.fqn == f"{parent.fqn}.{symbol.name}":
                row[3] = None
        if symbol.symbol_id == _made_id(symbol.file, parent, symbol.name, symbol.kind):
            row[0] = None
        at.setdefault(symbol.symbol_id, i)
        out.append(row)
    return out


def _made_id(file: str, parent: Symbol | None, name: str, kind: Kind) -> str:
    """The id a definition of ``name`` in ``parent`` (None: at file level) gets when it
    is the first of its name and kind there (definitions.py ``_symbol_id``)."""
    if parent is None:
        return f"{file}::{name}#{kind.value}"
    up = parent.symbol_id
    return f"{file}::{up[len(file) + 2 : up.rfind('#')]}.{name}#{kind.value}"


def symbols_from_rows(
    rows: list[list[Any]], file: str, root: str, language: str, shared: dict[Any, Any] | None = None
) -> list[Symbol]:
    """The symbols of one file, sharing equal values instead of one copy per symbol.

    msgpack decodes every string and every int above 256 as an object of its own, and a
    server keeps them all. Names and signatures repeat
    (``__init__``, ``def __init__(self):``: one object per distinct string in ``shared``,
    which a whole load passes to every file); a parent's id is its own object; a name's
    line is most often the definition's, and line numbers above 256 (each an object of
    its own) repeat across files: ``shared`` holds them too, and the decorators' and
    bases' names. ``shared`` None: nothing is shared across files (a one-shot command,
    for which a copy each is the faster load).

    One loop, each row unpacked into locals, ids made in place (:func:`_made_id`'s form).
    """
    symbols: list[Symbol] = []
    append = symbols.append
    cut = len(file) + 2  # a parent's id less its "file::" head
    intern = shared.setdefault if shared is not None else None
    for row in rows:
        (
            sid, name, code, fqn, signature, line, col, end_line, end_col,
            name_line, name_col, name_end_line, name_end_col, parent,
            decorators, extends, implements, doc,
        ) = row  # fmt: skip
        if intern is not None:
            name = intern(name, name)
            signature = intern(signature, signature)
            line = intern(line, line)  # lines: an int key is never equal to a string key
            end_line = intern(end_line, end_line)
            if decorators:  # decorators and bases: few distinct names, much repeated
                decorators = tuple(map(intern, decorators, decorators))
            if extends:
                extends = tuple(map(intern, extends, extends))
        if type(parent) is int:  # an earlier symbol of the file
            up = symbols[parent]
            parent = up.symbol_id
            if fqn is None:
                fqn = f"{up.fqn}.{name}"
            if sid is None:
                sid = f"{file}::{parent[cut : parent.rfind('#')]}.{name}{_KIND_SUFFIX[code]}"
        elif sid is None:
            sid = f"{file}::{name}{_KIND_SUFFIX[code]}"
        if name_line == line:
            name_line = line
        if name_end_line == name_line:
            name_end_line = name_line
        # fmt: off
        append(Symbol(
            sid, name, _KINDS[code], fqn, signature, language, file, root,
            line, col, end_line, end_col, name_line, name_col, name_end_line, name_end_col,
            parent,
            tuple(decorators) if decorators else (),
            tuple(extends) if extends else (),
            tuple(implements) if implements else (),
            doc,
        ))
        # fmt: on
    return symbols


# A reference as the parser emits it: name, line, column, RefKind code (REF_KIND_CODE),
# index of the enclosing symbol in its file (-1: file level), qualifier, alias, the
# number of arguments a call passes (-1: unknown; extract/arguments.py).
RefRow = tuple[str, int, int, int, int, str, str, int]


def pack_references(ref_rows: list[RefRow]) -> tuple[bytes, bytes, list[str]]:
    """References of one file as two msgpack blobs, decoded only when someone asks,
    and the sorted names they use.

    The first blob holds every reference (usages, navigation). The second holds
    what linking needs: each distinct (name, qualifier, kind, alias, arguments) once,
    with the definitions it is written in (``-1``, file level, is kept for imports only:
    they make no edge but bind names). Linking a test module that says
    ``self.assertEqual`` a thousand times then resolves it once.
    """
    groups: dict[tuple[str, str, int, str, int], dict[int, None]] = {}
    names: set[str] = set()
    for name, _, _, code, enclosing, qualifier, alias, args in ref_rows:
        names.add(name)
        if enclosing >= 0 or code == _IMPORT_CODE:
            groups.setdefault((name, qualifier, code, alias, args), {})[enclosing] = None
    links = [[*key[:4], list(enclosings), key[4]] for key, enclosings in groups.items()]
    return _squeezed(ref_rows), zlib.compress(_packb(links), _REFS_LEVEL), sorted(names)


# The references blob is deflated (zlib level 1) behind its row count (4 bytes, little
# endian): it shrinks to a fraction of its size in the pack and in a server, which keeps
# every file's blob. It is read only when someone asks for references (inflating costs
# little next to decoding them); the count is read from the header alone. The links blob
# is deflated too: linking inflates each file's once per pass, a small cost.
_REFS_LEVEL = 1  # higher levels: a little smaller, several times the time, in every parse


def _squeezed(ref_rows: list[RefRow]) -> bytes:
    count = len(ref_rows).to_bytes(4, "little")
    return count + zlib.compress(_packb(ref_rows), _REFS_LEVEL)


def reference_count(blob: bytes) -> int:
    """How many references a references blob holds, read from its header alone."""
    return int.from_bytes(blob[:4], "little")


# (name, qualifier, RefKind code, alias, indexes of the enclosing symbols (-1 file
# level), number of arguments a call passes (-1 unknown))
LinkGroup = tuple[str, str, int, str, list[int], int]


def unpack_links(blob: bytes) -> list[LinkGroup]:
    try:
        raw = zlib.decompress(blob)
    except zlib.error as exc:
        raise ValueError(f"link groups are corrupt ({exc})") from exc
    return msgpack.unpackb(raw, raw=False, use_list=True)  # type: ignore[no-any-return]


def _packb(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


def unpack_references(blob: bytes, file: str, symbols: list[Symbol]) -> list[Reference]:
    try:
        rows = msgpack.unpackb(zlib.decompress(blob[4:]), raw=False)
    except zlib.error as exc:
        raise ValueError(f"references of {file} are corrupt ({exc})") from exc
    ids: list[str | None] = [s.symbol_id for s in symbols]
    ids.append(None)  # row[4] == -1, a reference at file level, picks this
    kinds = _REF_KINDS
    # Positional arguments: this runs for every reference of a workspace at load time.
    return [
        Reference(name, file, line, col, kinds[kind], ids[enclosing], qualifier, alias, args)
        for name, line, col, kind, enclosing, qualifier, alias, args in rows
    ]


def unpack_imports(blob: bytes, file: str, symbols: list[Symbol]) -> list[Reference]:
    """The import references of a references blob, as :func:`unpack_references` makes
    them: the other rows are decoded as tuples and dropped, never made references."""
    try:
        rows = msgpack.unpackb(zlib.decompress(blob[4:]), raw=False, use_list=False)
    except zlib.error as exc:
        raise ValueError(f"references of {file} are corrupt ({exc})") from exc
    code, kind = _IMPORT_CODE, RefKind.IMPORT
    return [
        Reference(row[0], file, row[1], row[2], kind, _enclosing(symbols, row[4]), row[5], row[6])
        for row in rows
        if row[3] == code
    ]


def _enclosing(symbols: list[Symbol], position: int) -> str | None:
    return symbols[position].symbol_id if position >= 0 else None


def pack_record(
    symbol_rows: list[list[Any]], refs_blob: bytes, ref_names: list[str], links_blob: bytes
) -> bytes:
    """One file as stored: symbol rows, references blob, names referred to, links blob."""
    return _packb([symbol_rows, refs_blob, ref_names, links_blob])


# A record as the parser sends it: packed symbol rows, references blob, packed names,
# links blob, and the digest of the whole. Its stored form (pack_record) is the four
# with msgpack's framing between them, so it is decoded and written piece by piece,
# never copied whole, and the parser has already hashed it.
RecordParts = tuple[bytes, bytes, bytes, bytes, bytes]


def record_parts(
    symbol_rows: list[list[Any]], refs_blob: bytes, ref_names: list[str], links_blob: bytes
) -> RecordParts:
    parts = (_packb(symbol_rows), refs_blob, _packb(ref_names), links_blob, b"")
    digest = hashlib.blake2b(digest_size=16)
    for chunk in record_chunks(parts):
        digest.update(chunk)
    return (*parts[:4], digest.digest())


def record_digest(record: bytes) -> bytes:
    """What record_parts puts last, for a record stored whole."""
    return hashlib.blake2b(record, digest_size=16).digest()


def record_chunks(parts: RecordParts) -> list[bytes]:
    """The bytes of pack_record(...) for these parts, in order, to write one after another."""
    packed_rows, refs_blob, packed_names, links_blob, _ = parts
    return [
        b"\x94",  # an array of four
        packed_rows,
        _bin_header(len(refs_blob)),
        refs_blob,
        packed_names,
        _bin_header(len(links_blob)),
        links_blob,
    ]


def _bin_header(size: int) -> bytes:
    if size < 1 << 8:
        return b"\xc4" + size.to_bytes(1, "big")
    if size < 1 << 16:
        return b"\xc5" + size.to_bytes(2, "big")
    return b"\xc6" + size.to_bytes(4, "big")


def unpack_parts(parts: RecordParts) -> tuple[list[list[Any]], list[str]]:
    """The symbol rows and referred names of a record sent in parts."""
    return msgpack.unpackb(parts[0], raw=False), msgpack.unpackb(parts[2], raw=False)


def unpack_record(record: bytes) -> tuple[list[list[Any]], bytes, list[str], bytes]:
    symbol_rows, refs_blob, ref_names, links_blob = msgpack.unpackb(record, raw=False)
    return symbol_rows, refs_blob, ref_names, links_blob
