"""Getting a model: fetched from the pinned revision (a local HTTP server stands in for the hub)
or installed from a directory, every file's sha256 checked; a missing file or a wrong hash is a
``SemanticError`` naming the file and the hash, and never leaves a half-installed model."""

from __future__ import annotations

import http.server
import json
import shutil
import ssl
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from kindling.errors import SemanticError
from kindling.semantic.install import (
    fetch,
    install_from,
    installed,
    model_dir,
    models_dir,
    require_installed,
)
from kindling.semantic.models import MINILM, MPNET, ModelSpec, model_spec, spec_to_json
from tests.support.cli import run
from tests.support.semantic import write_tiny_model


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
        "kindling-pin.json",  # the pin: a store of this model finds it again by its key
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


REDIRECTS: dict[str, str] = {}  # path -> Location, answered 302 by the hub


class _RedirectingHub(_Hub):
    def do_GET(self) -> None:
        if self.path in REDIRECTS:
            self.send_response(302)
            self.send_header("Location", REDIRECTS[self.path])
            self.end_headers()
            return
        super().do_GET()


@pytest.fixture
def tls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ssl.SSLContext:
    """A self-signed certificate for 127.0.0.1 that this process (and only it) trusts."""
    if shutil.which("openssl") is None:
        pytest.skip("the https hub needs the openssl command")
    cert, key = tmp_path / "hub.pem", tmp_path / "hub.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # urllib's default context reads it
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


@pytest.fixture
def hub(
    tmp_path: Path, source: tuple[ModelSpec, Path], tls: ssl.SSLContext
) -> Iterator[tuple[str, Path]]:
    """A local HTTPS server laid out like the hub: /<repo>/resolve/<revision>/<path>."""
    spec, src = source
    root = tmp_path / "hub"
    served = root / spec.repo / "resolve" / spec.revision
    served.mkdir(parents=True)
    for f in spec.files:
        (served / f.path).write_bytes((src / f.path).read_bytes())

    def handler(*args: object, **kwargs: object) -> _Hub:
        return _RedirectingHub(*args, directory=str(root), **kwargs)  # type: ignore[arg-type]

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    REDIRECTS.clear()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}", served
    finally:
        REDIRECTS.clear()
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
        fetch(spec, base_url="https://127.0.0.1:9")  # nothing listens there
    assert installed(spec) is None


def test_the_pinned_models_and_pins_of_ones_own(tmp_path: Path) -> None:
    assert model_spec().name == "all-MiniLM-L6-v2"  # the default since issue 35
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


def test_only_https_mirrors_and_redirects_are_followed(
    source: tuple[ModelSpec, Path], hub: tuple[str, Path], tmp_path: Path
) -> None:
    spec, src = source
    url, _ = hub
    for mirror in (url.replace("https://", "http://"), f"file://{tmp_path / 'hub'}", "ftp://x"):
        with pytest.raises(SemanticError, match=r"not an https:// URL.*--from DIR"):
            fetch(spec, base_url=mirror)
    assert installed(spec) is None
    prefix = f"/{spec.repo}/resolve/{spec.revision}/"
    REDIRECTS[prefix + "vocab.txt"] = "http://127.0.0.1:9/vocab.txt"
    with pytest.raises(SemanticError, match=r"vocab\.txt: .* redirects to a http:// URL"):
        fetch(spec, base_url=url)
    REDIRECTS[prefix + "vocab.txt"] = f"file://{src / 'vocab.txt'}"
    with pytest.raises(SemanticError, match=r"file://.*not allowed"):  # urllib's own refusal
        fetch(spec, base_url=url)
    assert installed(spec) is None
    REDIRECTS[prefix + "vocab.txt"] = f"{url}/elsewhere/vocab.txt"  # https: followed, announced
    (tmp_path / "hub" / "elsewhere").mkdir()
    (tmp_path / "hub" / "elsewhere" / "vocab.txt").write_bytes((src / "vocab.txt").read_bytes())
    heard: list[str] = []
    assert fetch(spec, base_url=url, notice=heard.append) == installed(spec)
    assert heard == [f"vocab.txt: redirected to {url}/"]


def _pin(tmp_path: Path, spec: ModelSpec, **changes: str) -> Path:
    doc = json.loads(spec_to_json(spec))
    doc.update(changes)
    pin = tmp_path / "pin.json"
    pin.write_text(json.dumps(doc))
    return pin


@pytest.mark.parametrize(
    "changes",
    [{"name": ".."}, {"revision": ".."}, {"name": "..", "revision": ".."}, {"name": "."},
     {"revision": "a/../.."}, {"name": ""}],
)  # fmt: skip
def test_a_pin_naming_folders_outside_the_models_folder_is_refused(
    source: tuple[ModelSpec, Path], tmp_path: Path, changes: dict[str, str]
) -> None:
    spec, src = source
    above = models_dir().parent  # what a ".." would reach: it must survive
    (above / "keep").mkdir(parents=True)
    (above / "keep" / "data").write_text("precious")
    pin = _pin(tmp_path, spec, **changes)
    with pytest.raises(SemanticError, match="plain folder name"):
        model_spec(str(pin))
    done = run("semantic", "install", "--from", str(src), env={"KINDLING_SEMANTIC_MODEL": str(pin)})
    assert done.code == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert (above / "keep" / "data").read_text() == "precious"
    with pytest.raises(SemanticError, match="plain folder name"):  # a spec made in code too
        install_from(replace(spec, **changes), src)  # type: ignore[arg-type]
    assert (above / "keep" / "data").read_text() == "precious"


def test_a_file_path_outside_the_model_folder_is_refused(
    source: tuple[ModelSpec, Path], tmp_path: Path
) -> None:
    spec, _ = source
    for bad in ("../vocab.txt", "/etc/vocab.txt", "a/./vocab.txt", "a//vocab.txt"):
        doc = json.loads(spec_to_json(spec))
        doc["files"].append({"path": bad, "sha256": "0" * 64, "size": 1})
        (tmp_path / "pin.json").write_text(json.dumps(doc))
        with pytest.raises(SemanticError, match="relative path of plain names"):
            model_spec(str(tmp_path / "pin.json"))


def test_a_symlinked_model_folder_is_a_one_line_error(
    source: tuple[ModelSpec, Path], tmp_path: Path
) -> None:
    spec, src = source
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep").write_text("precious")
    for link in (model_dir(spec), model_dir(spec).parent):
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(elsewhere, target_is_directory=True)
        pin = _pin(tmp_path, spec)
        done = run(
            "semantic", "install", "--from", str(src), env={"KINDLING_SEMANTIC_MODEL": str(pin)}
        )
        assert done.code == 1
        assert done.stderr.count("\n") == 1, done.stderr
        assert "symbolic link" in done.stderr
        assert sorted(p.name for p in elsewhere.iterdir()) == ["keep"]
        link.unlink()
        shutil.rmtree(models_dir())
