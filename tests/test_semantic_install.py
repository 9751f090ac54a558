"""Getting a model: fetched from the pinned revision (a local HTTP server stands in for the hub)
or installed from a directory, every file's sha256 checked; a missing file or a wrong hash is a
``SemanticError`` naming the file and the hash, and never leaves a half-installed model."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kindling.errors import SemanticError
from kindling.semantic.install import fetch, install_from, installed, model_dir, require_installed
from kindling.semantic.models import MINILM, MPNET, ModelSpec, model_spec, spec_to_json
from tests.semantic_util import write_tiny_model


@pytest.fixture
def source(tmp_path: Path) -> tuple[ModelSpec, Path]:
    src = tmp_path / "src"
    return write_tiny_model(src), src


def test_install_from_a_directory(source: tuple[ModelSpec, Path]) -> None:
    spec, src = source
    assert installed(spec) is None
    with pytest.raises(SemanticError, match="kindling semantic install"):
        require_installed(spec)
    where = install_from(spec, src)
    assert installed(spec) == where == model_dir(spec)
    assert sorted(p.name for p in where.iterdir()) == [
        "config.json",
        "model.safetensors",
        "verified.json",
        "vocab.txt",
    ]
    # a file changed after the install makes it not installed (sizes are checked on use)
    (where / "vocab.txt").write_text("tampered")
    assert installed(spec) is None


def test_a_wrong_hash_is_refused_by_name(source: tuple[ModelSpec, Path]) -> None:
    spec, src = source
    with (src / "vocab.txt").open("a") as fh:
        fh.write("extra\n")
    with pytest.raises(SemanticError) as err:
        install_from(spec, src)
    message = str(err.value)
    assert "vocab.txt" in message
    assert spec.files[1].sha256 in message
    assert installed(spec) is None
    parent = model_dir(spec).parent
    assert not parent.exists() or not any(p.name.startswith(".install") for p in parent.iterdir())


def test_a_missing_file_is_named(source: tuple[ModelSpec, Path], tmp_path: Path) -> None:
    spec, src = source
    (src / "config.json").unlink()
    with pytest.raises(SemanticError, match=r"no config\.json \(sha256 [0-9a-f]{64}\)"):
        install_from(spec, src)
    with pytest.raises(SemanticError, match="not a directory"):
        install_from(spec, tmp_path / "nowhere")


class _Hub(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


@pytest.fixture
def hub(tmp_path: Path, source: tuple[ModelSpec, Path]) -> Iterator[tuple[str, Path]]:
    """A local HTTP server laid out like the hub: /<repo>/resolve/<revision>/<path>."""
    spec, src = source
    root = tmp_path / "hub"
    served = root / spec.repo / "resolve" / spec.revision
    served.mkdir(parents=True)
    for f in spec.files:
        (served / f.path).write_bytes((src / f.path).read_bytes())

    def handler(*args: object, **kwargs: object) -> _Hub:
        return _Hub(*args, directory=str(root), **kwargs)  # type: ignore[arg-type]

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", served
    finally:
        server.shutdown()
        server.server_close()


def test_fetch_downloads_the_pinned_revision(
    source: tuple[ModelSpec, Path], hub: tuple[str, Path]
) -> None:
    spec, _ = source
    url, _ = hub
    seen: list[str] = []
    where = fetch(spec, base_url=url, progress=lambda name, done, total: seen.append(name))
    assert installed(spec) == where
    assert set(seen) == {f.path for f in spec.files}


def test_fetch_refuses_other_bytes_and_missing_files(
    source: tuple[ModelSpec, Path], hub: tuple[str, Path]
) -> None:
    spec, _ = source
    url, served = hub
    (served / "model.safetensors").write_bytes(b"\0" * 64)
    with pytest.raises(SemanticError, match=r"model\.safetensors .* not the pinned"):
        fetch(spec, base_url=url)
    assert installed(spec) is None
    (served / "model.safetensors").unlink()
    with pytest.raises(SemanticError, match=r"cannot download model\.safetensors .*--from DIR"):
        fetch(spec, base_url=url)
    with pytest.raises(SemanticError, match="cannot download"):
        fetch(spec, base_url="http://127.0.0.1:9")  # nothing listens there
    assert installed(spec) is None


def test_the_pinned_models_and_pins_of_ones_own(tmp_path: Path) -> None:
    assert model_spec().name == "all-mpnet-base-v2"
    assert MPNET.revision == "e8c3b32edf5434bc2275fc9bab85f82640a19130"
    assert MPNET.files[0].sha256.startswith("78c0197b")
    assert MINILM.files[0].sha256.startswith("53aa5117")
    with pytest.raises(SemanticError, match="unknown semantic model"):
        model_spec("bge-small")
    pin = tmp_path / "pin.json"
    pin.write_text(spec_to_json(MINILM))
    assert model_spec(str(pin)) == MINILM
    for bad in ("{", '{"name": "x"}', spec_to_json(MINILM).replace("vocab.txt", "../vocab.txt")):
        pin.write_text(bad)
        with pytest.raises(SemanticError):
            model_spec(str(pin))
