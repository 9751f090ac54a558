"""A sentence encoder in numpy: BERT (MiniLM) and MPNet forward passes over the upstream
``model.safetensors``, mean pooling over the real tokens, then unit length.

Why numpy rather than an ONNX runtime: the weights that Kindling can check against upstream's
pinned hash are the safetensors file itself, numpy is the whole runtime (about 20 MB, no model
conversion step, no torch), and the forward pass is a few matrix products per layer. How many
threads BLAS runs them on is the caller's choice (``threads``: the question on several, the
backfill on one).

Must not import anything from Kindling except ``errors`` and ``semantic``.
"""

from __future__ import annotations

import json
import math
import mmap
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kindling.errors import SemanticError
from kindling.semantic.models import ModelSpec
from kindling.semantic.wordpiece import WordPiece

Array = Any  # a numpy array: numpy is the extra, never imported at module level

_DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8"}


def numpy_module() -> Any:
    """numpy, or a clear error without the extra."""
    try:
        import numpy
    except ImportError:
        raise SemanticError(
            "the semantic signal needs its extra: pip install 'kindling-memory[semantic]'"
        ) from None
    return numpy


def read_safetensors(path: Path) -> dict[str, Array]:
    """Every tensor of a safetensors file as a float32 array (int tensors are skipped). The file
    is mapped, not read: float32 tensors are views of the mapping (no copy; the pages are the
    page cache's), so loading costs no more memory than the model's size."""
    np = numpy_module()
    with path.open("rb") as fh:
        data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    base = 8 + n
    out: dict[str, Array] = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] not in ("F32", "F16"):
            continue
        start, end = info["data_offsets"]
        raw = np.frombuffer(
            data,
            dtype=_DTYPES[info["dtype"]],
            offset=base + start,
            count=(end - start) // (4 if info["dtype"] == "F32" else 2),
        )
        tensor = raw.reshape(info["shape"])
        out[name] = tensor if info["dtype"] == "F32" else tensor.astype(np.float32)
    return out


class Encoder:
    """Texts to unit vectors with one pinned model (loaded from its verified directory)."""

    def __init__(self, spec: ModelSpec, directory: Path) -> None:
        self.np = numpy_module()
        self.spec = spec
        config = json.loads((directory / "config.json").read_text())
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        self.buckets = int(config.get("relative_attention_num_buckets", 32))
        self.pad_index = int(config.get("pad_token_id", 0))
        self.tokenizer = WordPiece.from_file(directory / "vocab.txt", spec.special)
        w = read_safetensors(directory / "model.safetensors")
        self.w = {k.removeprefix("bert.").removeprefix("mpnet."): v for k, v in w.items()}
        if self.w["embeddings.word_embeddings.weight"].shape[1] != spec.dim:
            raise SemanticError(f"{directory} does not hold a {spec.dim}-dimension model")

    @property
    def model(self) -> str:
        return self.spec.key

    def encode(self, texts: Sequence[str], *, batch: int = 16) -> list[Array]:
        """Unit vectors of ``texts``, in order (texts of similar length share a batch)."""
        ids = [self.tokenizer.encode(t, self.spec.max_tokens) for t in texts]
        order = sorted(range(len(ids)), key=lambda i: (len(ids[i]), i))
        out: list[Array | None] = [None] * len(ids)
        for start in range(0, len(order), batch):
            chunk = order[start : start + batch]
            for i, vec in zip(chunk, self._forward([ids[i] for i in chunk]), strict=True):
                out[i] = vec
        return [v for v in out if v is not None]

    # -- the forward pass ------------------------------------------------------------------

    def _forward(self, batch: list[list[int]]) -> list[Array]:
        np = self.np
        width = max(len(x) for x in batch)
        pad = self.tokenizer.pad
        ids = np.array([x + [pad] * (width - len(x)) for x in batch], dtype=np.int64)
        mask = np.array([[1] * len(x) + [0] * (width - len(x)) for x in batch], dtype=np.float32)
        w = self.w
        mpnet = self.spec.architecture == "mpnet"
        if mpnet:
            positions = (np.cumsum(mask, axis=1) * mask).astype(np.int64) + self.pad_index
        else:
            positions = np.broadcast_to(np.arange(width), ids.shape)
        x = w["embeddings.word_embeddings.weight"][ids]
        x = x + w["embeddings.position_embeddings.weight"][positions]
        if not mpnet:
            x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = self._norm(x, "embeddings.LayerNorm")
        # A batch without padding (one question always) masks nothing: the mask's bias is zeros
        # and its weights ones, so leaving them out gives the same floats, with less work.
        padded = any(len(row) < width for row in batch)
        bias: Array | None = ((1.0 - mask) * -1e9)[:, None, None, :] if padded else None
        if mpnet:
            position = self._position_bias(width)
            bias = position if bias is None else bias + position
        for n in range(self.layers):
            x = self._layer(x, bias, n, mpnet)
        summed = (x * mask[:, :, None]).sum(axis=1) if padded else x.sum(axis=1)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return list((pooled / norms).astype(np.float32))

    def _layer(self, x: Array, bias: Array | None, n: int, mpnet: bool) -> Array:
        np = self.np
        p = f"encoder.layer.{n}."
        if mpnet:
            names = ("attention.attn.q", "attention.attn.k", "attention.attn.v", "attention.attn.o")
            attn_norm = p + "attention.LayerNorm"
        else:
            names = (
                "attention.self.query",
                "attention.self.key",
                "attention.self.value",
                "attention.output.dense",
            )
            attn_norm = p + "attention.output.LayerNorm"
        b, t, d = x.shape
        h = self.heads

        def split(y: Array) -> Array:
            return y.reshape(b, t, h, d // h).transpose(0, 2, 1, 3)

        q, k, v = (split(self._dense(x, p + name)) for name in names[:3])
        scores = q @ k.transpose(0, 1, 3, 2)
        scores /= math.sqrt(d // h)
        if bias is not None:
            scores += bias
        scores -= scores.max(axis=-1, keepdims=True)
        probs = np.exp(scores, out=scores)
        probs /= probs.sum(axis=-1, keepdims=True)
        context = (probs @ v).transpose(0, 2, 1, 3).reshape(b, t, d)
        x = self._norm(self._dense(context, p + names[3]) + x, attn_norm)
        inner = _gelu(np, self._dense(x, p + "intermediate.dense"))
        return self._norm(self._dense(inner, p + "output.dense") + x, p + "output.LayerNorm")

    def _dense(self, x: Array, name: str) -> Array:
        y = x @ self.w[name + ".weight"].T
        y += self.w[name + ".bias"]
        return y

    def _norm(self, x: Array, name: str) -> Array:
        np = self.np
        centred = x - x.mean(axis=-1, keepdims=True)
        var = np.square(centred).mean(axis=-1, keepdims=True)
        centred /= np.sqrt(var + self.eps)
        centred *= self.w[name + ".weight"]
        centred += self.w[name + ".bias"]
        return centred

    def _position_bias(self, width: int) -> Array:
        """MPNet's relative position bias, [1, heads, width, width] (its bucketing)."""
        np = self.np
        pos = np.arange(width)
        relative = pos[None, :] - pos[:, None]
        n = -relative
        half = self.buckets // 2
        ret = (n < 0).astype(np.int64) * half
        n = np.abs(n)
        exact = half // 2
        large = exact + (
            np.log(np.maximum(n, 1) / exact) / math.log(128 / exact) * (half - exact)
        ).astype(np.int64)
        large = np.minimum(large, half - 1)
        ret = ret + np.where(n < exact, n, large)
        values = self.w["encoder.relative_attention_bias.weight"][ret]  # [q, k, heads]
        return values.transpose(2, 0, 1)[None, :, :, :]


def _gelu(np: Any, x: Array) -> Array:
    """Exact GELU, ``x * Phi(x)``, with erf to float32 precision (Abramowitz-Stegun 7.1.26),
    computed in place: the intermediate layer is the largest array of the pass."""
    z = x * np.float32(1.0 / math.sqrt(2.0))
    a = np.abs(z)
    t = a * np.float32(0.3275911)
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(c)
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a  # 1 - erf(|z|)
    np.subtract(1.0, poly, out=poly)
    np.copysign(poly, z, out=poly)  # erf(z)
    poly += 1.0
    poly *= x
    poly *= np.float32(0.5)
    return poly
