"""Three small repositories, their shards, and one Dask cluster for all of them.

The cluster is a ``LocalCluster`` of two worker processes bound to 127.0.0.1,
started once for the package (about two seconds); every fleet of the tests puts its
holders (actors) on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.server.shards.build import build_shards
from symfuse.server.shards.cluster import ClusterOptions, connected
from tests.support.cli import write_tree

REPOS: dict[str, dict[str, str]] = {
    "shop": {
        "shop/orders.py": (
            "class Order:\n"
            '    """A customer order."""\n'
            "    def total(self) -> int:\n"
            "        return compute_total(self)\n\n"
            "def compute_total(order: 'Order') -> int:\n"
            "    return 0\n\n"
            "class OrderLine:\n    pass\n"
        ),
        "shop/payments.py": (
            "from shop.orders import Order\n\n"
            "class PaymentGateway:\n"
            "    def charge(self, order: Order) -> None:\n"
            "        order.total()\n\n"
            "def refund(order: Order) -> None:\n    pass\n"
        ),
    },
    "billing": {
        "billing/invoice.py": (
            "class Invoice:\n"
            "    def total(self) -> int:\n        return 1\n\n"
            "class Order:\n"
            '    """An order as billing sees it."""\n'
            "    pass\n\n"
            "def compute_tax(invoice: Invoice) -> int:\n    return 2\n"
        ),
        "billing/ledger.py": (
            "from billing.invoice import Invoice\n\n"
            "class Ledger:\n"
            "    def record(self, invoice: Invoice) -> None:\n        pass\n\n"
            "def order_report() -> str:\n    return ''\n"
        ),
    },
    "search": {
        "search/index.py": (
            "class SearchIndex:\n"
            "    def add(self, doc: str) -> None:\n        pass\n\n"
            "    def total(self) -> int:\n        return 3\n\n"
            "def build_index() -> SearchIndex:\n    return SearchIndex()\n"
        ),
        "search/query.go": (
            "package search\n\n"
            "type Order struct {\n\tField string\n}\n\n"
            "func ComputeTotal(o Order) int {\n\treturn 0\n}\n"
        ),
    },
}


WORDS = ("order", "total", "invoice", "render", "payment", "ledger", "report", "query")


def _module(repo: str, at: int, count: int) -> str:
    """``count`` definitions whose names and docs mix the shared words (no imports, so
    no repository references another: PageRank is then exact per shard)."""
    lines = []
    for i in range(count):
        a, b = WORDS[(at + i) % len(WORDS)], WORDS[(at * 3 + i * 5) % len(WORDS)]
        name = f"{a}_{b}" if i % 3 else f"{a.title()}{b.title()}"
        if i % 3 == 0:
            lines.append(f"class {name}:\n    '''The {a} of a {b} in {repo}.'''\n")
            lines.append(f"    def {b}(self) -> int:\n        return {a}_{b}_{i}()\n")
        else:
            lines.append(f"def {name}() -> int:\n    '''{a} {b} {b}.'''\n    return {i}\n")
        lines.append(f"def {a}_{b}_{i}() -> int:\n    return {name}() if False else 0\n")
    return "\n".join(lines)


def word_repository(base: Path, repo: str, modules: int, per_module: int) -> str:
    """A repository of ``modules`` modules mixing the shared words (:func:`_module`)."""
    files = {f"{repo}/m{at}.py": _module(repo, at, per_module) for at in range(modules)}
    return str(write_tree(base / repo, files))


@dataclass
class Sharded:
    roots: dict[str, str]  # alias -> path
    out: Path  # the shard directory
    combined: Index  # one multi-root index of the same roots
    combined_dir: Path
    client: Any  # the distributed Client of the module's cluster
    address: str  # its scheduler's address


def write_repos(base: Path) -> dict[str, str]:
    return {alias: str(write_tree(base / alias, files)) for alias, files in REPOS.items()}


def combined_index(roots: dict[str, str], directory: Path) -> Index:
    config = IndexConfig(
        roots=tuple(Path(p) for p in roots.values()),
        names=tuple(roots),
        index_dir=directory,
        progress=False,
    )
    return update_index(config)[0]


@pytest.fixture(scope="package")
def cluster() -> Iterator[Any]:
    with connected(ClusterOptions(workers=2)) as client:
        yield client


@pytest.fixture(scope="package")
def sharded(tmp_path_factory: pytest.TempPathFactory, cluster: Any) -> Sharded:
    base = tmp_path_factory.mktemp("shards")
    roots = write_repos(base / "repos")
    out = base / "out"
    results = build_shards(roots, out, client=cluster)
    assert sorted(r.outcome for r in results) == ["built"] * 3
    combined = combined_index(roots, base / "combined")
    return Sharded(roots, out, combined, base / "combined", cluster, cluster.scheduler.address)
