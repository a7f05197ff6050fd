"""Kotlin class heads the bundled grammar cannot read, rewritten byte for byte.

Two forms Kotlin Multiplatform code writes (okio's ``ByteString``, ``Path``,
``SegmentedByteString`` in every source set) threw the grammar's recovery off, and the
class's members became the file's functions:

- a primary constructor on the line after the class's name, often with a line or a
  block comment between (``expect open class ByteString`` / ``// Trusted internal
  constructor ...`` / ``internal constructor(data: ByteArray) : Comparable<ByteString>
  {``), or with annotations' lines before it (okhttp's ``HttpLoggingInterceptor`` /
  ``@JvmOverloads`` / ``constructor(``): its modifiers, annotations and ``constructor``
  keyword are blanked, and ``class ByteString`` then ``(data: ByteArray)`` on the next
  line reads as the class with its parameters;
- ``actual`` before a constructor parameter's ``val`` (``internal actual val data:
  ByteArray,``): blanked wherever it stands before ``val`` or ``var``.

Signatures are read from the source as written, so ``expect`` and ``actual`` stay in
them (the linker and the graph answers pair a type's platform declarations by them).
"""

from __future__ import annotations

import re

from symfuse.indexer.extract.rewrites import blank, by_line

_CONSTRUCTOR = re.compile(rb"constructor(?=[ \t]*\()")  # found by its text, then its line read
_ANNOTATION = rb"@[\w.:]+(?:\([^()\n]*\))?"
_CONSTRUCTOR_LINE = re.compile(
    rb"[ \t]*((?:" + _ANNOTATION + rb"[ \t]+)*"
    rb"(?:(?:public|internal|private|protected|actual|expect)[ \t]+)*constructor)"
    rb"(?=[ \t]*\()"
)
# a line of annotations alone between the head and its constructor (`@JvmOverloads`)
_ANNOTATIONS = rb"[ \t]*" + _ANNOTATION + rb"(?:[ \t]+" + _ANNOTATION + rb")*[ \t]*"
_ANNOTATIONS_LINE = re.compile(_ANNOTATIONS)
# such lines just before a constructor whose keyword was blanked (the line opens with `(`)
_ANNOTATIONS_BEFORE = re.compile(
    rb"^" + _ANNOTATIONS + rb"(?=\n(?:" + _ANNOTATIONS + rb"\n)*[ \t]*\()", re.M
)
# the line before it: a class or object head without its body (`expect open class B<T>`)
_HEAD = re.compile(rb"\b(?:class|object)[ \t]+\w+(?:[ \t]*<[^\n{]*>)?[ \t]*\Z")
_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/", re.S)
_ACTUAL_PROPERTY = re.compile(rb"actual(?=[ \t]+(?:val|var)\b)")
_LOOK_BACK = 600  # bytes before a constructor line searched for its class's head


def kotlin_heads(source: bytes) -> bytes:
    if b"constructor" not in source and b"actual" not in source:
        return source
    blanked = by_line(source, _CONSTRUCTOR, _CONSTRUCTOR_LINE, _constructor)
    if blanked is not source and b"@" in blanked:  # its annotations' lines go with the keyword
        blanked = _ANNOTATIONS_BEFORE.sub(blank, blanked)
    source = blanked
    return _ACTUAL_PROPERTY.sub(_actual, source) if b"actual" in source else source


def _constructor(match: re.Match[bytes]) -> bytes:
    if not _after_head(match.string, match.start()):
        return match.group(0)
    start, end = match.span(1)
    return match.string[match.start() : start] + b" " * (end - start)


def _actual(match: re.Match[bytes]) -> bytes:
    before = match.string[match.start() - 1 : match.start()]
    return match.group(0) if before.isalnum() or before == b"_" else b"      "


def _after_head(source: bytes, start: int) -> bool:
    """Whether the last line before ``start`` that is neither blank nor a comment ends a
    class head (a secondary constructor follows a ``{`` or a member)."""
    before = _BLOCK_COMMENT.sub(b"", source[max(0, start - _LOOK_BACK) : start])
    lines = before.split(b"\n")[:-1]
    while lines and (
        not lines[-1].strip()
        or lines[-1].lstrip().startswith(b"//")
        or _ANNOTATIONS_LINE.fullmatch(lines[-1]) is not None
    ):
        lines.pop()
    return bool(lines) and _HEAD.search(lines[-1]) is not None
