"""``RemoteKindling``: every ``Memory`` verb, over ``kindling serve``.

Each verb is one request and returns the typed value the local engine returns, read from the
wire JSON by ``model.wire`` (the one reader of every ``to_dict``). Text to be stored is
scrubbed of secrets and cut to the content cap here, as the engine does, before it leaves the
machine (``forget_matching`` says why its text is not). The capture, forget, retrieve and
chat-memory verbs are here; the reads, status, export and import in ``client.reads``.

It is a ``Memory`` and not a ``LocalMemory``: the verbs of a database itself (``stats``: whole-
store counts are not one token's to see, ``status`` gives the server's facts;
``semantic_index``) are not here, nor are tokens (the team directory's, on the server's
database), and an adapter that needs them refuses remote mode itself. ``batch()`` groups
nothing: every request is its own transaction on the server (``append_many`` is one request,
one transaction). ``now`` fixes the time of every write (``KINDLING_NOW``), as it fixes a local
engine's clock.

Must not be imported by the core; imports only the core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from types import TracebackType
from typing import TYPE_CHECKING, Any

from kindling.client.reads import RemoteReads, parsing
from kindling.client.transport import RemoteClient
from kindling.errors import InvalidInputError
from kindling.memory import Memory
from kindling.model import (
    Capsule,
    CapsuleType,
    NewObservation,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    TargetType,
    wire,
)
from kindling.model.reports import ForgetReport
from kindling.model.sanitize import (
    MAX_LIMIT,
    cap_content,
    require_provenance,
    require_text,
    wall_clock_ms,
)
from kindling.secrets.privacy import scrub_content, scrub_text

if TYPE_CHECKING:
    from kindling.model import ChatMemory, ChatMemoryFields, ChatMemoryMatch, RetrieveResult
    from kindling.retrieval.budget import Tokenizer


def _scope(scope: Scope | Mapping[str, Any] | None) -> dict[str, str] | None:
    if scope is None:
        return None
    return (scope if isinstance(scope, Scope) else Scope.from_dict(scope)).to_dict()


def _drop_none(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _clean(value: Any) -> Any:
    return scrub_text(value) if isinstance(value, str) else value


def ready(new: NewObservation) -> NewObservation:
    """An observation as the engine would store it: scrubbed, then cut to the content cap (the
    cut recorded in its provenance), so the server receives what it would keep."""
    text = require_text(new.content, "content")
    prov = require_provenance(new.provenance)
    text, prov = scrub_content(text, prov)
    text, original = cap_content(text)
    if original is not None:
        prov["contentTruncatedFromBytes"] = original
    return NewObservation(new.kind, text, new.scope, prov or None, new.ts, new.capsule_id, new.id)


class RemoteKindling(RemoteReads):
    """A ``Memory`` whose verbs go to a server (see the module docstring)."""

    def __init__(
        self,
        url: str,
        token: str | None,
        *,
        timeout_s: float | None = None,
        now: int | None = None,
    ) -> None:
        self.now = now  # a fixed clock (``KINDLING_NOW``): the time of every write too
        self.clock: Callable[[], int] = lambda: wall_clock_ms() if self.now is None else self.now
        self.client = (
            RemoteClient(url, token)
            if timeout_s is None
            else RemoteClient(url, token, timeout_s=timeout_s)
        )

    def __enter__(self) -> RemoteKindling:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        return None

    @contextmanager
    def batch(self) -> Iterator[None]:
        yield

    @property
    def tokenizer(self) -> Tokenizer:
        from kindling.retrieval.budget import CharTokenizer

        return CharTokenizer()

    def _when(self, value: int | None) -> int | None:
        return value if value is not None else self.now

    # ------------------------------------------------------------------ capture

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
        new = ready(
            NewObservation(kind, content, scope, provenance, self._when(ts), capsule_id, id)
        )
        answer = self.client.call("append_observation", wire.new_observation_to_dict(new))
        with parsing("observation"):
            return wire.observation(answer)

    def append_many(self, observations: Iterable[NewObservation]) -> list[Observation]:
        items = []
        for index, new in enumerate(observations):
            try:
                timed = new if new.ts is not None or self.now is None else replace(new, ts=self.now)
                items.append(wire.new_observation_to_dict(ready(timed)))
            except InvalidInputError as exc:
                raise InvalidInputError(f"observation {index}: {exc}") from exc
        answer = self.client.call("append_many", {"observations": items})
        with parsing("observations"):
            return [wire.observation(o, "observation") for o in answer]

    def open_capsule(
        self,
        *,
        intent: str,
        scope: Scope | None = None,
        type: CapsuleType = "session",
        id: str | None = None,
        opened_at: int | None = None,
    ) -> Capsule:
        body = _drop_none(
            intent=_clean(intent),
            scope=_scope(scope),
            type=type,
            id=id,
            opened_at=self._when(opened_at),
        )
        answer = self.client.call("open_capsule", body)
        with parsing("capsule"):
            return wire.capsule(answer)

    def close_capsule(
        self,
        capsule_id: str,
        *,
        summary: str | None = None,
        confidence: float | None = None,
        evidence_refs: Sequence[str] | None = None,
        closed_at: int | None = None,
    ) -> Capsule:
        body = _drop_none(
            summary=_clean(summary),
            confidence=confidence,
            evidence_refs=None if evidence_refs is None else list(evidence_refs),
            closed_at=self._when(closed_at),
        )
        answer = self.client.call("close_capsule", body, entity_id=capsule_id)
        with parsing("capsule"):
            return wire.capsule(answer)

    def add_summary(
        self,
        capsule_id: str,
        *,
        content: str,
        confidence: float = 0.5,
        evidence_refs: Sequence[str] | None = None,
        created_at: int | None = None,
    ) -> Summary:
        body = _drop_none(
            capsule_id=capsule_id,
            content=_clean(content),
            confidence=confidence,
            evidence_refs=None if evidence_refs is None else list(evidence_refs),
            created_at=self._when(created_at),
        )
        answer = self.client.call("add_summary", body)
        with parsing("summary"):
            return wire.summary(answer)

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
    ) -> Pin:
        body = _drop_none(
            target_type=target_type,
            target_id=target_id,
            reason=_clean(reason),
            expires_at=expires_at,
            ttl_ms=ttl_ms,
            scope=_scope(scope),
            created_at=self._when(created_at),
        )
        answer = self.client.call("pin", body)
        with parsing("pin"):
            return wire.pin(answer)

    def unpin(self, pin_id: str) -> None:
        self.client.call("unpin", entity_id=pin_id)

    # ------------------------------------------------------------------ forget

    def _forget(self, body: dict[str, Any]) -> ForgetReport:
        answer = self.client.call("forget", body)
        with parsing("forget"):
            return wire.forget_report(answer)

    def forget(self, entity_id: str, *, dry_run: bool = False) -> ForgetReport:
        return self._forget({"id": entity_id, "dry_run": True} if dry_run else {"id": entity_id})

    def forget_matching(self, text: str, *, dry_run: bool = False) -> ForgetReport:
        """Every copy of ``text`` among what the token may touch (the server decides). The
        text goes to the server as typed, not scrubbed: masking it would turn the secret into
        the mask (``[REDACTED:github_token]``), which matches every masked secret of that
        kind. It is in no error message and no log, on either side."""
        return self._forget({"match": text, "dry_run": dry_run})

    def finish_forget(self, *, wait_ms: int = 2000) -> ForgetReport:
        answer = self.client.call("finish_forget", {"wait_ms": wait_ms})
        with parsing("forget"):
            return wire.forget_report(answer)

    # ------------------------------------------------------------------ retrieve

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
        body = _drop_none(
            query=query,
            scope=_scope(scope),
            token_budget=token_budget,
            max_candidates=max_candidates,
            include_redacted=include_redacted,
            intent=intent,
            now=now,
        )
        answer = self.client.call("retrieve", body)
        with parsing("retrieve"):
            return wire.retrieve_result(answer)

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
        clean = None
        if fields is not None:
            from kindling.model.memory_checks import check_memory_fields

            clean = wire.fields_to_dict(_scrubbed(check_memory_fields(fields)))
        body = _drop_none(
            workspace=workspace,
            content=_clean(content),
            fields=clean,
            created_at=self._when(created_at),
        )
        answer = self.client.call("add_memory", body)
        with parsing("memory"):
            return wire.memory(answer)

    def search_memories(
        self, workspace: str, query: str, *, limit: int = MAX_LIMIT
    ) -> list[ChatMemoryMatch]:
        body = {"workspace": workspace, "query": query, "limit": limit}
        answer = self.client.call("search_memories", body)
        with parsing("memories"):
            return [wire.memory_match(m) for m in answer]


def _scrubbed(fields: ChatMemoryFields) -> ChatMemoryFields:
    """A memory's fields scrubbed, as the engine scrubs its details."""
    many = (fields.decisions, fields.rationale, fields.open_questions, fields.next_steps)
    decisions, rationale, questions, steps = (tuple(map(scrub_text, v)) for v in many)
    return replace(
        fields,
        topic=scrub_text(fields.topic),
        context=_clean(fields.context),
        decisions=decisions,
        rationale=rationale,
        open_questions=questions,
        next_steps=steps,
        references=tuple(map(scrub_text, fields.references)),
    )


_IS_MEMORY: type[Memory] = RemoteKindling  # mypy: every verb of Memory, with its signature
