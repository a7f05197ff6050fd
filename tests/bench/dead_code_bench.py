"""Dead code and impact on a real tree: the dead-code list's figures, answer sizes in
tokens through ``symfuse mcp``, and a sample to check by hand.

    python tests/bench/dead_code_bench.py TREE [--index-dir DIR] [--sample 30]
        [--min-confidence 0.5] [--include-tests false] [--impact SYMBOL ...]

1. Indexes TREE (``symfuse index``), then lists its dead code in process: how many
   definitions are reported per confidence band and kind, the most common reasons,
   and the seconds it took (indicative: the machine is shared).
2. Answer sizes: ``dead_code`` (default arguments) and ``impact`` (the given
   symbols, else the three definitions with the most callers) through the MCP SDK's
   client against ``symfuse mcp`` over stdio, in JSON and in TOON, at the default
   budget (2000 tokens) and at ``max_tokens`` 50000 (the whole answer). Tokens are
   characters / 4, as symfuse's own budget counts them (no tokenizer is installed).
3. ``--sample N``: N reported items at random (seed 7), each with every line of the
   tree that names it (``grep -rnw``), for a reader to judge by hand: dead when no
   line but its definition (and documentation or comments) uses it.

Hand-checked precision (November 2026; the trees are registry sdists unpacked
outside the repository: ``pip download --no-deps --no-binary :all: attrs django``).
An item counts as dead when no line of the tree but its definition, comments or
documentation uses it (``grep -rnw``, then reading the hits); public aliases kept
for users (``SafeText``) and documented API that nothing calls count as dead, as
the reason says "public".

- Django 5.2.19, default arguments (min_confidence 0.5, test code left out): 29
  reported, all 29 checked, 29 dead: precision 1.00.
- Django 5.2.19, ``--include-tests true``: 58 reported (those 29 and 29 in test
  code), all checked, 56 dead: precision 0.97 (the two others are duck-typed hooks
  a library calls by name: ``DummyHandler.log_request`` by wsgiref,
  ``SMTPHandler.handle_DATA`` by aiosmtpd).
- Django 5.2.19 below the default (0.3 <= confidence < 0.5), a sample of 30: none
  dead (attribute reads, keyword values, ``in`` operands the index records no
  reference for; registered lookups and template tags; AppConfig subclasses):
  what the doubts are for.
- attrs 26.1.0: 7 reported by default, 8 with ``--include-tests true``; all 8
  checked, all dead: precision 1.00 (a small, tidy library: 3111 definitions,
  122 unreferenced before the doubts).

Judged sample over languages (issue 36, item 3; session of the 9bd3878/623f535 commits):
trees from /work/.mirror at their newest snapshot (``git archive HEAD``), default
arguments (min_confidence 0.5, test code left out; Go with test code too, as its default
report is empty), every reported item judged by ``grep -rnw`` of its name and reading the
hits, by the criterion above. Before the fixes -> after:

- Python (httpx, black, flask, requests, fastapi, click): 47 reported, 34 dead -> 34, 34
  (the 13: http.cookiejar's MockRequest methods, file-object ``readline``/``writelines``,
  black's ``STAREQUAL``-like tokens read by ``getattr`` from a table in a string).
- JavaScript/TypeScript (axios, ky, zod, express): 50 reported, 14 dead -> 14, 14 (ky's 30
  ``#private`` methods, XHR ``onerror`` handlers, ``[Symbol.iterator]``, a function
  expression passed on a line of its own).
- Java (gson, jsoup): 17 reported, 6 dead -> 6, 6 (serialization ``writeReplace``, Caliper
  benchmarks handed over as ``Foo.class``).
- Rust trees (tokio, ripgrep; ripgrep's 6 are shell functions of ci/utils.sh): 22
  reported, 18 dead -> 18, 18 (``#[test]`` under a second attribute, ``#[global_allocator]``,
  ``_assert_kinds``); serde_json: 172 more reported, all members of ``impl Trait for``
  blocks, and a ``#[macro_export]`` macro -> none.
- Kotlin (okio): 99 reported, 38 dead -> 38, 38 (a vendored linux/stat.h, ``external``
  declarations, ``serialVersionUID``).
- Go (gin, cobra, echo, urfave/cli, logrus, viper; test code included): 10 reported, none
  dead (methods satisfying a dependency's interface: jsoniter, pflag, slog; flake.nix) ->
  none reported (exported names of importable packages are public API, at 0.45).

Precision: 110 / 245 = 0.45 before, 110 / 110 = 1.00 after, over Python, JS/TS, Java,
Rust and Kotlin. Recall on planted functions (two unused functions planted in a copy of
requests, gin, express, ky, gson and serde_json, one private and one public each): 11 / 12
reported by default, all 12 at min_confidence 0.45 (the exported Go function of an
importable package is public API, 0.45, by design).

Answer sizes (tokens = characters / 4, default budget 2000; JSON / TOON): Django
``dead_code`` 1767 / 1463 (the whole default list, then of 30); ``impact`` of
``QuerySet.filter`` 1982 / 1989 at the budget (TOON fits more rows), 3048 / 2385
whole (100 rows); of ``slugify`` 276 / 218. attrs ``dead_code`` 413 / 348;
``impact`` of its three most-called definitions 1973-2000 / 1011-1256.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import CallToolResult, TextContent

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.model import EdgeKind
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.analysis.dead_code import DeadCodeScope, DeadSymbol, find_dead
from symfuse.ranking.query.search_request import IncludeTests

SYMFUSE = Path(sys.executable).with_name("symfuse")
CHARS_PER_TOKEN = 4


def tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def bands(found: list[DeadSymbol]) -> dict[str, int]:
    counts = Counter(f"{d.confidence:.2f}" for d in found)
    return dict(sorted(counts.items(), reverse=True))


def reasons(found: list[DeadSymbol]) -> list[tuple[str, int]]:
    parts = Counter(
        part.split(":")[0].split("(")[0].strip() for d in found for part in d.reason.split("; ")
    )
    return parts.most_common(12)


def sample(found: list[DeadSymbol], tree: Path, size: int) -> None:
    random.seed(7)
    chosen = random.sample(found, min(size, len(found)))
    for d in sorted(chosen, key=lambda d: -d.confidence):
        print(f"== {d.confidence:.2f} {d.symbol.symbol_id} :: {d.reason}")
        grep = subprocess.run(
            ["grep", "-rnw", "--exclude-dir=.git", d.symbol.name, "."],
            cwd=tree,
            capture_output=True,
            text=True,
            check=False,
        )
        lines = grep.stdout.splitlines()
        for line in lines[:10]:
            print("     ", line[:160])
        if len(lines) > 10:
            print(f"      ... {len(lines)} lines")


def busiest(index: Any, count: int = 3) -> list[str]:
    """The definitions with the most distinct callers (impact worth measuring)."""
    import numpy as np

    edges = index.edges
    calls = edges.dst[edges.kind == int(EdgeKind.CALLS)]
    top = np.bincount(calls, minlength=len(index.symbols)).argsort()[::-1][:count]
    return [index.symbols[int(i)].symbol_id for i in top]


def _text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


async def answer_sizes(tree: Path, index_dir: Path, targets: list[str]) -> list[dict[str, Any]]:
    params = StdioServerParameters(
        command=str(SYMFUSE),
        args=["mcp", str(tree), "--index-dir", str(index_dir), "--tools", "all"],
        env=dict(os.environ),  # (the SDK passes on only HOME, PATH and a few more)
    )
    calls = [("dead_code", {})] + [("impact", {"target": t}) for t in targets]
    rows: list[dict[str, Any]] = []
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        for tool, arguments in calls:
            row: dict[str, Any] = {"tool": tool, **arguments}
            for fmt in ("json", "toon"):
                for budget in (None, 50_000):
                    args = {**arguments, "output_format": fmt}
                    if budget is not None:
                        args["max_tokens"] = budget
                    result = await session.call_tool(tool, args)
                    key = f"{fmt}{'' if budget is None else '_whole'}"
                    row[key] = tokens(_text(result))
            rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--index-dir", type=Path)
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--min-confidence", type=float, default=0.5)
    parser.add_argument("--include-tests", default="false", choices=("true", "false", "only"))
    parser.add_argument("--impact", nargs="*", default=None, help="symbol ids for impact")
    parser.add_argument("--no-mcp", action="store_true", help="skip the answer sizes")
    args = parser.parse_args()
    tree = args.tree.resolve()
    index_dir = args.index_dir or tree.parent / f".symfuse-{tree.name}"
    config = IndexConfig(roots=(tree,), index_dir=index_dir, progress=False)
    index, _ = update_index(config)
    started = time.perf_counter()
    scope = DeadCodeScope(min_confidence=0.0, include_tests=IncludeTests(args.include_tests))
    candidates = find_dead(index, scope)
    seconds = time.perf_counter() - started
    found = [d for d in candidates if d.confidence >= args.min_confidence]
    print(f"{tree.name}: {len(index.symbols)} definitions, {len(candidates)} unreferenced")
    print(f"reported at min_confidence {args.min_confidence}: {len(found)}")
    print(f"seconds (first call, indicative): {seconds:.2f}")
    print("by confidence:", json.dumps(bands(candidates)))
    print("by kind (reported):", json.dumps(Counter(d.symbol.kind.value for d in found)))
    print("reasons (all candidates):")
    for reason, count in reasons(candidates):
        print(f"  {count:6d}  {reason}")
    if not args.no_mcp:
        targets = args.impact if args.impact is not None else busiest(index)
        print("answer sizes in tokens (characters / 4), default budget and whole:")
        for row in asyncio.run(answer_sizes(tree, index_dir, targets)):
            print("  " + json.dumps(row))
    if args.sample:
        sample(found, tree, args.sample)


if __name__ == "__main__":
    main()
