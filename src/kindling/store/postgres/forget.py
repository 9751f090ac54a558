"""The forgetting verbs of ``PostgresStore`` (the same meaning as ``store.sqlite.forget``).

Texts are rewritten in place (``[redacted]``), pin reasons and capsule intents cleared, and the
search documents that quoted them rebuilt in the same transaction. What PostgreSQL keeps after
that (dead row versions until VACUUM, WAL, backups) is outside a transaction's reach: see
docs/privacy.md; ``finish_purge`` has no WAL file of Kindling's to empty and says so by
returning True without claiming more (``wal_purged`` is about Kindling's own files).

Must not import anything from Kindling except ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from kindling.store.base import TextMatches
from kindling.store.sqlite.forget import REDACTED, like_pattern

_SUMMARY_TEXT = ("topic", "context", "decisions", "rationale", "open_questions", "next_steps")


class PgForgetMixin:
    wal_purged = True  # no WAL file of ours: see the module docstring

    if TYPE_CHECKING:

        def _exec(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
        def transaction(self) -> AbstractContextManager[None]: ...
        def _index_summary(self, summary_id: str) -> None: ...
        def _index_observation(self, obs_id: str) -> None: ...

    def redact_summary(self, summary_id: str) -> bool:
        with self.transaction():
            done = self._exec(
                "UPDATE summaries SET content = %s WHERE id = %s", (REDACTED, summary_id)
            )
            self._exec("DELETE FROM summary_details WHERE summary_id = %s", (summary_id,))
            if done:
                self._index_summary(summary_id)
        return done > 0

    def delete_pin_purged(self, pin_id: str) -> bool:
        return self._exec("DELETE FROM pins WHERE id = %s", (pin_id,)) > 0

    def clear_pin_reason(self, pin_id: str) -> bool:
        return self._exec("UPDATE pins SET reason = NULL WHERE id = %s", (pin_id,)) > 0

    def redact_capsule_intent(self, capsule_id: str) -> bool:
        """Forget a capsule's intent, and rebuild the documents that carried it."""
        with self.transaction():
            done = self._exec(
                "UPDATE capsules SET intent = %s WHERE id = %s", (REDACTED, capsule_id)
            )
            for (obs_id,) in self._read(
                "SELECT observation_id FROM capsule_observations WHERE capsule_id = %s"
                " ORDER BY seq",
                (capsule_id,),
            ):
                self._index_observation(obs_id)
        return done > 0

    def summaries_citing(self, obs_ids: Sequence[str]) -> list[str]:
        if not obs_ids:
            return []
        rows = self._read(
            "SELECT DISTINCT s.id FROM summaries s,"
            " jsonb_array_elements_text(s.evidence_refs::jsonb) AS e(ref)"
            " WHERE e.ref = ANY(%s)",
            (list(obs_ids),),
        )
        return sorted(r[0] for r in rows)

    def find_text(self, text: str) -> TextMatches:
        """Every entity whose stored text contains ``text`` (case-insensitive)."""
        like = like_pattern(text)

        def ids(sql: str, n: int) -> tuple[str, ...]:
            return tuple(sorted({r[0] for r in self._read(sql, (like,) * n)}))

        detail_where = " OR ".join(f"d.{c} ILIKE %s" for c in _SUMMARY_TEXT)
        return TextMatches(
            observations=ids(
                "SELECT id FROM observations WHERE content ILIKE %s OR provenance ILIKE %s", 2
            ),
            summaries=ids(
                "SELECT s.id FROM summaries s LEFT JOIN summary_details d"
                f" ON d.summary_id = s.id WHERE s.content ILIKE %s OR {detail_where}"
                " OR d.refs ILIKE %s",
                len(_SUMMARY_TEXT) + 2,
            ),
            pins=ids("SELECT id FROM pins WHERE reason ILIKE %s", 1),
            capsules=ids("SELECT id FROM capsules WHERE intent ILIKE %s", 1),
        )

    def finish_purge(self, *, wait_ms: int = 0) -> bool:
        return True
