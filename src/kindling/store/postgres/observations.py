"""Observation writes of ``PostgresStore``: set-based inserts, capsule links, forgetting, and
keeping each observation's search document current in the writing transaction.

A document (see ``store.postgres.search``) has three weighted parts: A the observation's own
text plus its searchable parts (identifier parts, Han/Kana/Hangul/Thai bigrams), B an excerpt
of the previous observation of its session (by time, then insertion order), C the intent of the
capsule it was first linked to (B and C with their bigrams too, ``documents.with_segments``);
and, unweighted, one token per scope dimension (``scope_vector_sql``), which scoped searches
match. So a write re-indexes the rows it touched
and their session successors (whose neighbour they now are): an insert indexes the new rows and
the rows that follow them; a forget clears the row's vector and re-indexes its successor, so
the forgotten text leaves every document.

Inserts are set-based whatever the batch size: one ``COPY`` of the rows, one statement for
the capsule links (sequence numbers continue each capsule's, in batch order), one read of
what the documents need and one ``UPDATE`` writing them.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from kindling.model import SCOPE_FIELDS, Observation, Scope
from kindling.store.documents import (
    context_excerpt,
    searchable_parts,
    summary_document,
    with_segments,
)
from kindling.store.postgres.scopes import scope_where
from kindling.store.rows import LAST_ROWID, observation_row, observation_values, steps_sql

CONFIG = "kindling"  # english stemming, no stop words (migration 4)

_RUN = re.compile(r"[^\W_]+")


def document_text(text: str) -> str:
    """The runs of letters and digits of ``text``, space separated (what gets parsed)."""
    return " ".join(_RUN.findall(text))


def document_parts(content: str, previous: str, intent: str) -> tuple[str, str, str]:
    """The texts parsed into weights A, B and C of an observation's document."""
    own = document_text(f"{content}\n{searchable_parts(content)}")
    context = document_text(with_segments(context_excerpt(previous)))
    return own, context, document_text(with_segments(intent))


def summary_text(content: str) -> str:
    """What a summary's document (weight A) is parsed from: its text and segments."""
    return document_text(summary_document(content))


# Writes one summary's document: parameters ``(summary_text(content), id)``.
SUMMARY_UPDATE = (
    f"UPDATE summaries SET search = setweight(to_tsvector('{CONFIG}', %s), 'A') WHERE id = %s"
)


def vector_sql(a: str, b: str, c: str) -> str:
    """SQL of the weighted ``tsvector`` built from the expressions ``a``, ``b``, ``c``."""
    return (
        f"setweight(to_tsvector('{CONFIG}', {a}), 'A')"
        f" || setweight(to_tsvector('{CONFIG}', {b}), 'B')"
        f" || setweight(to_tsvector('{CONFIG}', {c}), 'C')"
    )


def scope_vector_sql(prefix: str) -> str:
    """SQL of the scope tokens of a row whose scope columns are ``{prefix}session_id`` ...
    (migration 6's ``kindling_scope_vector``)."""
    return f"kindling_scope_vector({', '.join(prefix + name for name, _ in SCOPE_FIELDS)})"


# What the documents of some observations are built from: (id, content, redacted, the
# neighbour's content, the capsule intent); add a WHERE on ``o``.
DOCUMENT_SOURCES = (
    "SELECT o.id, o.content, o.redacted,"
    " (SELECT CASE WHEN p.redacted THEN '' ELSE p.content END FROM observations p"
    "   WHERE o.session_id IS NOT NULL AND p.session_id = o.session_id"
    "   AND (p.ts, p.rowid) < (o.ts, o.rowid) ORDER BY p.ts DESC, p.rowid DESC LIMIT 1),"
    " (SELECT c.intent FROM capsule_observations co JOIN capsules c ON c.id = co.capsule_id"
    "   WHERE co.observation_id = o.id ORDER BY co.link_order LIMIT 1)"
    " FROM observations o"
)
# Writes the documents ``document_columns`` built (a forgotten row gets none).
DOCUMENT_UPDATE = (
    "UPDATE observations o SET search = CASE WHEN u.a IS NULL THEN NULL ELSE"
    f" {vector_sql('u.a', 'u.b', 'u.c')} || {scope_vector_sql('o.')} END"
    " FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[]) AS u(id, a, b, c)"
    " WHERE o.id = u.id"
)


def document_columns(rows: Iterable[Sequence[Any]]) -> tuple[list[Any], ...]:
    """``DOCUMENT_UPDATE``'s parameters from ``DOCUMENT_SOURCES``' rows."""
    columns: tuple[list[Any], ...] = ([], [], [], [])
    for obs_id, content, redacted, previous, intent in rows:
        parts = (None,) * 3 if redacted else document_parts(content, previous or "", intent or "")
        for column, value in zip(columns, (obs_id, *parts), strict=True):
            column.append(value)
    return columns


_OBS_INSERT = (
    "observations (id, kind, content, provenance, ts, scope_ids, redacted, session_id,"
    " repo_id, agent_id, user_id)"
)


class PgObservationsMixin:
    """``insert_observation(s)``, ``link_observation``, ``forget_observation`` and the index
    maintenance the other writers call (``index_observations``)."""

    if TYPE_CHECKING:

        def write(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
        def transaction(self) -> AbstractContextManager[None]: ...
        def copy_rows(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...
        def mark_forgotten(self, *tables: str) -> None: ...

    def insert_observation(self, obs: Observation, capsule_id: str | None) -> None:
        self.insert_observations([(obs, capsule_id)])

    def insert_observations(self, items: Sequence[tuple[Observation, str | None]]) -> None:
        """Insert observations (each with the capsule it joins, or None) and index them, in
        one transaction and a fixed number of statements whatever the batch size. A duplicate
        id (in the store or the batch) is a ``ConflictError`` and writes nothing."""
        if not items:
            return
        with self.transaction():
            links = [(cid, obs.id) for obs, cid in items if cid is not None]
            if links:  # the row locks serialise appends to a capsule: its seq stays unique
                self.read(
                    "SELECT 1 FROM capsules WHERE id = ANY(%s) ORDER BY id FOR UPDATE",
                    (sorted({cid for cid, _ in links}),),
                )
            self.copy_rows(
                f"COPY {_OBS_INSERT} FROM STDIN", (observation_values(obs) for obs, _ in items)
            )
            if links:
                self._append_links(links)
            self._index_with_successors([obs.id for obs, _ in items])

    def _append_links(self, links: Sequence[tuple[str, str]]) -> int:
        """Link (capsule, observation) pairs in order, each capsule's seq continuing from its
        largest; callers hold the capsules' row locks. Returns the links added."""
        return self.write(
            "INSERT INTO capsule_observations (capsule_id, observation_id, seq)"
            " SELECT u.c, u.o, row_number() OVER (PARTITION BY u.c ORDER BY u.n) - 1"
            " + COALESCE((SELECT MAX(x.seq) + 1 FROM capsule_observations x"
            " WHERE x.capsule_id = u.c), 0)"
            " FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS u(c, o, n)"
            " ORDER BY u.n ON CONFLICT DO NOTHING",
            ([c for c, _ in links], [o for _, o in links]),
        )

    def session_steps(
        self, scope: Scope, *, ts: int, obs_id: str | None, before: int, after: int
    ) -> tuple[list[Observation], list[Observation]]:
        pivot = LAST_ROWID
        if obs_id is not None:
            found = self.read("SELECT rowid FROM observations WHERE id = %s", (obs_id,))
            if not found:
                return [], []
            pivot = int(found[0][0])
        where, params = scope_where(scope, "o")
        earlier_sql, later_sql = steps_sql(where, "%s")
        earlier = self.read(earlier_sql, [*params, ts, ts, pivot, before]) if before else []
        later = self.read(later_sql, [*params, ts, ts, pivot, after]) if after else []
        return [observation_row(r) for r in reversed(earlier)], [observation_row(r) for r in later]

    def link_observation(self, capsule_id: str, obs_id: str) -> bool:
        with self.transaction():
            self.read("SELECT 1 FROM capsules WHERE id = %s FOR UPDATE", (capsule_id,))
            added = self._append_links([(capsule_id, obs_id)]) > 0
            if added:  # its capsule intent may be new (the first capsule it is linked to)
                self.index_observations([obs_id])
        return added

    def forget_observation(self, obs_id: str) -> bool:
        """Forget an observation: its text leaves the row and the index, and its successor
        is re-indexed without its excerpt (docs/privacy.md: what VACUUM then removes)."""
        with self.transaction():
            self.mark_forgotten("observations", "observation_vectors")
            changed = self.write(
                "UPDATE observations SET content = '[redacted]', provenance = '{}',"
                " redacted = TRUE, search = NULL WHERE id = %s",
                (obs_id,),
            )
            if changed:
                self._index_with_successors([obs_id])
        return changed > 0

    # ------------------------------------------------------------------ index

    def _index_with_successors(self, obs_ids: Sequence[str]) -> None:
        """Index ``obs_ids`` and the observations whose documents quote them (successors)."""
        rows = self.read(
            "SELECT n.id FROM observations o CROSS JOIN LATERAL (SELECT n.id FROM"
            " observations n WHERE o.session_id IS NOT NULL AND n.session_id = o.session_id"
            " AND (n.ts, n.rowid) > (o.ts, o.rowid) ORDER BY n.ts, n.rowid LIMIT 1) n"
            " WHERE o.id = ANY(%s)",
            (list(obs_ids),),
        )
        self.index_observations([*obs_ids, *(r[0] for r in rows)])

    def index_observations(self, obs_ids: Sequence[str]) -> None:
        """Rebuild the documents of ``obs_ids`` (a forgotten row gets none): one read, one
        write."""
        ids = list(dict.fromkeys(obs_ids))
        if not ids:
            return
        rows = self.read(f"{DOCUMENT_SOURCES} WHERE o.id = ANY(%s)", (ids,))
        self.write(DOCUMENT_UPDATE, document_columns(rows))
