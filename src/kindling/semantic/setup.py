"""Whether a store gets the semantic signal, and the pieces for it.

``scorer_for(store, "auto")`` (what the CLI, MCP and the bridge ask for) gives a scorer only when
all of these hold, and None otherwise, silently, because lexical ranking is the documented
default: the extra is installed, the model is installed and verified, and the store holds
vectors of that model. ``"on"`` (``Kindling.open(..., semantic="on")``) raises a
``SemanticError`` naming whichever is missing. Nothing here loads the model: the scorer does, on
the first question.

Must not import anything from Kindling except ``errors``, ``store``, ``secrets`` and
``semantic``.
"""

from __future__ import annotations

import importlib.util
from typing import Literal

from kindling.errors import SemanticError
from kindling.semantic.encoder import Encoder
from kindling.semantic.install import installed, require_installed
from kindling.semantic.models import ModelSpec, model_spec
from kindling.semantic.scorer import VectorScorer
from kindling.store.base import Store
from kindling.store.vectors import VectorStore

Mode = Literal["auto", "on"]


EXTRA = ("numpy", "threadpoolctl")  # what `pip install 'kindling-memory[semantic]'` brings


def extra_installed() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in EXTRA)


def vector_store(store: Store) -> VectorStore | None:
    return store if isinstance(store, VectorStore) else None


def load_encoder(spec: ModelSpec) -> Encoder:
    return Encoder(spec, require_installed(spec))


def scorer_for(store: Store, mode: Mode, spec: ModelSpec | None = None) -> VectorScorer | None:
    """The scorer for ``store`` (see the module docstring), or None in ``auto`` mode."""
    vectors = vector_store(store)
    try:
        spec = spec or model_spec()
        if not extra_installed():
            raise SemanticError(
                "the semantic signal needs its extra: pip install 'kindling-memory[semantic]'"
            )
        if vectors is None:
            raise SemanticError("this store keeps no vectors (remote stores rank on the server)")
        if installed(spec) is None:
            require_installed(spec)
        if not vectors.has_vectors(spec.key):
            raise SemanticError(
                f"the store has no vectors of {spec.key} yet: run `kindling semantic index`"
            )
    except SemanticError:
        if mode == "auto":
            return None
        raise
    chosen = spec
    return VectorScorer(vectors, lambda: load_encoder(chosen), spec.key)
