"""Searchable units that are not definitions: the file itself.

Every code file gets one **file unit**, a :class:`Symbol` of kind ``file`` spanning the
whole file, so that the answer to "where is X configured" or "how is Y wired" can be a
module, its top-level code or a file of re-exports, and so that a file without any
definition (a Rust file of macro invocations, a route table) is still found. It is
named by the file's base name (``_client.py``: no identifier is spelled so, so no
reference ever resolves to it) and qualified by its path; its signature lists the
file's top-level names, its doc is the file's leading comment or docstring. The
ranking layer reads the code outside every definition as its body.

Documents (Markdown, YAML, TOML) get none: their headings and keys are their units.
Units are appended after the definitions, so reference rows keep their positions.
"""

from __future__ import annotations

import re

from symfuse.indexer.model import Kind, Symbol

NO_FILE_UNIT = frozenset({"markdown", "yaml", "toml"})
SIGNATURE_NAMES = 12  # top-level names listed in a file unit's signature
DOC_CHARS = 1_000


def file_unit(path: str, root: str, language: str, text: str, symbols: list[Symbol]) -> Symbol:
    """The file unit of ``path`` (its ``text`` decoded, its definitions ``symbols``)."""
    lines = text.splitlines() or [""]
    name = path.rpartition("/")[2]
    top = [s.name for s in symbols if s.parent is None and s.kind not in Kind.DOCUMENTS]
    listed = list(dict.fromkeys(top))
    signature = ", ".join(listed[:SIGNATURE_NAMES])
    if len(listed) > SIGNATURE_NAMES:
        signature += f", ... ({len(listed)} names)"
    end_line = len(lines)
    return Symbol(
        f"{path}::{name}#file",
        name,
        Kind.FILE,
        path,
        signature,
        language,
        path,
        root,
        1,
        1,
        end_line,
        len(lines[-1]) + 1,
        1,
        1,
        1,
        1,
        doc=leading_doc(text),
    )


_PYTHON_DOC = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*[rRuU]?(\"\"\"|''')(.*?)\1", re.S)
_BLOCK = re.compile(r"\A\s*/\*+(.*?)\*/", re.S)
_DIRECTIVE = r"\s*(?:include|define|pragma|import|if|ifn?def|endif|else|elif|undef)\b"
# a line comment in any language's spelling; `#[attr]`, `#!` and C directives are code
_LINE_COMMENT = re.compile(rf"^\s*(?://[/!]?|#+(?![\[!]|{_DIRECTIVE})|--+|;+|%+)(.*)$")
_LICENSE = re.compile(r"copyright|licen[cs]e|SPDX-|all rights reserved", re.I)


def leading_doc(text: str) -> str:
    """The comment or docstring a file opens with (after a shebang), unless it is a
    licence header: what the file says it is for."""
    head = text[:20_000]
    if head.startswith("#!"):
        head = head.partition("\n")[2]
    found = _PYTHON_DOC.match(head)
    if found is not None:
        doc = found.group(2)
    elif (block := _BLOCK.match(head)) is not None:
        doc = "\n".join(line.strip().lstrip("*").strip() for line in block.group(1).splitlines())
    else:
        taken: list[str] = []
        for line in head.splitlines():
            if not line.strip():
                if taken:
                    break
                continue
            comment = _LINE_COMMENT.match(line)
            if comment is None:
                break
            taken.append(comment.group(1).strip())
        doc = "\n".join(taken)
    doc = doc.strip()
    if not doc or _LICENSE.search(doc[:400]):
        return ""
    return doc[:DOC_CHARS]
