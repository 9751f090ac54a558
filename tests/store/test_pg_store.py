"""PostgreSQL-only behaviour of the store: migrations and their snapshot, concurrency, forget,
connection errors. (Everything both backends share is in the ``contract`` suites.)"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest

from kindling import ConflictError, Kindling, NewObservation, SchemaError, Scope, StoreError
from tests.support.pg import pg_schema, require_pg

psycopg = pytest.importorskip("psycopg")

from kindling.store.postgres import PostgresStore  # noqa: E402
from kindling.store.postgres.migrations import LATEST_VERSION, MIGRATIONS  # noqa: E402
from tests.support.paths import TESTS  # noqa: E402

SNAPSHOT = TESTS / "fixtures" / "pg_schema.txt"


@pytest.fixture
def pg_url() -> Iterator[str]:
    with pg_schema() as url:
        yield url


def _schema_of(url: str) -> str:
    """Tables with typed columns, then index definitions, of the URL's schema."""
    with psycopg.connect(url) as conn:
        cols = conn.execute(
            "SELECT table_name, column_name, data_type, is_nullable FROM"
            " information_schema.columns WHERE table_schema = current_schema()"
            " ORDER BY table_name, ordinal_position"
        ).fetchall()
        idx = conn.execute(
            "SELECT indexname, regexp_replace(indexdef, ' ON \\S+\\.', ' ON ')"
            " FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname"
        ).fetchall()
    lines = [f"column {t}.{c} {d}{' NOT NULL' if n == 'NO' else ''}" for t, c, d, n in cols]
    lines += [f"index {name}: {definition}" for name, definition in idx]
    return "\n".join(lines) + "\n"


def test_migrations_are_ordered_and_named() -> None:
    versions = [m.version for m in MIGRATIONS]
    assert versions == sorted(set(versions))
    assert versions[0] == 1
    assert versions[-1] == LATEST_VERSION
    for m in MIGRATIONS:
        assert m.name.startswith(f"{m.version:03d}_"), m.name


def test_fresh_schema_matches_snapshot(pg_url: str) -> None:
    PostgresStore(pg_url).close()
    shape = _schema_of(pg_url)
    if not SNAPSHOT.exists():
        SNAPSHOT.write_text(shape)
        pytest.fail(f"wrote a new snapshot to {SNAPSHOT}; review and commit it")
    assert shape == SNAPSHOT.read_text(), "schema changed: add a migration, update the snapshot"


def test_migrations_run_once_and_are_recorded(pg_url: str) -> None:
    for _ in range(2):
        PostgresStore(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT version, name FROM kindling_schema_migrations ORDER BY 1")
        assert [tuple(r) for r in rows] == [(m.version, m.name) for m in MIGRATIONS]


def test_many_processes_opening_a_new_database_at_once_migrate_it_once(pg_url: str) -> None:
    errors: list[BaseException] = []

    def open_close() -> None:
        try:
            PostgresStore(pg_url, max_connections=2).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_close) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_a_newer_schema_is_refused(pg_url: str) -> None:
    PostgresStore(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        conn.execute("INSERT INTO kindling_schema_migrations VALUES (999, '999_future', 0)")
    with pytest.raises(SchemaError, match="newer than this Kindling"):
        PostgresStore(pg_url)


def test_an_unreachable_server_is_a_one_line_store_error() -> None:
    with pytest.raises(StoreError, match=r"cannot use PostgreSQL at postgresql://127\.0\.0\.1:1/"):
        Kindling.open("postgresql://nobody:secret@127.0.0.1:1/none?connect_timeout=2")


def test_the_error_never_shows_the_password() -> None:
    with pytest.raises(StoreError) as info:
        Kindling.open("postgresql://nobody:hunter2@127.0.0.1:1/none?connect_timeout=2")
    assert "hunter2" not in str(info.value)


def test_racing_writers_get_one_open_session_capsule(pg_url: str) -> None:
    outcomes: list[str] = []
    barrier = threading.Barrier(8)
    with Kindling.open(pg_url) as kd:

        def opener() -> None:
            barrier.wait()
            try:
                kd.open_capsule(intent="race", scope=Scope(session_id="s-race"))
                outcomes.append("opened")
            except ConflictError:
                outcomes.append("conflict")

        threads = [threading.Thread(target=opener) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == ["conflict"] * 7 + ["opened"]
        assert len(kd.list_capsules(scope=Scope(session_id="s-race"))) == 1


def test_concurrent_appends_to_one_capsule_get_distinct_positions(pg_url: str) -> None:
    with Kindling.open(pg_url) as kd:
        capsule = kd.open_capsule(intent="busy", scope=Scope(session_id="s1"))

        def writer(n: int) -> None:
            for i in range(20):
                kd.append_observation(kind="message", content=f"w{n} m{i}", capsule_id=capsule.id)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ids = kd.get_capsule(capsule.id).observation_ids
        assert len(ids) == len(set(ids)) == 100
    with psycopg.connect(pg_url) as conn:
        seqs = [r[0] for r in conn.execute("SELECT seq FROM capsule_observations ORDER BY seq")]
    assert seqs == list(range(100))


def test_forget_removes_the_text_from_row_and_index_and_neighbours(pg_url: str) -> None:
    with Kindling.open(pg_url) as kd:
        scope = Scope(session_id="s1", repo_id="r")
        kd.open_capsule(intent="work", scope=scope)
        kd.append_observation(kind="message", content="before", scope=scope)
        secret = kd.append_observation(kind="message", content="zanzibarword here", scope=scope)
        kd.append_observation(kind="message", content="after", scope=scope)
        with psycopg.connect(pg_url) as conn:
            hits = conn.execute(
                "SELECT count(*) FROM observations WHERE search::text LIKE '%zanzibar%'"
            ).fetchone()
            assert hits == (2,)  # itself, and the next one in the session quotes it
        kd.forget(secret.id)
        with psycopg.connect(pg_url) as conn:
            for sql in (
                "SELECT count(*) FROM observations WHERE search::text LIKE '%zanzibar%'",
                "SELECT count(*) FROM observations WHERE content LIKE '%zanzibar%'",
            ):
                row = conn.execute(sql).fetchone()
                assert row == (0,), sql


def test_store_is_usable_from_many_threads_at_once(pg_url: str) -> None:
    require_pg()
    with Kindling.open(pg_url) as kd:
        errors: list[BaseException] = []

        def work(n: int) -> None:
            try:
                for i in range(10):
                    kd.append_observation(
                        kind="message", content=f"t{n} {i}", scope=Scope(repo_id="r")
                    )
                    kd.list_observations(scope=Scope(repo_id="r"), limit=5)
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert kd.stats().observations_by_kind == {"message": 80}


def test_very_common_queries_rank_the_newest_window_then_fall_back(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kindling.store.fts import build_query
    from kindling.store.postgres import search

    monkeypatch.setattr(search, "RANK_POOL_ABOVE", 5)  # every query counts as very common
    monkeypatch.setattr(search, "RECENT_WINDOW", 10)
    scope = Scope(repo_id="r")
    with Kindling.open(pg_url) as kd:
        old = [
            kd.append_observation(kind="message", content="gecko gecko gecko", ts=i, scope=scope)
            for i in range(10)
        ]
        new = [
            kd.append_observation(kind="message", content=f"gecko n{i}", ts=100 + i, scope=scope)
            for i in range(12)
        ]

        def ids(limit: int) -> set[str]:
            found = kd.store.search_observations(
                build_query("gecko"), scope, exclude_ids=(), include_redacted=False, limit=limit
            )
            return {m.observation.id for m in found}

        # a full page among the 10 newest: the better-ranked old ones are not looked at
        assert ids(5) <= {o.id for o in new[-10:]}
        # the window cannot fill 15: every match is ranked, the old ones first
        assert {o.id for o in old} <= ids(15)
        # a scope smaller than the window: its matches are all there is
        few = Scope(repo_id="few")
        for i in range(3):
            kd.append_observation(kind="message", content=f"gecko f{i}", ts=200 + i, scope=few)
        found = kd.store.search_observations(
            build_query("gecko"), few, exclude_ids=(), include_redacted=False, limit=50
        )
        assert len(found) == 3


def _documents(url: str) -> dict[str, str]:
    with psycopg.connect(url) as conn:
        return {r[0]: str(r[1]) for r in conn.execute("SELECT id, search FROM observations")}


def test_a_batch_insert_indexes_as_one_by_one_appends_would() -> None:
    """Set-based insert, out of time order and across sessions and capsules: documents,
    capsule order and sequence numbers as if each observation had been appended alone."""
    scopes = [Scope(session_id=f"s{i}", repo_id="r") for i in range(2)]
    news = [
        NewObservation("message", f"word{i} shared text {i % 4}", scopes[i % 2], ts=ts, id=f"o{i}")
        for i, ts in enumerate([50, 10, 30, 10, 70, 20, 40, 60])
    ]
    outcomes = []
    for bulk in (False, True):
        with pg_schema() as url:
            with Kindling.open(url) as kd:
                capsules = [
                    kd.open_capsule(intent=f"intent {s.session_id}", scope=s) for s in scopes
                ]
                kd.append_observation(
                    kind="message", content="old one", scope=scopes[0], ts=35, id="old"
                )
                for batch in [news] if bulk else [[n] for n in news]:  # one call, or one each
                    kd.append_many(batch)
                order = [kd.get_capsule(c.id).observation_ids for c in capsules]
            with psycopg.connect(url) as conn:
                seqs = conn.execute(
                    "SELECT c.intent, array_agg(co.seq ORDER BY co.seq) FROM capsule_observations"
                    " co JOIN capsules c ON c.id = co.capsule_id GROUP BY c.intent ORDER BY 1"
                ).fetchall()
            docs = _documents(url)
            outcomes.append((docs, order, [list(s) for _, s in seqs]))
            # and a full rebuild changes nothing: every document was current
            store = PostgresStore(url)
            try:
                store.index_observations(sorted(docs))
            finally:
                store.close()
            assert _documents(url) == docs
    assert outcomes[0] == outcomes[1]
    assert outcomes[1][2] == [list(range(5)), list(range(4))]


def test_a_batch_with_a_known_or_repeated_id_writes_nothing(pg_url: str) -> None:
    with Kindling.open(pg_url) as kd:
        kd.append_observation(kind="message", content="first", id="a1", scope=Scope(repo_id="r"))
        for batch in (["b1", "a1"], ["b1", "b2", "b1"]):
            with pytest.raises(ConflictError):
                kd.append_many(
                    [
                        NewObservation("message", f"text {i}", Scope(repo_id="r"), id=i)
                        for i in batch
                    ]
                )
        assert [o.id for o in kd.list_observations()] == ["a1"]
        first = kd.list_observations()[0]
        with pytest.raises(StoreError):  # a capsule that does not exist: nothing either
            kd.store.insert_observations(
                [(replace(first, id="c1"), None), (replace(first, id="c2"), "nope")]
            )
        assert [o.id for o in kd.list_observations()] == ["a1"]


def test_the_weight_a_query_says_what_ts_filter_would(pg_url: str) -> None:
    """``context_only`` comes from the query limited to weight A; it must agree with
    filtering the vector to A first, for words, phrases and negations."""
    from kindling.store.postgres.tsquery import tsquery_text

    scope = Scope(session_id="s1", repo_id="r")
    with Kindling.open(pg_url) as kd:
        kd.open_capsule(intent="retry the parse step", scope=scope)
        for text in ("stream parse error", "retry later", "parse stream now", "nothing here"):
            kd.append_observation(kind="message", content=text, scope=scope)
    cases = [
        (["parse"], [], []),
        ([], ["stream parse"], []),
        (["retry", "stream"], [], ["later"]),
        (["now"], ["parse stream"], ["error"]),
    ]
    with psycopg.connect(pg_url) as conn:
        for terms, phrases, negated in cases:
            q = tsquery_text(terms, phrases, negated)
            own = tsquery_text(terms, phrases, negated, weight="A")
            rows = conn.execute(
                "SELECT id, ts_filter(search, '{a}') @@ to_tsquery('kindling', %s),"
                " search @@ to_tsquery('kindling', %s) FROM observations"
                " WHERE search @@ to_tsquery('kindling', %s)",
                (q, own, q),
            ).fetchall()
            assert rows, (terms, phrases)
            assert all(r[1] == r[2] for r in rows), (terms, phrases, negated, rows)
