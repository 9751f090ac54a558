"""The coding-session quality set: the committed data holds together (every evidence id is an
observation of the question's session and repository, the splits share no source, the
questions are exactly what the rules derive from the committed observations), and the
harness's baselines are reproducible byte for byte. No figure of Kindling's is asserted here.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from bench.quality.coding import rules
from bench.quality.coding.data import SPLITS, CodingSet, load_set
from bench.quality.coding.harness import RETRIEVERS, run_split


@pytest.fixture(scope="module")
def data() -> CodingSet:
    return load_set()


def test_every_evidence_id_is_an_observation_of_the_question_session(data: CodingSet) -> None:
    where = {o["id"]: (o["session_id"], o["repo_id"]) for o in data.observations}
    assert len(where) == len(data.observations), "observation ids are unique"
    assert data.questions
    for q in data.questions:
        assert q["evidence"], q["id"]
        for ev in q["evidence"]:
            assert where[ev] == (q["session_id"], q["repo_id"]), (q["id"], ev)


def test_splits_are_disjoint_by_source_and_agent(data: CodingSet) -> None:
    parts = {name: data.split(name) for name in SPLITS}
    sources = {n: {s["source"].split("@")[0] for s in p.sessions} for n, p in parts.items()}
    agents = {n: {s["agent"] for s in p.sessions} for n, p in parts.items()}
    assert sources["tune"]
    assert sources["heldout"]
    assert not sources["tune"] & sources["heldout"]
    assert not agents["tune"] & agents["heldout"]
    assert all(p.questions for p in parts.values())


def test_questions_are_the_rules_applied_to_the_committed_observations(data: CodingSet) -> None:
    by_session = data.by_session()
    derived = [
        q.to_json() for s in data.sessions for q in rules.derive(s, by_session[s["session_id"]])
    ]
    assert derived == data.questions


def test_every_class_and_phrasing_is_present(data: CodingSet) -> None:
    classes = Counter(q["class"] for q in data.questions)
    assert set(classes) == {"fix", "error", "check", "location"}
    phrasings = Counter(q["phrasing"] for q in data.questions)
    assert set(phrasings) == {"full", "short", "para"}
    assert len(set(phrasings.values())) == 1, "every question comes in every phrasing"


def test_salient_words_keep_identifiers_and_title_order() -> None:
    title = "RenameContentType._rename() doesn't save the content type on the correct database"
    assert rules.salient(title) == "RenameContentType._rename content correct database"


def _baselines(part: CodingSet, small: bool) -> str:
    result = run_split(part, small=small)
    result.pop("outcomes")
    result.pop("seconds")
    assert set(result["retrievers"]) == set(RETRIEVERS)
    kept = {name: result["retrievers"][name] for name in ("fts", "random")}
    return json.dumps(kept, sort_keys=True)


@pytest.mark.parametrize("small", [False, True])
def test_baselines_are_reproducible_byte_for_byte(data: CodingSet, small: bool) -> None:
    part = data.split("heldout", limit=4)
    first, second = _baselines(part, small), _baselines(part, small)
    assert first == second
    doc = json.loads(first)
    # The random baseline starts in the right session: its first item is always in it.
    assert doc["random"]["overall"]["S@5"] == 1.0
