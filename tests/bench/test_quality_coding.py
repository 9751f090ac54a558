"""The coding-session quality set: the committed data holds together (every evidence id is an
observation of the question's session and repository, the splits share no source, the
questions are exactly what the rules derive from the committed observations), and the
harness's baselines are reproducible byte for byte. No figure of Kindling's is asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from bench.quality.coding import rules
from bench.quality.coding.data import SPLITS, CodingSet, load_set
from bench.quality.coding.harness import RETRIEVERS, run_mixed, run_split
from tests.support.paths import ROOT


@pytest.fixture(scope="module")
def data() -> CodingSet:
    return load_set()


def test_every_evidence_id_is_an_item_of_the_question_session(data: CodingSet) -> None:
    where = {o["id"]: (o["session_id"], o["repo_id"]) for o in data.observations}
    assert len(where) == len(data.observations), "observation ids are unique"
    for s in data.sessions:  # a decision's evidence is its session's summary
        if s["summary"].strip():
            where[rules.summary_ref(s)] = (s["session_id"], s["repo_id"])
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
    assert set(classes) == {"fix", "error", "check", "decision", "location"}
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


def _obs(kind: str, content: str, ident: str = "o", event: str = "PostToolUse") -> dict[str, Any]:
    return {"id": ident, "kind": kind, "content": content, "provenance": {"event": event}}


def test_fixed_files_are_modified_sources_not_tests_scratch_or_new_files() -> None:
    patch = (
        "diff --git a/pkg/core.py b/pkg/core.py\n--- a/pkg/core.py\n+++ b/pkg/core.py\n"
        "@@ -1,2 +1,2 @@ def parse(\n-a\n+b\n"
        "diff --git a/pkg/new_helper.py b/pkg/new_helper.py\nnew file mode 100644\n"
        "diff --git a/tests/test_core.py b/tests/test_core.py\n"
        "diff --git a/reproduce.py b/reproduce.py\n"
    )
    assert rules.fixed_files(patch) == ["pkg/core.py"]
    assert rules.patch_symbols(patch, ["pkg/core.py"]) == ["parse"]


TRACEBACK = "Bash failed: python repro.py\n[exit 1]\nTraceback (most recent call last):"


def test_edits_runs_and_reproductions_are_told_apart() -> None:
    files = ["pkg/core.py"]
    assert rules.edited(_obs("file_diff", "Edit pkg/core.py\n--- a/pkg/core.py"), files)
    assert rules.edited(_obs("command", "$ sed -i 's/a/b/' pkg/core.py\n[completed]"), files)
    assert not rules.edited(_obs("command", "$ grep -n parse pkg/core.py\n[completed]"), files)
    assert not rules.edited(_obs("command", "$ sed -i 's/a/b/' pkg/other.py\n[completed]"), files)
    run = _obs("error", TRACEBACK)
    assert rules.is_run(run)
    assert rules.reproduced(run)
    missing = _obs("error", "Bash failed: python repro.py\n[exit 2]\ncan't open file 'repro.py'")
    assert rules.is_run(missing)
    assert not rules.reproduced(missing)
    assert not rules.is_run(_obs("command", "$ cat <<EOF > t.py\npython is here\nEOF\n[completed]"))


def test_a_session_yields_fix_error_check_and_location_by_rule() -> None:
    session = {
        "session_id": "s",
        "short": "x001",
        "repo_id": "/src/o/r",
        "summary": "Done.",
        "title": "parse() crashes on empty input",
        "patch": "diff --git a/pkg/core.py b/pkg/core.py\n@@ -1 +1 @@ def parse(\n",
    }
    steps = [
        _obs("message", "parse() crashes", "p", "UserPromptSubmit"),
        _obs("command", "$ grep -n 'def parse' pkg/core.py\n[completed]\n3:def parse(s):", "a"),
        _obs("error", TRACEBACK, "b"),
        _obs("file_diff", "Edit pkg/core.py\n--- a/pkg/core.py", "c"),
        _obs("command", "$ python -m pytest tests\n[completed]\n3 passed", "d"),
    ]
    got = {(q.cls, q.phrasing): q.evidence for q in rules.derive(session, steps)}
    assert got[("fix", "full")] == ("c",)
    assert got[("error", "short")] == ("b",)
    assert got[("check", "para")] == ("d",)
    assert got[("location", "full")] == ("a",)
    assert ("decision", "full") not in got
    session["summary"] = "I return None instead of raising, because callers expect it."
    got = {(q.cls, q.phrasing): q.evidence for q in rules.derive(session, steps)}
    assert got[("decision", "full")] == ("summary:x001",)


def test_the_command_prints_every_retriever_class_and_phrasing_as_json() -> None:
    argv = ["--split", "heldout", "--limit", "3", "--json", "--questions"]
    out = subprocess.run(
        [sys.executable, "-m", "bench.quality.coding", *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    doc = json.loads(out.stdout)
    split = doc["splits"]["heldout"]
    assert split["sessions"] == 3
    assert set(split["retrievers"]) == {"kindling", "fts", "random"}
    for summary in split["retrievers"].values():
        assert {"R@5", "R@10", "MRR", "S@5"} <= set(summary["overall"])
        assert set(summary["byPhrasing"]) == {"full", "short", "para"}
    assert len(split["questionDetails"]) == split["questions"]
    bad = subprocess.run(
        [sys.executable, "-m", "bench.quality.coding", "--limit", "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr


def test_mixed_mode_scores_each_split_among_both_splits_sessions(data: CodingSet) -> None:
    """``--mixed``: one store holds both splits; a split's questions are scored there, so the
    held-out questions meet the tuning sessions as distractors."""
    parts = [data.split(s, limit=2) for s in ("tune", "heldout")]
    whole = CodingSet(
        [s for p in parts for s in p.sessions],
        [o for p in parts for o in p.observations],
        [q for p in parts for q in p.questions],
    )
    mixed = run_mixed(whole)
    assert set(mixed) == {"tune", "heldout"}
    for split, part in zip(("tune", "heldout"), parts, strict=True):
        result = mixed[split]
        assert result["sessions"] == len(whole.sessions)
        assert result["questions"] == len(part.questions)
        for items in result["outcomes"].values():
            assert {sid for _, sid in items} <= {s["session_id"] for s in part.sessions}
            assert len(items) == len(part.questions)
    bad = subprocess.run(
        [sys.executable, "-m", "bench.quality.coding", "--mixed", "--small"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
