"""Source files read the way the index reads them: in the encoding they declare, a UTF-8
byte order mark dropped, undecodable bytes replaced.

A file is UTF-8 unless it says otherwise: a UTF-16 or UTF-32 byte order mark, or a
coding declaration on its first or second line (PEP 263, which Ruby's magic comment
shares: ``# -*- coding: latin-1 -*-``). Editors hide a BOM, so line 1's columns start
after it; every reader that turns a file into text (the extractor, the snippet and body
readers, the LSP position mapper) goes through here so that their columns agree.
"""

from __future__ import annotations

import codecs
import re

BOM = codecs.BOM_UTF8
# Longest first: a UTF-32 little-endian mark starts with the UTF-16 one.
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def declared_encoding(data: bytes) -> str | None:
    """The encoding ``data`` declares when it is not UTF-8 (a wide BOM or a PEP 263
    declaration on line 1 or 2, line 2 only below a comment or blank line 1); else None."""
    for mark, name in _WIDE_BOMS:
        if data.startswith(mark):
            return name
    for line in data.split(b"\n", 2)[:2]:
        found = _COOKIE.match(line)
        if found is not None:
            try:
                name = codecs.lookup(found.group(1).decode("ascii")).name
            except (LookupError, UnicodeDecodeError):
                return None
            return None if name in ("utf-8", "utf-8-sig") else name
        if line.strip() and not line.lstrip().startswith(b"#"):
            return None
    return None


def as_utf8(data: bytes) -> bytes:
    """A file's bytes as UTF-8: re-encoded from the encoding it declares, if any."""
    name = declared_encoding(data)
    if name is None:
        return data
    return data.decode(name, errors="replace").encode("utf-8")


def strip_bom(data: bytes) -> bytes:
    """``data`` without a leading UTF-8 byte order mark."""
    return data[len(BOM) :] if data.startswith(BOM) else data


def decode_source(data: bytes) -> str:
    """The text of a source file's bytes: in its declared encoding, no BOM, undecodable
    bytes replaced."""
    name = declared_encoding(data)
    if name is not None:
        return data.decode(name, errors="replace")
    return strip_bom(data).decode("utf-8", errors="replace")


def read_source_bytes(path: str) -> bytes | None:
    """A file's bytes; None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def read_source_text(path: str) -> str | None:
    """A file's text as indexed (:func:`decode_source`); None when it cannot be read."""
    data = read_source_bytes(path)
    return None if data is None else decode_source(data)
