"""The ``symfuse`` console script: the collector decided before the first import.

A one-shot command (``search``, ``index``, ``usages`` ...) builds its heap once and
exits without tearing it down (:func:`symfuse.server.cli.main.main`), so the cyclic
collector's passes are pure cost; they start with the imports, which allocate hundreds
of thousands of objects before the command runs (a warm ``symfuse search`` on a small
repository spends about a tenth of its time importing). So this entry turns the
collector off before it imports anything of symfuse's; the servers keep it.
"""

from __future__ import annotations

import gc
import sys

SERVERS = frozenset({"lsp", "mcp"})  # long-lived: they keep the cyclic collector


def main() -> int:
    """Run the command line (:func:`symfuse.server.cli.main.main`)."""
    words = sys.argv[1:]
    command = words[0] if words and not words[0].startswith("-") else None
    if command not in SERVERS:
        gc.disable()
    from symfuse.server.cli.main import main as run

    return run()
