"""The ``symfuse[semantic]`` channel through real clients: ``symfuse mcp`` over stdio,
then ``symfuse search`` and ``symfuse stats`` on the vectors that server saved.

Presence runs the real model loading and inference on a tiny random-weight BERT that
the test writes (tests/support/tiny_bert.py) and names with SYMFUSE_SEMANTIC_MODEL;
absence is ``SYMFUSE_SEMANTIC_MODEL=off``, which behaves as an install without the
extra. A full ``reindex`` of this small workspace embeds before it returns, so no
test waits on time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_symfuse
from tests.support.mcp import Workspace, call, mcp_stdio_session

pytestmark = pytest.mark.slow  # the symfuse command and symfuse mcp over stdio

BUILT_IN = "tfidf+ppmi-svd"
PROSE = "compute the total price of an order"
# Weights given in full: whatever the prose plan's default, the neural channel has a share.
WITH_NEURAL = {"lexical": 0.8, "similarity": 0.2, "neural": 0.4}


def _neural_ranks(answer: dict[str, Any]) -> list[int]:
    return [i["neural_rank"] for i in answer["items"] if i.get("neural_rank") is not None]


async def test_without_the_extra_status_names_the_built_in_model_and_no_neural_rank(
    workspace: Workspace,
) -> None:
    async with mcp_stdio_session(workspace, env={"SYMFUSE_SEMANTIC_MODEL": "off"}) as session:
        await call(session, "reindex")
        status = await call(session, "index_status")
        assert status["similarity_model"] == BUILT_IN
        assert status["channels"]["neural"] is False
        args = {"query": PROSE, "fusion_debug": True, "fusion_weights": WITH_NEURAL}
        answer = await call(session, "search", **args)
        assert answer["items"]
        assert not _neural_ranks(answer)
    assert not list(workspace.index_dir.glob("semantic-*.npz"))


async def test_with_the_extra_prose_ranks_by_sentence_vectors(
    workspace: Workspace, tmp_path: Path
) -> None:
    pytest.importorskip("tokenizers")
    pytest.importorskip("safetensors")
    from tests.support.tiny_bert import write_tiny_model

    env = {"SYMFUSE_SEMANTIC_MODEL": str(write_tiny_model(tmp_path / "tiny"))}
    async with mcp_stdio_session(workspace, env=env) as session:
        await call(session, "reindex")  # seven files: embedded before it returns
        status = await call(session, "index_status")
        assert status["similarity_model"] == f"{BUILT_IN} + tiny-random-bert (ready)"
        assert status["channels"]["neural"] is True
        args = {"query": PROSE, "fusion_debug": True, "fusion_weights": WITH_NEURAL}
        answer = await call(session, "search", **args)
        assert _neural_ranks(answer)
        # By default (semantic: auto) prose leaves it out (it lowered the mined NL set);
        # semantic: on asks for it.
        assert not _neural_ranks(await call(session, "search", query=PROSE, fusion_debug=True))
        asked = await call(session, "search", query=PROSE, fusion_debug=True, semantic="on")
        assert _neural_ranks(asked)
        assert asked["weights"]["neural"] > 0
        names = await call(session, "search", query="compute_total", fusion_debug=True)
        assert not _neural_ranks(names)  # identifier queries never run it
    assert len(list(workspace.index_dir.glob("semantic-*.npz"))) == 1

    # A one-shot command uses the vectors the server saved next to the index.
    where = [str(workspace.root), "--index-dir", str(workspace.index_dir), "-f", "json"]
    weights = ",".join(f"{k}={v}" for k, v in WITH_NEURAL.items())
    found = run_symfuse(
        ["search", PROSE, *where, "--fusion-debug", "--fusion-weights", weights], env=env
    )
    assert _neural_ranks(json.loads(found.stdout))
    stats = json.loads(run_symfuse(["stats", *where], env=env).stdout)
    assert stats["similarity_model"] == f"{BUILT_IN} + tiny-random-bert (ready)"
