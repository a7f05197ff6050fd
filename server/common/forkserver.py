"""The fork server a long-running server's worker processes start from.

A server runs threads, so its parser and tokenizer processes start from a fork server
rather than by forking the server (:func:`symfuse.indexer.extract.procs.context`). Each
worker would then import the parser's modules (tree-sitter, the extractor) on its first
file, every worker the same modules at the same moment, on the cores the index is built
on; :func:`preload_parsers` has the fork server import them once, before its first fork.
"""

from __future__ import annotations

import multiprocessing

# What a parse worker imports before its first file (extract.parsing unpickles the job,
# extract.tags parses); "__main__" is the fork server's own default, kept.
PARSER_MODULES = ("symfuse.indexer.extract.parsing", "symfuse.indexer.extract.tags")


def preload_parsers() -> None:
    """Have the fork server (started with the first pool) import the parser's modules,
    so that every worker forked from it has them. Call before the first pool starts."""
    multiprocessing.set_forkserver_preload(["__main__", *PARSER_MODULES])
