"""The semantic extra's model and vectors (symfuse.ranking.channels.neural), on a tiny random BERT.

The loading, tokenizing, forward pass, per-file cache and the neural channel all run
for real; only the weights are random (tests/support/tiny_bert.py). Skipped when the
extra's libraries are not installed (the ``test`` extra installs them).
"""

from __future__ import annotations

import dataclasses
import math
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("tokenizers")
pytest.importorskip("safetensors")

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, prepare
from symfuse.ranking.channels.neural.model import (
    CHARS_PER_TOKEN,
    DISTRIBUTION,
    SentenceModel,
    bundled_model,
)
from symfuse.ranking.channels.neural.vectors import (
    EMBEDDED_KINDS,
    NeuralEmbedder,
    VectorCache,
    file_key,
)
from symfuse.ranking.fusion.rrf import fuse
from symfuse.ranking.query.search_request import Channel, FusionWeights
from symfuse.ranking.search.pipeline import run_channels
from symfuse.ranking.search.plans import Shape
from tests.support.paths import FIXTURES
from tests.support.tiny_bert import HEADS, write_tiny_model, zipped

WORKSPACE = FIXTURES / "workspace"
EDITED = "shop/utils/text.py"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> SentenceModel:
    return SentenceModel.load(write_tiny_model(tmp_path_factory.mktemp("tiny")))


def test_vectors_are_unit_length_and_the_same_for_the_same_text(tiny: SentenceModel) -> None:
    texts = [
        "prompt the user for a password",
        "open a file lazily",
        "prompt the user for a password",
    ]
    vectors = tiny.embed(texts)
    assert vectors.shape == (3, tiny.dimensions)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # the same to float32 rounding: BLAS may sum a batch's rows in different orders
    assert np.allclose(vectors[0], vectors[2], rtol=0, atol=1e-6)
    assert not np.allclose(vectors[0], vectors[1], rtol=0, atol=1e-2)


def test_padding_in_a_batch_changes_no_vector(tiny: SentenceModel) -> None:
    short = "hide the input"
    long = "compute the total price of the order with the discount and return the value " * 3
    alone = tiny.embed([short])[0]
    batched = tiny.embed([long, short, "pay"])
    assert np.allclose(batched[1], alone, atol=1e-5)


def test_text_past_the_model_length_is_cut(tiny: SentenceModel) -> None:
    vectors = tiny.embed(["write the file " * 200, ""])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


class _Reading:
    """The tokenizer as it is, noting the longest text it is given."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.longest = 0

    def encode_batch(self, texts: list[str]) -> Any:
        self.longest = max(self.longest, *(len(t) for t in texts))
        return self.tokenizer.encode_batch(texts)


def test_a_minified_line_is_read_only_as_far_as_the_model_reads(tiny: SentenceModel) -> None:
    """A definition in a minified file is one line of tens of thousands of characters: the
    tokenizer splits a whole text before cutting it to max_tokens, so it is given a head of
    the text (a jquery.min.js shipped in a docs folder made a server's embedding take GBs),
    and the vector is the whole text's."""
    line = "function(e,t){return e.write(t)};" * 3000
    reading = _Reading(tiny.tokenizer)
    vectors = dataclasses.replace(tiny, tokenizer=reading).embed([line, line[:2000]])
    assert reading.longest == tiny.max_tokens * CHARS_PER_TOKEN < len(line)
    assert np.allclose(vectors[0], vectors[1], rtol=0, atol=1e-6)  # 2,000 characters: all read


def test_a_zip_one_folder_deep_loads_as_the_directory(tmp_path: Path) -> None:
    directory = write_tiny_model(tmp_path / "model")
    from_dir = SentenceModel.load(directory)
    from_zip = SentenceModel.load(zipped(directory, tmp_path / "model.zip"))
    assert from_zip.digest == from_dir.digest
    assert np.array_equal(from_zip.embed(["open a file"]), from_dir.embed(["open a file"]))


def test_a_directory_without_the_model_files_is_an_error_naming_them(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(FileNotFoundError):
        SentenceModel.load(tmp_path)
    with pytest.raises(FileNotFoundError, match=r"model\.safetensors"):
        SentenceModel.load(zipped(tmp_path, tmp_path.parent / "bad.zip"))


@pytest.mark.skipif(bundled_model() is None, reason=f"{DISTRIBUTION} is not installed")
def test_the_bundled_model_gives_its_published_vector() -> None:
    """all-MiniLM-L6-v2's model card: the first values of "This is an example sentence"
    (sentence-transformers, PyTorch, exact GELU; ours differ by about 1e-4)."""
    source = bundled_model()
    assert source is not None
    vector = SentenceModel.load(source).embed(["This is an example sentence"])[0]
    expected = [0.0676569, 0.0634959, 0.0487131, 0.0793049, 0.0374480]
    assert np.allclose(vector[:5], expected, atol=5e-4)


def _index(root: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "index", progress=False)
    return update_index(config)[0], config


def test_an_edit_re_embeds_only_its_file(tiny: SentenceModel, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(WORKSPACE, root)
    index, config = _index(root, tmp_path)
    cache = VectorCache(tiny)
    assert cache.fill(index, cache.missing(index), lambda: False) == len(index.files)
    vectors, lacking = cache.assemble(index)
    assert lacking == 0
    assert vectors.shape == (len(index.symbols), tiny.dimensions)
    embedded = [s.kind in EMBEDDED_KINDS for s in index.symbols]
    norms = np.linalg.norm(vectors.astype(np.float32), axis=1)
    assert np.allclose(norms[embedded], 1.0, atol=1e-2)
    assert not norms[~np.array(embedded)].any()

    with (root / EDITED).open("a", encoding="utf-8") as f:
        f.write("\n\ndef hide_input(text):\n    return '*' * len(text)\n")
    edited, _ = update_index(config)
    key = next(k for k in edited.files if k.endswith(EDITED))
    assert cache.missing(edited) == [key]
    _, lacking = cache.assemble(edited)
    assert lacking == len(edited.files[key].symbols)
    assert cache.fill(edited, cache.missing(edited), lambda: False) == 1

    cache.save(tmp_path, edited)
    again = VectorCache(tiny)
    assert again.load(tmp_path)
    assert again.missing(edited) == []
    assert np.array_equal(again.assemble(edited)[0], cache.assemble(edited)[0])


def test_the_cache_stores_rows_only_for_what_it_embeds(tiny: SentenceModel, tmp_path: Path) -> None:
    index, _ = _index(WORKSPACE, tmp_path)
    cache = VectorCache(tiny)
    cache.fill(index, cache.missing(index), lambda: False)
    full, _ = cache.assemble(index)
    cache.save(tmp_path, index)
    embedded = sum(s.kind in EMBEDDED_KINDS for s in index.symbols)
    with np.load(cache.path_in(tmp_path)) as saved:
        assert saved["vectors"].shape[0] == embedded < len(index.symbols)
    again = VectorCache(tiny)
    assert again.load(tmp_path)
    assert np.array_equal(again.assemble(index)[0], full)

    # A cache written with a zero row for every symbol (before) loads as the same vectors.
    files = sorted(index.files)
    counts = np.array([len(index.files[f].symbols) for f in files], dtype=np.int64)
    keys = np.array(["\t".join(file_key(index, f)) for f in files], dtype=np.str_)
    np.savez(cache.path_in(tmp_path), keys=keys, counts=counts, vectors=full)
    before = VectorCache(tiny)
    assert before.load(tmp_path)
    assert before.missing(index) == []
    assert np.array_equal(before.assemble(index)[0], full)


def _embedded_workspace(tiny: SentenceModel, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The workspace fixture indexed, embedded whole by ``tiny``, and prepared."""
    index, _ = _index(WORKSPACE, tmp_path)
    cache = VectorCache(tiny)
    cache.fill(index, cache.missing(index), lambda: False)
    vectors, _ = cache.assemble(index)
    return index, NeuralEmbedder(tiny, vectors.astype(np.float32)), prepare(index, None)


def test_prose_ranks_by_the_neural_channel_and_names_do_not(
    tiny: SentenceModel, tmp_path: Path
) -> None:
    index, embedder, prepared = _embedded_workspace(tiny, tmp_path)
    prose = "compute the total price of an order"
    weights = FusionWeights(lexical=0.8, similarity=0.2, neural=0.4)  # whatever the default
    run = run_channels(
        prepared,
        SearchRequest(query=prose, fusion_weights=weights),
        prose,
        None,
        20,
        Shape.SENTENCE,
        embedder,
    )
    found = run.rankings[Channel.NEURAL]
    assert len(found)
    assert all(index.symbols[p].kind in EMBEDDED_KINDS for p in found.positions)
    name = "compute_total"
    run = run_channels(
        prepared,
        SearchRequest(query=name, fusion_weights=weights),
        name,
        None,
        20,
        Shape.IDENTIFIER,
        embedder,
    )
    assert Channel.NEURAL not in run.rankings


def test_semantic_only_ranks_by_both_similarity_channels_once_vectors_are_ready(
    tiny: SentenceModel, tmp_path: Path
) -> None:
    _, embedder, prepared = _embedded_workspace(tiny, tmp_path)
    prose = "compute the total price of an order"
    request = SearchRequest(query=prose, semantic="only")
    ready = run_channels(prepared, request, prose, None, 20, Shape.SENTENCE, embedder)
    assert set(ready.rankings) == {Channel.SIMILARITY, Channel.NEURAL}
    assert ready.weights.neural == ready.weights.similarity > 0
    fused = fuse(ready.rankings, ready.weights)
    assert Channel.NEURAL in fused.ranks
    # Vectors not ready (or the extra not installed): the similarity channel alone.
    waiting = run_channels(prepared, request, prose, None, 20, Shape.SENTENCE, None)
    assert set(waiting.rankings) == {Channel.SIMILARITY}


def _reference_embedding(weights: dict[str, np.ndarray], ids: list[int], heads: int) -> np.ndarray:
    """BERT as the paper writes it, one sequence, one head at a time, float64, exact GELU
    through math.erf: what the vectorized float32 forward pass must agree with."""
    w = {k: v.astype(np.float64) for k, v in weights.items()}

    def norm(x: np.ndarray, p: str) -> np.ndarray:
        mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * w[p + ".weight"] + w[p + ".bias"]

    def dense(x: np.ndarray, p: str) -> np.ndarray:
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    e = "embeddings."
    x = w[e + "word_embeddings.weight"][ids] + w[e + "position_embeddings.weight"][: len(ids)]
    x = norm(x + w[e + "token_type_embeddings.weight"][0], e + "LayerNorm")
    layer = 0
    while f"encoder.layer.{layer}.attention.self.query.weight" in w:
        p = f"encoder.layer.{layer}."
        q, k, v = (dense(x, f"{p}attention.self.{n}") for n in ("query", "key", "value"))
        size = x.shape[1] // heads
        context = np.zeros_like(x)
        for h in range(heads):
            cols = slice(h * size, (h + 1) * size)
            scores = q[:, cols] @ k[:, cols].T / math.sqrt(size)
            probs = np.exp(scores - scores.max(-1, keepdims=True))
            context[:, cols] = (probs / probs.sum(-1, keepdims=True)) @ v[:, cols]
        x = norm(x + dense(context, p + "attention.output.dense"), p + "attention.output.LayerNorm")
        inner = dense(x, p + "intermediate.dense")
        inner = inner * 0.5 * (1 + np.vectorize(math.erf)(inner / math.sqrt(2)))
        x = norm(x + dense(inner, p + "output.dense"), p + "output.LayerNorm")
        layer += 1
    pooled = x.mean(0)
    return pooled / np.linalg.norm(pooled)


def test_the_forward_pass_agrees_with_a_plain_reference(tmp_path: Path) -> None:
    from safetensors.numpy import load_file

    directory = write_tiny_model(tmp_path / "model")
    model = SentenceModel.load(directory)
    weights = load_file(str(directory / "model.safetensors"))
    texts = ["prompt the user for a password and hide the input", "open a file"]
    ours = model.embed(texts)
    for text, vector in zip(texts, ours, strict=True):
        ids = model.tokenizer.encode(text).ids
        expected = _reference_embedding(weights, ids, HEADS)
        # float32 and the tanh form of GELU against float64 and erf: measured 5e-5 to 7e-5.
        assert np.abs(vector - expected).max() < 5e-4
