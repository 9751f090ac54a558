"""Forget reaches every copy: summaries, pin reasons, capsule intents, the FTS vocabularies and
the database files; and it tells the truth when a reader keeps old pages alive."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kindling import Kindling, Scope
from kindling.errors import InvalidInputError, NotFoundError
from kindling.model.access import Principal
from tests.support.cli import run, run_process

WORD = "zanzibarquuxwidgets"
NEEDLE = WORD[:14].encode()  # the stem's prefix: word, stem and compressed terms contain it
S = Scope(repo_id="/r")


def _hits(db_path: Path, needle: bytes = NEEDLE) -> dict[str, int]:
    files = sorted(db_path.parent.glob(db_path.name + "*"))
    return {f.name: f.read_bytes().lower().count(needle) for f in files}


def _vocab(db_path: Path) -> list[str]:
    """Terms of both FTS indexes that start like WORD, read through fts5vocab."""
    conn = sqlite3.connect(db_path)
    try:
        found: list[str] = []
        for table in ("observations_fts", "summaries_fts"):
            conn.execute(
                f"CREATE VIRTUAL TABLE temp.v_{table} USING fts5vocab(main, '{table}', 'row')"
            )
            found += [
                r[0]
                for r in conn.execute(f"SELECT term FROM v_{table} WHERE term LIKE 'zanzibar%'")
            ]
        return found
    finally:
        conn.close()


def _fill(kd: Kindling, n: int) -> None:
    with kd.batch():
        for i in range(n):
            kd.append_observation(kind="command", content=f"npm run build step {i} passed", scope=S)


def _session(kd: Kindling) -> tuple[str, str, str]:
    """A session whose word is everywhere: observation, summary (+details), pin reason, intent."""
    capsule = kd.open_capsule(intent=f"investigate {WORD}", scope=S)
    obs = kd.append_observation(
        kind="error", content=f"crash in {WORD}", capsule_id=capsule.id, scope=S
    )
    kd.close_capsule(capsule.id, summary=f"the {WORD} crash was a race")  # no evidence refs
    summary = kd.list_summaries(scope=S)[0]
    kd.pin("summary", summary.id, reason=f"remember {WORD}")
    return capsule.id, obs.id, summary.id


def _gone_everywhere(kd: Kindling, db_path: Path) -> None:
    assert not kd.retrieve(query=WORD, scope=S).candidates
    result = kd.retrieve(query="crash race", scope=S)
    texts = [c.entity.content for c in result.candidates if hasattr(c.entity, "content")]
    texts += [p.pin.reason or "" for p in result.pins] if result.pins else []
    if result.current_summary is not None:
        texts.append(result.current_summary.content)
    assert not any(WORD in t for t in texts)
    assert _vocab(db_path) == []
    hits = _hits(db_path)
    assert {"kindling.db", "kindling.db-wal", "kindling.db-shm"} <= set(hits)
    assert hits == dict.fromkeys(hits, 0), hits


def test_forget_by_summary_id_leaves_the_word_nowhere(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        _fill(kd, 300)
        capsule = kd.open_capsule(intent="routine work", scope=S)
        kd.append_observation(kind="message", content="ordinary", capsule_id=capsule.id, scope=S)
        kd.close_capsule(capsule.id, summary=f"the {WORD} crash was a race")
        summary = kd.list_summaries(scope=S)[0]
        _fill(kd, 300)
        assert sum(_hits(db_path).values()) > 0
        assert _vocab(db_path)

        report = kd.forget(summary.id)

        assert report.complete
        assert report.summaries == (summary.id,)
        assert kd.get_summary(summary.id).content == "[redacted]"
        _gone_everywhere(kd, db_path)


def test_forget_removes_the_split_identifiers_of_camel_case_content(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        obs = kd.append_observation(kind="command", content="call zanzibarQuuxWidgets()", scope=S)
        assert sum(_hits(db_path, b"zanzibar quux").values()) > 0  # the index's split form
        assert kd.forget(obs.id).complete
        assert sum(_hits(db_path, b"zanzibar").values()) == 0


def test_forget_by_pin_id_deletes_the_pin_and_its_reason(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        obs = kd.append_observation(kind="message", content="plain", scope=S)
        pin = kd.pin("observation", obs.id, reason=f"because {WORD}")
        report = kd.forget(pin.id)
        assert report.pins == (pin.id,)
        with pytest.raises(NotFoundError):
            kd.get_pin(pin.id)
        assert not kd.get_observation(obs.id).redacted  # the pinned entity stays
        assert sum(_hits(db_path).values()) == 0


def test_forgetting_an_observation_clears_the_session_summary_derived_from_it(
    db_path: Path,
) -> None:
    with Kindling.open(db_path) as kd:
        _, obs_id, summary_id = _session(kd)
        report = kd.forget(obs_id)
        assert report.observations == (obs_id,)
        assert report.summaries == (summary_id,)
        assert kd.get_summary(summary_id).content == "[redacted]"


def test_an_unrelated_session_summary_is_kept(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        capsule = kd.open_capsule(intent="routine", scope=S)
        obs = kd.append_observation(
            kind="error", content=f"crash in {WORD}", capsule_id=capsule.id, scope=S
        )
        kd.close_capsule(capsule.id, summary="renamed the config loader")
        assert kd.forget(obs.id).summaries == ()
        assert kd.list_summaries(scope=S)[0].content == "renamed the config loader"


def test_forget_match_library_purges_every_copy(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        _fill(kd, 200)
        capsule_id, obs_id, summary_id = _session(kd)
        other = kd.append_observation(
            kind="command", content="deploy", provenance={"note": WORD.upper()}, scope=S
        )
        _fill(kd, 200)

        plan = kd.forget_matching(WORD, dry_run=True)
        assert plan.dry_run
        assert plan.observations == tuple(sorted((obs_id, other.id)))
        assert plan.summaries == (summary_id,)
        assert len(plan.pins) == 1
        assert plan.capsules == (capsule_id,)
        assert sum(_hits(db_path).values()) > 0  # a dry run changes nothing

        report = kd.forget_matching(WORD)
        assert report.complete
        assert report.total == plan.total
        assert kd.get_capsule(capsule_id).intent == "[redacted]"
        assert kd.list_pins(scope=S)[0].reason is None
        assert kd.forget_matching(WORD, dry_run=True).total == 0
        _gone_everywhere(kd, db_path)


def test_forget_match_dry_run_counts_the_summaries_the_purge_derives(kd: Kindling) -> None:
    capsule = kd.open_capsule(intent="routine", scope=S)
    obs = kd.append_observation(kind="error", content=f"saw {WORD}", capsule_id=capsule.id)
    kd.close_capsule(capsule.id, summary="fixed it", evidence_refs=[obs.id])
    summary = kd.list_summaries(scope=S)[0]
    plan = kd.forget_matching(WORD, dry_run=True)
    assert (plan.observations, plan.summaries) == ((obs.id,), (summary.id,))
    assert plan.message == "would forget 1 observation, 1 summary"
    report = kd.forget_matching(WORD)
    assert (report.observations, report.summaries) == (plan.observations, plan.summaries)
    assert kd.get_summary(summary.id).content == "[redacted]"


def test_forget_match_leaves_what_a_view_hides(kd: Kindling) -> None:
    mine = kd.append_observation(kind="message", content=f"my {WORD}", scope=S)
    theirs = kd.append_observation(
        kind="message", content=f"their {WORD}", scope=Scope(repo_id="/t")
    )
    pin = kd.pin("observation", theirs.id, reason=f"{WORD} too", scope=Scope(repo_id="/t"))

    view = kd.view_for(Principal("web/a", "web", frozenset({"/r"}), "t1"))  # /r only
    plan = view.forget_matching(WORD, dry_run=True)
    assert (plan.observations, plan.pins) == ((mine.id,), ())
    assert view.forget_matching(WORD).observations == (mine.id,)
    assert kd.get_observation(theirs.id).content == f"their {WORD}"
    assert kd.get_pin(pin.id).reason == f"{WORD} too"


@pytest.mark.parametrize("text", ["", "  ", "ab", None, 42])
def test_forget_match_refuses_text_that_would_match_everything(kd: Kindling, text: object) -> None:
    with pytest.raises(InvalidInputError, match="at least 3 characters"):
        kd.forget_matching(text)  # type: ignore[arg-type]


def test_forget_match_refuses_text_longer_than_any_pattern(kd: Kindling) -> None:
    kd.append_observation(kind="message", content="x" * 10_000, scope=S)
    assert kd.forget_matching("x" * 10_000, dry_run=True).total == 1  # the longest allowed
    assert kd.forget_matching("\U0001d11e" * 10_000, dry_run=True).total == 0  # 40,000 bytes
    with pytest.raises(InvalidInputError, match="at most 10000 characters, got 60000"):
        kd.forget_matching("\u00e9%" * 30_000, dry_run=True)  # SQLite: "pattern too complex"


def test_forget_unknown_id_names_all_three_kinds(kd: Kindling) -> None:
    with pytest.raises(NotFoundError, match="observation, summary or pin"):
        kd.forget("nope")


def test_cli_forget_match_shows_a_dry_run_count_then_purges(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    with Kindling.open(db) as kd:
        _fill(kd, 100)
        _session(kd)
    env = {"KINDLING_DB": str(db)}
    dry = run("forget", "--match", WORD, "--dry-run", env=env)
    assert dry.code == 0
    assert dry.stdout.strip() == (
        "would forget 1 observation, 1 summary, 1 pin reason, 1 capsule intent"
    )
    refused = run("forget", "--match", WORD, stdin="n\n", env=env)
    assert refused.code == 1
    assert "would forget 1 observation" in refused.stderr
    assert sum(_hits(db).values()) > 0
    done = run_process("--db", str(db), "forget", "--match", WORD, "--yes")
    assert done.code == 0, done.stderr
    assert "forgot 1 observation, 1 summary, 1 pin reason, 1 capsule intent" in done.stdout
    assert "gone from the database files" in done.stdout
    assert sum(_hits(db).values()) == 0
    assert _vocab(db) == []
    assert run("search", WORD, "--json", env=env).json()["candidates"] == []


def test_cli_forget_takes_a_summary_id(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    with Kindling.open(db) as kd:
        _, _, summary_id = _session(kd)
    doc = run("forget", summary_id, "--json", env={"KINDLING_DB": str(db)}).json()
    assert doc["summaries"] == [summary_id]
    assert doc["complete"] is True


@pytest.mark.parametrize(
    "args",
    [[], ["x", "--match", "abc"], ["--finish", "x"], ["x", "--yes"], ["--dry-run", "--finish"]],
)
def test_cli_forget_usage_errors(args: list[str]) -> None:
    result = run("forget", *args)
    assert result.code == 2
    assert len(result.stderr.strip().splitlines()) == 1


_READER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN")
conn.execute("SELECT COUNT(*) FROM observations").fetchone()
print("ready", flush=True)
sys.stdin.readline()
conn.execute("COMMIT")
"""


@pytest.mark.slow  # a reader process and three real `kindling forget` runs that wait for it
def test_forget_with_a_reader_holding_a_snapshot_tells_the_truth(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    with Kindling.open(db) as kd:
        _fill(kd, 200)
        _session(kd)
    with subprocess.Popen(
        [sys.executable, "-c", _READER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as reader:
        assert reader.stdout is not None
        assert reader.stdin is not None
        try:
            assert reader.stdout.readline().strip() == "ready"
            held = run_process("--db", str(db), "forget", "--match", WORD, "--yes", "--json")
            assert held.code == 1
            doc = json.loads(held.stdout)
            assert doc["complete"] is False
            assert any(f"process {reader.pid} " in h for h in doc["holders"])
            assert "kindling forget --finish" in held.stderr
            assert len(held.stderr.strip().splitlines()) == 1
            assert sum(_hits(db).values()) > 0  # the truth: old copies are still on disk
            still = run_process("--db", str(db), "forget", "--finish")
            assert still.code == 1
            assert f"process {reader.pid}" in still.stderr
        finally:
            reader.stdin.write("\n")
            reader.stdin.flush()
            reader.wait(timeout=30)
    finished = run_process("--db", str(db), "forget", "--finish")
    assert finished.code == 0, finished.stderr
    assert sum(_hits(db).values()) == 0
    wal = Path(f"{db}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
