"""A BERT encoder forward pass in numpy: sentence embeddings without PyTorch.

Enough of BERT (Devlin et al. 2019) to run a sentence-transformers bi-encoder such
as all-MiniLM-L6-v2 (Wang et al., "MiniLM", 2020; Reimers and Gurevych,
"Sentence-BERT", 2019): word, position and token-type embeddings, post-norm encoder
layers (multi-head self-attention, exact erf GELU, LayerNorm), mean pooling over
the real tokens and L2 normalization. Weights are the Hugging Face names as
``safetensors`` stores them; every product is float32, which is what the model was
trained in and what keeps a batch's activations small.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
Weights = dict[str, npt.NDArray[Any]]


@dataclass(frozen=True, slots=True)
class Layer:
    """One encoder layer's parameters, dense weights stored transposed (``x @ w``)."""

    qkv: F32  # hidden x 3*hidden: query, key and value projections side by side
    qkv_bias: F32
    out: F32
    out_bias: F32
    norm1: tuple[F32, F32]
    up: F32
    up_bias: F32
    down: F32
    down_bias: F32
    norm2: tuple[F32, F32]


def _f32(array: npt.NDArray[Any]) -> F32:
    return np.ascontiguousarray(array, dtype=np.float32)


def _layer(weights: Weights, i: int) -> Layer:
    p = f"encoder.layer.{i}."
    att = p + "attention."
    names = ("query", "key", "value")
    return Layer(
        qkv=_f32(np.concatenate([weights[f"{att}self.{n}.weight"].T for n in names], axis=1)),
        qkv_bias=_f32(np.concatenate([weights[f"{att}self.{n}.bias"] for n in names])),
        out=_f32(weights[att + "output.dense.weight"].T),
        out_bias=_f32(weights[att + "output.dense.bias"]),
        norm1=(
            _f32(weights[att + "output.LayerNorm.weight"]),
            _f32(weights[att + "output.LayerNorm.bias"]),
        ),
        up=_f32(weights[p + "intermediate.dense.weight"].T),
        up_bias=_f32(weights[p + "intermediate.dense.bias"]),
        down=_f32(weights[p + "output.dense.weight"].T),
        down_bias=_f32(weights[p + "output.dense.bias"]),
        norm2=(
            _f32(weights[p + "output.LayerNorm.weight"]),
            _f32(weights[p + "output.LayerNorm.bias"]),
        ),
    )


def _strip_prefix(weights: Weights) -> Weights:
    """Drop a leading ``bert.`` (checkpoints saved from a task model carry it)."""
    return {k.removeprefix("bert."): v for k, v in weights.items()}


@dataclass(frozen=True, slots=True)
class Bert:
    """The encoder's parameters and shape; :meth:`embed` is the whole forward pass."""

    words: F32  # vocabulary x hidden
    positions: F32  # max positions x hidden
    token_type: F32  # hidden (type 0: single sentences only)
    norm0: tuple[F32, F32]
    layers: tuple[Layer, ...]
    heads: int
    eps: float

    @classmethod
    def from_weights(cls, weights: Weights, config: dict[str, Any]) -> Bert:
        """Build from safetensors arrays and the model's ``config.json`` (heads, layers, eps)."""
        w = _strip_prefix(weights)
        e = "embeddings."
        return cls(
            words=_f32(w[e + "word_embeddings.weight"]),
            positions=_f32(w[e + "position_embeddings.weight"]),
            token_type=_f32(w[e + "token_type_embeddings.weight"][0]),
            norm0=(_f32(w[e + "LayerNorm.weight"]), _f32(w[e + "LayerNorm.bias"])),
            layers=tuple(_layer(w, i) for i in range(int(config["num_hidden_layers"]))),
            heads=int(config["num_attention_heads"]),
            eps=float(config.get("layer_norm_eps", 1e-12)),
        )

    @property
    def dimensions(self) -> int:
        return int(self.words.shape[1])

    @property
    def max_tokens(self) -> int:
        return int(self.positions.shape[0])

    @property
    def nbytes(self) -> int:
        """Memory the parameters hold."""
        arrays = [self.words, self.positions, self.token_type, *self.norm0]
        for layer in self.layers:
            arrays += [getattr(layer, f) for f in Layer.__slots__ if f not in ("norm1", "norm2")]
            arrays += [*layer.norm1, *layer.norm2]
        return sum(int(a.nbytes) for a in arrays)

    def embed(self, ids: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]) -> F32:
        """Unit sentence vectors (batch x hidden) of token ``ids`` (batch x length).

        ``mask`` marks real tokens; padding neither attends nor is attended to, and
        the mean pooling counts real tokens only.
        """
        batch, length = ids.shape
        x = self.words[ids] + self.positions[:length] + self.token_type
        x = _layer_norm(x.reshape(batch * length, -1), self.norm0, self.eps)
        bias = np.where(mask, 0.0, -1e4).astype(np.float32)[:, None, None, :]
        for layer in self.layers:
            x = self._layer(x, layer, bias)
        x = x.reshape(batch, length, -1)
        weights = mask.astype(np.float32)[:, :, None]
        pooled = (x * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: F32 = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return unit

    def _layer(self, x: F32, layer: Layer, bias: F32) -> F32:
        """Post-norm BERT layer: ``x = LN(x + attn(x)); x = LN(x + FFN(x))``.

        ``x`` is (batch * length) x hidden so that every dense product is one 2-D
        BLAS call; the per-head products get contiguous operands (numpy's matmul
        falls back to a slow loop on strided views, many times slower).
        """
        batch, length = bias.shape[0], bias.shape[-1]
        hidden = x.shape[-1]
        size = hidden // self.heads
        qkv = (x @ layer.qkv + layer.qkv_bias).reshape(batch, length, 3, self.heads, size)
        q, v = (np.ascontiguousarray(qkv[:, :, i].transpose(0, 2, 1, 3)) for i in (0, 2))
        # keys transposed: batch x heads x size x length
        keys = np.ascontiguousarray(qkv[:, :, 1].transpose(0, 2, 3, 1))
        scores = (q @ keys) * np.float32(1.0 / np.sqrt(size)) + bias
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, hidden)
        attended = np.asarray(x + context @ layer.out + layer.out_bias, dtype=np.float32)
        x = _layer_norm(attended, layer.norm1, self.eps)
        inner = _gelu(x @ layer.up + layer.up_bias)
        return _layer_norm(x + inner @ layer.down + layer.down_bias, layer.norm2, self.eps)


def _layer_norm(x: F32, params: tuple[F32, F32], eps: float) -> F32:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    normed: F32 = centred / np.sqrt(variance + np.float32(eps)) * params[0] + params[1]
    return normed


def _gelu(x: F32) -> F32:
    """GELU by its tanh form (Hendrycks and Gimpel 2016), in place.

    BERT was trained with the exact ``x * Phi(x)``; scipy's float32 erf is a large share
    of a forward pass, the tanh form a small one, and all-MiniLM-L6-v2's sentence
    vectors hardly move (checked against the exact form on its model card's sentences).
    """
    inner = x * x
    inner *= np.float32(0.044715)
    inner += np.float32(1.0)
    inner *= x
    inner *= np.float32(np.sqrt(2.0 / np.pi))
    np.tanh(inner, out=inner)
    inner += np.float32(1.0)
    inner *= np.float32(0.5)
    inner *= x
    return inner
