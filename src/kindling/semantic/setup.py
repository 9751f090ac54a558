"""Whether a store gets the semantic signal, which model it is, and the pieces for it.

**A store remembers its model**: its vectors are labelled with the model's key (name and
revision), so ``chosen_model`` takes, in this order, the model named by the caller, the one
``KINDLING_SEMANTIC_MODEL`` names, the model of the store's vectors (the one with the most, when
a switch is half done), and only for a store without vectors the default. Search and ``kindling
semantic index`` both go through it, so a store indexed with any pinned model is searched and
indexed further with that model, and nothing re-embeds a store with another model unless asked
(``index(..., replace=True)``).

``scorer_for(store, "auto")`` (what the CLI, MCP and the bridge ask for) gives a scorer only when
all of these hold, and None otherwise, silently, because lexical ranking is the documented
default: the extra is installed, the model is installed and verified, and the store holds
vectors of that model. ``"on"`` (``Kindling.open(..., semantic="on")``) raises a
``SemanticError`` naming whichever is missing. Nothing here loads the model: the scorer does, on
the first question.

Must not import anything from Kindling except ``errors``, ``config``, ``store``, ``secrets``
and ``semantic``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Literal

from kindling.config import setting
from kindling.errors import SemanticError
from kindling.semantic.encoder import Encoder
from kindling.semantic.install import installed, require_installed, spec_for_key
from kindling.semantic.models import MODEL_ENV, ModelSpec, model_spec
from kindling.semantic.scorer import VectorScorer
from kindling.store.base import Store
from kindling.store.vectors import VectorStore

Mode = Literal["auto", "on"]


EXTRA = ("numpy", "threadpoolctl")  # what `pip install 'kindling-memory[semantic]'` brings


def extra_installed() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in EXTRA)


def vector_store(store: Store) -> VectorStore | None:
    return store if isinstance(store, VectorStore) else None


Source = Literal["given", "environment", "store", "default"]


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """The model a store is searched and indexed with, and why."""

    key: str  # what its vectors are labelled with
    spec: ModelSpec | None  # None: the store's vectors are of a model whose pin is not here
    source: Source
    stored: str | None  # the model of the store's vectors (most vectors), if any

    def require(self) -> ModelSpec:
        if self.spec is None:
            raise SemanticError(
                f"the store's vectors are of {self.key}, a model pinned outside Kindling that"
                f" is not installed here: install it from its pin ({MODEL_ENV}=/path/pin.json"
                " kindling semantic install --from DIR)"
            )
        return self.spec


def stored_model(vectors: VectorStore | None) -> str | None:
    """The model most of the store's vectors are of (ties: the first key), or None."""
    models = vectors.vector_models() if vectors is not None else {}
    if not models:
        return None
    return max(sorted(models), key=lambda key: models[key])


def chosen_model(store: Store, model: str | None = None) -> ModelChoice:
    """Which model ``store`` is searched and indexed with (see the module docstring)."""
    stored = stored_model(vector_store(store))
    named = model or setting(MODEL_ENV)
    if named:
        spec = model_spec(named)
        return ModelChoice(spec.key, spec, "given" if model else "environment", stored)
    if stored is not None:
        return ModelChoice(stored, spec_for_key(stored), "store", stored)
    spec = model_spec()
    return ModelChoice(spec.key, spec, "default", None)


def load_encoder(spec: ModelSpec) -> Encoder:
    return Encoder(spec, require_installed(spec))


def scorer_for(store: Store, mode: Mode, spec: ModelSpec | None = None) -> VectorScorer | None:
    """The scorer for ``store`` (see the module docstring), or None in ``auto`` mode."""
    vectors = vector_store(store)
    try:
        spec = spec or chosen_model(store).require()
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
