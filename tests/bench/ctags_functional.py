"""What universal-ctags' OCaml, R and Elm parsers get wrong, proven tag by tag.

index_bench.py leaves a ctags tag out of recall only when its own source line (or,
for code inside a comment, its own file) shows the tag is no definition: the rule
style of the Objective-C and TypeScript rows. Each reason below names the construct.
The rules live here, apart from index_bench.py's TypeScript ones, because they read
languages of another family (ML-like and R) and need the file for comments.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

FUNCTIONAL_MISREADS: dict[str, str] = {
    "file module": "OCaml: the module every .ml file is, tagged at line 1 with no declaration",
    "packed module": "OCaml: `(module File : S)` packs an existing module, a use",
    "unit binding": "OCaml: `let () = ...` runs code and binds no name",
    "code in a comment": "Elm: an example inside a `{- ... -}` doc comment",
}

# ctags' Elm parser names a type or constructor with its parameters (`Dict k v`,
# `Err error`); the name is the first word.
NAME_FIRST_WORD = frozenset({"elm"})
# R: names ctags makes up for an anonymous function, list or vector.
R_ANONYMOUS = re.compile(r"^anon(?:Func|List|Vec|DataFrame)[0-9a-f]+")


def ctags_name(language: str, tag: dict[str, Any]) -> str:
    """The tag's name as the source spells the declared name."""
    name = str(tag["name"])
    if language in NAME_FIRST_WORD and " " in name:
        return name.split(maxsplit=1)[0]
    return name


def _line(tag: dict[str, Any]) -> str | None:
    pattern = str(tag.get("pattern", ""))
    if not (pattern.startswith("/^") and pattern.endswith("$/")):
        return None
    return pattern[2:-2].replace("\\/", "/").replace("\\\\", "\\")


def ocaml_misread(tag: dict[str, Any]) -> str | None:
    """The FUNCTIONAL_MISREADS reason of an OCaml tag proven by its line, or None."""
    name, kind = str(tag["name"]), str(tag.get("kind", ""))
    line = _line(tag) or ""
    if kind == "function" and name == "()" and re.match(r"\s*let\s+\(\s*\)\s*=", line):
        return "unit binding"
    if kind != "module":
        return None
    if re.search(rf"\(\s*module\s+{re.escape(name)}\s*:", line):
        return "packed module"
    stem = Path(str(tag["path"])).name.split(".", 1)[0]
    declared = re.search(rf"\bmodule\s+(?:type\s+|rec\s+)?{re.escape(name)}\b", line)
    if int(tag.get("line", 0)) == 1 and name.lower().startswith(stem.lower()) and not declared:
        return "file module"
    return None


@functools.cache
def _comment_lines(path: Path) -> frozenset[int]:
    """The 1-based lines inside Elm block comments (`{- -}` nests) of one file."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return frozenset()
    inside: set[int] = set()
    depth, line, i = 0, 1, 0
    while i < len(text):
        two = text[i : i + 2]
        if two == "{-":
            depth, i = depth + 1, i + 2
            continue
        if two == "-}" and depth:
            depth, i = depth - 1, i + 2
            continue
        if text[i] == "\n":
            line += 1
        elif depth:
            inside.add(line)
        i += 1
    return frozenset(inside)


def functional_misread(language: str, tag: dict[str, Any], root: Path | None) -> str | None:
    """The reason this OCaml or Elm tag is no definition, or None."""
    if language == "ocaml":
        return ocaml_misread(tag)
    in_comment = root is not None and int(tag.get("line", 0)) in _comment_lines(
        root / str(tag["path"])
    )
    return "code in a comment" if language == "elm" and in_comment else None
