"""Issue 23's floor on the coding-session set's held-out split (not tuned on): ``retrieve()``
beats the bare FTS5 query by at least 0.20 Recall@10, and the right-session random step on
the fix, error and check questions in every phrasing (the full title, four of its words, a
paraphrase). Ranking is deterministic, so a drop is a regression, not noise.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from bench.quality.coding.data import load_set
from bench.quality.coding.harness import run_split


@pytest.fixture(scope="module")
def heldout() -> dict[str, Any]:
    return run_split(load_set().split("heldout"))


def test_retrieve_beats_the_bare_query_by_0_20_recall_at_10(heldout: dict[str, Any]) -> None:
    ours = heldout["retrievers"]["kindling"]["overall"]["R@10"]
    bare = heldout["retrievers"]["fts"]["overall"]["R@10"]
    assert ours >= bare + 0.20, (ours, bare)


def _by_class_and_phrasing(items: list[Any]) -> dict[tuple[str, str], float]:
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    for outcome, _ in items:
        groups[(outcome.query.cls, outcome.query.note)].append(outcome.scores["R@10"])
    return {key: sum(v) / len(v) for key, v in groups.items()}


@pytest.mark.parametrize("cls", ["fix", "error", "check"])
def test_retrieve_beats_the_random_step_in_every_phrasing(
    heldout: dict[str, Any], cls: str
) -> None:
    ours = _by_class_and_phrasing(heldout["outcomes"]["kindling"])
    chance = _by_class_and_phrasing(heldout["outcomes"]["random"])
    phrasings = sorted(p for c, p in ours if c == cls)
    assert len(phrasings) == 3
    for phrasing in phrasings:
        assert ours[(cls, phrasing)] > chance[(cls, phrasing)], (cls, phrasing)
