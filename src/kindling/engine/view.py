"""``MemoryView``: a memory as one principal may see and change it (``Kindling.view_for``).

It is a ``Memory`` (the same verbs as ``Kindling``) whose every verb applies the team
directory's rule (``engine.team``) once, here: reads are confined to the principal's read
scope, an entity named by id that it may not touch is as unknown as an id nobody has (for
every verb: getters, ``describe``, ``timeline``, ``get_items``, ``forget``, the chat memories'
search, bundle links), and every write is stamped with its identity in a repository it may
write. ``kindling serve`` answers each request through the view of its token's principal, and
so does the team page.

It is a ``Memory`` and not a ``LocalMemory``: the whole-store verbs (``stats``,
``semantic_index``) are the store owner's, as they are not a server client's. ``close`` leaves
the engine open: it belongs to whoever opened it.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from types import TracebackType
from typing import TYPE_CHECKING, Any

from kindling.engine.view_capture import CaptureView
from kindling.errors import InvalidInputError, NotFoundError
from kindling.memory import PrincipalView, Progress, no_progress
from kindling.model import (
    Capsule,
    CapsuleStatus,
    Entity,
    JsonObject,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    TargetType,
)
from kindling.model.access import Principal, read_scope
from kindling.model.checks import MAX_LIMIT, require_limit

if TYPE_CHECKING:
    from typing import Self

    from kindling.engine.kindling import Kindling
    from kindling.model.bundle import Bundle
    from kindling.model.disclosure import Items, Timeline
    from kindling.model.memories import ChatMemory, ChatMemoryFields, ChatMemoryMatch
    from kindling.model.reports import (
        Described,
        ForgetReport,
        ImportReport,
        RepoActivity,
    )
    from kindling.model.results import RetrieveResult
    from kindling.model.status import ServerStatus
    from kindling.retrieval.budget import Tokenizer

OPEN_SHOWN = 20  # open capsules in ``status`` (as ``kindling status`` shows locally)


class MemoryView(CaptureView):
    """``Kindling`` as ``principal`` sees it (the module docstring)."""

    def __init__(self, kd: Kindling, principal: Principal) -> None:
        super().__init__(kd, principal)
        self.clock: Callable[[], int] = kd.clock

    # ------------------------------------------------------------------ lifetime

    def close(self) -> None:
        return None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None

    def batch(self) -> AbstractContextManager[None]:
        return self._kd.batch()

    @property
    def tokenizer(self) -> Tokenizer:
        return self._kd.tokenizer

    # ------------------------------------------------------------------ reads

    def _seen(self, entity: Any, what: str, entity_id: str) -> Any:
        if not self.sees(entity):
            raise NotFoundError(f"no {what} with id {entity_id!r}")
        return entity

    def get_observation(self, observation_id: str) -> Observation:
        found_: Observation = self._kd.get_observation(observation_id)
        return self._seen(found_, "observation", observation_id)  # type: ignore[no-any-return]

    def get_capsule(self, capsule_id: str) -> Capsule:
        found_: Capsule = self._kd.get_capsule(capsule_id)
        return self._seen(found_, "capsule", capsule_id)  # type: ignore[no-any-return]

    def get_summary(self, summary_id: str) -> Summary:
        found_: Summary = self._kd.get_summary(summary_id)
        return self._seen(found_, "summary", summary_id)  # type: ignore[no-any-return]

    def get_pin(self, pin_id: str) -> Pin:
        found_: Pin = self._kd.get_pin(pin_id)
        return self._seen(found_, "pin", pin_id)  # type: ignore[no-any-return]

    def get(self, entity_id: str, target_type: TargetType) -> Entity:
        if target_type == "observation":
            return self.get_observation(entity_id)
        return self.get_summary(entity_id)

    def describe(self, entity_id: str) -> Described:
        """``Kindling.describe``, its links narrowed to what the principal sees."""
        return self._kd._describe(entity_id, self.sees)

    def _scope(self, scope: Scope | None) -> Scope:
        return read_scope(self.principal, scope or Scope())

    def list_observations(
        self,
        *,
        kind: ObservationKind | None = None,
        scope: Scope | None = None,
        capsule_id: str | None = None,
        limit: int = 50,
        before: tuple[int, str] | None = None,
    ) -> list[Observation]:
        return self._kd.list_observations(
            kind=kind, scope=self._scope(scope), capsule_id=capsule_id, limit=limit, before=before
        )

    def list_repos(self, *, scope: Scope | None = None, limit: int = 50) -> list[RepoActivity]:
        """A team principal whose scope names no repository gets those granted to its team,
        most recently active first (every other read of a team names one): the browser's
        first page."""
        where = scope or Scope()
        if self.principal.team is None or where.repo_id is not None:
            return self._kd.list_repos(scope=self._scope(scope), limit=limit)
        limit = require_limit(limit)  # checked even for a team granted nothing
        found = [
            activity
            for repo in sorted(self.principal.repos)
            for activity in self._kd.list_repos(
                scope=self._scope(replace(where, repo_id=repo)), limit=limit
            )
        ]
        found.sort(key=lambda r: (-r.last_ts, r.repo_id))
        return found[:limit]

    def list_capsules(
        self, *, status: CapsuleStatus | None = None, scope: Scope | None = None, limit: int = 50
    ) -> list[Capsule]:
        return self._kd.list_capsules(status=status, scope=self._scope(scope), limit=limit)

    def list_summaries(self, *, scope: Scope | None = None, limit: int = 50) -> list[Summary]:
        return self._kd.list_summaries(scope=self._scope(scope), limit=limit)

    def list_pins(
        self, *, scope: Scope | None = None, active_at: int | None = None, limit: int = 50
    ) -> list[Pin]:
        return self._kd.list_pins(scope=self._scope(scope), active_at=active_at, limit=limit)

    def status(self) -> ServerStatus:
        """The principal's facts, in a server's shape: the backend, the schema, who it is, its
        team's repositories and its own newest open capsules (no counts: the store is shared).
        ``server`` and ``version`` are the serving process's to fill in (``http.api_reads``);
        the view knows neither, and leaves them empty."""
        from kindling.model.status import ServerStatus

        who, kd = self.principal, self._kd
        mine = kd.list_capsules(status="open", scope=Scope(user_id=who.user_id), limit=OPEN_SHOWN)
        return ServerStatus(
            server="",
            version="",
            backend=kd.backend,
            schema_version=kd.stats().schema_version,
            user=who.name,
            team=who.team,
            repos=tuple(sorted(who.repos)),
            open_capsules=tuple(mine),
        )

    def timeline(self, anchor_id: str, *, before: int = 5, after: int = 5) -> Timeline:
        """``Kindling.timeline`` of what the principal sees: another team's anchor is unknown,
        and its steps are left out."""
        return self._kd._timeline(anchor_id, before, after, self.sees)

    def get_items(self, ids: Sequence[str], *, token_budget: int | None = None) -> Items:
        """``Kindling.get_items``: ids the principal may not see are ``missing``."""
        return self._kd._get_items(ids, token_budget, self.sees)

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
    ) -> RetrieveResult:
        return self._kd.retrieve(
            query,
            scope=self._scope(scope),
            token_budget=token_budget,
            max_candidates=max_candidates,
            include_redacted=include_redacted,
            intent=intent,
            now=now,
        )

    # ------------------------------------------------------------------ chat memories

    def add_memory(
        self,
        workspace: str,
        content: str,
        fields: ChatMemoryFields | None = None,
        *,
        created_at: int | None = None,
        user_id: str | None = None,
    ) -> ChatMemory:
        """``Kindling.add_memory`` in the workspace (a repository, under the write rule),
        stamped with the principal's identity (``user_id`` is not the caller's to choose)."""
        if not isinstance(workspace, str):
            raise InvalidInputError("workspace must be a string")
        where = self._write_scope(Scope(repo_id=workspace))
        return self._kd.add_memory(
            workspace, content, fields, user_id=where.user_id, created_at=created_at
        )

    def search_memories(
        self, workspace: str, query: str, *, limit: int = MAX_LIMIT
    ) -> list[ChatMemoryMatch]:
        """Among the memories the principal may read: a granted repository, or its own."""
        if not isinstance(workspace, str):
            raise InvalidInputError("workspace must be a string")
        where = read_scope(self.principal, Scope(repo_id=workspace))
        return self._kd._search_memories(workspace, query, limit, where.user_id, self.sees)

    # ------------------------------------------------------------------ forgetting

    def forget(self, entity_id: str, *, dry_run: bool = False) -> ForgetReport:
        """One the principal may not touch is as unknown as a missing id, and so are derived
        copies; the connections that hold old snapshots are not shown (``_for_principal``)."""
        return _for_principal(self._kd._forget(entity_id, dry_run, self.sees))

    def forget_matching(self, text: str, *, dry_run: bool = False) -> ForgetReport:
        return _for_principal(self._kd._forget_matching(text, dry_run, self.sees))

    def finish_forget(self, *, wait_ms: int = 2000) -> ForgetReport:
        """Empty the WAL now (no data changes; any principal)."""
        return _for_principal(self._kd.finish_forget(wait_ms=wait_ms))

    # ------------------------------------------------------------------ bundles

    def export_bundle(
        self,
        *,
        scope: Scope | None = None,
        include_redacted: bool = False,
        exported_at: int | None = None,
        progress: Progress = no_progress,
    ) -> JsonObject:
        return self._kd.export_bundle(
            scope=self._scope(scope),
            include_redacted=include_redacted,
            exported_at=exported_at,
            progress=progress,
        )

    def import_bundle(
        self, bundle: Bundle, *, dry_run: bool = False, progress: Progress = no_progress
    ) -> ImportReport:
        """Import under the write rule: every entity is stamped with the principal's identity
        and must land in a repository it may write, and nothing in it may reach an entity it
        may not touch (``_import_checks``); a pin whose target it may not see is skipped."""
        self._import_checks(bundle)
        stamp = self._write_scope
        pins = [p for p in bundle.pins if self._pin_target_known(bundle, p)]
        unpinned = tuple(
            f"pin {p.id} targets unknown {p.target_type} {p.target_id}"
            for p in bundle.pins
            if p not in pins
        )
        bundle = replace(
            bundle,
            scope=replace(bundle.scope, user_id=self.principal.user_id),
            observations=tuple(replace(o, scope=stamp(o.scope)) for o in bundle.observations),
            capsules=tuple(replace(c, scope=stamp(c.scope)) for c in bundle.capsules),
            pins=tuple(replace(p, scope=stamp(p.scope)) for p in pins),
        )
        report = self._kd._import_bundle(bundle, dry_run, progress, self.sees)
        return replace(report, skipped=report.skipped + unpinned)


_IS_MEMORY: type[PrincipalView] = MemoryView  # mypy: every verb of Memory, and ``sees``


def _for_principal(report: ForgetReport) -> ForgetReport:
    """A forget report as a principal sees it: the connections that hold old snapshots are the
    store owner's business (their pids, roles and addresses are not shown to other teams)."""
    return replace(report, holders=())
