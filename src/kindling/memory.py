"""``Memory``: every verb of Kindling, once. The seam between the adapters and a memory.

Two classes implement it: ``engine.Kindling`` (a local database, SQLite or PostgreSQL) and
``client.front.RemoteKindling`` (a ``kindling serve``, over HTTP). The adapters (CLI, MCP,
bridge, hooks) hold a ``Memory`` and never ask which one it is. Each class states it with a
module-level ``type[Memory]`` assignment, so mypy fails when one of them lacks a verb, and
``tests/parity/test_parity.py`` runs every verb on both, on both backends, and compares the JSON.

Every verb of ``Memory`` answers on both sides. What only a database can do (whole-store
counts, the semantic index) is ``LocalMemory``, which ``engine.Kindling`` alone implements: an
adapter that needs it checks ``isinstance(memory, LocalMemory)`` and refuses remote mode in one
line, never falling back to a local file.

What ``kindling serve`` serves is a ``ServedMemory``: a ``LocalMemory`` with a team directory
(``team``, a ``TeamDirectory``: tokens, teams, principals, the owners' id aliases) and, for each
principal, a view (``view_for``, a ``PrincipalView``: a ``Memory`` whose every verb applies
that principal's access rule, ``model.access``). ``entry.open_local`` returns one; the server
and ``kindling token`` hold it and never import the engine.

Must not import anything from Kindling except ``model``, ``errors`` and ``retrieval.budget``
(for a type).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from kindling.model.checks import MAX_LIMIT
from kindling.model.entities import (
    Capsule,
    CapsuleStatus,
    CapsuleType,
    Entity,
    JsonObject,
    NewObservation,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    TargetType,
)

if TYPE_CHECKING:
    from typing import Self

    from kindling.model.access import Principal
    from kindling.model.bundle import Bundle
    from kindling.model.disclosure import Items, Timeline
    from kindling.model.entities import AnyEntity
    from kindling.model.memories import ChatMemory, ChatMemoryFields, ChatMemoryMatch
    from kindling.model.reports import (
        ApiToken,
        Described,
        ForgetReport,
        ImportReport,
        RepoActivity,
        StoreStats,
    )
    from kindling.model.results import RetrieveResult
    from kindling.model.status import LocalStatus, ServerStatus
    from kindling.retrieval.budget import Tokenizer

Progress = Callable[[int], None]


def no_progress(_: int) -> None:
    return None


@runtime_checkable
class Memory(Protocol):
    """What an adapter may ask of a memory (see the module docstring). The engine's docstrings
    (``engine/``) say what each verb does. Public as ``kindling.Memory``; ``isinstance(x,
    kindling.Memory)`` checks that every verb is present (not their signatures: mypy does)."""

    clock: Callable[[], int]  # "now" in epoch ms, for relative times and default timestamps

    # ------------------------------------------------------------------ lifetime

    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
    def batch(self) -> AbstractContextManager[None]: ...
    @property
    def tokenizer(self) -> Tokenizer: ...

    # ------------------------------------------------------------------ capture

    def open_capsule(
        self,
        *,
        intent: str,
        scope: Scope | None = None,
        type: CapsuleType = "session",
        id: str | None = None,
        opened_at: int | None = None,
    ) -> Capsule: ...
    def append_observation(
        self,
        *,
        kind: ObservationKind,
        content: str,
        scope: Scope | None = None,
        provenance: Mapping[str, Any] | None = None,
        ts: int | None = None,
        capsule_id: str | None = None,
        id: str | None = None,
    ) -> Observation: ...
    def append_many(self, observations: Iterable[NewObservation]) -> list[Observation]: ...
    def add_summary(
        self,
        capsule_id: str,
        *,
        content: str,
        confidence: float = 0.5,
        evidence_refs: Sequence[str] | None = None,
        created_at: int | None = None,
    ) -> Summary: ...
    def close_capsule(
        self,
        capsule_id: str,
        *,
        summary: str | None = None,
        confidence: float | None = None,
        evidence_refs: Sequence[str] | None = None,
        closed_at: int | None = None,
    ) -> Capsule: ...
    def pin(
        self,
        target_type: TargetType,
        target_id: str,
        *,
        reason: str | None = None,
        expires_at: int | None = None,
        ttl_ms: int | None = None,
        scope: Scope | None = None,
        created_at: int | None = None,
    ) -> Pin: ...
    def unpin(self, pin_id: str) -> None: ...

    # ------------------------------------------------------------------ reads

    def get_observation(self, observation_id: str) -> Observation: ...
    def get_capsule(self, capsule_id: str) -> Capsule: ...
    def get_summary(self, summary_id: str) -> Summary: ...
    def get_pin(self, pin_id: str) -> Pin: ...
    def get(self, entity_id: str, target_type: TargetType) -> Entity: ...
    def describe(self, entity_id: str) -> Described: ...
    def list_observations(
        self,
        *,
        kind: ObservationKind | None = None,
        scope: Scope | None = None,
        capsule_id: str | None = None,
        limit: int = 50,
        before: tuple[int, str] | None = None,
    ) -> list[Observation]: ...
    def list_repos(self, *, scope: Scope | None = None, limit: int = 50) -> list[RepoActivity]: ...
    def list_capsules(
        self, *, status: CapsuleStatus | None = None, scope: Scope | None = None, limit: int = 50
    ) -> list[Capsule]: ...
    def list_summaries(self, *, scope: Scope | None = None, limit: int = 50) -> list[Summary]: ...
    def list_pins(
        self, *, scope: Scope | None = None, active_at: int | None = None, limit: int = 50
    ) -> list[Pin]: ...
    def status(self) -> LocalStatus | ServerStatus: ...
    def timeline(self, anchor_id: str, *, before: int = 5, after: int = 5) -> Timeline: ...
    def get_items(self, ids: Sequence[str], *, token_budget: int | None = None) -> Items: ...
    def retrieve(
        self,
        query: str = "",
        *,
        scope: Scope | None = None,
        token_budget: int | None = None,
        max_candidates: int = 50,
        include_redacted: bool = False,
        intent: str | None = None,
        now: int | None = None,
    ) -> RetrieveResult: ...

    # ------------------------------------------------------------------ chat memories

    def add_memory(
        self,
        workspace: str,
        content: str,
        fields: ChatMemoryFields | None = None,
        *,
        created_at: int | None = None,
        user_id: str | None = None,
    ) -> ChatMemory: ...
    def search_memories(
        self, workspace: str, query: str, *, limit: int = MAX_LIMIT
    ) -> list[ChatMemoryMatch]: ...

    # ------------------------------------------------------------------ forgetting

    def forget(self, entity_id: str, *, dry_run: bool = False) -> ForgetReport: ...
    def forget_matching(self, text: str, *, dry_run: bool = False) -> ForgetReport: ...
    def finish_forget(self, *, wait_ms: int = 2000) -> ForgetReport: ...

    # ------------------------------------------------------------------ bundles

    def export_bundle(
        self,
        *,
        scope: Scope | None = None,
        include_redacted: bool = False,
        exported_at: int | None = None,
        progress: Progress = no_progress,
    ) -> JsonObject: ...
    def import_bundle(
        self, bundle: Bundle, *, dry_run: bool = False, progress: Progress = no_progress
    ) -> ImportReport: ...


@runtime_checkable
class LocalMemory(Memory, Protocol):
    """A ``Memory`` that is a database itself (``engine.Kindling``; ``entry.open_local``): the
    verbs a client of ``kindling serve`` cannot serve. An adapter that needs one checks
    ``isinstance(memory, LocalMemory)`` and refuses remote mode in one line
    (``RemoteModeError``) instead of calling a verb that cannot answer."""

    def stats(self) -> StoreStats: ...

    # ------------------------------------------------------------------ the semantic signal

    def semantic_index(
        self,
        *,
        model: str | None = None,
        limit: int | None = None,
        cpu: float = 1.0,
        batch: int = 16,
        replace: bool = False,
        progress: Callable[[Any], None] | None = None,  # semantic.indexer.IndexProgress
        stop: Callable[[], bool] | None = None,
    ) -> JsonObject: ...


@runtime_checkable
class PrincipalView(Memory, Protocol):
    """A ``Memory`` as one principal may see and change it (``ServedMemory.view_for``): reads
    confined to its read scope, writes stamped with its identity, and an entity it may not
    touch as unknown as an id nobody has (``model.access``)."""

    def sees(self, entity: AnyEntity) -> bool:
        """May the principal touch this entity (``model.access.may_touch`` of its scope)?"""
        ...

    def status(self) -> ServerStatus:
        """What the principal's client is told (``GET /v1/status``): never the store's own."""
        ...


@runtime_checkable
class TeamDirectory(Protocol):
    """The tokens, teams and principals of a served store (``ServedMemory.team``): what
    ``kindling token`` manages and the server authenticates with; and each owner's id
    aliases (``http.idspace``)."""

    def create_token(self, *, user: str, team: str | None = None) -> tuple[ApiToken, str]: ...
    def list_tokens(self) -> list[ApiToken]: ...
    def revoke_token(self, token_id: str) -> None: ...
    def grant_repo(self, *, team: str, repo: str) -> None: ...
    def token_by_hash(self, token_hash: str) -> ApiToken | None: ...
    def team_repos(self, team: str) -> list[str]: ...
    def repo_is_granted(self, repo_id: str) -> bool: ...
    def principal(self, token_hash: str) -> Principal: ...
    def id_aliases(self, owner: str) -> dict[str, str]: ...
    def taken_ids(self, ids: Sequence[str]) -> set[str]: ...
    def add_id_alias(self, owner: str, wire_id: str, stored_id: str) -> str: ...


@runtime_checkable
class ServedMemory(LocalMemory, Protocol):
    """A database that ``kindling serve`` can serve (``engine.Kindling``; what
    ``entry.open_local`` returns): its team directory, and each principal's view of it."""

    @property
    def thread_safe(self) -> bool:
        """May requests use it from several threads at once (else the server takes a lock)?"""
        ...

    @property
    def team(self) -> TeamDirectory: ...
    def view_for(self, principal: Principal) -> PrincipalView: ...


def verbs() -> tuple[str, ...]:
    """The names of every verb (and attribute) of ``Memory``, sorted; the parity suite
    iterates them."""
    names = {n for n in vars(Memory) if not n.startswith("_")}
    return tuple(sorted(names | set(Memory.__annotations__)))
