"""The library calls behind ``kindling semantic`` and the semantic line of ``kindling status``:
install a model, backfill a store's vectors, report coverage.

Must not import anything from Kindling except ``errors``, ``store``, ``secrets`` and
``semantic``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kindling.errors import SemanticError
from kindling.semantic import install as installer
from kindling.semantic.indexer import IndexProgress, backfill
from kindling.semantic.models import MODEL_ENV, MODELS, model_spec
from kindling.semantic.setup import (
    ModelChoice,
    chosen_model,
    extra_installed,
    load_encoder,
    vector_store,
)
from kindling.store.base import Store
from kindling.store.vectors import Coverage


@dataclass(frozen=True, slots=True)
class SemanticStatus:
    """What ``kindling status`` says of the semantic signal."""

    extra: bool  # the extra (numpy) is importable
    choice: ModelChoice  # the model the store is searched with, and why
    installed: bool  # the model's files are installed and verified
    coverage: Coverage | None  # None: the store keeps no vectors

    @property
    def active(self) -> bool:
        """Retrieval through the CLI, MCP and the bridge uses the signal."""
        return (
            self.extra
            and self.installed
            and self.coverage is not None
            and self.coverage.embedded > 0
        )

    @property
    def hint(self) -> str | None:
        """Why the signal is off and what turns it on (None when it is on). It never leads to
        re-embedding a store with another model: that takes ``--replace``, said as such."""
        choice = self.choice
        if self.active:
            return None
        if not self.extra:
            return "extra not installed"
        if choice.spec is None:
            return (
                f"the store's vectors are of {choice.key}, pinned outside Kindling and not"
                f" installed here: {MODEL_ENV}=/path/pin.json kindling semantic install"
            )
        if choice.stored is not None and choice.stored != choice.key:
            return (
                f"the store's vectors are of {choice.stored}, {MODEL_ENV} names {choice.key}:"
                f" unset it to search with {choice.stored} (`kindling semantic index --replace`"
                f" would re-embed every row with {choice.key})"
            )
        if not self.installed:
            flag = f" --model {choice.spec.name}" if choice.spec.name in MODELS else ""
            if choice.source in ("environment", "given") and flag == "":
                flag = f" (with {MODEL_ENV} set as now)"
            return f"model {choice.key} not installed: kindling semantic install{flag}"
        return "no vectors yet: kindling semantic index"

    def to_dict(self) -> dict[str, object]:
        doc: dict[str, object] = dict(self.coverage.to_dict()) if self.coverage else {}
        doc.update(
            active=self.active,
            extra=self.extra,
            model=self.choice.key,
            modelSource=self.choice.source,
            storeModel=self.choice.stored,
            modelInstalled=self.installed,
            hint=self.hint,
        )
        return doc


def status(store: Store, model: str | None = None) -> SemanticStatus:
    choice = chosen_model(store, model)
    vectors = vector_store(store)
    cover = vectors.vector_coverage(choice.key) if vectors is not None else None
    ready = choice.spec is not None and installer.installed(choice.spec) is not None
    return SemanticStatus(extra_installed(), choice, ready, cover)


def model_status() -> dict[str, object]:
    """What can be said of the signal without a store (``kindling status`` before a database
    exists): the extra, the model a new store would be indexed with, what is installed."""
    try:
        spec = model_spec()
    except SemanticError as exc:
        return {"extra": extra_installed(), "model": None, "error": exc.message}
    return {
        "extra": extra_installed(),
        "model": spec.key,
        "modelInstalled": installer.installed(spec) is not None,
        "installedModels": installer.installed_models(),
    }


def install(
    model: str | None = None,
    *,
    source: Path | None = None,
    progress: installer.Progress | None = None,
    notice: Callable[[str], None] | None = None,
) -> Path:
    """Install the model (default: the configured one) from ``source`` or by download over
    https (``notice`` hears of each redirect)."""
    spec = model_spec(model)
    if source is not None:
        return installer.install_from(spec, source)
    return installer.fetch(spec, progress=progress, notice=notice)


def index(
    store: Store,
    *,
    model: str | None = None,
    limit: int | None = None,
    cpu: float = 1.0,
    batch: int = 16,
    replace: bool = False,
    progress: Callable[[IndexProgress], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> IndexProgress:
    """Backfill ``store``'s vectors (see ``indexer``) of the model the store is searched with
    (``setup.chosen_model``: the one given, else ``KINDLING_SEMANTIC_MODEL``, else the store's
    own, else the default). Vectors of another model are replaced only with ``replace``."""
    vectors = vector_store(store)
    if vectors is None:
        raise SemanticError("this store keeps no vectors (a remote store indexes on its server)")
    choice = chosen_model(store, model)
    spec = choice.require()
    others = {k: n for k, n in vectors.vector_models().items() if k != spec.key}
    if others and not replace:
        held = ", ".join(f"{k} ({n} vectors)" for k, n in sorted(others.items()))
        if choice.source == "store":
            raise SemanticError(
                f"this store holds vectors of several models ({spec.key} and {held}): say"
                " which to finish with: kindling semantic index --model NAME --replace"
            )
        named = "--model" if choice.source == "given" else MODEL_ENV
        raise SemanticError(
            f"this store's vectors are of {held}; indexing with {spec.key} (from {named})"
            f" would re-embed every row: pass --replace to do so, or drop {named} to index"
            " with the store's own model"
        )
    if not extra_installed():
        raise SemanticError(
            "the semantic signal needs its extra: pip install 'kindling-memory[semantic]'"
        )
    return backfill(
        vectors,
        load_encoder(spec),
        limit=limit,
        batch=batch,
        cpu=cpu,
        progress=progress,
        stop=stop,
    )
