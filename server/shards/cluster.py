"""The Dask cluster shards are built and served on: an existing one, or one started here.

Whatever symfuse starts binds to 127.0.0.1 (:data:`LOOPBACK`). Another address
is an explicit choice (``--bind``), which prints a warning, and is served over
TLS when the TLS files are given (Dask's :class:`distributed.security.Security`).
Dask is the ``cluster`` extra; :func:`need_dask` names it when it is missing.
"""

from __future__ import annotations

import ipaddress
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from symfuse.indexer.errors import SymfuseError

if TYPE_CHECKING:
    from distributed import Client

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
INSTALL = "pip install 'symfuse[cluster]'"


@dataclass(frozen=True, slots=True)
class ClusterOptions:
    """Where the work runs: ``scheduler`` (an address), else ``workers`` local processes
    bound to ``bind`` (0: in this process, no Dask), with TLS files when given."""

    scheduler: str | None = None
    workers: int = 0
    bind: str = LOOPBACK
    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None

    @property
    def tls(self) -> bool:
        return self.tls_ca_file is not None

    @property
    def distributed(self) -> bool:
        return self.scheduler is not None or self.workers > 0


def need_dask() -> None:
    """Raise a SymfuseError naming the extra to install when Dask is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        raise SymfuseError(f"shards on Dask need the cluster extra: {INSTALL}") from exc


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def security(options: ClusterOptions) -> Any:
    """Dask's TLS security for the given files (None: plain TCP)."""
    if not options.tls:
        return None
    from distributed.security import Security

    return Security(
        tls_ca_file=options.tls_ca_file,
        tls_client_cert=options.tls_cert,
        tls_client_key=options.tls_key,
        tls_scheduler_cert=options.tls_cert,
        tls_scheduler_key=options.tls_key,
        tls_worker_cert=options.tls_cert,
        tls_worker_key=options.tls_key,
        require_encryption=True,
    )


def check_bind(options: ClusterOptions) -> None:
    """Refuse half a TLS setup; warn, on stderr, before binding beyond loopback."""
    files = (options.tls_ca_file, options.tls_cert, options.tls_key)
    if any(files) and not all(files):
        raise SymfuseError("TLS needs all of --tls-ca-file, --tls-cert and --tls-key")
    if not is_loopback(options.bind):
        how = "over TLS" if options.tls else "WITHOUT TLS: anyone who reaches it runs code"
        print(
            f"symfuse: warning: the Dask scheduler and workers listen on {options.bind}, "
            f"beyond this machine, {how}",
            file=sys.stderr,
        )


@contextmanager
def connected(options: ClusterOptions) -> Iterator[Client | None]:
    """A client of the cluster ``options`` name (None: work in this process); a cluster
    started here is closed on leaving."""
    if not options.distributed:
        yield None
        return
    need_dask()
    check_bind(options)
    # Dask's own configuration sets its loggers to INFO: a command's stderr gets only
    # what its --log-level asks for.
    logging.getLogger("distributed").setLevel(max(logging.WARNING, logging.getLogger().level))
    from distributed import Client, LocalCluster

    # Closed by hand, not as context managers: a server opens them on one thread and
    # closes them on another, and a Client's ``with`` holds a context variable token.
    if options.scheduler is not None:
        client = Client(options.scheduler, security=security(options))
        try:
            yield client
        finally:
            client.close()
        return
    import dask

    # Dask's profiler samples each worker's threads every 10 ms for the dashboard's profile
    # page; there is no dashboard here, and a group's actor holds two threads a shard:
    # ~1 % of a core a worker while idle, and the search it lands in waits for it.
    with dask.config.set({"distributed.worker.profile.enabled": False}):
        cluster = LocalCluster(
            n_workers=options.workers,
            threads_per_worker=1,
            processes=True,
            host=options.bind,
            protocol="tls://" if options.tls else "tcp://",
            security=security(options),
            dashboard_address=None,
            # The scheduler serves HTTP (health, metrics) even without a dashboard: on the
            # bound address and a free port, not on every interface's 8787.
            scheduler_kwargs={"dashboard": False, "dashboard_address": f"{options.bind}:0"},
            silence_logs=logging.ERROR,
        )
    try:
        # Actor calls straight to the worker: by default they go through the scheduler
        # (another process's hop each way, and each message encoded twice more).
        client = Client(cluster, security=security(options), direct_to_workers=True)
        log.info("local Dask cluster at %s", cluster.scheduler_address)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()
