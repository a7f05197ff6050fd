"""The history index of a workspace as the front ends use it: built, updated and loaded.

``symfuse index --history`` builds it; ``symfuse mcp --history`` and ``symfuse lsp
--history`` build or update it in a background thread when they start; every
front end reads whatever history is stored (reloaded when an update lands), and a
query over a workspace without one gets an error saying how to build it.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.history.store import HEAD, history_dir
from symfuse.ranking.api import NO_HISTORY, Histories, HistoryNotIndexed, load_histories

if TYPE_CHECKING:  # the builder (git log, diffs, tree-sitter) is imported when a build runs:
    # every server keeps a keeper, few build (its import would slow every server's start)
    from symfuse.indexer.history.build import HistoryReport

log = logging.getLogger(__name__)


class _Stopped(Exception):
    """The server is leaving: the background build gives up (nothing half-written stays)."""


class HistoryKeeper:
    """One workspace's history: :meth:`update` builds it, :meth:`histories` reads it."""

    def __init__(self, config: IndexConfig, *, build: bool = False) -> None:
        self.roots = config.aliases
        self.directory = config.store.directory
        self.build = build
        self.errors: dict[str, str] = {}  # alias -> why its history could not be built
        self._lock = threading.Lock()
        self._refreshing = threading.Lock()  # one update at a time
        self._loaded: tuple[tuple[float, ...], Histories] | None = None
        self._stop = threading.Event()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    # --- building -------------------------------------------------------------------

    def update(self, *, only_existing: bool = False) -> list[HistoryReport]:
        """Build or update each repository's history (``only_existing``: only those that
        have one already, as a query command does before it reads)."""
        from symfuse.indexer.history.build import update_history
        from symfuse.indexer.history.gitlog import NotARepository

        reports: list[HistoryReport] = []
        for alias, path in self.roots.items():
            if only_existing and not (history_dir(self.directory, alias) / HEAD).exists():
                continue
            try:
                reports.append(
                    update_history(alias, Path(path), self.directory, progress=self._check)
                )
            except NotARepository as exc:
                self.errors[alias] = str(exc)
                log.warning("no history for %s: %s", alias, exc)
        return reports

    def _check(self, _read: int) -> None:
        if self._stop.is_set():
            raise _Stopped

    def start(self) -> None:
        """Build or update the history in the background when asked to (``build``)."""
        if not self.build:
            self._done.set()
            return
        self._thread = threading.Thread(target=self._run, name="symfuse-history", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            reports = self.update()
            for r in reports:
                log.info("history of %s: %d new commits, %d in all", r.alias, r.read, r.commits)
        except _Stopped:
            log.info("history build stopped")
        except Exception:  # a background thread must say why it ended
            log.exception("history build failed")
        finally:
            self._done.set()

    def stop(self, timeout: float) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def refresh(self) -> None:
        """Read the commits made since the last update (a server with ``--history`` does
        this before each history query: cheap when there are none)."""
        if not self.build or not self._done.is_set():
            return
        with self._refreshing:
            try:
                self.update(only_existing=True)
            except (SymfuseError, OSError) as exc:
                log.warning("updating the history failed: %s", exc)

    def wait(self, timeout: float | None) -> bool:
        """Wait for the background build (when there is one); whether it is done."""
        return self._done.wait(timeout)

    # --- reading --------------------------------------------------------------------

    def histories(self) -> Histories:
        """The stored histories, reloaded when a repository's head changed since."""
        stamp = self._stamp()
        with self._lock:
            if self._loaded is not None and self._loaded[0] == stamp:
                return self._loaded[1]
            if not any(stamp):
                raise HistoryNotIndexed(self._why_none())
            loaded = load_histories(self.directory, self.roots)
            self._loaded = (stamp, loaded)
            return loaded

    def _stamp(self) -> tuple[float, ...]:
        out: list[float] = []
        for alias in self.roots:
            try:
                out.append((history_dir(self.directory, alias) / HEAD).stat().st_mtime)
            except OSError:
                out.append(0.0)
        return tuple(out)

    def _why_none(self) -> str:
        if self.errors:
            return "no history index: " + "; ".join(self.errors.values())
        if self.build and not self._done.is_set():
            return (
                "the history index is still being built (started with --history); "
                "retry in a little while"
            )
        return NO_HISTORY
