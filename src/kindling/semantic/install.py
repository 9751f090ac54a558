"""Where a model's files live, and how they get there: fetched on first use from the pinned
revision of the upstream repository, or installed from a local directory (air-gapped
machines). Every file's sha256 is checked before the model is used; a missing file or a wrong
hash is a ``SemanticError`` that names the file and the hash expected, never a fall back.

Files go to ``<cache>/<name>/<revision>/``, where ``<cache>`` is ``KINDLING_MODELS_DIR`` or
``$XDG_CACHE_HOME/kindling/models`` (``~/.cache/kindling/models``). Installing writes into a
temporary directory beside it and renames it into place once every file is verified, so a
model directory is always whole; a ``verified.json`` in it records the hashes checked. Every
path is checked to lie inside ``<cache>`` (no symbolic link on the way) before anything there
is written or removed: a pin of one's own names the folders.

Downloads are https only, and so is every redirect they follow (the hub sends its large files
to a CDN); each redirect is announced (``notice``). An offline copy is ``install_from``.

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
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kindling.config import setting
from kindling.errors import SemanticError
from kindling.semantic.models import (
    MODELS,
    ModelFile,
    ModelSpec,
    plain_part,
    spec_from_file,
    spec_to_json,
)

MODELS_DIR_ENV = "KINDLING_MODELS_DIR"
# Where models are fetched from: the upstream hub (a mirror with the same layout may stand in).
BASE_URL_ENV = "KINDLING_MODEL_BASE_URL"
DEFAULT_BASE_URL = "https://huggingface.co"
MARKER = "verified.json"
# The pin itself, written beside the files: a store whose vectors name this model (its key)
# finds the model again without ``KINDLING_SEMANTIC_MODEL`` (``spec_for_key``).
PIN = "kindling-pin.json"
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


def _inside_models_dir(spec: ModelSpec) -> Path:
    """``model_dir(spec)``, checked before an install writes or removes anything there: the
    pin's name and revision are plain folder names (``models.plain_part``) and neither folder
    is a symbolic link, so the path lies inside the models folder."""
    root = models_dir()
    for part in (spec.name, spec.revision):
        if not plain_part(part):
            raise SemanticError(
                f"the model's name and revision must be plain folder names: {part!r}"
            )
    where = root / spec.name / spec.revision
    for folder in (root / spec.name, where):
        if folder.is_symlink():
            raise SemanticError(
                f"{folder} is a symbolic link; Kindling installs models only into folders of its"
                f" own (remove the link, or set {MODELS_DIR_ENV})"
            )
        if folder.exists() and not folder.is_dir():
            raise SemanticError(f"{folder} is not a folder; remove it or set {MODELS_DIR_ENV}")
    resolved_root = root.resolve()
    if not where.resolve().is_relative_to(resolved_root) or where.resolve() == resolved_root:
        raise SemanticError(f"{where} is not inside the models folder {root}")
    return where


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


def spec_for_key(key: str) -> ModelSpec | None:
    """The pinned model whose vectors are labelled ``key`` (``ModelSpec.key``): a built-in one,
    or one installed with its pin (``PIN``, written by every install); None when neither."""
    for spec in MODELS.values():
        if spec.key == key:
            return spec
    name, _, short = key.partition("@")
    if not plain_part(name) or not short:
        return None
    try:
        folders = sorted((models_dir() / name).iterdir())
    except OSError:
        return None
    for folder in folders:
        if not folder.name.startswith(short) or not (folder / PIN).is_file():
            continue
        try:
            spec = spec_from_file(folder / PIN)
        except SemanticError:
            continue
        if spec.key == key and installed(spec) is not None:
            return spec
    return None


def installed_models() -> list[str]:
    """The keys of every model installed and verified here (sorted)."""
    keys = {s.key for s in MODELS.values() if installed(s) is not None}
    try:
        folders = sorted(p for p in models_dir().glob("*/*") if (p / PIN).is_file())
    except OSError:
        folders = []
    for folder in folders:
        try:
            spec = spec_from_file(folder / PIN)
        except SemanticError:
            continue
        if installed(spec) is not None:
            keys.add(spec.key)
    return sorted(keys)


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
    if PIN not in {f.path for f in spec.files}:
        (staging / PIN).write_text(spec_to_json(spec))
    final = _inside_models_dir(spec)  # again: the folders may have changed meanwhile
    if final.exists():
        shutil.rmtree(final)  # an incomplete or different install: replaced whole
    os.replace(staging, final)
    return final


def _staging(spec: ModelSpec) -> Path:
    parent = _inside_models_dir(spec).parent
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=".install-", dir=parent))


def _target(staging: Path, file: ModelFile) -> Path:
    """Where ``file`` goes in ``staging`` (its path is relative, without ``..``: the pin's
    check; checked here once more before writing)."""
    target = staging / file.path
    if not target.resolve().is_relative_to(staging.resolve()):
        raise SemanticError(f"{file.path} is not a path inside the model's folder")
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


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
            target = _target(staging, f)
            shutil.copyfile(found[f.path], target)
            _check(spec, f, target, str(target))  # what was copied is what was checked
        return _finish(spec, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def fetch(
    spec: ModelSpec,
    *,
    base_url: str | None = None,
    progress: Progress | None = None,
    notice: Callable[[str], None] | None = None,
) -> Path:
    """Download the model's files from the pinned revision over https and install them,
    verifying each; ``notice`` hears of every redirect followed."""
    base = base_url or setting(BASE_URL_ENV) or DEFAULT_BASE_URL
    if urllib.parse.urlsplit(base).scheme != "https":
        raise SemanticError(
            f"the model mirror {base!r} is not an https:// URL; Kindling downloads models over"
            " https only (files already on this machine: `kindling semantic install --from DIR`)"
        )
    staging = _staging(spec)
    try:
        for f in spec.files:
            target = _target(staging, f)
            url = spec.url(base, f)
            _download(url, target, f, progress, notice)
            _check(spec, f, target, url)
        return _finish(spec, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


class _HttpsRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to an https:// URL, and tells ``notice`` where it goes (the
    host: the query of a CDN's URL is a signed token, not for a terminal)."""

    def __init__(self, file: ModelFile, notice: Callable[[str], None] | None) -> None:
        self.file, self.notice = file, notice

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        where = urllib.parse.urlsplit(newurl)
        if where.scheme != "https":
            raise SemanticError(
                f"cannot download {self.file.path}: {urllib.parse.urlsplit(req.full_url).netloc}"
                f" redirects to a {where.scheme or 'relative'}:// URL; only https is followed"
            )
        if self.notice is not None:
            self.notice(f"{self.file.path}: redirected to https://{where.netloc}/")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _download(
    url: str,
    target: Path,
    file: ModelFile,
    progress: Progress | None,
    notice: Callable[[str], None] | None = None,
) -> None:
    opener = urllib.request.build_opener(_HttpsRedirects(file, notice))
    try:
        with opener.open(url, timeout=TIMEOUT_S) as response, target.open("wb") as out:
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
