"""Conditional compilation the grammar cannot place, read as one build of the file.

The bundled C# grammar takes ``#if`` / ``#else`` / ``#endif`` where a declaration or a
statement may stand, and nowhere else. One in a base list (Newtonsoft.Json's ``class
JValue : JToken, ... #if HAVE_ICONVERTIBLE , IConvertible #endif``) or inside an
expression throws its recovery off: the class ended at line 330 of 1,200, and every
member after it was indexed as the namespace's (42 of Newtonsoft.Json's 705 files).

A file whose parse has errors and that holds such directives is parsed again twice:
with the directive lines blanked (every branch read, as ctags does), and with the
``#else`` / ``#elif`` branches blanked too (the first branch of each conditional: a
method head written once per target framework is then written once). The parse with
the fewest error nodes wins; ties keep the earlier, the file as written first. The
rewrites keep every byte's position, as :mod:`.prepass` does, so the tree's positions
are the file's. A file that parses cleanly pays one regex search at most.
"""

from __future__ import annotations

import re

from tree_sitter import Parser, Tree

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|elif|else|endif)\b[^\n]*", re.M)
# the languages whose conditionals are read so (C and C++ parse most of theirs, and
# their rewrites there trade one file's errors for another's)
LANGUAGES = frozenset({"csharp"})


def parse(parser: Parser, language: str, source: bytes) -> Tree:
    """``source`` parsed (by ``parser``, for ``language``), as one build of the file
    when the file as written has errors this may mend."""
    return parse_build(parser, language, source)[0]


def parse_build(parser: Parser, language: str, source: bytes) -> tuple[Tree, bool]:
    """:func:`parse`, and whether the tree is of ``source`` as written (not a rewrite)."""
    tree = parser.parse(source)
    if not recoverable(language, source, tree):
        return tree, True
    best = best_parse(parser, source, tree)
    return best, best is tree


def recoverable(language: str, source: bytes, tree: Tree) -> bool:
    """Whether ``tree`` (``source`` parsed) may parse better as one build of the file."""
    return (
        language in LANGUAGES and tree.root_node.has_error and _DIRECTIVE.search(source) is not None
    )


def best_parse(parser: Parser, source: bytes, tree: Tree) -> Tree:
    """Of ``tree`` and the parses of ``source``'s two rewrites, the one with the fewest
    error nodes (see the module doc); ``source`` is what ``tree`` was parsed from."""
    best, fewest = tree, error_nodes(tree)
    for rewrite in (every_branch, first_branches):
        if fewest == 0:
            break
        candidate = parser.parse(rewrite(source))
        count = error_nodes(candidate)
        if count < fewest:
            best, fewest = candidate, count
    return best


def error_nodes(tree: Tree) -> int:
    """How many ERROR and missing nodes ``tree`` holds (an ERROR's inside not counted)."""
    count = 0
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            count += 1
        elif node.has_error:
            stack.extend(node.children)
    return count


def first_error_line(tree: Tree) -> int | None:
    """The 1-based line of the first ERROR or missing node of ``tree``, if it has one."""
    node = tree.root_node
    while node.has_error and node.type != "ERROR" and not node.is_missing:
        flawed = [c for c in node.children if c.has_error or c.type == "ERROR" or c.is_missing]
        if not flawed:
            return None  # flagged with no error node (a token the tree never shows)
        node = flawed[0]
    return node.start_point[0] + 1 if node.type == "ERROR" or node.is_missing else None


def every_branch(source: bytes) -> bytes:
    """``source`` with its conditional directive lines blanked."""
    return _DIRECTIVE.sub(lambda match: b" " * len(match.group(0)), source)


def first_branches(source: bytes) -> bytes:
    """``source`` with its directive lines blanked and, of each conditional, the
    ``#elif`` and ``#else`` branches too (newlines kept)."""
    out = bytearray(source)
    skipping: list[bool] = []  # per open conditional: past its first branch
    start = 0
    for match in _DIRECTIVE.finditer(source):
        if any(skipping):
            _blank(out, start, match.start())
        keyword = match.group(1)
        if keyword == b"if":
            skipping.append(False)
        elif keyword == b"endif":
            if skipping:
                skipping.pop()
        elif skipping:
            skipping[-1] = True
        _blank(out, match.start(), match.end())
        start = match.end()
    return bytes(out)


def _blank(out: bytearray, start: int, end: int) -> None:
    out[start:end] = _NOT_NEWLINE.sub(b" ", bytes(out[start:end]))


_NOT_NEWLINE = re.compile(rb"[^\r\n]")
