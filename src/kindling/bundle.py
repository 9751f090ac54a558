"""Export and import bundles: ``Kindling.export_bundle`` and ``Kindling.import_bundle``
(``engine.transfer``), and the bundle format (``model.bundle``), under their old names.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from kindling.engine import Kindling
from kindling.engine.transfer import IMPORT_CHUNK, Progress
from kindling.model import JsonObject, Scope
from kindling.model.bundle import (
    BUNDLE_VERSION,
    DATASET_VERSION,
    ENTITY_TYPES,
    MAX_BUNDLE_BYTES,
    MISSING_CAPSULE,
    Bundle,
    dumps,
    loads,
    parse_bundle,
)
from kindling.model.reports import ImportReport


def _no_progress(_: int) -> None:
    return None


def export_bundle(
    kd: Kindling,
    *,
    scope: Scope | None = None,
    include_redacted: bool = False,
    exported_at: int | None = None,
    progress: Progress = _no_progress,
) -> JsonObject:
    """``kd.export_bundle(...)``."""
    return kd.export_bundle(
        scope=scope, include_redacted=include_redacted, exported_at=exported_at, progress=progress
    )


def import_bundle(
    kd: Kindling,
    bundle: Bundle,
    *,
    dry_run: bool = False,
    progress: Progress = _no_progress,
) -> ImportReport:
    """``kd.import_bundle(...)``."""
    return kd.import_bundle(bundle, dry_run=dry_run, progress=progress)


__all__ = [
    "BUNDLE_VERSION",
    "DATASET_VERSION",
    "ENTITY_TYPES",
    "IMPORT_CHUNK",
    "MAX_BUNDLE_BYTES",
    "MISSING_CAPSULE",
    "Bundle",
    "ImportReport",
    "dumps",
    "export_bundle",
    "import_bundle",
    "loads",
    "parse_bundle",
]
