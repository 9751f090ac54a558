"""SQLite store: owns the connection, transactions, migrations and all SQL.

Design: one connection per store in autocommit mode; writes run in ``BEGIN IMMEDIATE``
transactions so that concurrent writers queue on the busy timeout instead of failing on a
lock upgrade. WAL lets readers run while a writer writes. The schema is the TypeScript
Kindling's v5 layout plus additive migrations (``store.migrations``); opening a store migrates
it. Full-text search drives every query from the FTS5 index (``CROSS JOIN`` keeps SQLite from
scanning the scope index and probing FTS row by row, the plan that made repo-scoped searches
take seconds in the TypeScript tool).

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from kindling.model import (
    Capsule,
    CapsuleStatus,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    TargetType,
)
from kindling.store import files, sqlite_index
from kindling.store.base import (
    CapsuleRef,
    Dataset,
    StoreStats,
    iter_chunks,
)
from kindling.store.migrations import LATEST_VERSION, apply_migrations, current_version
from kindling.store.purge import merge_fts_segments, truncate_wal
from kindling.store.retry import retry_busy
from kindling.store.rows import (
    CAPSULE_COLUMNS,
    CAPSULE_REF_COLUMNS,
    OBS_COLUMNS,
    PIN_COLUMNS,
    SUMMARY_COLUMNS,
    observation_row,
    observation_values,
    pin_row,
    row_scope,
    scope_json,
    scope_values,
    scope_where,
    store_error,
    summary_row,
)
from kindling.store.sqlite_details import SummaryDetailsMixin
from kindling.store.sqlite_forget import ForgetMixin
from kindling.store.sqlite_search import SearchMixin
from kindling.store.sqlite_tokens import SqliteTokensMixin

T = TypeVar("T")

BUSY_TIMEOUT_S = 5.0


class SqliteStore(SearchMixin, SummaryDetailsMixin, ForgetMixin, SqliteTokensMixin):
    """The embedded SQLite backend of the ``Store`` protocol."""

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_s: float = BUSY_TIMEOUT_S,
        check_before_write: bool = True,
    ) -> None:
        self.path = str(path)
        self.read_only = self.path != ":memory:" and files.prepare(self.path)  # modes, mode=ro
        self._checked = self.path == ":memory:" or not check_before_write  # see store.files
        try:
            self._conn = files.connect(self.path, busy_timeout_s, read_only=self.read_only)
            self._busy_timeout_s = busy_timeout_s
            self._depth = 0
            self._purge_pending = False  # a forget happened in this transaction
            # First rowid appended in this transaction and not indexed yet (see _index_pending).
            self._unindexed_from: int | None = None
            self.wal_purged = True  # the last forget's old pages left the WAL file
            sqlite_index.register_functions(self._conn)
            for pragma in (
                f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}",
                # Many processes opening a new file at once: this one can return BUSY at once.
                "PRAGMA journal_mode" if self.read_only else "PRAGMA journal_mode = WAL",
                # WAL + NORMAL: a returned commit survives a killed process (not a power cut).
                "PRAGMA synchronous = NORMAL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA secure_delete = ON",  # freed pages are zeroed: forgotten text is gone
                # Searches read index pages scattered over the file: a 64 MB page cache (an
                # upper bound, not an allocation) keeps a scope's pages. No mmap: an I/O error
                # on a mapped file is a signal, not an error, and it gained only ~10 %.
                "PRAGMA cache_size = -65536",
            ):
                self._retry(partial(self._conn.execute, pragma))
            self._retry(self._migrate)
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, self.path) from exc

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        self._conn.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The raw connection, for maintenance tools and tests; not for domain code."""
        return self._conn

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction; nested calls join the outer one."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        if not self._checked:
            self._checked = files.may_write(self._conn, self.path, self.read_only, self._retry)
        try:
            self._retry(lambda: self._conn.execute("BEGIN IMMEDIATE"))
        except sqlite3.OperationalError as exc:
            raise store_error(exc, self.path) from exc
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._purge_pending = False
            self._unindexed_from = None
            self._rollback()
            raise
        try:
            self._index_pending()
        except BaseException:
            self._depth = 0
            self._purge_pending = False
            self._unindexed_from = None
            self._rollback()
            raise
        self._depth = 0
        purge, self._purge_pending = self._purge_pending, False
        try:
            if purge:
                merge_fts_segments(self._conn)
            self._conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            self._rollback()
            raise store_error(exc, self.path) from exc
        if purge and self.path != ":memory:":
            self.wal_purged = self._retry(partial(truncate_wal, self._conn))
        elif not self.wal_purged:  # a reader held the WAL last time: try again, never wait
            self.wal_purged = self._retry(partial(truncate_wal, self._conn, wait_ms=0))

    def _index_pending(self) -> None:
        """Index this transaction's appends in one step; appends defer indexing to here (at
        commit, or before a search or forget): FTS5 flushes its pending terms whenever a later
        statement opens a savepoint, so indexing each append at once made every following
        statement pay a flush (300-500 us per append at 100k)."""
        if self._unindexed_from is not None:
            first, self._unindexed_from = self._unindexed_from, None
            try:
                sqlite_index.index_from(self._conn, first)
            except sqlite3.DatabaseError as exc:
                raise store_error(exc, self.path) from exc

    def _rollback(self) -> None:
        # Some errors (I/O, disk full) already ended the transaction; keep the first error.
        if self._conn.in_transaction:
            self._conn.execute("ROLLBACK")

    def _retry(self, call: Callable[[], T]) -> T:
        return retry_busy(call, timeout_s=self._busy_timeout_s)

    def _migrate(self) -> None:
        version = current_version(self._conn, self.path)
        if version == LATEST_VERSION:
            return
        files.refuse_upgrade_if_read_only(self.path, self.read_only, version, LATEST_VERSION)
        with self.transaction():
            # Inside the write lock: another process may have migrated meanwhile.
            apply_migrations(self._conn, self.path)

    def schema_version(self) -> int:
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def _write(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        try:
            with self.transaction():
                return self._conn.execute(sql, params)
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, self.path) from exc

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            if self._depth:  # inside a write transaction: we hold the lock, never busy
                return self._conn.execute(sql, params).fetchall()
            return self._retry(lambda: self._conn.execute(sql, params).fetchall())
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, self.path) from exc

    # ------------------------------------------------------------------ observations

    def insert_observation(self, obs: Observation, capsule_id: str | None) -> None:
        self.insert_observations([(obs, capsule_id)])

    def insert_observations(self, items: Sequence[tuple[Observation, str | None]]) -> None:
        """Insert observations (each with the capsule it joins, or None) and index them, in
        one transaction and a fixed number of statements whatever the batch size."""
        if not items:
            return
        try:
            with self.transaction():
                first = self._conn.execute(
                    "SELECT COALESCE(MAX(rowid), 0) + 1 FROM observations"
                ).fetchone()[0]
                self._conn.executemany(
                    "INSERT INTO observations (id, kind, content, provenance, ts, scope_ids,"
                    " redacted, session_id, repo_id, agent_id, user_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [observation_values(obs) for obs, _ in items],
                )
                links = [(cid, obs.id, cid) for obs, cid in items if cid is not None]
                if links:
                    self._conn.executemany(
                        "INSERT INTO capsule_observations (capsule_id, observation_id, seq)"
                        " SELECT ?, ?, COALESCE(MAX(seq) + 1, 0) FROM capsule_observations"
                        " WHERE capsule_id = ?",
                        links,
                    )
                if self._unindexed_from is None:
                    self._unindexed_from = int(first)
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, self.path) from exc

    def get_observations(self, ids: Sequence[str]) -> dict[str, Observation]:
        found: dict[str, Observation] = {}
        for chunk in iter_chunks(list(ids)):
            marks = ",".join("?" * len(chunk))
            for row in self._read(
                f"SELECT {OBS_COLUMNS} FROM observations o WHERE o.id IN ({marks})", chunk
            ):
                found[row[0]] = observation_row(row)
        return found

    def list_observations(
        self,
        *,
        kind: ObservationKind | None,
        scope: Scope,
        capsule_id: str | None,
        limit: int,
    ) -> list[Observation]:
        where, params = scope_where(scope, "o")
        if kind is not None:
            where += " AND o.kind = ?"
            params.append(kind)
        if capsule_id is not None:
            rows = self._read(
                f"SELECT {OBS_COLUMNS} FROM capsule_observations co"
                " JOIN observations o ON o.id = co.observation_id"
                f" WHERE co.capsule_id = ? AND {where} ORDER BY co.seq LIMIT ?",
                [capsule_id, *params, limit],
            )
        else:
            rows = self._read(
                f"SELECT {OBS_COLUMNS} FROM observations o WHERE {where}"
                " ORDER BY o.ts DESC, o.id ASC LIMIT ?",
                [*params, limit],
            )
        return [observation_row(r) for r in rows]

    def redact_observation(self, obs_id: str) -> bool:
        """Forget an observation's text everywhere, including on disk (see ``store.purge``):
        its row, its index entry, and the index entry of the neighbour whose context held it.

        Runs again on an already redacted row, so that text left in the index or the WAL by
        an older tool is purged too."""
        try:
            with self.transaction():
                self._index_pending()
                found = self._conn.execute(
                    "SELECT rowid FROM observations WHERE id = ?", (obs_id,)
                ).fetchone()
                if found is None:
                    return False
                touched = sqlite_index.dependents(self._conn, int(found[0]))
                with sqlite_index.reindexing(self._conn, touched):
                    self._conn.execute(  # the split identifiers of its content are its text too
                        "UPDATE observation_context SET parts = '' WHERE rowid = ?", (found[0],)
                    )
                    self._conn.execute(
                        "UPDATE observations SET content = '[redacted]', provenance = '{}',"
                        " redacted = 1 WHERE id = ?",
                        (obs_id,),
                    )
                self._purge_pending = True
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, self.path) from exc
        return True

    def capsule_intents_of(self, obs_ids: Sequence[str]) -> dict[str, str]:
        """observation id -> intent of the capsule it belongs to (the first, by id)."""
        found: dict[str, str] = {}
        for chunk in iter_chunks(list(obs_ids)):
            marks = ",".join("?" * len(chunk))
            for obs_id, intent in self._read(
                "SELECT co.observation_id, c.intent FROM capsule_observations co"
                " JOIN capsules c ON c.id = co.capsule_id"
                f" WHERE co.observation_id IN ({marks}) ORDER BY c.id DESC",
                chunk,
            ):
                found[obs_id] = intent
        return found

    def capsules_of(self, obs_id: str) -> list[str]:
        """Ids of the capsules an observation belongs to, oldest capsule first."""
        rows = self._read(
            "SELECT co.capsule_id FROM capsule_observations co"
            " JOIN capsules c ON c.id = co.capsule_id"
            " WHERE co.observation_id = ? ORDER BY c.opened_at, c.id",
            (obs_id,),
        )
        return [r[0] for r in rows]

    def link_observation(self, capsule_id: str, obs_id: str) -> bool:
        """Append an existing observation to a capsule; False if it was already there. An
        observation indexed without a capsule takes this one's intent as context."""
        try:
            with self.transaction():
                cur = self._conn.execute(
                    "INSERT OR IGNORE INTO capsule_observations (capsule_id, observation_id, seq)"
                    " SELECT ?, ?, COALESCE(MAX(seq) + 1, 0) FROM capsule_observations"
                    " WHERE capsule_id = ?",
                    (capsule_id, obs_id, capsule_id),
                )
                if cur.rowcount <= 0:
                    return False
                # An observation appended in this transaction is not indexed yet: it has no
                # context row, and indexing it at commit will find this link.
                row = self._conn.execute(
                    "SELECT x.rowid FROM observation_context x JOIN observations o"
                    " ON o.rowid = x.rowid WHERE o.id = ? AND x.intent = ''",
                    (obs_id,),
                ).fetchone()
                if row is not None:
                    with sqlite_index.reindexing(self._conn, [row[0]]):
                        self._conn.execute(
                            "UPDATE observation_context SET intent ="
                            " (SELECT intent FROM capsules WHERE id = ?) WHERE rowid = ?",
                            (capsule_id, row[0]),
                        )
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, self.path) from exc
        return True

    # ------------------------------------------------------------------ capsules

    def insert_capsule(self, capsule: Capsule) -> None:
        self._write(
            "INSERT INTO capsules (id, type, intent, status, opened_at, closed_at, scope_ids,"
            " session_id, repo_id, agent_id, user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                capsule.id,
                capsule.type,
                capsule.intent,
                capsule.status,
                capsule.opened_at,
                capsule.closed_at,
                scope_json(capsule.scope),
                *scope_values(capsule.scope),
            ),
        )

    def _capsules(self, where: str, params: Sequence[Any], tail: str = "") -> list[Capsule]:
        rows = self._read(
            f"SELECT {CAPSULE_COLUMNS}, (SELECT s.id FROM summaries s"
            f" WHERE s.capsule_id = c.id) FROM capsules c WHERE {where} {tail}",
            params,
        )
        capsules = []
        for row in rows:
            obs_ids = tuple(
                r[0]
                for r in self._read(
                    "SELECT observation_id FROM capsule_observations WHERE capsule_id = ?"
                    " ORDER BY seq",
                    (row[0],),
                )
            )
            capsules.append(
                Capsule(
                    id=row[0],
                    type=row[1],
                    intent=row[2],
                    status=row[3],
                    opened_at=row[4],
                    closed_at=row[5],
                    scope=row_scope(row, 6),
                    observation_ids=obs_ids,
                    summary_id=row[10],
                )
            )
        return capsules

    def get_capsule(self, capsule_id: str) -> Capsule | None:
        found = self._capsules("c.id = ?", (capsule_id,))
        return found[0] if found else None

    def capsule_ref(self, capsule_id: str) -> CapsuleRef | None:
        rows = self._read(
            f"SELECT {CAPSULE_REF_COLUMNS} FROM capsules c WHERE c.id = ?",
            (capsule_id,),
        )
        return CapsuleRef(rows[0][0], rows[0][1], row_scope(rows[0], 2)) if rows else None

    def find_open_capsule(self, scope: Scope, *, session_id: str | None) -> CapsuleRef | None:
        """The newest open capsule in scope (of ``session_id``'s session capsules, if given);
        a reference only: appends call this, and must not read the capsule's whole list."""
        where, params = scope_where(scope, "c")
        if session_id is not None:
            where += " AND c.session_id = ? AND c.type = 'session'"
            params.append(session_id)
        rows = self._read(
            f"SELECT {CAPSULE_REF_COLUMNS} FROM capsules c WHERE c.status = 'open' AND {where}"
            " ORDER BY c.opened_at DESC, c.id LIMIT 1",
            params,
        )
        return CapsuleRef(rows[0][0], rows[0][1], row_scope(rows[0], 2)) if rows else None

    def set_capsule_closed(self, capsule_id: str, closed_at: int) -> None:
        self._write(
            "UPDATE capsules SET status = 'closed', closed_at = ? WHERE id = ?",
            (closed_at, capsule_id),
        )

    def list_capsules(
        self, *, status: CapsuleStatus | None, scope: Scope, limit: int
    ) -> list[Capsule]:
        where, params = scope_where(scope, "c")
        if status is not None:
            where += " AND c.status = ?"
            params.append(status)
        return self._capsules(where, [*params, limit], "ORDER BY c.opened_at DESC, c.id LIMIT ?")

    # ------------------------------------------------------------------ summaries

    def upsert_summary(self, summary: Summary) -> Summary:
        try:
            with self.transaction():
                existing = self.summary_for_capsule(summary.capsule_id)
                if existing is None:
                    self._conn.execute(
                        "INSERT INTO summaries (id, capsule_id, content, confidence, created_at,"
                        " evidence_refs) VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            summary.id,
                            summary.capsule_id,
                            summary.content,
                            summary.confidence,
                            summary.created_at,
                            json.dumps(list(summary.evidence_refs)),
                        ),
                    )
                    return summary
                self._conn.execute(
                    "UPDATE summaries SET content = ?, confidence = ?, created_at = ?,"
                    " evidence_refs = ? WHERE id = ?",
                    (
                        summary.content,
                        summary.confidence,
                        summary.created_at,
                        json.dumps(list(summary.evidence_refs)),
                        existing.id,
                    ),
                )
                return Summary(
                    id=existing.id,
                    capsule_id=summary.capsule_id,
                    content=summary.content,
                    confidence=summary.confidence,
                    created_at=summary.created_at,
                    evidence_refs=summary.evidence_refs,
                )
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, self.path) from exc

    def get_summary(self, summary_id: str) -> Summary | None:
        return self.get_summaries([summary_id]).get(summary_id)

    def get_summaries(self, ids: Sequence[str]) -> dict[str, Summary]:
        found: dict[str, Summary] = {}
        for chunk in iter_chunks(list(ids)):
            marks = ",".join("?" * len(chunk))
            for row in self._read(
                f"SELECT {SUMMARY_COLUMNS} FROM summaries s WHERE s.id IN ({marks})", chunk
            ):
                found[row[0]] = summary_row(row)
        return found

    def summary_for_capsule(self, capsule_id: str) -> Summary | None:
        rows = self._read(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries s WHERE s.capsule_id = ?", (capsule_id,)
        )
        return summary_row(rows[0]) if rows else None

    def list_summaries(self, *, scope: Scope, limit: int) -> list[Summary]:
        where, params = scope_where(scope, "c")
        rows = self._read(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries s JOIN capsules c ON c.id = s.capsule_id"
            f" WHERE {where} ORDER BY s.created_at DESC, s.id LIMIT ?",
            [*params, limit],
        )
        return [summary_row(r) for r in rows]

    # ------------------------------------------------------------------ pins

    def insert_pin(self, pin: Pin) -> None:
        self._write(
            "INSERT INTO pins (id, target_type, target_id, reason, created_at, expires_at,"
            " scope_ids, session_id, repo_id, agent_id, user_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                pin.id,
                pin.target_type,
                pin.target_id,
                pin.reason,
                pin.created_at,
                pin.expires_at,
                scope_json(pin.scope),
                *scope_values(pin.scope),
            ),
        )

    def get_pin(self, pin_id: str) -> Pin | None:
        rows = self._read(f"SELECT {PIN_COLUMNS} FROM pins p WHERE p.id = ?", (pin_id,))
        return pin_row(rows[0]) if rows else None

    def delete_pin(self, pin_id: str) -> bool:
        return self._write("DELETE FROM pins WHERE id = ?", (pin_id,)).rowcount > 0

    def list_pins(self, *, scope: Scope, active_at: int | None, limit: int) -> list[Pin]:
        where, params = scope_where(scope, "p")
        if active_at is not None:
            where += " AND (p.expires_at IS NULL OR p.expires_at > ?)"
            params.append(active_at)
        rows = self._read(
            f"SELECT {PIN_COLUMNS} FROM pins p WHERE {where}"
            " ORDER BY p.created_at DESC, p.id ASC LIMIT ?",
            [*params, limit],
        )
        return [pin_row(r) for r in rows]

    def pins_for_target(self, target_type: TargetType, target_id: str) -> list[Pin]:
        rows = self._read(
            f"SELECT {PIN_COLUMNS} FROM pins p WHERE p.target_type = ? AND p.target_id = ?"
            " ORDER BY p.created_at DESC, p.id",
            (target_type, target_id),
        )
        return [pin_row(r) for r in rows]

    # ------------------------------------------------------------------ search

    def newest_ts(self, scope: Scope) -> int | None:
        obs_where, obs_params = scope_where(scope, "o")
        sum_where, sum_params = scope_where(scope, "c")
        row = self._read(  # two rows and one MAX: SQLite's MAX(a, b) is NULL if either is
            f"SELECT MAX(t) FROM (SELECT MAX(ts) t FROM observations o WHERE {obs_where} UNION"
            f" ALL SELECT MAX(created_at) FROM summaries s JOIN capsules c ON c.id = capsule_id"
            f" WHERE {sum_where})",
            [*obs_params, *sum_params],
        )[0]
        return None if row[0] is None else int(row[0])

    def stats(self) -> StoreStats:
        by_kind = dict(self._read("SELECT kind, COUNT(*) FROM observations GROUP BY kind"))
        redacted = self._read("SELECT COUNT(*) FROM observations WHERE redacted = 1")[0][0]
        by_status = dict(self._read("SELECT status, COUNT(*) FROM capsules GROUP BY status"))
        summaries = self._read("SELECT COUNT(*) FROM summaries")[0][0]
        pins = self._read("SELECT COUNT(*) FROM pins")[0][0]
        return StoreStats(by_kind, redacted, by_status, summaries, pins, self.schema_version())

    def export_entities(self, scope: Scope, *, include_redacted: bool) -> Dataset:
        """Everything in scope, oldest first (ties by id), as the bundle format orders it."""
        from kindling.store.sqlite_export import export_dataset

        return export_dataset(self, scope, include_redacted=include_redacted)
