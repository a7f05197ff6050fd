"""The progress bar of a parse: tqdm on a terminal, nothing anywhere else."""

from __future__ import annotations

import sys
from typing import Protocol


class Bar(Protocol):
    total: int | None

    def update(self, n: int = 1) -> object: ...
    def refresh(self) -> object: ...
    def __enter__(self) -> Bar: ...
    def __exit__(self, *exc: object) -> object: ...


class _SilentBar:
    """What parse_stream asks of a progress bar, doing nothing."""

    total: int | None = None

    def update(self, n: int = 1) -> None:
        pass

    def refresh(self) -> None:
        pass

    def __enter__(self) -> _SilentBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress_bar(total: int | None, show: bool) -> Bar:
    """tqdm on a terminal; otherwise nothing, and tqdm is not even imported (its import
    would slow every command, most of them run by editors and scripts without a
    terminal)."""
    if not (show and sys.stderr.isatty()):
        return _SilentBar()
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: it would make forking unsafe
    bar: Bar = tqdm(total=total, unit="file", desc="indexing", file=sys.stderr, leave=False)
    return bar
