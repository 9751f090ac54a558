"""How the observation and summary writes of ``SqliteStore`` reach its index (the writes
themselves are shared: ``store.sql.observations``, ``store.sql.summaries``).

Appends do not index: they mark the rows for ``Database.index_pending``, which indexes a
transaction's appends in one step (see ``connection``). Linking an indexed observation to its
first capsule gives its index row that capsule's intent. A summary's index follows its row by
triggers, from its content and the ``segments`` column Kindling writes (``index_summary``).

Must not import anything from Kindling except ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence

import kindling.store.sqlite.index as index
from kindling.store.sqlite.connection import Database
from kindling.store.sqlite.index import summary_segments


class ObservationIndexMixin:
    """``index_appended``, ``index_linked`` and ``index_summary``."""

    db: Database

    def index_appended(self, obs_ids: Sequence[str]) -> None:
        """The rows of ``obs_ids`` were just appended, in order, in this transaction: index
        them (from the first one's rowid on) when it ends."""
        if self.db.indexing_pending:  # an earlier append of this transaction: these follow it
            return
        found = self.db.read("SELECT rowid FROM observations WHERE id = ?", (obs_ids[0],))
        self.db.appended(int(found[0][0]))

    def index_linked(self, capsule_id: str, obs_id: str) -> None:
        """An observation indexed without a capsule takes this one's intent as context."""
        db = self.db
        # An observation appended in this transaction is not indexed yet: it has no context
        # row, and indexing it at commit will find this link.
        rows = db.read(
            "SELECT x.rowid FROM observation_context x JOIN observations o"
            " ON o.rowid = x.rowid WHERE o.id = ? AND x.intent = ''",
            (obs_id,),
        )
        if rows:
            with index.reindexing(db.conn, [rows[0][0]]):
                db.write(
                    "UPDATE observation_context SET intent ="
                    " (SELECT intent FROM capsules WHERE id = ?) WHERE rowid = ?",
                    (capsule_id, rows[0][0]),
                )

    def index_summary(self, summary_id: str) -> None:
        """A summary's text was just written: its ``segments`` column follows (the triggers
        then index the content with them); most texts have none, and leave the row alone."""
        rows = self.db.read("SELECT content, segments FROM summaries WHERE id = ?", (summary_id,))
        if rows and summary_segments(rows[0][0]) != rows[0][1]:
            self.db.write(
                "UPDATE summaries SET segments = ? WHERE id = ?",
                (summary_segments(rows[0][0]), summary_id),
            )
