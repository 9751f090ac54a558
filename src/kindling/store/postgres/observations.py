"""How observation writes reach the search documents of ``PostgresStore`` (the writes are
shared: ``store.sql.observations``), and forgetting an observation: each observation's
document is kept current in the writing transaction.

A document (see ``store.postgres.search``) has three weighted parts: A the observation's own
text plus its searchable parts (identifier parts, Han/Kana/Hangul/Thai bigrams), B an excerpt
of the previous observation of its session (by time, then insertion order), C the intent of the
capsule it was first linked to (B and C with their bigrams too, ``documents.with_segments``);
and, unweighted, one token per scope dimension (``scope_vector_sql``), which scoped searches
match. So a write re-indexes the rows it touched
and their session successors (whose neighbour they now are): an insert indexes the new rows and
the rows that follow them; a forget clears the row's vector and re-indexes its successor, so
the forgotten text leaves every document.

Indexing is set-based whatever the batch size: one read of what the documents need and one
``UPDATE`` writing them (the rows themselves arrive by ``COPY``: ``PgDatabase.insert_rows``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from kindling.model import SCOPE_FIELDS
from kindling.store.documents import (
    context_excerpt,
    searchable_parts,
    summary_document,
    with_segments,
)

if TYPE_CHECKING:  # the migrations (imported by the connection) use the documents built here
    from kindling.store.postgres.connection import PgDatabase

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


class PgObservationsMixin:
    """How observation writes reach the documents (``index_appended``, ``index_linked``;
    the writes are shared: ``store.sql.observations``), ``forget_observation``, and the index
    maintenance the other writers call (``index_observations``)."""

    db: PgDatabase

    def index_appended(self, obs_ids: Sequence[str]) -> None:
        """The rows of ``obs_ids`` were just appended: build their documents and those of
        their session successors (whose neighbour they now are)."""
        self._index_with_successors(obs_ids)

    def index_linked(self, capsule_id: str, obs_id: str) -> None:
        """Its capsule intent may be new (the first capsule it is linked to)."""
        self.index_observations([obs_id])

    def forget_observation(self, obs_id: str) -> bool:
        """Forget an observation: its text leaves the row and the index, and its successor
        is re-indexed without its excerpt (docs/privacy.md: what VACUUM then removes)."""
        with self.db.transaction():
            self.db.forgetting("observations", "observation_vectors")
            changed = self.db.write(
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
        rows = self.db.read(
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
        rows = self.db.read(f"{DOCUMENT_SOURCES} WHERE o.id = ANY(%s)", (ids,))
        self.db.write(DOCUMENT_UPDATE, document_columns(rows))
