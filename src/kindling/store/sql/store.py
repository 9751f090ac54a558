"""``SqlStore``: every verb written once over a dialect, assembled; a backend's store class
puts its own search hooks, index-keeping writes and forget steps before it
(``store.sqlite.store``, ``store.postgres.store``) and sets ``db``.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from kindling.store.sql.capsules import CapsulesMixin
from kindling.store.sql.export import ExportMixin
from kindling.store.sql.forget import SharedForgetMixin
from kindling.store.sql.observations import ObservationsMixin
from kindling.store.sql.pins import PinsMixin
from kindling.store.sql.search import SearchMixin
from kindling.store.sql.summaries import SummariesMixin
from kindling.store.sql.tokens import TokensMixin
from kindling.store.sql.vectors import VectorsMixin


class SqlStore(
    ObservationsMixin,
    CapsulesMixin,
    SummariesMixin,
    PinsMixin,
    SharedForgetMixin,
    ExportMixin,
    TokensMixin,
    VectorsMixin,
    SearchMixin,
):
    """The shared verbs over ``db``; not a whole ``Store`` without a backend's search hooks."""

    def close(self) -> None:
        self.db.close()

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction; nested calls join the outer one."""
        return self.db.transaction()

    def schema_version(self) -> int:
        return self.db.schema_version()
