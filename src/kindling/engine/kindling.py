"""``Kindling``: the verb groups of ``engine`` in one class, and how one is opened and closed.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from os import PathLike
from types import TracebackType
from typing import TYPE_CHECKING

from kindling.engine.base import Clock, scrub_switch, semantic_switch
from kindling.engine.capture import CaptureVerbs
from kindling.engine.disclosure import DisclosureVerbs
from kindling.engine.drain import drain
from kindling.engine.forget import ForgetVerbs
from kindling.engine.lookup import LookupVerbs
from kindling.engine.memories import MemoryVerbs
from kindling.engine.retrieval import RetrieveVerbs
from kindling.engine.semantic import SemanticVerbs
from kindling.engine.team import TeamDirectory
from kindling.engine.transfer import TransferVerbs
from kindling.errors import InvalidInputError, KindlingError
from kindling.model.access import Principal
from kindling.model.sanitize import wall_clock_ms
from kindling.spool import DRAIN_ON_OPEN_S, spool_dir
from kindling.store.backends import open_store

if TYPE_CHECKING:
    from kindling.engine.view import MemoryView
    from kindling.memory import ServedMemory
    from kindling.retrieval.budget import Tokenizer
    from kindling.retrieval.provider import RetrievalProvider
    from kindling.retrieval.scoring import ScoringWeights


class Kindling(
    CaptureVerbs,
    DisclosureVerbs,
    LookupVerbs,
    TransferVerbs,
    RetrieveVerbs,
    MemoryVerbs,
    ForgetVerbs,
    SemanticVerbs,
):
    """Local memory: capture observations into capsules, pin what matters, retrieve.

    >>> with Kindling.open(":memory:") as kd:
    ...     obs = kd.append_observation(kind="error", content="jwt.verify is not a function")
    ...     [c.entity.id for c in kd.retrieve(query="jwt").candidates] == [obs.id]
    True
    """

    @classmethod
    def open(
        cls,
        path: str | PathLike[str] = ":memory:",
        *,
        provider: RetrievalProvider | None = None,
        tokenizer: Tokenizer | None = None,
        clock: Clock = wall_clock_ms,
        weights: ScoringWeights | None = None,
        scrub_secrets: bool = True,
        redact_secrets: bool | None = None,
        drain_spool: bool = True,
        busy_timeout_s: float | None = None,
        read_only: bool = False,
        semantic: bool | str = False,
    ) -> Kindling:
        """Open (creating and migrating as needed) the SQLite database at ``path`` and apply
        what hooks spooled for it (unless ``drain_spool=False``), or the PostgreSQL database
        of a ``postgresql://`` URL (extra ``kindling-memory[postgres]``).

        Secrets are masked before anything is written (``secrets.scrub``); only an
        explicit ``scrub_secrets=False`` turns that off for this store (``redact_secrets`` is
        its deprecated old name).

        ``busy_timeout_s`` bounds how long a write waits for another writer (default: 5 s on
        SQLite, no bound on PostgreSQL; a hook the agent waits for wants less).
        ``read_only=True`` never creates, migrates or writes the database (nor applies the
        spool): reads work, every write raises ``StoreError``. ``semantic`` turns on the optional
        semantic signal (extra ``kindling-memory[semantic]``; docs/semantic.md): ``"auto"`` uses
        it when its model and vectors are there, True requires them."""
        if not isinstance(path, str | PathLike) or not str(path).strip():
            raise InvalidInputError("path must be a file path or ':memory:'")
        if not isinstance(read_only, bool):
            raise InvalidInputError("read_only must be True or False")
        scrub = scrub_switch(scrub_secrets, redact_secrets)  # checked before a file is opened
        semantic_switch(semantic)
        store = open_store(path, busy_timeout_s=_timeout(busy_timeout_s), read_only=read_only)
        kd = cls(
            store,
            provider=provider,
            tokenizer=tokenizer,
            clock=clock,
            weights=weights,
            scrub_secrets=scrub,
            semantic=semantic,
        )
        kd.location = str(path)
        local = store.capabilities.local_path  # hooks spool only beside a database file
        if drain_spool and not read_only and local is not None:
            with suppress(KindlingError, OSError):
                drain(kd, spool_dir(local), budget_s=DRAIN_ON_OPEN_S)
        return kd

    @property
    def team(self) -> TeamDirectory:
        """The team directory of this store: the tokens, teams and principals of
        ``kindling serve`` (``engine.team``)."""
        found = self.__dict__.get("_team")
        if found is None:
            found = self.__dict__["_team"] = TeamDirectory(self.store, lambda: self.clock())
        return found

    def view_for(self, principal: Principal) -> MemoryView:
        """This memory as ``principal`` may see and change it: a ``Memory`` whose every read,
        forget and write applies the team directory's rule (``engine.view``); what the rule
        hides is as unknown as an id nobody has."""
        from kindling.engine.view import MemoryView

        return MemoryView(self, principal)

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


# mypy checks that it has every verb of (Local)Memory, with its signature, and what a server
# serves (``team``, ``view_for``)
_IS_MEMORY: type[ServedMemory] = Kindling

MAX_BUSY_TIMEOUT_S = 600.0


def _timeout(value: float | None) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise InvalidInputError("busy_timeout_s must be a number of seconds or None")
    if not 0 <= value <= MAX_BUSY_TIMEOUT_S:
        raise InvalidInputError(
            f"busy_timeout_s must be between 0 and {MAX_BUSY_TIMEOUT_S:g} seconds"
        )
    return float(value)
