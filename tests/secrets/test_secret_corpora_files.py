"""The public scanner corpora committed under ``tests/data/secret_corpora/`` (issue 18): each
names its source and a licence that allows committing it, and its positives hold their secret
in their text, so ``bench/secret_heldout.py`` measures what the scanner's authors wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.paths import TESTS

CORPORA = sorted((TESTS / "data" / "secret_corpora").glob("*.json"))


def test_the_held_out_corpora_are_all_there() -> None:
    names = {p.stem for p in CORPORA}
    assert {
        "kingfisher",
        "gitleaks",
        "credsweeper",
        "leaktk",
        "leaky_repo",
        "detect_secrets",
        "whispers",
        "ripsecrets",
        "trivy",
    } <= names


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: p.stem)
def test_a_corpus_names_its_source_and_a_licence_that_allows_committing_it(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    assert data["source"]
    assert data["licence"] in ("Apache-2.0", "MIT")
    positives = data["positives"]
    assert positives
    # (Two of kingfisher's 1,316 capture a value its example spells over an escape.)
    outside = [item["rule"] for item in positives if item["secret"] not in item["text"]]
    assert len(outside) <= len(positives) // 500, outside
