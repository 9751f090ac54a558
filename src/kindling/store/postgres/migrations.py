"""Ordered, named schema migrations of the PostgreSQL store (its own line, not SQLite's).

The tables mirror the SQLite layout (same columns, same meaning) with PostgreSQL types:
``BIGINT`` epoch milliseconds, ``BOOLEAN`` flags, an identity ``rowid`` on the searchable
tables, and a weighted ``tsvector`` per row (see ``store.postgres.search``). Each step runs in
one transaction under an advisory lock, so many processes opening a new database at once
migrate it exactly once. ``kindling_schema_migrations`` records every applied step.

Must not import anything from Kindling except ``errors``, ``store.sql.schema`` and
``store.postgres.resegment``.
"""

from __future__ import annotations

from typing import Any

from kindling.store.postgres.resegment import resegment, resegment_context
from kindling.store.sql.schema import Migration as SchemaStep
from kindling.store.sql.schema import vector_tables_sql

Migration = SchemaStep[Any]  # ``then`` gets the psycopg connection


_SCOPE = """
  session_id  TEXT,
  repo_id     TEXT,
  agent_id    TEXT,
  user_id     TEXT"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "001_init",
        f"""
CREATE TABLE observations (
  rowid       BIGINT  GENERATED ALWAYS AS IDENTITY UNIQUE,
  id          TEXT    PRIMARY KEY,
  kind        TEXT    NOT NULL CHECK(kind IN ('tool_call', 'command', 'file_diff', 'error',
                'message', 'node_start', 'node_end', 'node_output', 'node_error')),
  content     TEXT    NOT NULL,
  provenance  TEXT    NOT NULL DEFAULT '{{}}',
  ts          BIGINT  NOT NULL,
  scope_ids   TEXT    NOT NULL DEFAULT '{{}}',
  redacted    BOOLEAN NOT NULL DEFAULT FALSE,{_SCOPE}
);
CREATE TABLE capsules (
  id          TEXT    PRIMARY KEY,
  type        TEXT    NOT NULL CHECK(type IN ('session', 'pocketflow_node')),
  intent      TEXT    NOT NULL,
  status      TEXT    NOT NULL CHECK(status IN ('open', 'closed')) DEFAULT 'open',
  opened_at   BIGINT  NOT NULL,
  closed_at   BIGINT,
  scope_ids   TEXT    NOT NULL DEFAULT '{{}}',{_SCOPE}
);
CREATE TABLE capsule_observations (
  link_order     BIGINT GENERATED ALWAYS AS IDENTITY,
  capsule_id     TEXT   NOT NULL REFERENCES capsules(id) ON DELETE CASCADE,
  observation_id TEXT   NOT NULL REFERENCES observations(id) ON DELETE CASCADE,
  seq            BIGINT NOT NULL,
  PRIMARY KEY (capsule_id, observation_id)
);
CREATE TABLE summaries (
  rowid          BIGINT  GENERATED ALWAYS AS IDENTITY UNIQUE,
  id             TEXT    PRIMARY KEY,
  capsule_id     TEXT    NOT NULL UNIQUE REFERENCES capsules(id) ON DELETE CASCADE,
  content        TEXT    NOT NULL,
  confidence     DOUBLE PRECISION NOT NULL CHECK(confidence >= 0.0 AND confidence <= 1.0),
  created_at     BIGINT  NOT NULL,
  evidence_refs  TEXT    NOT NULL DEFAULT '[]'
);
CREATE TABLE pins (
  id          TEXT    PRIMARY KEY,
  target_type TEXT    NOT NULL CHECK(target_type IN ('observation', 'summary')),
  target_id   TEXT    NOT NULL,
  reason      TEXT,
  created_at  BIGINT  NOT NULL,
  expires_at  BIGINT,
  scope_ids   TEXT    NOT NULL DEFAULT '{{}}',{_SCOPE}
);
CREATE TABLE summary_details (
  summary_id        TEXT    PRIMARY KEY REFERENCES summaries(id) ON DELETE CASCADE,
  topic             TEXT    NOT NULL,
  status            TEXT    NOT NULL CHECK(status IN ('Active', 'Superseded', 'DecisionRecord')),
  context           TEXT,
  topic_id          TEXT,
  plan_id           TEXT,
  session_id        TEXT,
  source_created_at BIGINT,
  created_at        BIGINT  NOT NULL,
  updated_at        BIGINT  NOT NULL,
  decisions         TEXT    NOT NULL DEFAULT '[]',
  rationale         TEXT    NOT NULL DEFAULT '[]',
  open_questions    TEXT    NOT NULL DEFAULT '[]',
  next_steps        TEXT    NOT NULL DEFAULT '[]',
  refs              TEXT    NOT NULL DEFAULT '[]'
);
""",
    ),
    Migration(
        2,
        "002_scope_indexes",
        # Every scope dimension is an equality filter (AND): one index per dimension, with the
        # order the reads use, so a repo- or session-scoped read never scans the table.
        """
CREATE INDEX idx_obs_ts ON observations(ts DESC, id);
CREATE INDEX idx_obs_session_ts ON observations(session_id, ts, rowid)
  WHERE session_id IS NOT NULL;
CREATE INDEX idx_obs_repo_ts ON observations(repo_id, ts DESC) WHERE repo_id IS NOT NULL;
CREATE INDEX idx_obs_agent_ts ON observations(agent_id, ts DESC) WHERE agent_id IS NOT NULL;
CREATE INDEX idx_obs_user_ts ON observations(user_id, ts DESC) WHERE user_id IS NOT NULL;
CREATE INDEX idx_caps_opened ON capsules(opened_at DESC, id);
CREATE INDEX idx_caps_session ON capsules(session_id) WHERE session_id IS NOT NULL;
CREATE INDEX idx_caps_repo ON capsules(repo_id) WHERE repo_id IS NOT NULL;
CREATE INDEX idx_caps_user ON capsules(user_id) WHERE user_id IS NOT NULL;
CREATE INDEX idx_capobs_capsule ON capsule_observations(capsule_id, seq);
CREATE INDEX idx_capobs_observation ON capsule_observations(observation_id);
CREATE INDEX idx_summaries_created ON summaries(created_at DESC, id);
CREATE INDEX idx_pins_target ON pins(target_type, target_id);
CREATE INDEX idx_pins_repo ON pins(repo_id) WHERE repo_id IS NOT NULL;
CREATE INDEX idx_pins_session ON pins(session_id) WHERE session_id IS NOT NULL;
CREATE INDEX idx_summary_details_topic ON summary_details(topic_id, status)
  WHERE topic_id IS NOT NULL;
""",
    ),
    Migration(
        3,
        "003_one_open_session_capsule",
        # The engine checks before it opens a session capsule; under concurrent writers only
        # the database can make "one open session capsule per session" hold.
        """
CREATE UNIQUE INDEX uniq_open_session_capsule ON capsules(session_id)
  WHERE status = 'open' AND type = 'session' AND session_id IS NOT NULL;
""",
    ),
    Migration(
        4,
        "004_text_search",
        # Weighted documents (A: own text, B: the session neighbour, C: the capsule's intent),
        # kept current by the store (store.postgres.search).
        # The `kindling` configuration is `english` without stop words (Snowball stemming
        # only), as FTS5's porter tokenizer: a query of only stop words still finds them.
        """
CREATE TEXT SEARCH DICTIONARY kindling_stem (TEMPLATE = snowball, LANGUAGE = english);
CREATE TEXT SEARCH CONFIGURATION kindling (COPY = english);
ALTER TEXT SEARCH CONFIGURATION kindling
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
  WITH kindling_stem;
ALTER TABLE observations ADD COLUMN search tsvector;
ALTER TABLE summaries ADD COLUMN search tsvector;
CREATE INDEX idx_obs_search ON observations USING GIN (search);
CREATE INDEX idx_summaries_search ON summaries USING GIN (search);
""",
    ),
    Migration(
        5,
        "005_api_tokens",
        # `kindling serve`: bearer tokens (only their SHA-256) and the repositories of a team.
        """
CREATE TABLE api_tokens (
  id          TEXT   PRIMARY KEY,
  token_hash  TEXT   NOT NULL UNIQUE,
  user_id     TEXT   NOT NULL,
  team        TEXT,
  created_at  BIGINT NOT NULL,
  revoked_at  BIGINT
);
CREATE TABLE team_repos (
  team        TEXT   NOT NULL,
  repo_id     TEXT   NOT NULL,
  granted_at  BIGINT NOT NULL,
  PRIMARY KEY (team, repo_id)
);
""",
    ),
    Migration(
        6,
        "006_scope_tokens",
        # Each observation's document also carries one token per scope dimension (a lexeme of
        # weight D that no ranked query names), so a scoped search is one GIN intersection
        # instead of a GIN bitmap AND-ed with a b-tree bitmap of the whole scope (a repository
        # can hold a quarter of the table). Tokens hash the value: no parsing, fixed length.
        """
CREATE FUNCTION kindling_scope_tokens(s TEXT, r TEXT, a TEXT, u TEXT) RETURNS TEXT[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_remove(ARRAY['kdsession' || md5(s), 'kdrepo' || md5(r), 'kdagent' || md5(a),
    'kduser' || md5(u)], NULL) $$;
CREATE FUNCTION kindling_scope_vector(s TEXT, r TEXT, a TEXT, u TEXT) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(kindling_scope_tokens(s, r, a, u)) $$;
CREATE FUNCTION kindling_scope_query(s TEXT, r TEXT, a TEXT, u TEXT) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_string(kindling_scope_tokens(s, r, a, u), ' & ')::tsquery $$;
UPDATE observations SET search = search
  || kindling_scope_vector(session_id, repo_id, agent_id, user_id) WHERE search IS NOT NULL;
""",
    ),
    Migration(
        8,
        "008_segmented_scripts",
        # Han, Kana, Hangul and Thai runs become searchable by their parts (store.segments):
        # the documents of the rows that hold such letters are built again with their bigrams.
        "SELECT 1",
        then=resegment,
    ),
    Migration(
        9,
        "009_segmented_context",
        # The context (neighbour) and intent parts of a document get the bigrams too: the
        # documents of the rows whose neighbour or capsule intent holds such letters are built
        # again.
        "SELECT 1",
        then=resegment_context,
    ),
    Migration(
        10,
        "010_semantic_vectors",
        vector_tables_sql("BYTEA")
        + """
CREATE OR REPLACE FUNCTION kindling_observation_vectors_forget() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM observation_vectors WHERE observation_id = OLD.id;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS observation_vectors_forget ON observations;
CREATE TRIGGER observation_vectors_forget AFTER UPDATE OF content, redacted ON observations
  FOR EACH ROW WHEN (NEW.redacted OR NEW.content IS DISTINCT FROM OLD.content)
  EXECUTE FUNCTION kindling_observation_vectors_forget();
CREATE OR REPLACE FUNCTION kindling_summary_vectors_forget() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM summary_vectors WHERE summary_id = OLD.id;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS summary_vectors_forget ON summaries;
CREATE TRIGGER summary_vectors_forget AFTER UPDATE OF content ON summaries
  FOR EACH ROW WHEN (NEW.content IS DISTINCT FROM OLD.content)
  EXECUTE FUNCTION kindling_summary_vectors_forget();
""",
    ),
    Migration(
        11,
        "011_id_aliases",
        # `kindling serve`: each owner's own view of the ids its clients choose (http.idspace).
        """
CREATE TABLE IF NOT EXISTS id_aliases (
  owner       TEXT   NOT NULL,
  wire_id     TEXT   NOT NULL,
  stored_id   TEXT   NOT NULL UNIQUE,
  created_at  BIGINT NOT NULL,
  PRIMARY KEY (owner, wire_id)
);
""",
    ),
    Migration(
        12,
        "012_one_open_session_capsule_per_user",
        # A session is one user's (issue 32): another team's open capsule under the same
        # session id must neither block a create (409) nor confirm that the session exists.
        """
DROP INDEX IF EXISTS uniq_open_session_capsule;
CREATE UNIQUE INDEX uniq_open_session_capsule ON capsules(session_id, COALESCE(user_id, ''))
  WHERE status = 'open' AND type = 'session' AND session_id IS NOT NULL;
""",
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version
