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
from kindling.semantic.models import ModelSpec, model_spec
from kindling.semantic.setup import extra_installed, load_encoder, vector_store
from kindling.store.base import Store
from kindling.store.vectors import Coverage


@dataclass(frozen=True, slots=True)
class SemanticStatus:
    """What ``kindling status`` says of the semantic signal."""

    extra: bool  # the extra (numpy) is importable
    model: ModelSpec
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

    def to_dict(self) -> dict[str, object]:
        doc: dict[str, object] = dict(self.coverage.to_dict()) if self.coverage else {}
        doc.update(
            active=self.active,
            extra=self.extra,
            model=self.model.key,
            modelInstalled=self.installed,
        )
        return doc


def status(store: Store, model: str | None = None) -> SemanticStatus:
    spec = model_spec(model)
    vectors = vector_store(store)
    cover = vectors.vector_coverage(spec.key) if vectors is not None else None
    return SemanticStatus(extra_installed(), spec, installer.installed(spec) is not None, cover)


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
    progress: Callable[[IndexProgress], None] | None = None,
) -> IndexProgress:
    """Backfill ``store``'s vectors of the model (see ``indexer``)."""
    spec = model_spec(model)
    vectors = vector_store(store)
    if vectors is None:
        raise SemanticError("this store keeps no vectors (a remote store indexes on its server)")
    if not extra_installed():
        raise SemanticError(
            "the semantic signal needs its extra: pip install 'kindling-memory[semantic]'"
        )
    return backfill(vectors, load_encoder(spec), limit=limit, cpu=cpu, progress=progress)
