"""Retrieve latency of the PostgreSQL store at scale (1M observations and more).

    python -m bench.pg_scale --db postgresql://postgres@127.0.0.1/test --size 1m

Loads the bench corpus (``bench.corpus``, the same records ``python -m bench`` uses) into a
fresh schema by bulk ``COPY``, computing each observation's document with the store's own
functions (``store.postgres.observations.document_text``, ``store.documents.context_excerpt``
and the identifier parts), so
the index is the one the store would have built; the GIN indexes are built after the load.
Then it times ``Kindling.retrieve`` through the library (every query class of
``bench.corpus`` repository- and session-scoped, and the natural-language questions alone,
repository-scoped, session-scoped and unscoped) and prints p50/p95 as JSON. The schema is
dropped at the end unless ``--keep``.

    python -m bench.pg_scale --capture 20000

measures capture instead: ``append_many`` through the library (batches of 2,000 records, the
way ``bench.latency`` measures SQLite) into a fresh throw-away schema, and prints obs/s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any
from urllib.parse import quote

import psycopg

from bench.corpus import (
    QUERY_CLASSES,
    CapsuleRecord,
    CloseRecord,
    ObservationRecord,
    end_ms,
    generate,
    parse_size,
    queries,
)
from bench.loader import SettableClock
from bench.loader import load as load_records
from kindling import Kindling, Scope
from kindling.store.documents import context_excerpt
from kindling.store.identifiers import identifier_parts
from kindling.store.postgres import PostgresStore
from kindling.store.postgres.observations import (
    CONFIG,
    document_text,
    scope_vector_sql,
)


def _scope(repo_id: str, session_id: str) -> str:
    return json.dumps({"repoId": repo_id, "sessionId": session_id}, separators=(",", ":"))


def load(url: str, size: int, seed: int) -> dict[str, Any]:
    PostgresStore(url).close()  # migrate
    start = time.perf_counter()
    last_in_session: dict[str, str] = {}
    intents: dict[str, str] = {}
    seq: dict[str, int] = {}
    with psycopg.connect(url) as conn:
        conn.execute("DROP INDEX idx_obs_search")
        conn.execute(
            "CREATE TEMP TABLE staging (id text, kind text, content text, provenance text,"
            " ts bigint, scope_ids text, session_id text, repo_id text, a text, b text, c text)"
        )
        closes: dict[str, int] = {}
        links: list[tuple[str, str, int]] = []
        cap_rows: list[CapsuleRecord] = []
        count = 0
        with conn.cursor() as cur:
            with cur.copy("COPY staging FROM STDIN") as copy:  # streamed: constant memory
                for record in generate(size, seed):
                    if isinstance(record, CapsuleRecord):
                        cap_rows.append(record)
                        intents[record.key] = record.intent
                    elif isinstance(record, CloseRecord):
                        closes[record.capsule_key] = record.ts
                    elif isinstance(record, ObservationRecord):
                        count += 1
                        previous = last_in_session.get(record.session_id, "")
                        last_in_session[record.session_id] = record.content
                        own = f"{record.content}\n{identifier_parts(record.content)}"
                        copy.write_row(
                            (
                                record.id,
                                record.kind,
                                record.content,
                                json.dumps(record.provenance, sort_keys=True),
                                record.ts,
                                _scope(record.repo_id, record.session_id),
                                record.session_id,
                                record.repo_id,
                                document_text(own),
                                document_text(context_excerpt(previous)),
                                document_text(intents.get(record.capsule_key or "", "")),
                            )
                        )
                        if record.capsule_key:
                            n = seq.get(record.capsule_key, 0)
                            seq[record.capsule_key] = n + 1
                            links.append((record.capsule_key, record.id, n))
            with cur.copy(
                "COPY capsules (id, type, intent, status, opened_at, closed_at, scope_ids,"
                " session_id, repo_id) FROM STDIN"
            ) as copy:
                for c in cap_rows:
                    closed = closes.get(c.key)
                    copy.write_row(
                        (
                            c.key,
                            c.type,
                            c.intent,
                            "closed" if closed is not None else "open",
                            c.opened_at,
                            closed,
                            _scope(c.repo_id, c.session_id),
                            c.session_id,
                            c.repo_id,
                        )
                    )
            conn.execute(
                "INSERT INTO observations (id, kind, content, provenance, ts, scope_ids,"
                " redacted, session_id, repo_id, search)"
                " SELECT id, kind, content, provenance, ts, scope_ids, FALSE, session_id, repo_id,"
                f" setweight(to_tsvector('{CONFIG}', a), 'A')"
                f" || setweight(to_tsvector('{CONFIG}', b), 'B')"
                f" || setweight(to_tsvector('{CONFIG}', c), 'C') || {scope_vector_sql('')}"
                " FROM (SELECT *, NULL AS agent_id, NULL AS user_id FROM staging) s ORDER BY ts"
            )
            with cur.copy(
                "COPY capsule_observations (capsule_id, observation_id, seq) FROM STDIN"
            ) as copy:
                for link in links:
                    copy.write_row(link)
        loaded = time.perf_counter() - start
        conn.execute("CREATE INDEX idx_obs_search ON observations USING GIN (search)")
        conn.execute("ANALYZE")
        size_row = conn.execute(
            "SELECT pg_total_relation_size('observations') + pg_total_relation_size("
            "'capsule_observations') + pg_total_relation_size('capsules')"
        ).fetchone()
    return {
        "observations": count,
        "loadSeconds": round(loaded, 1),
        "indexSeconds": round(time.perf_counter() - start - loaded, 1),
        "bytes": int(size_row[0]) if size_row else 0,
    }


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


def measure(url: str, size: int, seed: int, per_class: int, repeats: int) -> dict[str, Any]:
    questions = queries(size, seed, per_class=per_class)
    now = end_ms(size, seed)
    out: dict[str, Any] = {}
    with Kindling.open(url) as kd:
        for name, classes, scope_of in (
            ("repo", QUERY_CLASSES, lambda q: Scope(repo_id=q.repo_id)),
            ("session", QUERY_CLASSES, lambda q: Scope(session_id=q.session_id)),
            ("questionRepo", ("question",), lambda q: Scope(repo_id=q.repo_id)),
            ("questionSession", ("question",), lambda q: Scope(session_id=q.session_id)),
            ("questionUnscoped", ("question",), lambda q: Scope()),
        ):
            qs = [q for q in questions if q.cls in classes]
            for q in qs:  # warm-up
                kd.retrieve(q.text, scope=scope_of(q), now=now, max_candidates=10)
            times: list[float] = []
            for _ in range(repeats):
                for q in qs:
                    t = time.perf_counter()
                    kd.retrieve(q.text, scope=scope_of(q), now=now, max_candidates=10)
                    times.append(time.perf_counter() - t)
            out[name] = {
                "queries": len(times),
                "p50Ms": pct(times, 0.5),
                "p95Ms": pct(times, 0.95),
                "meanMs": round(statistics.fmean(times) * 1000, 1),
            }
    return out


def capture(url: str, n: int, seed: int) -> dict[str, Any]:
    clock = SettableClock()
    with Kindling.open(url, clock=clock) as kd:
        stats = load_records(kd, generate(n, seed), clock=clock, batch_size=2000, bulk=True)
    return {
        "observations": stats.observations,
        "seconds": round(stats.seconds, 2),
        "obsPerSecond": round(stats.obs_per_second, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pg_scale", description=__doc__)
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--size", default="1m")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--per-class", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--schema", default="kd_scale")
    parser.add_argument("--keep", action="store_true", help="keep the schema (and skip loading)")
    parser.add_argument("--capture", type=int, metavar="N", help="only measure capture of N")
    args = parser.parse_args(argv)
    size = parse_size(args.size)
    sep = "&" if "?" in args.db else "?"
    url = f"{args.db}{sep}options={quote(f'-csearch_path={args.schema}')}"
    if args.capture:
        with psycopg.connect(args.db, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {args.schema} CASCADE")
            conn.execute(f"CREATE SCHEMA {args.schema}")
        try:
            print(json.dumps({"capture": capture(url, args.capture, args.seed)}, indent=2))
        finally:
            with psycopg.connect(args.db, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {args.schema} CASCADE")
        return 0
    report: dict[str, Any] = {"size": size}
    with psycopg.connect(args.db, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (args.schema,)
        ).fetchone()
        if not (exists and args.keep):
            conn.execute(f"DROP SCHEMA IF EXISTS {args.schema} CASCADE")
            conn.execute(f"CREATE SCHEMA {args.schema}")
            report["load"] = load(url, size, args.seed)
    try:
        report["retrieve"] = measure(url, size, args.seed, args.per_class, args.repeats)
    finally:
        if not args.keep:
            with psycopg.connect(args.db, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {args.schema} CASCADE")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
