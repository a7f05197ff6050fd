"""Source files read the way the index reads them: bytes as they are on disk, a UTF-8
byte order mark dropped, undecodable bytes replaced.

Editors hide a BOM, so line 1's columns start after it; every reader that turns a file
into text (the extractor, the snippet and body readers, the LSP position mapper) goes
through here so that their columns agree.
"""

from __future__ import annotations

import codecs

BOM = codecs.BOM_UTF8


def strip_bom(data: bytes) -> bytes:
    """``data`` without a leading UTF-8 byte order mark."""
    return data[len(BOM) :] if data.startswith(BOM) else data


def decode_source(data: bytes) -> str:
    """The text of a source file's bytes: no BOM, undecodable bytes replaced."""
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
