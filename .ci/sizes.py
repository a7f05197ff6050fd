"""The size gate: no module over 500 lines, no function over 60.

A function's length is its own lines: the span of its ``def`` less the spans of the functions
defined directly inside it (each of those counts for itself). Prints each offender as
``path:line: name (N lines)`` and exits 1 if there is any.

Usage: ``python .ci/sizes.py [ROOT]`` (default: the repository); checks ROOT's ``indexer/``,
``ranking/`` and ``server/``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
FOLDERS = ("indexer", "ranking", "server")

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _span(node: ast.stmt) -> int:
    assert node.end_lineno is not None
    return node.end_lineno - node.lineno + 1


def _direct_defs(node: ast.AST) -> Iterator[Function]:
    """The functions defined in ``node``'s body (through classes, ifs, withs...), not deeper."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, Function):
            yield child
        else:
            yield from _direct_defs(child)


def _functions(node: ast.AST, prefix: str = "") -> Iterator[tuple[str, Function, int]]:
    """Each function under ``node`` with its qualified name and its own length."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, Function):
            name = prefix + child.name
            own = _span(child) - sum(_span(inner) for inner in _direct_defs(child))
            yield name, child, own
            yield from _functions(child, name + ".")
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, prefix + child.name + ".")
        else:
            yield from _functions(child, prefix)


def offenders(root: Path) -> list[str]:
    """One line per module or function over its limit, under ``root``'s three folders."""
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            shown = path.relative_to(root).as_posix()
            source = path.read_text(encoding="utf-8")
            lines = len(source.splitlines())
            if lines > MAX_MODULE_LINES:
                found.append(f"{shown}:1: module ({lines} lines)")
            for name, node, own in _functions(ast.parse(source, filename=str(path))):
                if own > MAX_FUNCTION_LINES:
                    found.append(f"{shown}:{node.lineno}: {name} ({own} lines)")
    return found


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    found = offenders(root)
    for line in found:
        print(line)
    if found:
        print(
            f"{len(found)} over the limits ({MAX_MODULE_LINES} lines a module, "
            f"{MAX_FUNCTION_LINES} a function)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
