"""numpy arrays read from files, one header at a time.

numpy parses every ``.npy`` header with ``ast.literal_eval``, and CPython 3.11's AST
constructor keeps its recursion depth per interpreter, not per thread: two threads reading
headers at once fail with "AST constructor recursion depth mismatch" (a shard group's
holders load their shards side by side; a server's warming thread and a query can read
stored files together). Every header symfuse reads is read under :data:`HEADERS`.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

HEADERS = threading.Lock()


def npz_arrays(path: Path) -> dict[str, npt.NDArray[Any]]:
    """Every array of the ``.npz`` file at ``path`` (no pickles), read under :data:`HEADERS`."""
    with np.load(path, allow_pickle=False) as npz, HEADERS:
        return {name: npz[name] for name in npz.files}
