"""Text search of the PostgreSQL store: the weighted ``tsvector`` index and the search verbs.

Each observation's document has three weights, the SQLite index's context fields:
A its own content plus identifier parts (``validateToken`` -> ``validate token``), B an excerpt
of its previous and next observation in the same capsule (else the same session), C its
capsule's intent. ``ts_rank_cd`` with weights A=1, B=C=0.5 ranks; the store reports
``bm25 = -rank * RANK_SCALE`` (lower is better, as FTS5's bm25) so that scoring sees numbers of
the same sign and a similar size on both backends. Documents are normalised in Python to runs
of letters and digits before PostgreSQL parses them (its parser would read ``src/a.ts`` as one
file-name token), the same runs the query side uses (``tsquery``).

Writes keep the index current in the writing transaction: an insert re-indexes the new row and
its neighbours, a forget clears the row's vector and re-indexes its neighbours.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kindling.model import SCOPE_FIELDS, Scope
from kindling.store.base import ObservationMatch, SummaryMatch
from kindling.store.postgres.connection import scope_where
from kindling.store.postgres.tsquery import tsquery_text
from kindling.store.rows import (
    OBS_COLUMNS,
    SUMMARY_COLUMNS,
    observation_row,
    row_scope,
    summary_row,
)

if TYPE_CHECKING:
    from kindling.store.fts import QueryPlan

# ts_rank_cd of one matching word is about 0.1; FTS5's bm25 of a good match is a few units.
RANK_SCALE = 20.0
# Weights of ts_rank_cd, in its order {D, C, B, A}: own text 1, neighbours and intent 0.5.
RANK_WEIGHTS = "{0.0, 0.5, 0.5, 1.0}"
NEIGHBOUR_EXCERPT_CHARS = 200
CONFIG = "english"

_RUN = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def document_text(text: str) -> str:
    """Runs of letters and digits, then the parts of every camelCase run."""
    runs = _RUN.findall(text)
    parts = [p for r in runs if len(split := _CAMEL.split(r)) > 1 for p in split]
    return " ".join(runs + parts)


_VECTOR = (
    f"setweight(to_tsvector('{CONFIG}', %s), 'A')"
    f" || setweight(to_tsvector('{CONFIG}', %s), 'B')"
    f" || setweight(to_tsvector('{CONFIG}', %s), 'C')"
)


class PgSearchMixin:
    """Index maintenance and ``search_*`` / ``newest_ts`` for ``PostgresStore``."""

    if TYPE_CHECKING:

        def _exec(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    # ------------------------------------------------------------------ index

    def _neighbours(self, obs_id: str) -> tuple[list[tuple[str, str, bool]], str]:
        """(previous and next observation as (id, content, redacted), capsule intent)."""
        caps = self._read(
            "SELECT co.capsule_id, co.seq, c.intent FROM capsule_observations co"
            " JOIN capsules c ON c.id = co.capsule_id WHERE co.observation_id = %s"
            " ORDER BY c.id LIMIT 1",
            (obs_id,),
        )
        if caps:
            capsule_id, seq, intent = caps[0]
            rows = self._read(
                "(SELECT o.id, o.content, o.redacted FROM capsule_observations co"
                " JOIN observations o ON o.id = co.observation_id"
                " WHERE co.capsule_id = %s AND co.seq < %s ORDER BY co.seq DESC LIMIT 1)"
                " UNION ALL (SELECT o.id, o.content, o.redacted FROM capsule_observations co"
                " JOIN observations o ON o.id = co.observation_id"
                " WHERE co.capsule_id = %s AND co.seq > %s ORDER BY co.seq LIMIT 1)",
                (capsule_id, seq, capsule_id, seq),
            )
            return [tuple(r) for r in rows], str(intent)
        rows = self._read(
            "WITH me AS (SELECT session_id, ts, id FROM observations WHERE id = %s"
            " AND session_id IS NOT NULL)"
            " (SELECT o.id, o.content, o.redacted FROM observations o, me"
            " WHERE o.session_id = me.session_id AND (o.ts, o.id) < (me.ts, me.id)"
            " ORDER BY o.ts DESC, o.id DESC LIMIT 1) UNION ALL"
            " (SELECT o.id, o.content, o.redacted FROM observations o, me"
            " WHERE o.session_id = me.session_id AND (o.ts, o.id) > (me.ts, me.id)"
            " ORDER BY o.ts, o.id LIMIT 1)",
            (obs_id,),
        )
        return [tuple(r) for r in rows], ""

    def _index_observation(self, obs_id: str) -> list[str]:
        """Rebuild one observation's document; returns its neighbours' ids."""
        own = self._read("SELECT content, redacted FROM observations WHERE id = %s", (obs_id,))
        if not own:
            return []
        neighbours, intent = self._neighbours(obs_id)
        if own[0][1]:
            self._exec("UPDATE observations SET search = NULL WHERE id = %s", (obs_id,))
        else:
            context = " ".join(
                document_text(content[:NEIGHBOUR_EXCERPT_CHARS])
                for _, content, redacted in neighbours
                if not redacted
            )
            self._exec(
                f"UPDATE observations SET search = {_VECTOR} WHERE id = %s",
                (document_text(own[0][0]), context, document_text(intent), obs_id),
            )
        return [n[0] for n in neighbours]

    def _index_observation_and_neighbours(self, obs_id: str) -> None:
        for other in self._index_observation(obs_id):
            self._index_observation(other)

    def _index_summary(self, summary_id: str) -> None:
        self._exec(
            f"UPDATE summaries SET search = setweight(to_tsvector('{CONFIG}', %s), 'A')"
            " WHERE id = %s",
            (
                document_text(
                    self._read("SELECT content FROM summaries WHERE id = %s", (summary_id,))[0][0]
                ),
                summary_id,
            ),
        )

    # ------------------------------------------------------------------ search

    def search_observations(
        self,
        plan: QueryPlan | None,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        include_redacted: bool,
        limit: int,
    ) -> list[ObservationMatch]:
        where, params = scope_where(scope, "o")
        if exclude_ids:
            where += " AND o.id <> ALL(%s)"
            params.append(list(exclude_ids))
        if not include_redacted:
            where += " AND NOT o.redacted"
        query = _plan_query(plan)
        if plan is None or query is None:
            if plan is not None:
                return []  # nothing searchable left (only negations or punctuation)
            rows = self._read(
                f"SELECT {OBS_COLUMNS}, o.rowid FROM observations o WHERE {where}"
                " ORDER BY o.ts DESC, o.id ASC LIMIT %s",
                [*params, limit],
            )
            return [ObservationMatch(observation_row(r), 0.0, int(r[10]), False) for r in rows]
        rows = self._read(
            f"SELECT {OBS_COLUMNS}, o.rowid, ts_rank_cd(%s, o.search, q) AS r,"
            " NOT (ts_filter(o.search, '{a}') @@ q)"
            f" FROM observations o, to_tsquery('{CONFIG}', %s) q"
            f" WHERE o.search @@ q AND {where} ORDER BY r DESC, o.ts DESC, o.id ASC LIMIT %s",
            [RANK_WEIGHTS, query, *params, limit],
        )
        return [
            ObservationMatch(observation_row(r), -float(r[11]) * RANK_SCALE, int(r[10]), r[12])
            for r in rows
        ]

    def search_summaries(
        self,
        plan: QueryPlan | None,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        limit: int,
    ) -> list[SummaryMatch]:
        where, params = scope_where(scope, "c")
        if exclude_ids:
            where += " AND s.id <> ALL(%s)"
            params.append(list(exclude_ids))
        columns = (
            f"{SUMMARY_COLUMNS}, c.intent, "
            + ", ".join(f"c.{col}" for col, _ in SCOPE_FIELDS)
            + ", s.rowid"
        )
        query = _plan_query(plan)
        if plan is None or query is None:
            if plan is not None:
                return []
            rows = self._read(
                f"SELECT {columns}, 0.0 FROM summaries s JOIN capsules c ON c.id = s.capsule_id"
                f" WHERE {where} ORDER BY s.created_at DESC, s.id ASC LIMIT %s",
                [*params, limit],
            )
        else:
            rows = self._read(
                f"SELECT {columns}, ts_rank_cd(%s, s.search, q) AS r"
                f" FROM summaries s JOIN capsules c ON c.id = s.capsule_id,"
                f" to_tsquery('{CONFIG}', %s) q WHERE s.search @@ q AND {where}"
                " ORDER BY r DESC, s.created_at DESC, s.id ASC LIMIT %s",
                [RANK_WEIGHTS, query, *params, limit],
            )
        return [
            SummaryMatch(
                summary=summary_row(r),
                bm25=-float(r[12]) * RANK_SCALE,
                rowid=int(r[11]),
                scope=row_scope(r, 7),
                intent=r[6],
            )
            for r in rows
        ]

    def newest_ts(self, scope: Scope) -> int | None:
        where, params = scope_where(scope, "o")
        row = self._read(f"SELECT MAX(o.ts) FROM observations o WHERE {where}", params)[0]
        return None if row[0] is None else int(row[0])


def _plan_query(plan: QueryPlan | None) -> str | None:
    if plan is None:
        return None
    return tsquery_text(plan.terms, getattr(plan, "phrases", ()), getattr(plan, "negated", ()))
