"""Which files a reindex request names: the one reading of ``paths`` for every front end."""

from __future__ import annotations

import os
from collections.abc import Sequence

from symfuse.indexer.index import Index


def reindex_targets(index: Index, paths: Sequence[str]) -> list[str] | None:
    """The real paths ``paths`` name inside the workspace of ``index`` (``paths[i]`` named
    in errors); None, meaning everything, when one is a directory (cheap: unchanged files
    are skipped by size, mtime and hash)."""
    from symfuse.ranking.api import confine

    targets = [confine(index, path, argument=f"paths[{i}]").real for i, path in enumerate(paths)]
    return None if any(os.path.isdir(t) for t in targets) else targets
