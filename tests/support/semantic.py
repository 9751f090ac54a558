"""A tiny sentence-embedding model the tests make themselves (no download): a one-layer BERT
over a 40-word vocabulary, written as ``model.safetensors``, ``vocab.txt`` and ``config.json``,
with a ``ModelSpec`` whose hashes are the files' own. Its word vectors put a few synonyms
("checkout" and "cart", "billing" and "invoice") near each other, so re-ranking can be seen.
"""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

import numpy as np

from kindling.semantic.models import ModelFile, ModelSpec

WORDS = [
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "checkout", "cart", "billing", "invoice", "broke",
    "typeerror", "in", "total", "who", "owns", "priya", "maintains", "the", "service", "why",
    "did", "break", "weather", "is", "nice", "today", "deploy", "failed", "on", "friday",
    "##s", "a", "an", "of", "to", "error", "fixed", "login", "page", "token", "secret",
]  # fmt: skip
DIM = 16
GROUPS = [("checkout", "cart", "total"), ("billing", "invoice", "owns", "maintains"),
          ("broke", "break", "typeerror", "error", "failed")]  # fmt: skip


def _tensor_bytes(tensors: dict[str, np.ndarray]) -> bytes:
    header: dict[str, object] = {}
    blobs = b""
    for name, value in tensors.items():
        raw = np.ascontiguousarray(value, dtype="<f4").tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": list(value.shape),
            "data_offsets": [len(blobs), len(blobs) + len(raw)],
        }
        blobs += raw
    head = json.dumps(header).encode()
    return struct.pack("<Q", len(head)) + head + blobs


def write_tiny_model(directory: Path, seed: int = 7) -> ModelSpec:
    """Write the tiny model into ``directory``; its pinned spec."""
    rng = np.random.default_rng(seed)
    directory.mkdir(parents=True, exist_ok=True)
    words = rng.normal(0, 1, (len(WORDS), DIM))
    for n, group in enumerate(GROUPS):
        centre = np.zeros(DIM)
        centre[n * 4 : n * 4 + 4] = 6.0
        for w in group:
            words[WORDS.index(w)] = centre + rng.normal(0, 0.3, DIM)
    t: dict[str, np.ndarray] = {
        "embeddings.word_embeddings.weight": words,
        "embeddings.position_embeddings.weight": np.zeros((64, DIM)),
        "embeddings.token_type_embeddings.weight": np.zeros((2, DIM)),
        "embeddings.LayerNorm.weight": np.ones(DIM),
        "embeddings.LayerNorm.bias": np.zeros(DIM),
    }
    p = "encoder.layer.0."
    for name, shape in (
        ("attention.self.query", (DIM, DIM)),
        ("attention.self.key", (DIM, DIM)),
        ("attention.self.value", (DIM, DIM)),
        ("attention.output.dense", (DIM, DIM)),
        ("intermediate.dense", (32, DIM)),
        ("output.dense", (DIM, 32)),
    ):
        t[p + name + ".weight"] = rng.normal(0, 0.02, shape)
        t[p + name + ".bias"] = np.zeros(shape[0])
    for name in ("attention.output.LayerNorm", "output.LayerNorm"):
        t[p + name + ".weight"] = np.ones(DIM)
        t[p + name + ".bias"] = np.zeros(DIM)
    (directory / "model.safetensors").write_bytes(_tensor_bytes(t))
    (directory / "vocab.txt").write_text("\n".join(WORDS) + "\n")
    config = {
        "num_attention_heads": 2,
        "num_hidden_layers": 1,
        "layer_norm_eps": 1e-12,
        "pad_token_id": 0,
    }
    (directory / "config.json").write_text(json.dumps(config))
    return spec_of(directory)


def spec_of(directory: Path, name: str = "tiny-test-model") -> ModelSpec:
    files = tuple(
        ModelFile(f, hashlib.sha256((directory / f).read_bytes()).hexdigest(),
                  (directory / f).stat().st_size)
        for f in ("model.safetensors", "vocab.txt", "config.json")
    )  # fmt: skip
    return ModelSpec(
        name=name,
        repo="kindling-tests/tiny-test-model",
        revision="0" * 40,
        licence="Apache-2.0",
        architecture="bert",
        dim=DIM,
        max_tokens=32,
        files=files,
        special=("[CLS]", "[SEP]", "[PAD]", "[UNK]"),
    )
