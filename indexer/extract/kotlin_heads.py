"""Kotlin class heads the bundled grammar cannot read, rewritten byte for byte.

Two forms Kotlin Multiplatform code writes (okio's ``ByteString``, ``Path``,
``SegmentedByteString`` in every source set) threw the grammar's recovery off, and the
class's members became the file's functions:

- a primary constructor on the line after the class's name, often with a line or a
  block comment between (``expect open class ByteString`` / ``// Trusted internal
  constructor ...`` / ``internal constructor(data: ByteArray) : Comparable<ByteString>
  {``): its modifiers and ``constructor`` keyword are blanked, and ``class ByteString``
  then ``(data: ByteArray)`` on the next line reads as the class with its parameters;
- ``actual`` before a constructor parameter's ``val`` (``internal actual val data:
  ByteArray,``): blanked wherever it stands before ``val`` or ``var``.

Signatures are read from the source as written, so ``expect`` and ``actual`` stay in
them (the linker and the graph answers pair a type's platform declarations by them).
"""

from __future__ import annotations

import re

_CONSTRUCTOR_LINE = re.compile(
    rb"^[ \t]*((?:(?:public|internal|private|protected|actual|expect)[ \t]+)*constructor)"
    rb"(?=[ \t]*\()",
    re.M,
)
# the line before it: a class or object head without its body (`expect open class B<T>`)
_HEAD = re.compile(rb"\b(?:class|object)[ \t]+\w+(?:[ \t]*<[^\n{]*>)?[ \t]*\Z")
_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/", re.S)
_ACTUAL_PROPERTY = re.compile(rb"\bactual(?=[ \t]+(?:val|var)\b)")
_LOOK_BACK = 600  # bytes before a constructor line searched for its class's head


def kotlin_heads(source: bytes) -> bytes:
    if b"constructor" not in source and b"actual" not in source:
        return source
    out = bytearray(source)
    for match in _CONSTRUCTOR_LINE.finditer(source):
        if _after_head(source, match.start()):
            out[match.start(1) : match.end(1)] = b" " * (match.end(1) - match.start(1))
    for match in _ACTUAL_PROPERTY.finditer(source):
        out[match.start() : match.end()] = b" " * len(b"actual")
    return bytes(out)


def _after_head(source: bytes, start: int) -> bool:
    """Whether the last line before ``start`` that is neither blank nor a comment ends a
    class head (a secondary constructor follows a ``{`` or a member)."""
    before = _BLOCK_COMMENT.sub(b"", source[max(0, start - _LOOK_BACK) : start])
    lines = before.split(b"\n")[:-1]
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith(b"//")):
        lines.pop()
    return bool(lines) and _HEAD.search(lines[-1]) is not None
