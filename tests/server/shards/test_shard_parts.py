"""A shard's training parts and the models learned over them (issue 40): a shard whose
parts are gone is rebuilt, its parts read again from the structures its index already
has (an exact load carries no pieces), and the models come out as before."""

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
