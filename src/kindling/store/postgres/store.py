"""PostgreSQL backend of the ``Store`` protocol: the same verbs and meaning as ``SqliteStore``.

Connection, transactions and migrations live in ``connection.PgConnection``; observation
writes and their search documents in ``observations``; text search in ``search``; structured
summaries in ``details``; API tokens in ``tokens``.
Row shapes are the SQLite store's (``store.rows``), so both backends build the same values.

Concurrency: appends to one capsule lock the capsule row, so sequence numbers never collide;
a unique partial index keeps one open session capsule per session even when two writers race
(the loser gets ``ConflictError``).

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

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
from kindling.store.base import CapsuleRef, Dataset, StoreStats
from kindling.store.postgres.connection import PgConnection
from kindling.store.postgres.details import PgSummaryDetailsMixin
from kindling.store.postgres.forget import PgForgetMixin
from kindling.store.postgres.observations import PgObservationsMixin
from kindling.store.postgres.scopes import scope_where
from kindling.store.postgres.search import PgSearchMixin
from kindling.store.postgres.tokens import PgTokensMixin
from kindling.store.postgres.vectors import PgVectorsMixin
from kindling.store.rows import (
    CAPSULE_COLUMNS,
    CAPSULE_REF_COLUMNS,
    OBS_COLUMNS,
    PIN_COLUMNS,
    SUMMARY_COLUMNS,
    observation_row,
    pin_row,
    row_scope,
    scope_json,
    scope_values,
    summary_row,
)


class PostgresStore(
    PgObservationsMixin,
    PgSearchMixin,
    PgSummaryDetailsMixin,
    PgForgetMixin,
    PgTokensMixin,
    PgVectorsMixin,
    PgConnection,
):
    """A shared store on a PostgreSQL server; thread-safe (one pooled connection per
    transaction)."""

    backend = "postgresql"
    thread_safe = True  # one pooled connection per transaction and thread

    # ------------------------------------------------------------------ observations

    def get_observations(self, ids: Sequence[str]) -> dict[str, Observation]:
        if not ids:
            return {}
        rows = self.read(
            f"SELECT {OBS_COLUMNS} FROM observations o WHERE o.id = ANY(%s)", (list(ids),)
        )
        return {r[0]: observation_row(r) for r in rows}

    def list_observations(
        self,
        *,
        kind: ObservationKind | None,
        scope: Scope,
        capsule_id: str | None,
        limit: int,
        before: tuple[int, str] | None = None,
    ) -> list[Observation]:
        where, params = scope_where(scope, "o")
        if before is not None and capsule_id is None:  # keyset: the index range on ts
            where += " AND o.ts <= %s AND (o.ts < %s OR o.id > %s)"
            params.extend([before[0], before[0], before[1]])
        if kind is not None:
            where += " AND o.kind = %s"
            params.append(kind)
        if capsule_id is not None:
            rows = self.read(
                f"SELECT {OBS_COLUMNS} FROM capsule_observations co"
                " JOIN observations o ON o.id = co.observation_id"
                f" WHERE co.capsule_id = %s AND {where} ORDER BY co.seq LIMIT %s",
                [capsule_id, *params, limit],
            )
        else:
            rows = self.read(
                f"SELECT {OBS_COLUMNS} FROM observations o WHERE {where}"
                " ORDER BY o.ts DESC, o.id ASC LIMIT %s",
                [*params, limit],
            )
        return [observation_row(r) for r in rows]

    def capsule_intents_of(self, obs_ids: Sequence[str]) -> dict[str, str]:
        """observation id -> intent of the capsule it belongs to (the first, by id)."""
        if not obs_ids:
            return {}
        rows = self.read(
            "SELECT DISTINCT ON (co.observation_id) co.observation_id, c.intent"
            " FROM capsule_observations co JOIN capsules c ON c.id = co.capsule_id"
            " WHERE co.observation_id = ANY(%s) ORDER BY co.observation_id, c.id",
            (list(obs_ids),),
        )
        return {r[0]: r[1] for r in rows}

    def capsules_of(self, obs_id: str) -> list[str]:
        rows = self.read(
            "SELECT co.capsule_id FROM capsule_observations co"
            " JOIN capsules c ON c.id = co.capsule_id"
            " WHERE co.observation_id = %s ORDER BY c.opened_at, c.id",
            (obs_id,),
        )
        return [r[0] for r in rows]

    # ------------------------------------------------------------------ capsules

    def insert_capsule(self, capsule: Capsule) -> None:
        self.write(
            "INSERT INTO capsules (id, type, intent, status, opened_at, closed_at, scope_ids,"
            " session_id, repo_id, agent_id, user_id)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
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
        rows = self.read(
            f"SELECT {CAPSULE_COLUMNS}, (SELECT s.id FROM summaries s"
            " WHERE s.capsule_id = c.id), ARRAY(SELECT co.observation_id FROM"
            " capsule_observations co WHERE co.capsule_id = c.id ORDER BY co.seq)"
            f" FROM capsules c WHERE {where} {tail}",
            params,
        )
        return [
            Capsule(
                id=row[0],
                type=row[1],
                intent=row[2],
                status=row[3],
                opened_at=row[4],
                closed_at=row[5],
                scope=row_scope(row, 6),
                observation_ids=tuple(row[11]),
                summary_id=row[10],
            )
            for row in rows
        ]

    def get_capsule(self, capsule_id: str) -> Capsule | None:
        found = self._capsules("c.id = %s", (capsule_id,))
        return found[0] if found else None

    def capsule_ref(self, capsule_id: str) -> CapsuleRef | None:
        rows = self.read(
            f"SELECT {CAPSULE_REF_COLUMNS} FROM capsules c WHERE c.id = %s", (capsule_id,)
        )
        return CapsuleRef(rows[0][0], rows[0][1], row_scope(rows[0], 2)) if rows else None

    def find_open_capsule(self, scope: Scope, *, session_id: str | None) -> CapsuleRef | None:
        where, params = scope_where(scope, "c")
        if session_id is not None:
            where += " AND c.session_id = %s AND c.type = 'session'"
            params.append(session_id)
        rows = self.read(
            f"SELECT {CAPSULE_REF_COLUMNS} FROM capsules c WHERE c.status = 'open' AND {where}"
            " ORDER BY c.opened_at DESC, c.id LIMIT 1",
            params,
        )
        return CapsuleRef(rows[0][0], rows[0][1], row_scope(rows[0], 2)) if rows else None

    def set_capsule_closed(self, capsule_id: str, closed_at: int) -> None:
        self.write(
            "UPDATE capsules SET status = 'closed', closed_at = %s WHERE id = %s",
            (closed_at, capsule_id),
        )

    def list_capsules(
        self, *, status: CapsuleStatus | None, scope: Scope, limit: int
    ) -> list[Capsule]:
        where, params = scope_where(scope, "c")
        if status is not None:
            where += " AND c.status = %s"
            params.append(status)
        return self._capsules(where, [*params, limit], "ORDER BY c.opened_at DESC, c.id LIMIT %s")

    # ------------------------------------------------------------------ summaries

    def upsert_summary(self, summary: Summary) -> Summary:
        refs = json.dumps(list(summary.evidence_refs))
        with self.transaction():
            # Lock the capsule: two writers setting one capsule's summary must not both insert.
            self.read("SELECT 1 FROM capsules WHERE id = %s FOR UPDATE", (summary.capsule_id,))
            existing = self.summary_for_capsule(summary.capsule_id)
            if existing is None:
                self.write(
                    "INSERT INTO summaries (id, capsule_id, content, confidence, created_at,"
                    " evidence_refs) VALUES (%s, %s, %s, %s, %s, %s)",
                    (
                        summary.id,
                        summary.capsule_id,
                        summary.content,
                        summary.confidence,
                        summary.created_at,
                        refs,
                    ),
                )
                self.index_summary(summary.id)
                return summary
            self.write(
                "UPDATE summaries SET content = %s, confidence = %s, created_at = %s,"
                " evidence_refs = %s WHERE id = %s",
                (summary.content, summary.confidence, summary.created_at, refs, existing.id),
            )
            self.index_summary(existing.id)
            return replace(summary, id=existing.id)

    def get_summary(self, summary_id: str) -> Summary | None:
        return self.get_summaries([summary_id]).get(summary_id)

    def get_summaries(self, ids: Sequence[str]) -> dict[str, Summary]:
        if not ids:
            return {}
        rows = self.read(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries s WHERE s.id = ANY(%s)", (list(ids),)
        )
        return {r[0]: summary_row(r) for r in rows}

    def summary_for_capsule(self, capsule_id: str) -> Summary | None:
        rows = self.read(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries s WHERE s.capsule_id = %s", (capsule_id,)
        )
        return summary_row(rows[0]) if rows else None

    def list_summaries(self, *, scope: Scope, limit: int) -> list[Summary]:
        where, params = scope_where(scope, "c")
        rows = self.read(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries s JOIN capsules c ON c.id = s.capsule_id"
            f" WHERE {where} ORDER BY s.created_at DESC, s.id LIMIT %s",
            [*params, limit],
        )
        return [summary_row(r) for r in rows]

    # ------------------------------------------------------------------ pins

    def insert_pin(self, pin: Pin) -> None:
        self.write(
            "INSERT INTO pins (id, target_type, target_id, reason, created_at, expires_at,"
            " scope_ids, session_id, repo_id, agent_id, user_id)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
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
        rows = self.read(f"SELECT {PIN_COLUMNS} FROM pins p WHERE p.id = %s", (pin_id,))
        return pin_row(rows[0]) if rows else None

    def delete_pin(self, pin_id: str) -> bool:
        return self.write("DELETE FROM pins WHERE id = %s", (pin_id,)) > 0

    def list_pins(self, *, scope: Scope, active_at: int | None, limit: int) -> list[Pin]:
        where, params = scope_where(scope, "p")
        if active_at is not None:
            where += " AND (p.expires_at IS NULL OR p.expires_at > %s)"
            params.append(active_at)
        rows = self.read(
            f"SELECT {PIN_COLUMNS} FROM pins p WHERE {where}"
            " ORDER BY p.created_at DESC, p.id ASC LIMIT %s",
            [*params, limit],
        )
        return [pin_row(r) for r in rows]

    def pins_for_target(self, target_type: TargetType, target_id: str) -> list[Pin]:
        rows = self.read(
            f"SELECT {PIN_COLUMNS} FROM pins p WHERE p.target_type = %s AND p.target_id = %s"
            " ORDER BY p.created_at DESC, p.id",
            (target_type, target_id),
        )
        return [pin_row(r) for r in rows]

    # ------------------------------------------------------------------ whole-store reads

    def stats(self) -> StoreStats:
        by_kind = dict(self.read("SELECT kind, COUNT(*) FROM observations GROUP BY kind"))
        redacted = self.read("SELECT COUNT(*) FROM observations WHERE redacted")[0][0]
        by_status = dict(self.read("SELECT status, COUNT(*) FROM capsules GROUP BY status"))
        summaries = self.read("SELECT COUNT(*) FROM summaries")[0][0]
        pins = self.read("SELECT COUNT(*) FROM pins")[0][0]
        return StoreStats(
            {k: int(v) for k, v in by_kind.items()},
            int(redacted),
            {k: int(v) for k, v in by_status.items()},
            int(summaries),
            int(pins),
            self.schema_version(),
        )

    def export_entities(self, scope: Scope, *, include_redacted: bool) -> Dataset:
        """Everything in scope, oldest first (ties by id), as ``SqliteStore`` exports it."""
        where, params = scope_where(scope, "o")
        if not include_redacted:
            where += " AND NOT o.redacted"
        observations = [
            observation_row(r)
            for r in self.read(
                f"SELECT {OBS_COLUMNS} FROM observations o WHERE {where}"
                " ORDER BY o.ts ASC, o.id ASC",
                params,
            )
        ]
        kept = {o.id for o in observations}
        cwhere, cparams = scope_where(scope, "c")
        capsules = [
            replace(c, observation_ids=tuple(i for i in c.observation_ids if i in kept))
            for c in self._capsules(cwhere, cparams, "ORDER BY c.opened_at ASC, c.id ASC")
        ]
        summaries = [
            summary_row(r)
            for r in self.read(
                f"SELECT {SUMMARY_COLUMNS} FROM summaries s JOIN capsules c"
                f" ON c.id = s.capsule_id WHERE {cwhere} ORDER BY s.created_at ASC, s.id ASC",
                cparams,
            )
        ]
        pwhere, pparams = scope_where(scope, "p")
        if not include_redacted:
            pwhere += (
                " AND NOT (p.target_type = 'observation' AND p.target_id IN"
                " (SELECT id FROM observations WHERE redacted))"
            )
        pins = [
            pin_row(r)
            for r in self.read(
                f"SELECT {PIN_COLUMNS} FROM pins p WHERE {pwhere}"
                " ORDER BY p.created_at ASC, p.id ASC",
                pparams,
            )
        ]
        return Dataset(observations, capsules, summaries, pins)
