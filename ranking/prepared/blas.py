"""One BLAS thread while the ranking structures are built.

numpy's OpenBLAS starts a thread per core for every dense product and factorization,
and its threads spin while they wait for work. The word model's randomized SVD (three
QR factorizations of a 12,000 x 138 matrix, an SVD of its 138 x 12,000 projection) is
too small to gain from a second thread, and on a machine whose cores are busy the
spinning threads wait on each other: SQLAlchemy's SVD took 4-12 s with the default
threads against 1.0-1.6 s with one, on this 2-core machine beside other work. A build
runs under :func:`one_blas_thread`; searches use no BLAS (see
:meth:`~symfuse.ranking.channels.similarity.RepositoryEmbedder.scores`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Limit the BLAS libraries this process loaded to one thread, restored on leaving.

    The limit is process-wide (BLAS keeps one setting), so a search on another thread
    meanwhile is limited too, which costs it nothing: it does no BLAS work.
    """
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield
