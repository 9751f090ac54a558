"""``Kindling``: the verb groups of ``engine`` in one class, and how one is opened and closed.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from kindling.capture.sanitize import wall_clock_ms
from kindling.capture.spool import DRAIN_ON_OPEN_S, drain, spool_dir
from kindling.engine.base import Clock
from kindling.engine.capture import CaptureVerbs
from kindling.engine.memories import MemoryVerbs
from kindling.engine.retrieval import RetrieveVerbs
from kindling.errors import InvalidInputError, KindlingError
from kindling.forgetting import ForgetVerbs
from kindling.store.backends import open_store
from kindling.store.sqlite import SqliteStore

if TYPE_CHECKING:
    from kindling.retrieval.budget import Tokenizer
    from kindling.retrieval.provider import RetrievalProvider
    from kindling.retrieval.scoring import ScoringWeights


class Kindling(CaptureVerbs, RetrieveVerbs, MemoryVerbs, ForgetVerbs):
    """Local memory: capture observations into capsules, pin what matters, retrieve.

    >>> with Kindling.open(":memory:") as kd:
    ...     obs = kd.append_observation(kind="error", content="jwt.verify is not a function")
    ...     [c.entity.id for c in kd.retrieve(query="jwt").candidates] == [obs.id]
    True
    """

    @classmethod
    def open(
        cls,
        path: str | Path = ":memory:",
        *,
        provider: RetrievalProvider | None = None,
        tokenizer: Tokenizer | None = None,
        clock: Clock = wall_clock_ms,
        weights: ScoringWeights | None = None,
        redact_secrets: bool = True,
        drain_spool: bool = True,
    ) -> Kindling:
        """Open (creating and migrating as needed) the SQLite database at ``path`` and apply
        what hooks spooled for it (unless ``drain_spool=False``), or the PostgreSQL database
        of a ``postgresql://`` URL (extra ``kindling-memory[postgres]``).

        Secrets are masked before anything is written (``capture.scrub``); only an
        explicit ``redact_secrets=False`` turns that off for this store."""
        if not isinstance(path, str | Path) or not str(path).strip():
            raise InvalidInputError("path must be a file path or ':memory:'")
        store = open_store(path)
        kd = cls(
            store,
            provider=provider,
            tokenizer=tokenizer,
            clock=clock,
            weights=weights,
            redact_secrets=redact_secrets,
        )
        if drain_spool and isinstance(store, SqliteStore) and store.path != ":memory:":
            with suppress(KindlingError, OSError):
                drain(kd, spool_dir(store.path), budget_s=DRAIN_ON_OPEN_S)
        return kd

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Kindling:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Make every write inside the block one transaction (all or nothing)."""
        with self.store.transaction():
            yield
