"""The forgetting verbs every backend shares: summaries, pins, and finding a text everywhere.

Texts are rewritten in place (``[redacted]``) in a transaction marked ``forgetting``, so that
the backend removes its old copies once it commits. Forgetting an observation or a capsule
intent rebuilds search documents, so those verbs are each backend's (``forget`` there).

Text search here is a plain, case-insensitive substring match over every stored text
(``Dialect.contains``): it has to find what the search index would split or stem.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kindling.model import REDACTED
from kindling.store.base import TextMatches
from kindling.store.sql.dialect import UsesDatabase

# The structured fields of a chat memory that hold free text (what forget --match searches).
SUMMARY_DETAIL_TEXT = ("topic", "context", "decisions", "rationale", "open_questions", "next_steps")


def like_pattern(text: str) -> str:
    """``text`` as a LIKE pattern matching it anywhere (with ``ESCAPE '\\'``)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class SharedForgetMixin(UsesDatabase):
    """``forget_summary``, ``delete_pin_purged``, ``clear_pin_reason``, ``summaries_citing``
    and ``find_text``."""

    if TYPE_CHECKING:

        def index_summary(self, summary_id: str) -> None: ...

    def forget_summary(self, summary_id: str) -> bool:
        """Forget a summary's text (content and structured fields); its id and refs stay."""
        db = self.db
        with db.transaction():
            db.forgetting("summaries", "summary_details", "summary_vectors")
            done = db.write("UPDATE summaries SET content = ? WHERE id = ?", (REDACTED, summary_id))
            db.write("DELETE FROM summary_details WHERE summary_id = ?", (summary_id,))
            if done:
                self.index_summary(summary_id)
        return done > 0

    def delete_pin_purged(self, pin_id: str) -> bool:
        with self.db.transaction():
            self.db.forgetting("pins")
            return self.db.write("DELETE FROM pins WHERE id = ?", (pin_id,)) > 0

    def clear_pin_reason(self, pin_id: str) -> bool:
        with self.db.transaction():
            self.db.forgetting("pins")
            return self.db.write("UPDATE pins SET reason = NULL WHERE id = ?", (pin_id,)) > 0

    def summaries_citing(self, obs_ids: Sequence[str]) -> list[str]:
        """Ids of summaries whose evidence refs name one of ``obs_ids`` (sorted)."""
        found: set[str] = set()
        items = self.db.dialect.json_items("s.evidence_refs", "e")
        for condition, chunk in self.db.dialect.in_ids("e.value", obs_ids):
            rows = self.db.read(
                f"SELECT DISTINCT s.id FROM summaries s, {items} WHERE {condition}", chunk
            )
            found.update(r[0] for r in rows)
        return sorted(found)

    def find_text(self, text: str) -> TextMatches:
        """Every entity whose stored text contains ``text``, ignoring case (SQLite: ASCII
        letters only)."""
        like = like_pattern(text)
        contains = self.db.dialect.contains

        def ids(table: str, columns: Sequence[str]) -> tuple[str, ...]:
            where = " OR ".join(contains(c) for c in columns)
            rows = self.db.read(f"SELECT {table} WHERE {where}", (like,) * len(columns))
            return tuple(sorted({r[0] for r in rows}))

        details = [f"d.{c}" for c in (*SUMMARY_DETAIL_TEXT, "refs")]
        return TextMatches(
            observations=ids("id FROM observations", ("content", "provenance")),
            summaries=ids(
                "s.id FROM summaries s LEFT JOIN summary_details d ON d.summary_id = s.id",
                ("s.content", *details),
            ),
            pins=ids("id FROM pins", ("reason",)),
            capsules=ids("id FROM capsules", ("intent",)),
        )
