"""The semantic signal in ``retrieve()``, on a tiny model the tests write (tests/support/semantic):
it re-ranks the lexical candidates under its own name in ``explanation.signals``, the same
store, vectors, question and ``now`` give the same bytes, a row without a vector still ranks,
secrets are masked before anything is embedded, and without the signal nothing changes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling, Scope
from kindling.errors import SemanticError
from kindling.semantic import api, codec
from kindling.semantic.indexer import backfill
from kindling.semantic.install import install_from
from kindling.semantic.models import spec_to_json
from tests.support.paths import ROOT
from tests.support.semantic import write_tiny_model

QUERY = "checkout broke today"
NOW = 1_767_225_600_000 + 3_600_000
SCOPE = Scope(repo_id="shop")


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tiny model, pinned in a JSON file, installed (verified) into the model cache."""
    spec = write_tiny_model(tmp_path / "tiny-src")
    pin = tmp_path / "tiny.json"
    pin.write_text(spec_to_json(spec))
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin))
    install_from(spec, tmp_path / "tiny-src")
    return pin


def fill(kd: Kindling) -> dict[str, str]:
    # lexically both match only "today"; the weather line is newer, so it ranks first without
    # the signal, and the cart error (the answer in other words) first with it
    ids = {}
    ids["cart"] = kd.append_observation(
        kind="error", content="typeerror in cart total today", scope=SCOPE, ts=NOW - 7_200_000
    ).id
    ids["weather"] = kd.append_observation(
        kind="error", content="the weather is nice today", scope=SCOPE, ts=NOW - 3_600_000
    ).id
    return ids


def ranked(kd: Kindling, query: str = QUERY) -> list[str]:
    result = kd.retrieve(query, scope=SCOPE, now=NOW)
    return [c.entity.id for c in result.candidates]


def dump(kd: Kindling, query: str = QUERY) -> str:
    return json.dumps(kd.retrieve(query, scope=SCOPE, now=NOW).to_dict(), sort_keys=True)


@pytest.fixture
def indexed(tiny: Path, db_path: Path) -> tuple[Path, dict[str, str]]:
    with Kindling.open(db_path) as kd:
        ids = fill(kd)
        api.index(kd.store)
    return db_path, ids


def test_the_signal_reranks_and_is_named(indexed: tuple[Path, dict[str, str]]) -> None:
    db, ids = indexed
    with Kindling.open(db) as lexical:
        assert ranked(lexical) == [ids["weather"], ids["cart"]]
        assert (
            "semantic"
            not in lexical.retrieve(QUERY, scope=SCOPE, now=NOW).candidates[0].explanation.signals
        )
    with Kindling.open(db, semantic="on") as kd:
        assert ranked(kd) == [ids["cart"], ids["weather"]]
        result = kd.retrieve(QUERY, scope=SCOPE, now=NOW)
        values = {c.entity.id: c.explanation.signals["semantic"] for c in result.candidates}
        assert values[ids["cart"]] > values[ids["weather"]]
        assert all(0.0 <= v <= 1.0 for v in values.values())


def test_same_inputs_same_bytes(indexed: tuple[Path, dict[str, str]]) -> None:
    db, _ = indexed
    with Kindling.open(db, semantic="on") as kd:
        first = dump(kd)
        assert dump(kd) == first
    with Kindling.open(db, semantic="on") as again:  # a fresh model load
        assert dump(again) == first


def test_auto_without_model_is_lexical_bytes(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        fill(kd)
        lexical = dump(kd)
    with Kindling.open(db_path, semantic="auto") as kd:
        assert dump(kd) == lexical
    with Kindling.open(db_path, semantic="on") as kd, pytest.raises(SemanticError, match="install"):
        kd.retrieve(QUERY)


def test_auto_without_vectors_is_lexical_bytes(tiny: Path, db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        fill(kd)
        lexical = dump(kd)
    with Kindling.open(db_path, semantic="auto") as kd:
        assert dump(kd) == lexical
    with Kindling.open(db_path, semantic=True) as kd, pytest.raises(SemanticError, match="index"):
        kd.retrieve(QUERY)


def test_a_row_without_a_vector_still_ranks(tiny: Path, db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        ids = fill(kd)
        late = kd.append_observation(
            kind="message", content="deploy failed today", scope=SCOPE, ts=NOW - 1000
        ).id
        done = api.index(kd.store, limit=2)
        assert done.embedded == 2
    with Kindling.open(db_path, semantic="on") as kd:
        result = kd.retrieve(QUERY, scope=SCOPE, now=NOW)
        got = {c.entity.id: c.explanation.signals["semantic"] for c in result.candidates}
        assert set(got) == {*ids.values(), late}
        # the newest row was embedded first; of the other two, one waits: it gets the median
        assert sorted(got.values())[1] in got.values()


def test_bad_semantic_switch_is_a_typed_error(db_path: Path) -> None:
    from kindling.errors import InvalidInputError

    for bad in ("yes", 1, None):
        with pytest.raises(InvalidInputError):
            Kindling.open(db_path, semantic=bad)  # type: ignore[arg-type]


class Recorder:
    """A text encoder that records what it was given (every text gets the same vector)."""

    model = "recorder@1"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, texts: Sequence[str], *, batch: int = 16) -> list[list[float]]:
        self.seen.extend(texts)
        return [[1.0, 0.5] for _ in texts]


def test_indexer_masks_secrets_and_goes_newest_first(db_path: Path) -> None:
    key = "AKIA" + "Q3EGRIZLPJ5UXMQV"
    with Kindling.open(db_path, scrub_secrets=False) as kd:
        for n in range(5):
            kd.append_observation(kind="message", content=f"step {n}", ts=NOW - 10_000 + n)
        kd.append_observation(kind="command", content=f"export AWS_KEY={key}", ts=NOW - 20_000)
        rec = Recorder()
        store: Any = kd.store
        first = backfill(store, rec, limit=2)
        assert first.embedded == 2
        assert rec.seen == ["step 4", "step 3"]
        rest = backfill(store, rec)
        assert rest.embedded == 4
        assert rec.seen[2:5] == ["step 2", "step 1", "step 0"]
        assert key not in rec.seen[-1]
        assert "AWS_KEY" in rec.seen[-1]
        assert store.vector_coverage("recorder@1").share == 1.0
        assert backfill(store, rec).embedded == 0  # resumable: nothing left


def test_indexer_refuses_bad_arguments(db_path: Path) -> None:
    from kindling.errors import InvalidInputError

    with Kindling.open(db_path) as kd:
        store: Any = kd.store
        for kwargs in ({"batch": 0}, {"limit": -1}, {"cpu": 0.0}, {"cpu": 2}, {"batch": True}):
            with pytest.raises(InvalidInputError):
                backfill(store, Recorder(), **kwargs)


def test_forgotten_vectors_leave_the_file(tiny: Path, db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        ids = fill(kd)
        api.index(kd.store)
        store: Any = kd.store
        blob = store.vectors_of(store.vector_models().popitem()[0], "observation", [ids["cart"]])
        vector = blob[ids["cart"]]
        assert vector in db_path.read_bytes() + Path(str(db_path) + "-wal").read_bytes()
        kd.forget(ids["cart"])
    assert vector not in db_path.read_bytes()
    wal = Path(str(db_path) + "-wal")
    assert not wal.exists() or vector not in wal.read_bytes()


def test_codec_cosine_is_exact_and_bounded() -> None:
    a, b = codec.encode([0.3, -0.2, 0.9]), codec.encode([0.31, -0.19, 0.88])
    assert codec.cosine(a, a) == pytest.approx(1.0)
    assert 0.99 < codec.cosine(a, b) <= 1.0
    assert codec.cosine(a, codec.encode([0.0, 0.0, 0.0])) == 0.0
    assert codec.cosine(a, codec.encode([1.0])) == 0.0


_SCRIPT = """
import sys, json
{hide}
from kindling import Kindling
with Kindling.open({db!r}, semantic='auto') as kd:
    kd.append_observation(kind='error', content='typeerror in cart total today', ts=1, id='o1')
    kd.append_observation(kind='error', content='the weather is nice today', ts=2, id='o2')
    r = kd.retrieve('checkout broke today', now=10)
    assert 'numpy' not in sys.modules or sys.modules['numpy'] is None, 'numpy was imported'
    print(json.dumps(r.to_dict(), sort_keys=True))
"""


def test_core_never_imports_the_extra(tmp_path: Path) -> None:
    """Capture and lexical retrieval load no numpy (the extra), and with numpy hidden (as if the
    extra were not installed) the 'auto' switch gives the same bytes."""
    outs = []
    for n, hide in enumerate(("sys.modules['numpy'] = None", "pass")):
        script = _SCRIPT.format(hide=hide, db=str(tmp_path / f"{n}.db"))
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout)
    assert outs[0] == outs[1]
    assert json.loads(outs[0])["candidates"][0]["entity"]["id"] in ("o1", "o2")


@pytest.mark.contract
def test_signal_on_both_backends(tiny: Path, store_url: str) -> None:
    with Kindling.open(store_url) as kd:
        ids = fill(kd)
        assert api.index(kd.store).embedded == 2
        lexical = dump(kd)
    with Kindling.open(store_url, semantic="on") as kd:
        assert ranked(kd) == [ids["cart"], ids["weather"]]
        on = dump(kd)
        assert dump(kd) == on
        assert on != lexical
        kd.forget(ids["cart"])
        assert api.status(kd.store).coverage.observations_embedded == 1  # type: ignore[union-attr]


def test_export_import_leaves_vectors_to_the_indexer(tiny: Path, tmp_path: Path) -> None:
    """Vectors are derived data: a bundle carries the texts, and the importing store embeds
    them itself (with its own pinned model), so a bundle never holds a forgotten text's
    vector nor a vector of a model the other side did not verify."""
    from kindling.bundle import dumps, export_bundle, import_bundle, loads

    with Kindling.open(tmp_path / "a.db") as a:
        ids = fill(a)
        api.index(a.store)
        text = dumps(export_bundle(a))
    assert "vector" not in text
    with Kindling.open(tmp_path / "b.db") as b:
        import_bundle(b, loads(text))
        assert api.status(b.store).coverage.embedded == 0  # type: ignore[union-attr]
        assert api.index(b.store).embedded == 2
    with Kindling.open(tmp_path / "b.db", semantic="on") as b:
        assert ranked(b) == [ids["cart"], ids["weather"]]


def test_remote_mode_ranks_on_the_server(tiny: Path, db_path: Path) -> None:
    """`kindling serve` opens its store with the signal on when it can; a remote client gets
    the server's semantic ranking (and its explanation), and never loads a model itself."""
    from kindling.client.front import RemoteKindling
    from tests.support.server import kindling as run_kindling
    from tests.support.server import running_server

    Kindling.open(db_path).close()
    token = run_kindling(str(db_path), "token", "create", "--user", "alice").stdout.split()[-1]
    with running_server(str(db_path)) as (url, _proc):
        remote = RemoteKindling(url, token)
        ids = fill(remote)  # type: ignore[arg-type]
        with Kindling.open(db_path) as kd:  # the server's machine indexes its store
            assert api.index(kd.store).embedded == 2
        result = remote.retrieve(QUERY, scope=SCOPE, now=NOW)
        assert [c.entity.id for c in result.candidates] == [ids["cart"], ids["weather"]]
        assert "semantic" in result.candidates[0].explanation.signals


def test_only_the_extra_imports_numpy_and_hooks_stay_lexical() -> None:
    """numpy (the extra) is imported by ``kindling.semantic`` alone, inside functions; hooks
    never ask for the signal (they open stores with ``semantic`` off, the default)."""
    import ast

    root = ROOT / "src" / "kindling"
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n.split(".")[0] in ("numpy", "onnxruntime", "torch") for n in names):
                assert path.parent.name == "semantic", f"{path} imports the extra"
        if path.parent.name == "semantic":
            top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
            roots = {
                a.name.split(".")[0] for n in top if isinstance(n, ast.Import) for a in n.names
            }
            roots |= {(n.module or "").split(".")[0] for n in top if isinstance(n, ast.ImportFrom)}
            assert "numpy" not in roots, f"{path}: numpy at module level"
    for path in (root / "hooks").rglob("*.py"):
        assert "semantic" not in path.read_text(encoding="utf-8"), path
