"""Where a model's files live, and how they get there: fetched on first use from the pinned
revision of the upstream repository, or installed from a local directory (air-gapped
machines). Every file's sha256 is checked before the model is used; a missing file or a wrong
hash is a ``SemanticError`` that names the file and the hash expected, never a fall back.

Files go to ``<cache>/<name>/<revision>/``, where ``<cache>`` is ``KINDLING_MODELS_DIR`` or
``$XDG_CACHE_HOME/kindling/models`` (``~/.cache/kindling/models``). Installing writes into a
temporary directory beside it and renames it into place once every file is verified, so a
model directory is always whole; a ``verified.json`` in it records the hashes checked.

Must not import anything from Kindling except ``errors``, ``config`` (its variables) and
``semantic``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from kindling.config import setting
from kindling.errors import SemanticError
from kindling.semantic.models import ModelFile, ModelSpec

MODELS_DIR_ENV = "KINDLING_MODELS_DIR"
# Where models are fetched from: the upstream hub (a mirror with the same layout may stand in).
BASE_URL_ENV = "KINDLING_MODEL_BASE_URL"
DEFAULT_BASE_URL = "https://huggingface.co"
MARKER = "verified.json"
CHUNK = 1 << 20
TIMEOUT_S = 60.0

Progress = Callable[[str, int, int], None]  # file, bytes done, bytes total


def models_dir() -> Path:
    explicit = setting(MODELS_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    cache = setting("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "kindling" / "models"


def model_dir(spec: ModelSpec) -> Path:
    return models_dir() / spec.name / spec.revision


def installed(spec: ModelSpec) -> Path | None:
    """The model's directory when an install verified every pinned file (cheap: sizes and the
    marker; the hashes were checked when it was installed)."""
    where = model_dir(spec)
    try:
        marker = json.loads((where / MARKER).read_text())
    except (OSError, ValueError):
        return None
    expected = {f.path: f.sha256 for f in spec.files}
    if marker != expected:
        return None
    for f in spec.files:
        try:
            if (where / f.path).stat().st_size != f.size:
                return None
        except OSError:
            return None
    return where


def require_installed(spec: ModelSpec) -> Path:
    where = installed(spec)
    if where is None:
        raise SemanticError(
            f"the semantic model {spec.name} is not installed in {model_dir(spec)}: run"
            " `kindling semantic install` (downloads it) or `kindling semantic install --from"
            " DIR` (a directory holding " + ", ".join(f.path for f in spec.files) + ")"
        )
    return where


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _check(spec: ModelSpec, file: ModelFile, path: Path, origin: str) -> None:
    actual = sha256_of(path)
    if actual != file.sha256:
        raise SemanticError(
            f"{file.path} of {spec.name} from {origin} has sha256 {actual}, not the pinned"
            f" {file.sha256} (revision {spec.revision}); refusing to use it"
        )


def _finish(spec: ModelSpec, staging: Path) -> Path:
    (staging / MARKER).write_text(json.dumps({f.path: f.sha256 for f in spec.files}))
    final = model_dir(spec)
    final.parent.mkdir(parents=True, exist_ok=True)
    if final.exists():
        shutil.rmtree(final)  # an incomplete or different install: replaced whole
    os.replace(staging, final)
    return final


def _staging(spec: ModelSpec) -> Path:
    parent = model_dir(spec).parent
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=".install-", dir=parent))


def install_from(spec: ModelSpec, source: Path) -> Path:
    """Install the model from a local directory holding its files (at their upstream paths or
    by their base names), verifying each; returns the model's directory."""
    source = Path(source).expanduser()
    if not source.is_dir():
        raise SemanticError(f"{source} is not a directory")
    found: dict[str, Path] = {}
    for f in spec.files:
        for candidate in (source / f.path, source / Path(f.path).name):
            if candidate.is_file():
                found[f.path] = candidate
                break
        else:
            raise SemanticError(
                f"{source} has no {f.path} (sha256 {f.sha256}) for {spec.name} at revision"
                f" {spec.revision}"
            )
    for f in spec.files:
        _check(spec, f, found[f.path], str(found[f.path]))
    staging = _staging(spec)
    try:
        for f in spec.files:
            target = staging / f.path
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(found[f.path], target)
            _check(spec, f, target, str(target))  # what was copied is what was checked
        return _finish(spec, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def fetch(
    spec: ModelSpec, *, base_url: str | None = None, progress: Progress | None = None
) -> Path:
    """Download the model's files from the pinned revision and install them, verifying each."""
    base = base_url or setting(BASE_URL_ENV) or DEFAULT_BASE_URL
    staging = _staging(spec)
    try:
        for f in spec.files:
            target = staging / f.path
            target.parent.mkdir(parents=True, exist_ok=True)
            url = spec.url(base, f)
            _download(url, target, f, progress)
            _check(spec, f, target, url)
        return _finish(spec, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _download(url: str, target: Path, file: ModelFile, progress: Progress | None) -> None:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response, target.open("wb") as out:
            done = 0
            while chunk := response.read(CHUNK):
                out.write(chunk)
                done += len(chunk)
                if done > file.size:
                    raise SemanticError(f"{url} is larger than the pinned {file.size} bytes")
                if progress is not None:
                    progress(file.path, done, file.size)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise SemanticError(
            f"cannot download {file.path} from {url}: {reason}; on a machine without access,"
            " copy the files and run `kindling semantic install --from DIR`"
        ) from None
