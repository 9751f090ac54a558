"""The front door: ``Kindling`` wires a store, a provider and a tokenizer behind domain verbs.

Capture verbs validate and sanitise every value before anything is written, so no entry point
(library, CLI, bridge, hooks, MCP) can skip the checks; each verb is one transaction, and
``batch()`` makes many verbs one. ``retrieve()`` runs the three-tier orchestration.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from kindling.capture.memory import check_memory_fields, memory_intent
from kindling.capture.privacy import guard_store, scrub_content, scrub_details, scrub_text
from kindling.capture.sanitize import (
    MAX_LIMIT,
    MAX_TS,
    cap_content,
    new_id,
    require_choice,
    require_confidence,
    require_id,
    require_limit,
    require_provenance,
    require_scope,
    require_text,
    require_ts,
    wall_clock_ms,
)
from kindling.capture.spool import DRAIN_ON_OPEN_S, drain, spool_dir
from kindling.errors import ConflictError, InvalidInputError, KindlingError, NotFoundError
from kindling.forgetting import ForgetVerbs
from kindling.model import (
    CAPSULE_STATUSES,
    CAPSULE_TYPES,
    OBSERVATION_KINDS,
    TARGET_TYPES,
    Capsule,
    CapsuleStatus,
    CapsuleType,
    Entity,
    Memory,
    MemoryFields,
    MemoryMatch,
    NewObservation,
    Observation,
    ObservationKind,
    Pin,
    RetrieveResult,
    Scope,
    Summary,
    SummaryDetails,
    TargetType,
)
from kindling.store.backends import open_store
from kindling.store.base import CapsuleRef, Store, StoreStats
from kindling.store.sqlite import SqliteStore

if TYPE_CHECKING:  # retrieval is imported on first use: capture (hooks) never pays for it
    from kindling.retrieval.budget import Tokenizer
    from kindling.retrieval.provider import RetrievalProvider
    from kindling.retrieval.scoring import ScoringWeights

Clock = Callable[[], int]
_Ready = tuple[ObservationKind, str, dict[str, Any], int, str, Scope | None]  # _prepare's


class Kindling(ForgetVerbs):
    """Local memory: capture observations into capsules, pin what matters, retrieve.

    >>> with Kindling.open(":memory:") as kd:
    ...     obs = kd.append_observation(kind="error", content="jwt.verify is not a function")
    ...     [c.entity.id for c in kd.retrieve(query="jwt").candidates] == [obs.id]
    True
    """

    def __init__(
        self,
        store: Store,
        *,
        provider: RetrievalProvider | None = None,
        tokenizer: Tokenizer | None = None,
        clock: Clock = wall_clock_ms,
        weights: ScoringWeights | None = None,
        redact_secrets: bool = True,
    ) -> None:
        self.store = guard_store(store, redact_secrets)  # every write, not just these verbs
        self._scrubbed_writes = store  # append_many scrubs before the cut: no second pass
        self.scrubs_secrets = redact_secrets
        self.clock = clock
        self._provider = provider
        self._tokenizer = tokenizer
        self._weights = weights

    @property
    def provider(self) -> RetrievalProvider:
        if self._provider is None:
            from kindling.retrieval.provider import LocalFtsProvider
            from kindling.retrieval.scoring import DEFAULT_WEIGHTS

            self._provider = LocalFtsProvider(self.store, self._weights or DEFAULT_WEIGHTS)
        return self._provider

    @property
    def tokenizer(self) -> Tokenizer:
        if self._tokenizer is None:
            from kindling.retrieval.budget import CharTokenizer

            self._tokenizer = CharTokenizer()
        return self._tokenizer

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

    def _clean(self, text: str) -> str:  # before any cap: a cut must not leave half a secret
        return scrub_text(text) if self.scrubs_secrets else text

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

    # ------------------------------------------------------------------ capture

    def open_capsule(
        self,
        *,
        intent: str,
        scope: Scope | None = None,
        type: CapsuleType = "session",
        id: str | None = None,
        opened_at: int | None = None,
    ) -> Capsule:
        """Open a capsule. A session may have only one open session capsule at a time."""
        ctype: CapsuleType = require_choice(type, CAPSULE_TYPES, "capsule type")
        text, _ = cap_content(self._clean(require_text(intent, "intent")))
        where = require_scope(scope)
        capsule = Capsule(
            id=require_id(id) if id is not None else new_id(),
            type=ctype,
            intent=text,
            status="open",
            opened_at=require_ts(opened_at, "opened_at") if opened_at is not None else self.clock(),
            closed_at=None,
            scope=where,
        )
        with self.store.transaction():
            if ctype == "session" and where.session_id is not None:
                existing = self.store.find_open_capsule(Scope(), session_id=where.session_id)
                if existing is not None:
                    raise ConflictError(
                        f"session {where.session_id!r} already has open capsule {existing.id}; "
                        "close it first or append to it"
                    )
            self.store.insert_capsule(capsule)
        return capsule

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
    ) -> Observation:
        """Record an observation. Without ``scope`` it takes its capsule's scope; without
        ``capsule_id`` it joins the open session capsule of its session, if there is one."""
        new = NewObservation(kind, content, scope, provenance, ts, capsule_id, id)
        return self.append_many([new])[0]

    def append_many(self, observations: Iterable[NewObservation]) -> list[Observation]:
        """Record many observations in one transaction, each checked and scrubbed exactly as
        ``append_observation`` does; one bad item writes nothing (the error names its index)."""
        items = list(observations)
        ready = []
        for index, new in enumerate(items):
            try:
                ready.append(self._prepare(new))
            except InvalidInputError as exc:
                raise InvalidInputError(
                    f"observation {index}: {exc}" if len(items) > 1 else str(exc)
                ) from exc
        rows: list[tuple[Observation, str | None]] = []
        with self.store.transaction():
            targets: dict[tuple[str | None, str | None], CapsuleRef | None] = {}
            for new, (okind, text, prov, ts, obs_id, scope) in zip(items, ready, strict=True):
                key = (new.capsule_id, scope.session_id if scope else None)
                if key not in targets:
                    targets[key] = self._attach_target(new.capsule_id, scope)
                capsule = targets[key]
                where = scope if scope is not None else (capsule.scope if capsule else Scope())
                obs = Observation(obs_id, okind, text, prov, ts, where, False)
                rows.append((obs, capsule.id if capsule else None))
            self._scrubbed_writes.insert_observations(rows)
        return [obs for obs, _ in rows]

    def _prepare(self, new: NewObservation) -> _Ready:
        okind: ObservationKind = require_choice(new.kind, OBSERVATION_KINDS, "observation kind")
        text = require_text(new.content, "content")
        prov = require_provenance(new.provenance)
        if self.scrubs_secrets:
            text, prov = scrub_content(text, prov)
        text, original_bytes = cap_content(text)
        if original_bytes is not None:
            prov["contentTruncatedFromBytes"] = original_bytes
        ts = require_ts(new.ts) if new.ts is not None else self.clock()
        obs_id = require_id(new.id) if new.id is not None else new_id()
        return (
            okind,
            text,
            prov,
            ts,
            obs_id,
            None if new.scope is None else require_scope(new.scope),
        )

    def _attach_target(self, capsule_id: str | None, scope: Scope | None) -> CapsuleRef | None:
        if capsule_id is not None:
            capsule = self.store.capsule_ref(require_id(capsule_id, "capsule_id"))
            if capsule is None:
                raise NotFoundError(f"no capsule with id {capsule_id!r}")
            if capsule.status != "open":
                raise ConflictError(f"capsule {capsule_id} is closed; open a new capsule")
            return capsule
        session = require_scope(scope).session_id
        if session is None:
            return None
        return self.store.find_open_capsule(Scope(), session_id=session)

    def add_summary(
        self,
        capsule_id: str,
        *,
        content: str,
        confidence: float = 0.5,
        evidence_refs: Sequence[str] | None = None,
        created_at: int | None = None,
    ) -> Summary:
        """Set the summary of a capsule (one per capsule: a second call replaces the first)."""
        capsule = self.get_capsule(require_id(capsule_id, "capsule_id"))
        text, _ = cap_content(self._clean(require_text(content, "summary content")))
        conf = require_confidence(confidence)
        refs = self._evidence(evidence_refs)
        summary = Summary(
            id=new_id(),
            capsule_id=capsule.id,
            content=text,
            confidence=conf,
            created_at=require_ts(created_at, "created_at")
            if created_at is not None
            else self.clock(),
            evidence_refs=refs,
        )
        return self.store.upsert_summary(summary)

    def _evidence(self, refs: Sequence[str] | None) -> tuple[str, ...]:
        if refs is None:
            return ()
        if isinstance(refs, str) or not isinstance(refs, Sequence):
            raise InvalidInputError("evidence_refs must be a list of observation ids")
        ids = tuple(dict.fromkeys(require_id(r, "evidence ref") for r in refs))
        missing = sorted(set(ids) - set(self.store.get_observations(ids)))
        if missing:
            raise NotFoundError(f"evidence refs name unknown observations: {', '.join(missing)}")
        return ids

    def close_capsule(
        self,
        capsule_id: str,
        *,
        summary: str | None = None,
        confidence: float | None = None,
        evidence_refs: Sequence[str] | None = None,
        closed_at: int | None = None,
    ) -> Capsule:
        """Close an open capsule, optionally setting its summary in the same transaction."""
        capsule = self.get_capsule(require_id(capsule_id, "capsule_id"))
        if capsule.status == "closed":
            raise ConflictError(f"capsule {capsule_id} is already closed")
        if summary is None and (confidence is not None or evidence_refs is not None):
            raise InvalidInputError("confidence and evidence_refs need a summary text")
        when = require_ts(closed_at, "closed_at") if closed_at is not None else self.clock()
        with self.store.transaction():
            if summary is not None:
                self.add_summary(
                    capsule.id,
                    content=summary,
                    confidence=0.5 if confidence is None else confidence,
                    evidence_refs=evidence_refs,
                    created_at=when,
                )
            self.store.set_capsule_closed(capsule.id, when)
        return self.get_capsule(capsule.id)

    def pin(
        self,
        target_type: TargetType,
        target_id: str,
        *,
        reason: str | None = None,
        expires_at: int | None = None,
        ttl_ms: int | None = None,
        scope: Scope | None = None,
    ) -> Pin:
        """Pin an observation or summary. Its scope defaults to the target's scope."""
        ttype: TargetType = require_choice(target_type, TARGET_TYPES, "pin target type")
        target = self.get(require_id(target_id, "target_id"), ttype)
        if expires_at is not None and ttl_ms is not None:
            raise InvalidInputError("give expires_at or ttl_ms, not both")
        now = self.clock()
        if ttl_ms is not None:
            if isinstance(ttl_ms, bool) or not isinstance(ttl_ms, int) or ttl_ms <= 0:
                raise InvalidInputError("ttl_ms must be a positive number of milliseconds")
            expires_at = now + ttl_ms
            if expires_at > MAX_TS:
                raise InvalidInputError(
                    f"ttl_ms reaches past the year 9999; use at most {MAX_TS - now} ms"
                )
        elif expires_at is not None:
            require_ts(expires_at, "expires_at")
        if reason is not None:
            reason, _ = cap_content(self._clean(require_text(reason, "reason")))
        pin = Pin(
            id=new_id(),
            target_type=ttype,
            target_id=target.id,
            reason=reason,
            created_at=now,
            expires_at=expires_at,
            scope=require_scope(scope) if scope is not None else self._scope_of(target),
        )
        self.store.insert_pin(pin)
        return pin

    def _scope_of(self, target: Entity) -> Scope:
        if isinstance(target, Observation):
            return target.scope
        return self.get_capsule(target.capsule_id).scope

    def unpin(self, pin_id: str) -> None:
        if not self.store.delete_pin(require_id(pin_id, "pin_id")):
            raise NotFoundError(f"no pin with id {pin_id!r}; list pins with list_pins()")

    # ------------------------------------------------------------------ reads

    def get_observation(self, observation_id: str) -> Observation:
        found = self.store.get_observations([observation_id]).get(observation_id)
        if found is None:
            raise NotFoundError(f"no observation with id {observation_id!r}")
        return found

    def get_capsule(self, capsule_id: str) -> Capsule:
        found = self.store.get_capsule(capsule_id)
        if found is None:
            raise NotFoundError(f"no capsule with id {capsule_id!r}")
        return found

    def get_summary(self, summary_id: str) -> Summary:
        found = self.store.get_summary(summary_id)
        if found is None:
            raise NotFoundError(f"no summary with id {summary_id!r}")
        return found

    def get_pin(self, pin_id: str) -> Pin:
        found = self.store.get_pin(pin_id)
        if found is None:
            raise NotFoundError(f"no pin with id {pin_id!r}")
        return found

    def get(self, entity_id: str, target_type: TargetType) -> Entity:
        if target_type == "observation":
            return self.get_observation(entity_id)
        return self.get_summary(entity_id)

    def list_observations(
        self,
        *,
        kind: ObservationKind | None = None,
        scope: Scope | None = None,
        capsule_id: str | None = None,
        limit: int = 50,
    ) -> list[Observation]:
        """Newest first (or in capsule order when ``capsule_id`` is given)."""
        if kind is not None:
            require_choice(kind, OBSERVATION_KINDS, "observation kind")
        return self.store.list_observations(
            kind=kind, scope=require_scope(scope), capsule_id=capsule_id, limit=require_limit(limit)
        )

    def list_capsules(
        self,
        *,
        status: CapsuleStatus | None = None,
        scope: Scope | None = None,
        limit: int = 50,
    ) -> list[Capsule]:
        if status is not None:
            require_choice(status, CAPSULE_STATUSES, "capsule status")
        return self.store.list_capsules(
            status=status, scope=require_scope(scope), limit=require_limit(limit)
        )

    def list_summaries(self, *, scope: Scope | None = None, limit: int = 50) -> list[Summary]:
        return self.store.list_summaries(scope=require_scope(scope), limit=require_limit(limit))

    def list_pins(
        self, *, scope: Scope | None = None, active_at: int | None = None, limit: int = 50
    ) -> list[Pin]:
        """Newest first; with ``active_at`` only pins not yet expired at that time."""
        if active_at is not None:
            require_ts(active_at, "active_at")
        return self.store.list_pins(
            scope=require_scope(scope), active_at=active_at, limit=require_limit(limit)
        )

    def stats(self) -> StoreStats:
        return self.store.stats()

    # ------------------------------------------------------------------ retrieval

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
        """What matters now: active pins, the current summary, then ranked candidates.

        Any text is a valid query (see ``store.fts``); the empty query ranks by recency. The
        same store state, query, scope and ``now`` give the same result, byte for byte.
        """
        if query is None:
            query = ""
        if not isinstance(query, str):
            raise InvalidInputError("query must be a string")
        if token_budget is not None and (
            isinstance(token_budget, bool) or not isinstance(token_budget, int) or token_budget < 0
        ):
            raise InvalidInputError("token_budget must be a non-negative integer or None")
        if intent is not None and not isinstance(intent, str):
            raise InvalidInputError("intent must be a string or None")
        from kindling.retrieval.orchestrator import RetrieveRequest
        from kindling.retrieval.orchestrator import retrieve as run_retrieval

        request = RetrieveRequest(
            query=query,
            scope=require_scope(scope),
            token_budget=token_budget,
            max_candidates=require_limit(max_candidates, "max_candidates"),
            include_redacted=bool(include_redacted),
            intent=intent,
            now=require_ts(now, "now") if now is not None else None,
        )
        return run_retrieval(
            self.store, self.provider, self.tokenizer, request, wall_clock_ms=self.clock()
        )

    # ------------------------------------------------------------------ chat memories

    def add_memory(
        self, workspace: str, content: str, fields: MemoryFields | None = None
    ) -> Memory:
        """Store a memory of ``workspace`` (any stable name, e.g. a canonical directory path):
        a summary of its own closed capsule scoped to ``repo_id=workspace``, with structured
        ``fields`` (None: a legacy plain-text memory). An Active memory with a ``topic_id``
        marks the other Active memories of that topic in the workspace Superseded: the newest
        write wins. One transaction."""
        where = require_text(workspace, "workspace")
        text, _ = cap_content(self._clean(require_text(content, "memory content")))
        checked = check_memory_fields(fields) if fields is not None else None
        now = self.clock()
        session = checked.session_id if checked is not None else None
        capsule = Capsule(
            id=new_id(),
            type="session",
            intent=memory_intent(checked.topic if checked else None, text),
            status="closed",
            opened_at=now,
            closed_at=now,
            scope=Scope(repo_id=where, session_id=session),
        )
        summary = Summary(
            id=new_id(), capsule_id=capsule.id, content=text, confidence=0.5, created_at=now
        )
        details: SummaryDetails | None = None
        superseded: tuple[str, ...] = ()
        with self.store.transaction():
            self.store.insert_capsule(capsule)
            self.store.upsert_summary(summary)
            if checked is not None:
                details = SummaryDetails(
                    summary_id=summary.id,
                    topic=checked.topic,
                    status=checked.status,
                    created_at=now,
                    updated_at=now,
                    context=checked.context,
                    topic_id=checked.topic_id,
                    plan_id=checked.plan_id,
                    session_id=checked.session_id,
                    source_created_at=checked.source_created_at,
                    decisions=checked.decisions,
                    rationale=checked.rationale,
                    open_questions=checked.open_questions,
                    next_steps=checked.next_steps,
                    references=checked.references,
                )
                if self.scrubs_secrets:
                    details = scrub_details(details)
                self.store.insert_summary_details(details)
                if details.status == "Active" and details.topic_id is not None:
                    superseded = tuple(
                        self.store.supersede_active(
                            where, details.topic_id, keep_id=summary.id, updated_at=now
                        )
                    )
        return Memory(where, summary, details, superseded)

    def search_memories(
        self, workspace: str, query: str, *, limit: int = MAX_LIMIT
    ) -> list[MemoryMatch]:
        """The memories of ``workspace`` (every summary scoped to it; those without details are
        legacy) whose text matches ``query``, by text relevance alone, best first."""
        where = require_text(workspace, "workspace")
        if not isinstance(query, str):
            raise InvalidInputError("query must be a string")
        from kindling.retrieval.relevance import summaries_by_relevance
        from kindling.retrieval.scoring import DEFAULT_WEIGHTS

        found = summaries_by_relevance(
            self.store,
            query,
            Scope(repo_id=where),
            limit=require_limit(limit),
            weights=self._weights or DEFAULT_WEIGHTS,
        )
        details = self.store.get_summary_details([f.summary.id for f in found])
        return [
            MemoryMatch(Memory(where, f.summary, details.get(f.summary.id)), f.relevance)
            for f in found
        ]
