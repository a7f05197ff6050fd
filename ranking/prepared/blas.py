"""One BLAS thread while the ranking structures are built.

numpy's OpenBLAS starts a thread per core for every dense product and factorization,
and its threads spin while they wait for work. The word model's randomized SVD (QR
factorizations of a terms x (dimensions + oversampling) matrix, an SVD of its
projection) is too small to gain from a second thread, and on a machine whose cores are
busy the spinning threads wait on each other: the SVD takes several times as long with
the default threads as with one. A build
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
