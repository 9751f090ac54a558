"""The vector verbs of ``PostgresStore`` (``store.vectors.VectorStore``), the same meaning as
``store.sqlite.vectors``: tables ``observation_vectors`` and ``summary_vectors`` (migration 10),
emptied with the text by the schema's foreign keys and triggers.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from kindling.model import REDACTED
from kindling.store.vectors import Coverage, Unembedded, VectorRow, VectorTarget

_TABLES: dict[str, tuple[str, str, str, str, str]] = {
    "observation": (
        "observation_vectors",
        "observation_id",
        "observations",
        "ts",
        "redacted = FALSE",
    ),
    "summary": ("summary_vectors", "summary_id", "summaries", "created_at", "content <> %s"),
}


def _live_params(target: str) -> tuple[str, ...]:
    return (REDACTED,) if target == "summary" else ()


class PgVectorsMixin:
    """``VectorStore`` verbs for ``PostgresStore``."""

    if TYPE_CHECKING:

        def write(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
        def transaction(self) -> AbstractContextManager[None]: ...

    def vectors_of(
        self, model: str, target_type: VectorTarget, ids: Sequence[str]
    ) -> dict[str, bytes]:
        table, key, *_ = _TABLES[target_type]
        if not ids:
            return {}
        rows = self.read(
            f"SELECT {key}, vector FROM {table} WHERE model = %s AND {key} = ANY(%s)",
            (model, list(dict.fromkeys(ids))),
        )
        return {r[0]: bytes(r[1]) for r in rows}

    def put_vectors(self, model: str, rows: Sequence[VectorRow]) -> int:
        stored = 0
        with self.transaction():
            for row in rows:
                table, key, parent, _, live = _TABLES[row.target_type]
                stored += self.write(
                    f"INSERT INTO {table} ({key}, model, vector)"
                    f" SELECT id, %s, %s FROM {parent} WHERE id = %s AND {live}"
                    f" ON CONFLICT ({key}) DO UPDATE SET model = EXCLUDED.model,"
                    " vector = EXCLUDED.vector",
                    (model, row.vector, row.id, *_live_params(row.target_type)),
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
        after = "" if before is None else f" AND (p.{ts}, p.id) < (%s, %s)"
        rows = self.read(
            f"SELECT p.id, p.{ts}, p.content FROM {parent} p WHERE p.{live}{after}"
            f" AND NOT EXISTS (SELECT 1 FROM {table} v WHERE v.{key} = p.id AND v.model = %s)"
            f" ORDER BY p.{ts} DESC, p.id DESC LIMIT %s",
            (*_live_params(target_type), *(before or ()), model, limit),
        )
        return [Unembedded(target_type, r[0], int(r[1]), r[2]) for r in rows]

    def vector_coverage(self, model: str) -> Coverage:
        obs = self.read("SELECT COUNT(*) FROM observations WHERE NOT redacted")[0][0]
        obs_v = self.read("SELECT COUNT(*) FROM observation_vectors WHERE model = %s", (model,))[0][
            0
        ]
        sums = self.read("SELECT COUNT(*) FROM summaries WHERE content <> %s", (REDACTED,))[0][0]
        sums_v = self.read("SELECT COUNT(*) FROM summary_vectors WHERE model = %s", (model,))[0][0]
        return Coverage(model, int(obs), int(obs_v), int(sums), int(sums_v))

    def has_vectors(self, model: str) -> bool:
        return bool(
            self.read(
                "SELECT EXISTS (SELECT 1 FROM observation_vectors WHERE model = %s)"
                " OR EXISTS (SELECT 1 FROM summary_vectors WHERE model = %s)",
                (model, model),
            )[0][0]
        )

    def vector_models(self) -> dict[str, int]:
        rows = self.read(
            "SELECT model, SUM(n) FROM (SELECT model, COUNT(*) AS n FROM observation_vectors"
            " GROUP BY model UNION ALL SELECT model, COUNT(*) FROM summary_vectors"
            " GROUP BY model) m GROUP BY model ORDER BY model"
        )
        return {r[0]: int(r[1]) for r in rows}
