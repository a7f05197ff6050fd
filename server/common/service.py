"""One live index for a long-running server (LSP, MCP), its ranking structures kept warm.

:class:`IndexService` wraps a :class:`LiveIndex` (load or build in the background,
watch the roots) and owns the one staleness policy both servers follow:

- the ranking structures (:func:`symfuse.ranking.api.prepare`) of the first index are
  built in a background thread as soon as it is ready, those of each later index once
  it has been still for :data:`WARM_QUIET` seconds, or at once when a query asks for
  them; they serve before their ranking file is written (:mod:`.saves`);
- meanwhile a query answers from the latest earlier structures of the workspace,
  flagged stale (:meth:`IndexService.ranking`, :meth:`IndexService.ranked`);
- before there are any (a cold start) the quick name ranking answers, and its table is
  built as soon as each index appears;
- a failed build is retried after :data:`RETRY_AFTER` seconds, not at once.

Changes reach the thread as notifications from the live index (:meth:`LiveIndex.on_change`);
it waits on a condition, with a deadline for the quiet moment and the retry alone.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from symfuse.indexer.config import IndexConfig, UpdateReport
from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.index import Index
from symfuse.indexer.update.live import LiveIndex
from symfuse.server.common.first_queries import compile_queries
from symfuse.server.common.heap import give_back
from symfuse.server.common.saves import Saves
from symfuse.server.common.service_records import (
    Progress,
    Ranked,
    Ranking,
    Reindexed,
    ServiceStatus,
    languages_of,
)
from symfuse.server.common.targets import reindex_targets
from symfuse.server.common.turns import Turns

if TYPE_CHECKING:
    # The ranking layer loads on the warming thread once indexing has started (see
    # :meth:`IndexService.start`), not before: a server's first index waits for none of it.
    from symfuse.ranking.api import CallGraphAnswer, Histories, NameTable, Prepared, Repository
    from symfuse.ranking.query.requests import ReindexRequest, ReposRequest
    from symfuse.ranking.query.responses import SearchResponse
    from symfuse.ranking.query.search_request import SearchRequest
    from symfuse.server.common.semantic import SemanticWorker

log = logging.getLogger(__name__)

__all__ = ["NAMES_FIRST", "IndexService"]  # the records: service_records

WARM_QUIET = 0.5  # seconds an index stays unchanged before its ranking structures are built
RETRY_AFTER = 60.0  # seconds before a failed build of the ranking structures is tried again
STOP_TIMEOUT = 5.0  # seconds stop() waits for the warming thread
# Symbols from which a cold start answers a name or a sentence by names alone, not waiting
# for the first structures (symfuse.ranking.search.cold_start); a smaller index has them soon.
NAMES_FIRST = 10_000

AfterPrepare = Callable[[Index, Callable[[], bool]], None]
"""The warming thread's work once ``index`` has its structures (the LSP reads lines ahead);
it stops as soon as the second argument returns True."""


class IndexService:
    """A :class:`LiveIndex` plus its ranking structures, kept warm by one policy."""

    sharded = False  # True for shards (symfuse.server.shards): only search() answers

    def __init__(
        self,
        config: IndexConfig,
        *,
        warm: bool = True,
        quiet: float = WARM_QUIET,
        first_quiet: float = 0.0,
        after_prepare: AfterPrepare | None = None,
        names_first: int = NAMES_FIRST,
    ) -> None:
        self.live = LiveIndex(config)
        self.config = self.live.config
        # read once: a default directory is resolved from the roots (a few stat calls)
        self.index_dir = self.config.store.directory
        self.progress = Progress()
        self._warm_enabled = warm
        self.quiet = quiet  # seconds an index stays unchanged before its structures are built
        self.first_quiet = first_quiet  # the same for the first: none, they are due at once
        self.names_first = names_first  # symbols from which a cold start answers names first
        self._after_prepare = after_prepare
        self._prepared: tuple[Index, Prepared] | None = None
        self._stored: bool | None = None  # read on first need (:meth:`_has_stored`)
        # One build at a time: a cold start's query and the warming thread would hold two.
        self._building = threading.Lock()
        self._changes = threading.Condition()
        self._version = 0  # counts changes of the index, its readiness or its structures
        self._wanted = False  # a query asked for structures: build them without a quiet period
        self._stopping = self._started = False
        self._warmed = False  # the first queries were answered ahead (:meth:`_answer_ahead`)
        self._turns = Turns(self._changes, lambda: self._stopping or self._wanted)  # pauses
        self._thread = threading.local()  # .warming: this is the warming thread
        self._warmer: threading.Thread | None = None
        self._seen: tuple[int, int] | None = None  # the index the warming thread saw last
        self._since = 0.0  # when it first saw it
        self._retry_at = 0.0
        self._indexed: NameTable | None = None  # the names last given suffix arrays (_step)
        self._compiled: set[str] = set()  # languages whose parse queries were compiled
        self.semantic: SemanticWorker | None = None  # made by the warming thread
        self._saves = Saves()  # ranking files, written once their structures serve
        self.live.on_change(self._notify)

    # --- lifecycle --------------------------------------------------------------------

    def start(self, *, watch: bool, debounce_ms: int = 50) -> None:
        """Load or build the index in the background, then follow the roots if ``watch``.

        Once only: a server may start its service before its protocol library has loaded
        (the index builds meanwhile), and its start-up calls this again."""
        if self._started:
            return
        self._started = True
        self.live.start(self._on_progress)
        if watch:
            self.live.watch(debounce_ms)
        if self._warm_enabled:
            warmer = threading.Thread(target=self._warm, name="symfuse-warm", daemon=True)
            warmer.start()  # then kept: stop() never joins a thread that has not started
            self._warmer = warmer

    def hold_work_ahead(self, check: bool = True) -> None:
        """Build only what a query needs until the first after :meth:`serving` is answered;
        ``check``: check a stored index's files and start watching them after it too."""
        self._turns.hold(self.live.release_check if check else None)
        if check:
            self.live.hold_check()

    def serving(self) -> None:
        """The front end is up: its first answered query lets the work ahead start."""
        self._turns.serve()
        self._notify()

    def watch(self, debounce_ms: int = 50) -> None:
        """Follow the roots (when a client that was to report changes will not)."""
        self.live.watch(debounce_ms)

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """Stop indexing, watching and warming; wait for each thread up to ``timeout``."""
        with self._changes:
            self._stopping = True
            self._changes.notify_all()
        self.live.stop(timeout)
        warmer = self._warmer
        if warmer is not None and warmer is not threading.current_thread():
            warmer.join(timeout=timeout)
        if self.semantic is not None:
            self.semantic.join(timeout)
        self._saves.close(timeout)

    def _has_stored(self) -> bool:
        """Whether an earlier run stored structures (read once): they load in ~1 s, no quick
        table is made meanwhile (a query before then gets one on demand)."""
        if self._stored is None:
            from symfuse.ranking.api import has_stored

            self._stored = has_stored(self.index_dir)
        return self._stored

    @property
    def running(self) -> bool:  # not stopped (yet)
        return not self._stopping

    def _on_progress(self, message: str, done: int, total: int) -> None:
        self.progress = Progress(message, done, total)
        self._notify()

    def notify(self) -> None:
        """Wake whoever waits for a change (:meth:`wait_change`): new vectors, say."""
        self._notify()

    def _notify(self) -> None:
        with self._changes:
            self._version += 1
            self._changes.notify_all()

    @property
    def version(self) -> int:
        """A number that grows at every change (see :meth:`wait_change`)."""
        return self._version

    def wait_change(self, seen: int, timeout: float | None = None) -> int:
        """Block until something changed after :attr:`version` was ``seen`` (or the
        service stops, or ``timeout`` passes); the version now."""
        with self._changes:
            self._changes.wait_for(lambda: self._stopping or self._version != seen, timeout)
            return self._version

    # --- reading ----------------------------------------------------------------------

    @contextmanager
    def reading(self) -> Iterator[Index]:
        """The current index, locked against changes while the caller reads it."""
        with self.asking(), self.live.reading() as index:
            yield index

    @contextmanager
    def asking(self) -> Iterator[None]:
        """A client's query (any thread but the warming one's) runs meanwhile."""
        if getattr(self._thread, "warming", False):
            yield
            return
        with self._changes:
            self._turns.begin()
        try:
            yield
        finally:
            with self._changes:
                if self._turns.end():  # the first answer, made
                    self._version += 1
                    if self._warmer is None:  # else the warming thread, in a pause (_step)
                        self._turns.release_check()
                self._changes.notify_all()

    def give_way(self) -> None:
        """Block until the clients pause (:mod:`~symfuse.server.common.turns`)."""
        self._turns.wait_idle()

    def current(self) -> Index:
        with self.live.reading() as index:
            return index

    def wait_ready(self, timeout: float | None) -> bool:
        """Block until the first index can answer; False on timeout."""
        return self.live.wait_ready(timeout)

    def prepared_for(self, index: Index) -> Prepared | None:
        """The ranking structures of exactly this index, when they are built."""
        found = self._prepared
        if found is not None and found[0] is index and found[1].generation == index.generation:
            return found[1]
        return None

    def ranking(self, index: Index) -> Ranking:
        """The structures of ``index``, or else the latest earlier ones of its workspace.

        Without structures for ``index`` (just after an edit) their build starts at once
        (no quiet period: a one-file change re-prepares in a few hundred milliseconds);
        meanwhile the caller answers from the earlier ones, stale."""
        found = self.prepared_for(index)
        if found is not None:
            return Ranking(found)
        last = self._prepared
        if last is None or last[0].roots != index.roots:
            return Ranking()  # cold start
        self._want()
        return Ranking(None, last)

    def _want(self) -> None:
        """Have the warming thread build the structures now, with no quiet period."""
        with self._changes:
            self._wanted = True
            self._changes.notify_all()

    @contextmanager
    def ranked(self) -> Iterator[Ranked]:
        """The current index with its structures; while they are rebuilt, the earlier
        index with its own (stale) rather than a wait; on a cold start the current
        index with structures built now (or by the warming thread, if it is at it)."""
        with self.asking(), self.live.reading() as index:
            ranking = self.ranking(index)
            if ranking.previous is None:
                prepared = ranking.prepared or self._build(index)
                yield Ranked(index, prepared, stale=False)
                return
        yield Ranked(*ranking.previous, stale=True)

    def search(
        self, request: SearchRequest, *, histories: Histories | None = None
    ) -> tuple[SearchResponse | CallGraphAnswer, bool]:
        """The one search both servers run (:func:`operations.search` over :meth:`ranked`),
        and whether it answered from an earlier index (stale). Before the first structures
        of a large index, a name or a sentence is answered from names alone, a call question
        from the graph (:mod:`symfuse.ranking.search.cold_start`); their build starts. A sharded
        service answers the same call by fan-out (:mod:`symfuse.server.shards.service`)."""
        from symfuse.ranking.api import early_answer
        from symfuse.ranking.query import operations
        from symfuse.ranking.query.parse import parse

        parsed = parse(request)  # read once: for a cold start's names and for the search
        if self._prepared is None and not self._has_stored():  # a cold start
            with self.asking(), self.live.reading() as index:
                large = len(index.symbols) >= self.names_first
                early = early_answer(index, request, parsed, large=large)
            if early is not None:
                self._want()
                return early, False
        with self.ranked() as ranked:
            answer = operations.search(
                ranked.index,
                request,
                directory=self.index_dir,
                prepared=ranked.prepared,
                histories=histories,
                parsed=parsed,
            )
        return answer, ranked.stale

    def repositories(self, request: ReposRequest) -> list[Repository]:
        """The repositories served (:func:`operations.repos`)."""
        from symfuse.ranking.query import operations

        with self.reading() as index:
            return operations.repos(index, request, self.index_dir)

    def status(self) -> ServiceStatus:
        """The one status both servers report (never waits for the first index)."""
        from symfuse.ranking.api import semantic_status

        live = self.live
        index_status = live.status()
        with live.reading() as index:
            ranking = self.prepared_for(index) is not None
            roots = dict(index.roots)
            languages = languages_of(index)
        return ServiceStatus(
            index=index_status,
            ranking=ranking,
            roots=roots,
            index_dir=self.index_dir,
            stale_files=tuple(live.pending_paths()),
            languages=languages,
            similarity_model=semantic_status(),
            warmed=self._warmed,
        )

    # --- changes ----------------------------------------------------------------------

    def refresh(self, paths: Sequence[str] | None = None) -> UpdateReport | None:
        """Re-index ``paths`` (absolute or root-relative; all when None) from disk."""
        return self.live.refresh(paths)

    def note_changed(self, paths: Sequence[str]) -> None:
        """Files a client saw change on disk: answers are stale until they are refreshed."""
        self.live.note_changed(paths)

    def reindex(self, request: ReindexRequest) -> Reindexed:
        """Re-index the files ``request`` names (each confined to the workspace), or all."""
        targets: list[str] | None = None
        if request.paths:
            with self.live.reading() as index:
                targets = reindex_targets(index, request.paths)
        report = self.live.refresh(targets)
        self._publish()
        return Reindexed("full" if targets is None else "paths", report)

    def _publish(self) -> None:
        """Build the ranking structures of the index a reindex left before it returns, so
        that no search after it answers from the earlier index (its deleted symbols)."""
        current = self.current()
        if self.prepared_for(current) is None:  # even while a first build is under way
            self._prepare(current)
        if self.semantic is not None:
            self.semantic.embed_small(current)

    # --- warming ----------------------------------------------------------------------

    def _warm(self) -> None:
        """Load the ranking layer while the first index builds, start the semantic thread,
        then look at the index at each change, and when a deadline of :meth:`_step` passes."""
        from symfuse.server.common.semantic import SemanticWorker

        self._thread.warming = True
        if not self._has_stored():
            import scipy.sparse  # noqa: F401  (a first build needs it: loaded meanwhile)
        self.semantic = SemanticWorker(self)
        self.semantic.start()
        seen = -1
        wait: float | None = 0.0
        while (look := self._await(seen, wait)) is not None:
            seen, wanted = look
            wait = self._step(wanted)

    def _await(self, seen: int, wait: float | None) -> tuple[int, bool] | None:
        """After a change past version ``seen``, or ``wait`` seconds (None: no deadline):
        the version and whether a query asked for structures; None once stopping."""
        with self._changes:
            if wait != 0.0:
                self._changes.wait_for(
                    lambda: self._stopping or self._wanted or self._version != seen, timeout=wait
                )
            if self._stopping:
                return None
            wanted, self._wanted = self._wanted, False
            return self._version, wanted

    def _step(self, wanted: bool) -> float | None:
        """One look: build what is due; how long until the next look (None: the next change)."""
        self._index_names()  # neither a stored index's check nor a pause awaited
        if self._turns.check_due() and not self._turns.check_turn(wanted and not self._prepared):
            return 0.0  # the stored index's check: after the first answer, in a pause
        current = self.current()
        now = time.monotonic()
        key = (id(current), current.generation)
        if key != self._seen:
            self._seen, self._since = key, now
            if self._prepared is None and self.live.ready and not self._has_stored():
                from symfuse.ranking.api import names_table

                names_table(current)  # the quick ranking answers until the first structures
        status = self.live.status()
        prepared = self.prepared_for(current)
        if prepared is not None:  # built (here or by a query): the rest, in a pause
            if self._turns.held:  # the rest is for later queries: once the first is answered
                return self._turns.hold_left()
            if not self._turns.paused():  # the rest, in a pause of the clients'
                return 0.0
            compile_queries(current, self._compiled)
            if not self._warmed and not status.indexing:  # (a stored index: once checked)
                self._answer_ahead(current)
            return None
        # nothing to build until the first index is done; but a stored index's structures
        # load while it is checked (if it changed, they answer, stale, until its own are)
        loading = self._prepared is None and self._has_stored()
        if not status.ready or (status.indexing and not loading):
            return None
        if current.links_pending:
            return None  # an edit's links come next, as a change: build for that index
        if now < self._retry_at:
            return self._retry_at - now
        quiet = self.quiet if self._prepared is not None else self.first_quiet
        if not wanted and now - self._since < quiet:
            return self._since + quiet - now
        self._prepare(current)
        return 0.0  # the index may have changed meanwhile: look again at once

    def _index_names(self) -> None:
        """The current names' suffix arrays (substrings by binary search, where a one-shot
        search scans: 0.1 s on SQLAlchemy, the sort leaves the GIL) once the first answer
        is out; every query reads them, so they come before any other work ahead."""
        prepared = None if self._turns.held else self.prepared_for(self.current())
        if prepared is not None and prepared.names.index_suffixes(self._indexed):
            self._indexed = prepared.names
            give_back()  # the suffix sort's temporaries
            self._notify()

    def _prepare(self, index: Index) -> None:
        try:
            self._build(index)
        except (SymfuseError, OSError, ValueError) as exc:
            log.warning("preparing the ranking structures failed: %s", exc)
            self._retry_at = time.monotonic() + RETRY_AFTER
            return
        if getattr(self._thread, "warming", False):  # their one builder (not a reindex's)
            self._index_names()  # before the work that waits for the clients' pauses
        if self._after_prepare is not None:
            self._after_prepare(index, lambda: self._interrupted(index, pause=True))

    def _answer_ahead(self, index: Index) -> None:
        """One query of each shape, once per service (later indexes change by an edit)."""
        from symfuse.server.common.first_queries import answer_one_of_each

        if answer_one_of_each(self, lambda: self._interrupted(index)):
            self._warmed = True
            self._notify()

    def _build(self, index: Index) -> Prepared:
        """The structures of ``index``: built here unless another thread built them while
        this one waited; published for every later query."""
        with self._building:
            found = self.prepared_for(index)
            if found is not None:
                return found
            from symfuse.ranking.api import forget_names, prepare

            prepared = prepare(index, self.index_dir, deferred=self._saves.add)
            forget_names(index)  # answers come from the structures now (an edit: see editor)
            current = self.current()
            with self._changes:
                last = self._prepared  # never go back to an older index's
                if last is None or index is current or last[0] is not current:
                    self._prepared = (index, prepared)
                self._version += 1
                self._changes.notify_all()
            give_back()  # the load's and the build's temporaries (server/common/heap.py)
            return prepared

    def _interrupted(self, index: Index, pause: bool = False) -> bool:
        """Whether work after a build should stop (stopping, a query wants new structures,
        ``index`` has none now); ``pause``: asked once the clients pause (:meth:`give_way`)."""
        if pause:
            self.give_way()
        return self._stopping or self._wanted or self.prepared_for(index) is None
