"""A database written by the TypeScript Kindling opens, upgrades in place and retrieves."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kindling import Kindling, Scope
from kindling.store.sqlite.migrations import LATEST_VERSION

TABLES = ("observations", "capsules", "capsule_observations", "summaries", "pins")


def _counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}


def test_upgrade_keeps_every_row(fixture_db: Path) -> None:
    before = _counts(fixture_db)
    assert before == {
        "observations": 12,
        "capsules": 3,
        "capsule_observations": 12,
        "summaries": 2,
        "pins": 2,
    }
    with Kindling.open(fixture_db) as kd:
        assert kd.stats().schema_version == LATEST_VERSION
    assert _counts(fixture_db) == before
    with sqlite3.connect(fixture_db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
        names = [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY 1")]
        assert names[:5] == [
            "001_init",
            "002_fts",
            "003_indexes",
            "004_denormalize_scopes",
            "005_pragma_user_version",
        ]


def test_retrieves_with_pins_and_forgotten_rows(fixture_db: Path) -> None:
    with Kindling.open(fixture_db) as kd:
        res = kd.retrieve("jwt verify", scope=Scope(repo_id="/work/webapp"), now=1767400000000)
        assert [p.pin.id for p in res.pins] == ["pin-1"]
        ids = [c.entity.id for c in res.candidates]
        assert ids[0] == "obs-003"
        assert "obs-007" not in ids
        # the redacted observation is hidden from the recency fallback unless asked for
        recent = kd.retrieve("", scope=Scope(session_id="s-auth"), now=1767400000000)
        assert "obs-007" not in [c.entity.id for c in recent.candidates]
        audit = kd.retrieve(
            "", scope=Scope(session_id="s-auth"), now=1767400000000, include_redacted=True
        )
        shown = {c.entity.id: c.match_context for c in audit.candidates}
        assert shown["obs-007"] == "[redacted]"


def test_expired_pin_is_not_active(fixture_db: Path) -> None:
    with Kindling.open(fixture_db) as kd:
        scope = Scope(repo_id="/work/etl")
        assert [p.pin.id for p in kd.retrieve("", scope=scope, now=1767500000000).pins] == ["pin-2"]
        assert kd.retrieve("", scope=scope, now=1767571207000).pins == ()


def test_open_capsule_keeps_accepting_observations(fixture_db: Path) -> None:
    with Kindling.open(fixture_db) as kd:
        obs = kd.append_observation(
            kind="command", content="$ npm test -- orders", capsule_id="cap-orders"
        )
        assert obs.scope == Scope(session_id="s-orders", repo_id="/work/webapp")
        assert kd.get_capsule("cap-orders").observation_ids[-1] == obs.id
        hits = kd.retrieve("orders", scope=Scope(session_id="s-orders")).candidates
        assert obs.id in [c.entity.id for c in hits]


def test_upgrade_builds_the_context_index(fixture_db: Path) -> None:
    with Kindling.open(fixture_db) as kd:
        # "upgrade" is only in the capsule's intent ("Fix login 500 after JWT upgrade") and in
        # obs-001, so the other observations of that capsule are found through their intent.
        res = kd.retrieve("upgrade", scope=Scope(repo_id="/work/webapp"), now=1767400000000)
        by_id = {c.entity.id: c.explanation for c in res.candidates}
        assert by_id["obs-001"].context_only is False
        assert by_id["obs-003"].context_only is True
        assert "obs-007" not in by_id  # redacted rows are not indexed
        # identifier parts of rows written by the TypeScript tool are indexed too
        parts = kd.retrieve("verify token", scope=Scope(repo_id="/work/webapp"), now=1767400000000)
        assert "obs-002" in [c.entity.id for c in parts.candidates]
    with sqlite3.connect(fixture_db) as conn:
        indexed = conn.execute("SELECT count(*) FROM observation_context").fetchone()[0]
        assert indexed == 12
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")
