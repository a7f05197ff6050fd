"""Stack frames in a query: a pasted traceback names the definitions it ran through.

A bug report often carries a stack trace or a log line with ``path:line``. Each frame
names a file and a line, so the innermost definition there is very likely what the
report is about: those definitions join the identity channel first and the exact-name
guard puts them first (``spelled``), innermost frame first. Python prints the innermost
frame last ("most recent call last"); Java, JavaScript, Go and Rust print it first.

A frame's path may be absolute or rooted elsewhere (``/home/ci/proj/shop/pay.py``,
``site-packages/shop/pay.py``): it names an indexed file when one of its suffixes is the
file's path (the longest wins), or a file ends with it (``Pay.java`` of a Java frame).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.search.channel_run import ChannelRun, names_lead
from symfuse.ranking.search.lookup import lookup

MAX_FRAMES = 20  # the innermost frames that count (a recursion repeats the same ones)
_PYTHON = re.compile(r'File "(?P<path>[^"\n]+)", line (?P<line>\d+)')
# JavaScript (`at f (src/a.js:3:9)`), Rust (`at src/lib.rs:12:5`), Go (`\t/x/a.go:12 +0x1d`),
# Java (`at a.B.c(B.java:12)`), compilers and logs (`src/a.c:12:3: error`)
_PATH_LINE = re.compile(
    r"(?<![\w./\\-])(?P<path>(?:[A-Za-z]:)?[\w.\\/-]*\w\.[A-Za-z]\w{0,5}):(?P<line>\d+)(?!\d)"
)
_PYTHON_ORDER = "most recent call last"


@dataclass(frozen=True, slots=True)
class Frame:
    path: str
    line: int


def frames(text: str) -> list[Frame]:
    """The frames ``text`` names, innermost first, each once."""
    python = [Frame(m["path"], int(m["line"])) for m in _PYTHON.finditer(text)]
    if python and _PYTHON_ORDER in text:
        python.reverse()
    others = [Frame(m["path"], int(m["line"])) for m in _PATH_LINE.finditer(text)]
    return list(dict.fromkeys([*python, *others]))[:MAX_FRAMES]


def _indexed(prepared: Prepared, path: str) -> str:
    """The indexed file ``path`` names: the longest suffix of it that is a file's path,
    else the path itself when a file ends with it (lookup's own rule)."""
    parts = path.replace("\\", "/").strip("/").split("/")
    files = set(prepared.filters.files)
    for start in range(len(parts)):
        suffix = "/".join(parts[start:])
        if suffix in files:
            return suffix
    return path


def with_frames(
    index: Index,
    prepared: Prepared,
    run: ChannelRun,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
) -> ChannelRun:
    """``run`` with the definitions of the query's frames first (innermost first)."""
    found: list[int] = []
    for frame in frames(query):
        path = _indexed(prepared, frame.path)
        for at in lookup(index, prepared, f"{path}:{frame.line}").tolist():
            if (mask is None or mask[at]) and at not in found:
                found.append(at)
    if not found:
        return run
    known = np.asarray(found, dtype=np.int64)
    return names_lead(prepared, run, known, MatchTier.EXACT, spelled=True)
