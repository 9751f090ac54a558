"""``kindling semantic install|index`` and the semantic line of ``kindling status``, through the
real command, on the tiny model the tests write; bad input is one line and a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from kindling.semantic.models import spec_to_json
from tests.support.cli import run
from tests.support.semantic import write_tiny_model


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    src = tmp_path / "tiny-src"
    pin = tmp_path / "tiny.json"
    pin.write_text(spec_to_json(write_tiny_model(src)))
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin))
    return src


def test_install_index_status_search(tiny: Path) -> None:
    run("log", "typeerror in cart total today", "--kind", "error", "--repo", "shop")
    run("log", "the weather is nice today", "--kind", "error", "--repo", "shop")
    before = run("status", "--json").json()["semantic"]
    assert before["active"] is False
    assert before["modelInstalled"] is False
    assert (before["observations"], before["observationsEmbedded"]) == (2, 0)
    assert "model tiny-test-model@000000000000 not installed" in run("status").stdout

    done = run("semantic", "install", "--from", str(tiny), "--json")
    assert done.code == 0, done.stderr
    assert Path(done.json()["installed"]).is_dir()

    indexed = run("semantic", "index", "--json")
    assert indexed.code == 0, indexed.stderr
    doc = indexed.json()
    assert doc["index"]["embedded"] == 2
    assert doc["semantic"]["coverage"] == 1.0

    status = run("status", "--json").json()["semantic"]
    assert status["active"] is True
    assert status["observationsEmbedded"] == 2
    assert "on, tiny-test-model@000000000000: 2 of 2 embedded" in run("status").stdout

    found = run("search", "checkout broke today", "--repo", "shop", "--json").json()
    top = found["candidates"][0]
    assert top["entity"]["content"] == "typeerror in cart total today"
    assert "semantic" in top["explanation"]["signals"]
    assert run("semantic", "index").stdout.startswith("embedded 0")  # resumable: all done


def test_bad_input_is_one_line(tiny: Path, tmp_path: Path) -> None:
    missing = run("semantic", "install", "--from", str(tmp_path / "none"))
    assert missing.code == 1
    assert missing.stderr.count("\n") == 1
    assert "not a directory" in missing.stderr
    (tiny / "vocab.txt").write_text("changed")
    wrong = run("semantic", "install", "--from", str(tiny), "--json")
    assert wrong.code == 1
    assert wrong.json()["error"]["code"] == "semantic"
    assert "vocab.txt" in wrong.json()["error"]["message"]
    assert run("semantic", "index", "--cpu", "0").code == 2
    assert run("semantic", "install", "--model", "nope").code == 2
    run("log", "x")
    not_installed = run("semantic", "index")
    assert not_installed.code == 1
    assert "kindling semantic install" in not_installed.stderr
