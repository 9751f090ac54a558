"""Ordered, named, additive schema migrations.

Versions 1-5 reproduce the published layout of the TypeScript Kindling (schema contract v5), so
a database written by that tool opens here and is upgraded in place; later versions only add.
``PRAGMA user_version`` holds the applied version and ``schema_migrations`` records each step.

Must not import anything from Kindling except ``errors``, ``store.sql.schema``,
``store.sqlite.index`` and ``store.sqlite.upgrades``.
"""

from __future__ import annotations

import sqlite3
import time

import kindling.store.sqlite.index as index
import kindling.store.sqlite.upgrades as upgrades
from kindling.errors import SchemaError
from kindling.store.sql.schema import Migration as SchemaStep
from kindling.store.sql.schema import vector_tables_sql

Migration = SchemaStep[sqlite3.Connection]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "001_init",
        """
CREATE TABLE IF NOT EXISTS observations (
  id          TEXT    PRIMARY KEY,
  kind        TEXT    NOT NULL CHECK(kind IN ('tool_call', 'command', 'file_diff', 'error',
                'message', 'node_start', 'node_end', 'node_output', 'node_error')),
  content     TEXT    NOT NULL,
  provenance  TEXT    NOT NULL DEFAULT '{}',
  ts          INTEGER NOT NULL,
  scope_ids   TEXT    NOT NULL DEFAULT '{}',
  redacted    INTEGER NOT NULL DEFAULT 0 CHECK(redacted IN (0, 1))
);
CREATE TABLE IF NOT EXISTS capsules (
  id          TEXT    PRIMARY KEY,
  type        TEXT    NOT NULL CHECK(type IN ('session', 'pocketflow_node')),
  intent      TEXT    NOT NULL,
  status      TEXT    NOT NULL CHECK(status IN ('open', 'closed')) DEFAULT 'open',
  opened_at   INTEGER NOT NULL,
  closed_at   INTEGER,
  scope_ids   TEXT    NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS capsule_observations (
  capsule_id     TEXT    NOT NULL,
  observation_id TEXT    NOT NULL,
  seq            INTEGER NOT NULL,
  PRIMARY KEY (capsule_id, observation_id),
  FOREIGN KEY (capsule_id)     REFERENCES capsules(id)     ON DELETE CASCADE,
  FOREIGN KEY (observation_id) REFERENCES observations(id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS summaries (
  id             TEXT    PRIMARY KEY,
  capsule_id     TEXT    NOT NULL UNIQUE,
  content        TEXT    NOT NULL,
  confidence     REAL    NOT NULL CHECK(confidence >= 0.0 AND confidence <= 1.0),
  created_at     INTEGER NOT NULL,
  evidence_refs  TEXT    NOT NULL DEFAULT '[]',
  FOREIGN KEY (capsule_id) REFERENCES capsules(id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS pins (
  id          TEXT    PRIMARY KEY,
  target_type TEXT    NOT NULL CHECK(target_type IN ('observation', 'summary')),
  target_id   TEXT    NOT NULL,
  reason      TEXT,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER,
  scope_ids   TEXT    NOT NULL DEFAULT '{}'
);
""",
    ),
    Migration(
        2,
        "002_fts",
        """
CREATE VIRTUAL TABLE IF NOT EXISTS observations_fts USING fts5(
  content, content='observations', content_rowid='rowid', tokenize='porter unicode61'
);
CREATE VIRTUAL TABLE IF NOT EXISTS summaries_fts USING fts5(
  content, content='summaries', content_rowid='rowid', tokenize='porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS observations_fts_insert AFTER INSERT ON observations
WHEN NEW.redacted = 0 BEGIN
  INSERT INTO observations_fts(rowid, content) VALUES (NEW.rowid, NEW.content);
END;
CREATE TRIGGER IF NOT EXISTS observations_fts_update AFTER UPDATE ON observations BEGIN
  INSERT INTO observations_fts(observations_fts, rowid, content)
    VALUES('delete', OLD.rowid, OLD.content);
  INSERT INTO observations_fts(rowid, content) SELECT NEW.rowid, NEW.content
    WHERE NEW.redacted = 0;
END;
CREATE TRIGGER IF NOT EXISTS observations_fts_delete AFTER DELETE ON observations BEGIN
  INSERT INTO observations_fts(observations_fts, rowid, content)
    VALUES('delete', OLD.rowid, OLD.content);
END;
CREATE TRIGGER IF NOT EXISTS summaries_fts_insert AFTER INSERT ON summaries BEGIN
  INSERT INTO summaries_fts(rowid, content) VALUES (NEW.rowid, NEW.content);
END;
CREATE TRIGGER IF NOT EXISTS summaries_fts_update AFTER UPDATE ON summaries BEGIN
  INSERT INTO summaries_fts(summaries_fts, rowid, content)
    VALUES('delete', OLD.rowid, OLD.content);
  INSERT INTO summaries_fts(rowid, content) VALUES (NEW.rowid, NEW.content);
END;
CREATE TRIGGER IF NOT EXISTS summaries_fts_delete AFTER DELETE ON summaries BEGIN
  INSERT INTO summaries_fts(summaries_fts, rowid, content)
    VALUES('delete', OLD.rowid, OLD.content);
END;
""",
    ),
    Migration(
        3,
        "003_indexes",
        """
CREATE INDEX IF NOT EXISTS idx_observations_ts ON observations(ts DESC);
CREATE INDEX IF NOT EXISTS idx_observations_kind ON observations(kind);
CREATE INDEX IF NOT EXISTS idx_capsules_opened_at ON capsules(opened_at DESC);
CREATE INDEX IF NOT EXISTS idx_capsule_observations_capsule
  ON capsule_observations(capsule_id, seq);
CREATE INDEX IF NOT EXISTS idx_capsule_observations_observation
  ON capsule_observations(observation_id);
CREATE INDEX IF NOT EXISTS idx_summaries_capsule ON summaries(capsule_id);
CREATE INDEX IF NOT EXISTS idx_summaries_created_at ON summaries(created_at DESC);
CREATE INDEX IF NOT EXISTS idx_pins_expires_at ON pins(expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_pins_target ON pins(target_type, target_id);
""",
    ),
    Migration(
        4,
        "004_denormalize_scopes",
        "".join(
            f"ALTER TABLE {table} ADD COLUMN {column} TEXT;\n"
            for table in ("observations", "capsules", "pins")
            for column in ("session_id", "repo_id", "agent_id", "user_id")
        )
        + """
UPDATE observations SET
  session_id = json_extract(scope_ids, '$.sessionId'),
  repo_id = json_extract(scope_ids, '$.repoId'),
  agent_id = json_extract(scope_ids, '$.agentId'), user_id = json_extract(scope_ids, '$.userId');
UPDATE capsules SET
  session_id = json_extract(scope_ids, '$.sessionId'),
  repo_id = json_extract(scope_ids, '$.repoId'),
  agent_id = json_extract(scope_ids, '$.agentId'), user_id = json_extract(scope_ids, '$.userId');
UPDATE pins SET
  session_id = json_extract(scope_ids, '$.sessionId'),
  repo_id = json_extract(scope_ids, '$.repoId'),
  agent_id = json_extract(scope_ids, '$.agentId'), user_id = json_extract(scope_ids, '$.userId');
CREATE INDEX IF NOT EXISTS idx_obs_session_ts ON observations(session_id, ts DESC)
  WHERE session_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_obs_repo_ts ON observations(repo_id, ts DESC)
  WHERE repo_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_caps_status_session ON capsules(status, session_id)
  WHERE session_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_caps_repo ON capsules(repo_id) WHERE repo_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_pins_session_id ON pins(session_id) WHERE session_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_pins_repo_id ON pins(repo_id) WHERE repo_id IS NOT NULL;
""",
    ),
    Migration(5, "005_pragma_user_version", ""),
    # --- Kindling for Python: additive steps from here on -------------------------------------
    Migration(
        6,
        "006_redaction_safe_fts_triggers",
        # The v5 update trigger sends an FTS5 'delete' for rows that were never indexed
        # (redacted ones), which corrupts an external-content index; and it re-indexes on
        # every update, even when the content did not change.
        """
DROP TRIGGER IF EXISTS observations_fts_update;
CREATE TRIGGER observations_fts_update AFTER UPDATE OF content, redacted ON observations BEGIN
  INSERT INTO observations_fts(observations_fts, rowid, content)
    SELECT 'delete', OLD.rowid, OLD.content WHERE OLD.redacted = 0;
  INSERT INTO observations_fts(rowid, content) SELECT NEW.rowid, NEW.content
    WHERE NEW.redacted = 0;
END;
DROP TRIGGER IF EXISTS observations_fts_delete;
CREATE TRIGGER observations_fts_delete AFTER DELETE ON observations WHEN OLD.redacted = 0 BEGIN
  INSERT INTO observations_fts(observations_fts, rowid, content)
    VALUES('delete', OLD.rowid, OLD.content);
END;
DROP TRIGGER IF EXISTS summaries_fts_update;
CREATE TRIGGER summaries_fts_update AFTER UPDATE OF content ON summaries BEGIN
  INSERT INTO summaries_fts(summaries_fts, rowid, content)
    VALUES('delete', OLD.rowid, OLD.content);
  INSERT INTO summaries_fts(rowid, content) VALUES (NEW.rowid, NEW.content);
END;
""",
    ),
    Migration(
        7,
        "007_agent_user_scope_indexes",
        # Agent- and user-scoped reads were full scans in v5.
        """
CREATE INDEX IF NOT EXISTS idx_obs_agent_ts ON observations(agent_id, ts DESC)
  WHERE agent_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_obs_user_ts ON observations(user_id, ts DESC)
  WHERE user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_caps_status_opened ON capsules(status, opened_at DESC);
""",
    ),
    Migration(
        8,
        "008_structured_summaries",
        # Chat memories (seed 002): structured fields beside a summary, one row per summary.
        # Lists are JSON arrays of strings; times are epoch ms. The topic index serves
        # supersession ("the Active memories of this topic in this workspace").
        """
CREATE TABLE IF NOT EXISTS summary_details (
  summary_id        TEXT    PRIMARY KEY,
  topic             TEXT    NOT NULL,
  status            TEXT    NOT NULL CHECK(status IN ('Active', 'Superseded', 'DecisionRecord')),
  context           TEXT,
  topic_id          TEXT,
  plan_id           TEXT,
  session_id        TEXT,
  source_created_at INTEGER,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  decisions         TEXT    NOT NULL DEFAULT '[]',
  rationale         TEXT    NOT NULL DEFAULT '[]',
  open_questions    TEXT    NOT NULL DEFAULT '[]',
  next_steps        TEXT    NOT NULL DEFAULT '[]',
  refs              TEXT    NOT NULL DEFAULT '[]',
  FOREIGN KEY (summary_id) REFERENCES summaries(id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_summary_details_topic ON summary_details(topic_id, status)
  WHERE topic_id IS NOT NULL;
""",
    ),
    Migration(
        9,
        "009_context_index",
        # Observations become searchable through their own text and identifier parts, their
        # session neighbour and their capsule's intent, with scope tokens that let a scoped
        # query read only its scope's part of the index (store/index.py). Replaces the
        # single-column index and its triggers: the store now indexes explicitly, because a
        # document depends on other rows (the neighbour, the capsule).
        f"""
DROP TRIGGER IF EXISTS observations_fts_insert;
DROP TRIGGER IF EXISTS observations_fts_update;
DROP TRIGGER IF EXISTS observations_fts_delete;
DROP TABLE IF EXISTS observations_fts;
CREATE TABLE observation_context (
  rowid       INTEGER PRIMARY KEY,
  prev_rowid  INTEGER,
  intent      TEXT    NOT NULL DEFAULT '',
  parts       TEXT    NOT NULL DEFAULT '',
  scope       TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX idx_observation_context_prev ON observation_context(prev_rowid)
  WHERE prev_rowid IS NOT NULL;
{index.VIEW_SQL_V9.strip()};
CREATE VIRTUAL TABLE observations_fts USING fts5(
  body, context, intent, scope,
  content='observation_docs', content_rowid='rowid', tokenize='porter unicode61'
);
""",
        then=index.build_all,
    ),
    Migration(
        10,
        "010_api_tokens",
        # `kindling serve`: bearer tokens (only their SHA-256) and the repositories of a team.
        """
CREATE TABLE IF NOT EXISTS api_tokens (
  id          TEXT    PRIMARY KEY,
  token_hash  TEXT    NOT NULL UNIQUE,
  user_id     TEXT    NOT NULL,
  team        TEXT,
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER
);
CREATE TABLE IF NOT EXISTS team_repos (
  team        TEXT    NOT NULL,
  repo_id     TEXT    NOT NULL,
  granted_at  INTEGER NOT NULL,
  PRIMARY KEY (team, repo_id)
);
""",
    ),
    Migration(
        12,
        "012_segmented_scripts",
        # Han, Kana, Hangul and Thai runs become searchable by their parts (store.segments):
        # observations through their parts, summaries through a view that adds the segments.
        # Existing rows holding such letters are indexed again; Latin-only rows are untouched.
        index.SUMMARY_INDEX_SQL,
        then=upgrades.resegment,
    ),
    Migration(
        13,
        "013_segmented_context",
        # The context and intent columns of the observation index get their segments too (the
        # rows whose neighbour or intent holds such letters are indexed again), and the summary
        # index's triggers use built-in SQL only: the segments are a column Kindling writes.
        index.SUMMARY_SEGMENTS_SQL,
        then=upgrades.resegment_context,
    ),
    Migration(
        14,
        "014_semantic_vectors",
        vector_tables_sql("BLOB")
        + """
CREATE TRIGGER IF NOT EXISTS observation_vectors_forget
  AFTER UPDATE OF content, redacted ON observations
  WHEN NEW.redacted = 1 OR NEW.content IS NOT OLD.content BEGIN
  DELETE FROM observation_vectors WHERE observation_id = OLD.id;
END;
CREATE TRIGGER IF NOT EXISTS summary_vectors_forget AFTER UPDATE OF content ON summaries
  WHEN NEW.content IS NOT OLD.content BEGIN
  DELETE FROM summary_vectors WHERE summary_id = OLD.id;
END;
""",
    ),
    Migration(
        15,
        "015_id_aliases",
        # `kindling serve`: each owner's own view of the ids its clients choose (http.idspace).
        """
CREATE TABLE IF NOT EXISTS id_aliases (
  owner       TEXT    NOT NULL,
  wire_id     TEXT    NOT NULL,
  stored_id   TEXT    NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (owner, wire_id)
);
""",
    ),
    # A step's neighbour as on PostgreSQL (upgrades.relink_ties): 16, the last written among
    # steps of one millisecond; 17, a step written late for the step after it.
    Migration(16, "016_neighbour_ties", "", then=upgrades.relink_ties),
    Migration(17, "017_late_steps", "", then=upgrades.relink_ties),
)

LATEST_VERSION = MIGRATIONS[-1].version


def current_version(conn: sqlite3.Connection, path: str) -> int:
    """The applied version; refuses a database newer than this Kindling."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > LATEST_VERSION:
        raise SchemaError(
            f"{path} has schema version {version}, newer than this Kindling "
            f"understands ({LATEST_VERSION}); upgrade kindling-memory to open it"
        )
    return version


def apply_migrations(conn: sqlite3.Connection, path: str) -> None:
    """Apply every step above the current version. Call inside a write transaction."""
    version = current_version(conn, path)
    has_tables = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'observations'"
    ).fetchone()
    if version == 0 and has_tables:
        raise SchemaError(
            f"{path} has Kindling tables but no schema version; it was not "
            "written by a supported Kindling (v5 or later)"
        )
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
    )
    now = int(time.time() * 1000)
    for step in MIGRATIONS:
        if step.version <= version:
            continue
        for statement in split_sql(step.sql):
            conn.execute(statement)
        if step.then is not None:
            step.then(conn)
        conn.execute(
            "INSERT OR REPLACE INTO schema_migrations VALUES (?, ?, ?)",
            (step.version, step.name, now),
        )
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION}")


def split_sql(script: str) -> list[str]:
    """Split a migration script into statements, keeping trigger bodies whole."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
