"""A shard's training parts and the models learned over them (issue 40): a shard whose
parts are gone is rebuilt, its parts read again from the pieces its ranking file already
has, and the models come out as before; a shard learns no models of its own and answers
as one that did (its holder scores with the shared ones, which it cannot do without)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from symfuse.ranking.api import SharedModels
from symfuse.server.shards.build import build_shards
from symfuse.server.shards.manifest import GLOBAL_MODELS, PARTS
from tests.server.shards.conftest import word_repository

pytestmark = pytest.mark.slow  # three indexes and their structures


def test_a_shard_whose_parts_are_gone_gives_the_same_models_again(tmp_path: Path) -> None:
    roots = {
        "tiny": word_repository(tmp_path / "repos", "tiny", 1, 2),
        "middle": word_repository(tmp_path / "repos", "middle", 3, 4),
    }
    out = tmp_path / "out"
    assert sorted(r.outcome for r in build_shards(roots, out)) == ["built", "built"]
    first = SharedModels.load(out / GLOBAL_MODELS)
    (out / "middle" / PARTS).unlink()
    again = {
        r.repository if hasattr(r, "repository") else r.alias: r.outcome
        for r in build_shards(roots, out)
    }
    assert again == {"tiny": "unchanged", "middle": "built"}
    second = SharedModels.load(out / GLOBAL_MODELS)
    assert dict(first.word.term_ids) == dict(second.word.term_ids)
    assert np.array_equal(first.word.vectors, second.word.vectors)
    assert first.table.table.nnz == second.table.table.nnz > 0


def _with_own_models(out: Path, roots: dict[str, str]) -> None:
    """Each shard's ranking file in ``out`` made again as an ordinary index makes it, with
    a word model and translation table of its own (as shards were built before)."""
    from symfuse.indexer.update.workspace import load_index
    from symfuse.ranking.prepared.build import forget, prepare
    from symfuse.server.shards.build import shard_config

    for alias, root in roots.items():
        config = shard_config(out / alias, alias, root)
        index = load_index(config)
        assert index is not None
        for stale in config.store.directory.glob("ranking-*.npz"):
            stale.unlink()
        forget(index)
        prepare(index, config.store.directory, path_prefix=f"{alias}/")


def test_a_shard_learns_no_models_and_answers_as_one_that_did(tmp_path: Path) -> None:
    import shutil

    from symfuse.ranking.prepared.ranking_file import newest
    from symfuse.ranking.query.search_request import SearchRequest
    from symfuse.server.shards.fleet import Fleet

    roots = {
        "tiny": word_repository(tmp_path / "repos", "tiny", 1, 2),
        "middle": word_repository(tmp_path / "repos", "middle", 3, 4),
    }
    out = tmp_path / "out"
    build_shards(roots, out)
    for alias in roots:
        stored = newest(out / alias / "index")
        assert stored is not None
        with np.load(stored) as npz:
            assert npz["model_terms"].size == 0  # no word model of its own
    trained = tmp_path / "trained"
    shutil.copytree(out, trained)
    _with_own_models(trained, roots)
    lean, full = Fleet(out), Fleet(trained)
    for query in ("order total", "render the ledger", "invoice_report", "Payment", "query"):
        for mode in ("single", "flat", "tiered"):
            request = SearchRequest.from_mapping({"query": query, "limit": 10, "mode": mode})
            a, b = lean.search(request), full.search(request)
            assert a.errors == b.errors == ()
            assert [(i.symbol.symbol_id, i.score) for i in a.items] == [
                (i.symbol.symbol_id, i.score) for i in b.items
            ]
            assert a.items


def test_a_shard_without_the_shared_models_cannot_answer(tmp_path: Path) -> None:
    from symfuse.ranking.query.search_request import SearchRequest
    from symfuse.server.shards.holders import ShardHolder, ShardUnavailable

    roots = {"tiny": word_repository(tmp_path / "repos", "tiny", 1, 2)}
    out = tmp_path / "out"
    build_shards(roots, out)
    (out / GLOBAL_MODELS).unlink()
    with pytest.raises(ShardUnavailable, match="shared models"):
        ShardHolder(str(out / "tiny")).search(SearchRequest.from_mapping({"query": "order"}))
