"""The vector verbs (``store.vectors.VectorStore``), written once over the dialect: the optional
semantic signal's vectors, in ``observation_vectors`` and ``summary_vectors`` (SQLite migration
14, PostgreSQL migration 10), emptied with the text by the schema's foreign keys and triggers.

A vector is only written for a row that still holds its text: the insert selects from the row
itself, so a row forgotten between the indexer's read and its write gets none.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence

from kindling.model import REDACTED, Scope
from kindling.store.rows import scope_where
from kindling.store.sql.dialect import UsesDatabase, read_by_ids
from kindling.store.vectors import Coverage, ScopedVector, Unembedded, VectorRow, VectorTarget

# table, key column, the parent table, its time column, and what "still holds its text" means
_TABLES: dict[str, tuple[str, str, str, str, str]] = {
    "observation": (
        "observation_vectors",
        "observation_id",
        "observations",
        "ts",
        "redacted = FALSE",
    ),
    "summary": ("summary_vectors", "summary_id", "summaries", "created_at", "content <> ?"),
}


def _live_params(target: str) -> tuple[str, ...]:
    return (REDACTED,) if target == "summary" else ()


class VectorsMixin(UsesDatabase):
    """``VectorStore`` verbs for every SQL backend."""

    def vectors_of(
        self, model: str, target_type: VectorTarget, ids: Sequence[str]
    ) -> dict[str, bytes]:
        table, key, *_ = _TABLES[target_type]
        select = f"SELECT {key}, vector, model FROM {table}"  # one vector a row: its model or none
        rows = read_by_ids(self.db, select, key, list(dict.fromkeys(ids)))
        return {r[0]: bytes(r[1]) for r in rows if r[2] == model}

    def put_vectors(self, model: str, rows: Sequence[VectorRow]) -> int:
        stored = 0
        with self.db.transaction():
            for row in rows:
                table, key, parent, _, live = _TABLES[row.target_type]
                stored += max(
                    self.db.write(
                        f"INSERT INTO {table} ({key}, model, vector)"
                        f" SELECT id, ?, ? FROM {parent} WHERE id = ? AND {live}"
                        f" ON CONFLICT ({key}) DO UPDATE SET model = excluded.model,"
                        " vector = excluded.vector",
                        (model, row.vector, row.id, *_live_params(row.target_type)),
                    ),
                    0,
                )
        return stored

    def unembedded(
        self,
        model: str,
        target_type: VectorTarget,
        *,
        limit: int,
        before: tuple[int, str] | None = None,
    ) -> list[Unembedded]:
        table, key, parent, ts, live = _TABLES[target_type]
        after = "" if before is None else f" AND (p.{ts}, p.id) < (?, ?)"
        rows = self.db.read(
            f"SELECT p.id, p.{ts}, p.content FROM {parent} p WHERE p.{live}{after}"
            f" AND NOT EXISTS (SELECT 1 FROM {table} v WHERE v.{key} = p.id AND v.model = ?)"
            f" ORDER BY p.{ts} DESC, p.id DESC LIMIT ?",
            (*_live_params(target_type), *(before or ()), model, limit),
        )
        return [Unembedded(target_type, r[0], int(r[1]), r[2]) for r in rows]

    def scope_vectors(
        self,
        model: str,
        scope: Scope,
        *,
        until: int | None = None,
        exclude_ids: Sequence[str] = (),
    ) -> list[ScopedVector]:
        out: list[ScopedVector] = []
        dialect = self.db.dialect
        for target, sql, alias, key, ts in (
            (
                "observation",
                "SELECT o.id, o.session_id, o.ts, v.vector FROM observations o JOIN"
                " observation_vectors v ON v.observation_id = o.id WHERE v.model = ? AND"
                f" {dialect.is_false('o.redacted')}",
                "o",
                "o.id",
                "o.ts",
            ),
            (
                "summary",
                "SELECT s.id, c.session_id, s.created_at, v.vector FROM summaries s JOIN capsules c"
                " ON c.id = s.capsule_id JOIN summary_vectors v ON v.summary_id = s.id"
                " WHERE v.model = ?",
                "c",
                "s.id",
                "s.created_at",
            ),
        ):
            where, params = scope_where(scope, alias)
            sql += f" AND {where}"
            if until is not None:
                sql += f" AND {ts} <= ?"
                params.append(until)
            excluded, excluded_params = dialect.not_in_ids(key, exclude_ids)
            if excluded:
                sql += f" AND {excluded}"
                params += excluded_params
            rows = self.db.read(sql + " ORDER BY 1", (model, *params))
            kind: VectorTarget = "observation" if target == "observation" else "summary"
            out += [ScopedVector(kind, r[0], r[1] or None, int(r[2]), bytes(r[3])) for r in rows]
        return out

    def vectors_version(self) -> object | None:
        return None  # a backend that can tell cheaply says so (SQLite)

    def vector_coverage(self, model: str) -> Coverage:
        read = self.db.read
        obs = read("SELECT COUNT(*) FROM observations WHERE redacted = FALSE")[0][0]
        obs_v = read("SELECT COUNT(*) FROM observation_vectors WHERE model = ?", (model,))[0][0]
        sums = read("SELECT COUNT(*) FROM summaries WHERE content <> ?", (REDACTED,))[0][0]
        sums_v = read("SELECT COUNT(*) FROM summary_vectors WHERE model = ?", (model,))[0][0]
        return Coverage(model, int(obs), int(obs_v), int(sums), int(sums_v))

    def has_vectors(self, model: str) -> bool:
        return bool(
            self.db.read(
                "SELECT EXISTS (SELECT 1 FROM observation_vectors WHERE model = ?)"
                " OR EXISTS (SELECT 1 FROM summary_vectors WHERE model = ?)",
                (model, model),
            )[0][0]
        )

    def vector_models(self) -> dict[str, int]:
        rows = self.db.read(
            "SELECT model, SUM(n) FROM (SELECT model, COUNT(*) AS n FROM observation_vectors"
            " GROUP BY model UNION ALL SELECT model, COUNT(*) FROM summary_vectors"
            " GROUP BY model) m GROUP BY model ORDER BY model"
        )
        return {r[0]: int(r[1]) for r in rows}
