"""The ``symfuse`` console script: the collector decided before the first import.

A one-shot command (``search``, ``index``, ``usages`` ...) builds its heap once and
exits without tearing it down (:func:`symfuse.server.cli.main.main`), so the cyclic
collector's passes are pure cost; they start with the imports, which allocate hundreds
of thousands of objects before the command runs (a warm ``symfuse search`` on a small
repository spends about a tenth of its time importing). So this entry turns the
collector off before it imports anything of symfuse's; the servers keep it.

A query command (``search``, ``usages`` ...) is first sent to the resident process of
this environment (:mod:`symfuse.server.cli.resident`), which has the imports done; when
none answers, the command runs here and starts one for the next.

It also tells pydantic to look for no plugins (``PYDANTIC_DISABLE_PLUGINS``, unless the
user set it): symfuse's request models are its own, and the search for plugins reads
the entry points of every installed distribution when the first model is built, which
costs a warm query about as much as importing pydantic itself.
"""

from __future__ import annotations

import gc
import os
import sys

SERVERS = frozenset({"lsp", "mcp"})  # long-lived: they keep the cyclic collector


def main() -> int:
    """Run the command line (:func:`symfuse.server.cli.main.main`)."""
    words = sys.argv[1:]
    command = words[0] if words and not words[0].startswith("-") else None
    if command not in SERVERS:
        gc.disable()
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from symfuse.server.cli import resident

    if resident.routed(words):
        code = resident.ask(words)
        if code is not None:
            return code
        if resident.may_start():
            resident.start(words)  # it imports beside this command, for the next one
    from symfuse.server.cli.main import main as run

    return run()
