"""What universal-ctags' parsers of the rows added in issue 14 get wrong, tag by tag.

index_bench.py leaves a ctags tag out of recall only when its own source line (or,
for code inside a comment, its own file) shows the tag is no definition: the rule
style of the Objective-C and TypeScript rows. Each reason below names the construct.
The rules live here, apart from index_bench.py's TypeScript ones, to keep that module
about the bench itself; some need the file (comments), not only the line.

Names are compared after ``compare_name`` on both sides: where the two tools spell
one declared name differently (ctags' Lua ``mod.fn`` and Elixir ``Adapter`` for
``defmodule Plug.Conn.Adapter``; Ruby's ``app=`` writer of ``attr_accessor :app``).
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
    "generic constraint": "C#: `where T : IRequest` names a type parameter and its bound",
    "parameter": "C#: `Equals(Unit other) => ...`: a parameter of an expression-bodied member",
    "truncated module": "Haskell: `module Data.Aeson` tagged as `Data`, cut at the first dot",
    "block typedef": "Objective-C: `typedef R (^Name)(T *)`: the block's type is Name, not T",
    "block property": "Objective-C: `@property BOOL (^name)(...)`: the property is name",
    "keyword": "Haskell: `class`, `deriving`, `infixr` tagged as functions",
    "lambda parameter": "Kotlin: `{ a, b -> ...}`: a lambda's parameters, tagged as methods",
}
_HASKELL_KEYWORDS = frozenset(
    [
        "class",
        "instance",
        "deriving",
        "infix",
        "infixl",
        "infixr",
        "data",
        "newtype",
        "type",
        "where",
        "let",
        "in",
        "import",
    ]
)

# ctags' Elm parser names a type or constructor with its parameters (`Dict k v`,
# `Err error`); the name is the first word.
NAME_FIRST_WORD = frozenset({"elm"})
# Names ctags makes up: R's anonymous functions, lists and vectors, PHP's anonymous
# classes, Kotlin's lambdas.
R_ANONYMOUS = re.compile(
    r"^(?:anon(?:Func|List|Vec|DataFrame)[0-9a-f]+|AnonymousClass[0-9a-f]+|<lambda>)"
)


# Languages whose names are compared by their last component (after `.`, `:` or `::`).
LAST_COMPONENT = frozenset({"lua", "elixir", "ruby"})


def compare_name(language: str, name: str) -> str:
    """The spelling of a name both tools' names are compared in (see the module doc)."""
    if language in LAST_COMPONENT:
        name = re.split(r"::|[.:]", name)[-1] or name
    if language == "ruby":
        name = name.rstrip("?!=") or name  # `has_key?`, the writer `app=` of `attr :app`
    return name


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


def csharp_misread(tag: dict[str, Any]) -> str | None:
    """A C# tag that names a type parameter's bound or a parameter."""
    line, name = _line(tag) or "", re.escape(str(tag["name"]))
    if tag.get("kind") not in ("interface", "field", "property"):
        return None
    where = re.search(r"\bwhere\s+\w+\s*:(.*)", line)
    declared = re.search(rf"\b(?:interface|class|struct)\s+{name}\b", line)
    if where and not declared and re.search(rf"(?:\bwhere\s+|[:,]\s*){name}\b", line):
        return "generic constraint"
    if tag.get("kind") == "field" and re.search(rf"\([^()]*\w[\w<>?\[\]]*\s+{name}\s*[,)]", line):
        return "parameter"
    return None


def objc_block_misread(tag: dict[str, Any]) -> str | None:
    """An Objective-C typedef or property tagged by a word of its block type."""
    line, name = _line(tag) or "", re.escape(str(tag["name"]))
    block = re.search(r"\(\s*\^\s*(\w+)\s*\)", line)
    if block is None or block[1] == tag["name"]:
        return None
    if tag.get("kind") == "typedef" and line.lstrip().startswith("typedef"):
        return "block typedef"
    if tag.get("kind") == "property" and re.search(rf"\b{name}\b", line[: block.start()]):
        return "block property"
    return None


def haskell_misread(tag: dict[str, Any]) -> str | None:
    """A Haskell tag naming a keyword, or a module by its first component."""
    line, name = _line(tag) or "", str(tag["name"])
    if tag.get("kind") == "module" and re.match(rf"\s*module\s+{re.escape(name)}\.", line):
        return "truncated module"
    if name in _HASKELL_KEYWORDS and re.match(rf"\s*{name}\b", line):
        return "keyword"
    return None


def kotlin_misread(tag: dict[str, Any]) -> str | None:
    """A Kotlin lambda parameter (`{ a, b ->`, or `a ->` on its own line) tagged as a method."""
    line, name = _line(tag) or "", re.escape(str(tag["name"]))
    if tag.get("kind") != "method" or re.search(rf"\bfun\b[^(]*\b{name}\b", line):
        return None
    params = r"(?:\s*[\w(),: <>?]*?,)?"  # earlier parameters of the same lambda
    if re.search(rf"(?:\{{|^)\s*{params}\s*{name}\s*(?::[^,>]*)?\s*(?:,[^{{}}]*)?->", line):
        return "lambda parameter"
    return None


def functional_misread(language: str, tag: dict[str, Any], root: Path | None) -> str | None:
    """The FUNCTIONAL_MISREADS reason this tag is no definition, or None."""
    if language == "ocaml":
        return ocaml_misread(tag)
    if language == "csharp":
        return csharp_misread(tag)
    if language == "objc":
        return objc_block_misread(tag)
    if language == "haskell":
        return haskell_misread(tag)
    if language == "kotlin":
        return kotlin_misread(tag)
    in_comment = root is not None and int(tag.get("line", 0)) in _comment_lines(
        root / str(tag["path"])
    )
    return "code in a comment" if language == "elm" and in_comment else None
