"""A store remembers its model (issue 35): indexed with a pinned model, it is searched and indexed
further with that model without ``KINDLING_SEMANTIC_MODEL``; status says which model and why it
is off, before a database exists too; nothing re-embeds a store with another model unless
``--replace`` says so; ``kindling semantic index`` stops on SIGTERM after a batch and resumes
without loss. Through the real command, on two tiny models the tests write."""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from kindling import Kindling
from kindling.semantic import api
from kindling.semantic.indexer import IndexProgress
from kindling.semantic.install import install_from, spec_for_key
from kindling.semantic.models import MINILM, model_spec, spec_to_json
from kindling.semantic.setup import chosen_model
from tests.support.cli import KINDLING, run
from tests.support.semantic import write_tiny_model


def _pin(tmp_path: Path, seed: int, name: str) -> tuple[Path, Path]:
    """A tiny model named ``name`` (its files and its pin), not installed."""
    src = tmp_path / f"{name}-src"
    spec = write_tiny_model(src, seed=seed)
    spec = replace(spec, name=name)
    pin = tmp_path / f"{name}.json"
    pin.write_text(spec_to_json(spec))
    return pin, src


@pytest.fixture
def two(tmp_path: Path) -> tuple[tuple[Path, Path], tuple[Path, Path]]:
    return _pin(tmp_path, 7, "tiny-a"), _pin(tmp_path, 8, "tiny-b")


def _log_two() -> None:
    run("log", "typeerror in cart total today", "--kind", "error", "--repo", "shop")
    run("log", "the weather is nice today", "--kind", "error", "--repo", "shop")


def test_indexed_with_a_pin_searched_without_the_variable(
    two: tuple[tuple[Path, Path], tuple[Path, Path]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (pin, src), _ = two
    _log_two()
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin))
    assert run("semantic", "install", "--from", str(src)).code == 0
    assert run("semantic", "index").code == 0
    monkeypatch.delenv("KINDLING_SEMANTIC_MODEL")

    status = run("status", "--json").json()["semantic"]
    assert status["active"] is True
    assert (status["model"], status["modelSource"]) == ("tiny-a@000000000000", "store")
    assert status["hint"] is None
    found = run("search", "checkout broke today", "--repo", "shop", "--json").json()
    assert found["candidates"][0]["entity"]["content"] == "typeerror in cart total today"
    assert "semantic" in found["candidates"][0]["explanation"]["signals"]
    # the hint's command continues with the store's model: nothing to do, nothing re-embedded
    again = run("semantic", "index", "--json").json()
    assert again["index"]["embedded"] == 0
    assert again["semantic"]["model"] == "tiny-a@000000000000"


def test_another_model_named_never_re_embeds_silently(
    two: tuple[tuple[Path, Path], tuple[Path, Path]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (pin_a, src_a), (pin_b, src_b) = two
    _log_two()
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin_a))
    run("semantic", "install", "--from", str(src_a))
    run("semantic", "index")
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin_b))
    run("semantic", "install", "--from", str(src_b))

    status = run("status", "--json").json()["semantic"]
    assert status["active"] is False
    assert status["storeModel"] == "tiny-a@000000000000"
    assert "unset it to search with tiny-a" in status["hint"]
    assert "--replace" in status["hint"]
    refused = run("semantic", "index")
    assert refused.code == 1
    assert refused.stderr.count("\n") == 1
    assert "--replace" in refused.stderr
    assert run("status", "--json").json()["semantic"]["storeModel"] == "tiny-a@000000000000"

    switched = run("semantic", "index", "--replace", "--json")
    assert switched.code == 0, switched.stderr
    assert switched.json()["index"]["embedded"] == 2
    monkeypatch.delenv("KINDLING_SEMANTIC_MODEL")
    after = run("status", "--json").json()["semantic"]
    assert (after["model"], after["active"]) == ("tiny-b@000000000000", True)


def test_half_switched_store_asks_which_model(
    two: tuple[tuple[Path, Path], tuple[Path, Path]], monkeypatch: pytest.MonkeyPatch
) -> None:
    (pin_a, src_a), (pin_b, src_b) = two
    _log_two()
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin_a))
    run("semantic", "install", "--from", str(src_a))
    run("semantic", "index")
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin_b))
    run("semantic", "install", "--from", str(src_b))
    assert run("semantic", "index", "--replace", "--limit", "1").code == 0
    monkeypatch.delenv("KINDLING_SEMANTIC_MODEL")
    mixed = run("semantic", "index")
    assert mixed.code == 1
    assert "several models" in mixed.stderr


def test_a_builtin_model_is_found_by_its_key(tmp_path: Path, db_path: Path) -> None:
    assert spec_for_key(MINILM.key) is MINILM
    assert spec_for_key("nope@123") is None
    assert spec_for_key("../x@1") is None
    with Kindling.open(db_path) as kd:
        kd.append_observation(kind="message", content="x")
        choice = chosen_model(kd.store)
        assert (choice.source, choice.stored) == ("default", None)


def test_a_store_model_whose_pin_is_gone_says_how_to_install(
    two: tuple[tuple[Path, Path], tuple[Path, Path]],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    (pin, src), _ = two
    _log_two()
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin))
    run("semantic", "install", "--from", str(src))
    run("semantic", "index")
    monkeypatch.delenv("KINDLING_SEMANTIC_MODEL")
    monkeypatch.setenv("KINDLING_MODELS_DIR", str(tmp_path / "empty-models"))
    status = run("status", "--json").json()["semantic"]
    assert status["active"] is False
    assert "pinned outside Kindling" in status["hint"]
    assert "tiny-a@000000000000" in run("status").stdout
    failed = run("semantic", "index")
    assert failed.code == 1
    assert "not installed here" in failed.stderr


def test_status_before_a_database_says_whether_a_model_is_installed(
    two: tuple[tuple[Path, Path], tuple[Path, Path]],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    (pin, src), _ = two
    missing = tmp_path / "none" / "k.db"
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin))
    before = run("--db", str(missing), "status", "--json")
    assert before.code == 1
    assert "no database at" in before.json()["error"]["message"]
    assert before.json()["semantic"]["modelInstalled"] is False
    assert run("semantic", "install", "--from", str(src)).code == 0
    after = run("--db", str(missing), "status")
    assert after.code == 1
    assert "model tiny-a@000000000000 installed" in after.stdout
    assert after.stderr.count("\n") == 1
    assert not missing.parent.exists()


def test_backfill_stops_between_batches_and_resumes(
    two: tuple[tuple[Path, Path], tuple[Path, Path]], db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (pin, src), _ = two
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin))
    install_from(model_spec(), src)
    with Kindling.open(db_path) as kd:
        for n in range(10):
            kd.append_observation(kind="message", content=f"cart total {n}")
        seen: list[IndexProgress] = []
        done = api.index(kd.store, batch=3, progress=seen.append, stop=lambda: len(seen) >= 2)
        assert (done.embedded, done.stopped) == (6, True)
        assert [p.embedded for p in seen] == [3, 6]
        rest = api.index(kd.store, batch=3)
        assert (rest.embedded, rest.missing, rest.stopped) == (4, 4, False)
        cover = api.status(kd.store).coverage
        assert cover is not None
        assert cover.share == 1.0


def test_sigterm_stops_the_index_command_after_a_batch(
    two: tuple[tuple[Path, Path], tuple[Path, Path]],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    (pin, src), _ = two
    db = tmp_path / "k.db"
    env = {**os.environ, "KINDLING_SEMANTIC_MODEL": str(pin), "KINDLING_DB": str(db)}
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin))
    run("semantic", "install", "--from", str(src))
    with Kindling.open(db) as kd:
        for n in range(400):
            kd.append_observation(kind="message", content=f"cart total broke {n}")
    # --cpu 0.05 sleeps 19 times a batch's work after each batch: SIGTERM lands between two
    proc = subprocess.Popen(
        [str(KINDLING), "semantic", "index", "--batch", "1", "--cpu", "0.05"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stderr.readline() if proc.stderr else ""  # the first progress line
    assert "embedded" in line
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM
    assert "Traceback" not in err
    assert out.startswith("stopped: embedded ")
    assert "run again to resume" in out
    stopped_at = int(out.split()[2])
    assert 0 < stopped_at < 400
    with Kindling.open(db) as kd:
        cover = api.status(kd.store).coverage
        assert cover is not None
        assert cover.embedded == stopped_at  # nothing embedded was lost
    resumed = subprocess.run(
        [str(KINDLING), "semantic", "index", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert '"embedded": ' + str(400 - stopped_at) in resumed.stdout


def test_bad_batch_is_refused(two: tuple[tuple[Path, Path], tuple[Path, Path]]) -> None:
    run("log", "x")
    assert run("semantic", "index", "--batch", "0").code == 2
    assert run("semantic", "index", "--batch", "5000").code == 2
