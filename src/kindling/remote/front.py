"""``RemoteKindling``: the ``Kindling`` verbs the CLI uses, over ``kindling serve``.

Each verb is one request and returns the typed value the local engine returns, parsed from
the wire JSON (entities with the bundle's parsers, so both read the same shapes). Text to be
stored is scrubbed of secrets here, before it leaves the machine (``forget_matching`` says why
its text is not). The capture verbs, ``forget`` and ``retrieve`` are here, the reads (listings,
lookups, status, export, import) in ``remote.reads``. Verbs the HTTP API does not offer
(``stats``: whole-store counts; ``finish_forget``...) raise a ``RemoteError`` that says so.
``batch()`` groups nothing: every request is its own transaction on the server.

Must not be imported by the core; imports only the core.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Any, NoReturn

from kindling.bundle import parse_observation, parse_pin, parse_summary
from kindling.capture.privacy import scrub_content, scrub_text
from kindling.capture.sanitize import wall_clock_ms
from kindling.errors import InvalidInputError
from kindling.forgetting import ForgetReport
from kindling.model import (
    CandidateResult,
    Capsule,
    Explanation,
    Observation,
    Pin,
    PinResult,
    RetrieveProvenance,
    RetrieveResult,
    Scope,
    Summary,
)
from kindling.remote.client import RemoteClient, RemoteError, path_id
from kindling.remote.reads import RemoteReads, capsule_of, entity_of

if TYPE_CHECKING:
    from kindling.retrieval.budget import Tokenizer


def _scope(scope: Scope | Mapping[str, Any] | None) -> dict[str, str] | None:
    if scope is None:
        return None
    return (scope if isinstance(scope, Scope) else Scope.from_dict(scope)).to_dict()


def _drop_none(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _explanation(e: Mapping[str, Any]) -> Explanation:
    return Explanation(
        relevance=e["relevance"],
        bm25=e["bm25"],
        recency=e["recency"],
        age_ms=e["ageMs"],
        scope=e["scope"],
        intent=e["intent"],
        confidence=e["confidence"],
        source=e["source"],
        score=e["score"],
        matched_terms=tuple(e["matchedTerms"]),
        why=e["why"],
        # later fields: an older server may not send them
        context_only=bool(e.get("contextOnly", False)),
        need=e.get("need"),
        signals={str(k): float(v) for k, v in (e.get("signals") or {}).items()},
    )


def parse_result(data: Mapping[str, Any]) -> RetrieveResult:
    """Seed 000's ``RetrieveResult.to_dict`` JSON back into the typed value."""
    try:
        p = data["provenance"]
        current = data["currentSummary"]
        return RetrieveResult(
            pins=tuple(
                PinResult(
                    parse_pin(x["pin"], "pin"), entity_of(x["pin"]["targetType"], x["target"])
                )
                for x in data["pins"]
            ),
            current_summary=None if current is None else parse_summary(current, "currentSummary"),
            candidates=tuple(
                CandidateResult(
                    entity=entity_of(c["targetType"], c["entity"]),
                    score=c["score"],
                    match_context=c["matchContext"],
                    explanation=_explanation(c["explanation"]),
                )
                for c in data["candidates"]
            ),
            provenance=RetrieveProvenance(
                query=p["query"],
                scope=Scope.from_dict(p["scopeIds"]),
                total_candidates=p["totalCandidates"],
                returned_candidates=p["returnedCandidates"],
                truncated_due_to_token_budget=p["truncatedDueToTokenBudget"],
                provider_used=p["providerUsed"],
                query_mode=p["queryMode"],
                fts_query=p["ftsQuery"],
                token_budget=p["tokenBudget"],
                tokens_used=p["tokensUsed"],
                now=p["now"],
                dropped_terms=tuple(p.get("droppedTerms", ())),
                phrase_fallback=tuple(p.get("phraseFallback", ())),
            ),
        )
    except (KeyError, TypeError, InvalidInputError) as exc:
        raise RemoteError(f"the server's retrieve answer is not seed 000 JSON ({exc})") from None


def _report(answer: Any) -> ForgetReport:
    """The server's forget report (``ForgetReport.to_dict``), parsed back."""
    try:
        return ForgetReport(
            id=answer["id"],
            observations=tuple(answer["observations"]),
            summaries=tuple(answer["summaries"]),
            pins=tuple(answer["pins"]),
            capsules=tuple(answer["capsules"]),
            complete=bool(answer["complete"]),
            holders=tuple(answer["holders"]),
            dry_run=bool(answer.get("dryRun")),
            remains=str(answer.get("remains") or ""),  # what a PostgreSQL server keeps
        )
    except (KeyError, TypeError) as exc:
        raise RemoteError(f"the server's forget answer is not a report ({exc})") from None


class RemoteKindling(RemoteReads):
    """A stand-in for ``Kindling`` whose verbs go to a server (see the module docstring)."""

    def __init__(self, url: str, token: str | None, *, timeout_s: float | None = None) -> None:
        self.clock = wall_clock_ms  # "now" of the caller's relative times, as Kindling's
        self.client = (
            RemoteClient(url, token)
            if timeout_s is None
            else RemoteClient(url, token, timeout_s=timeout_s)
        )

    def __enter__(self) -> RemoteKindling:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
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

    def __getattr__(self, name: str) -> NoReturn:
        raise RemoteError(
            f"{name} is not available in remote mode (KINDLING_URL); "
            "run it on the server's database, or unset KINDLING_URL"
        )

    def append_observation(
        self,
        *,
        kind: str,
        content: str,
        scope: Scope | None = None,
        provenance: Mapping[str, Any] | None = None,
        ts: int | None = None,
        capsule_id: str | None = None,
        id: str | None = None,
    ) -> Observation:
        if not isinstance(content, str):
            raise InvalidInputError("content must be a string")
        text, prov = scrub_content(content, dict(provenance or {}))
        body = _drop_none(
            kind=kind,
            content=text,
            scope=_scope(scope),
            provenance=prov or None,
            ts=ts,
            capsule_id=capsule_id,
            id=id,
        )
        return parse_observation(self.client.call("POST", "/v1/observations", body), "observation")

    def open_capsule(
        self,
        *,
        intent: str,
        scope: Scope | None = None,
        type: str = "session",
        id: str | None = None,
        opened_at: int | None = None,
    ) -> Capsule:
        body = _drop_none(
            intent=scrub_text(intent) if isinstance(intent, str) else intent,
            scope=_scope(scope),
            type=type,
            id=id,
            opened_at=opened_at,
        )
        return capsule_of(self.client.call("POST", "/v1/capsules", body), "capsule")

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
            summary=scrub_text(summary) if isinstance(summary, str) else summary,
            confidence=confidence,
            evidence_refs=None if evidence_refs is None else list(evidence_refs),
            closed_at=closed_at,
        )
        answer = self.client.call("POST", f"/v1/capsules/{path_id(capsule_id)}/close", body)
        return capsule_of(answer, "capsule")

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
            content=scrub_text(content) if isinstance(content, str) else content,
            confidence=confidence,
            evidence_refs=None if evidence_refs is None else list(evidence_refs),
            created_at=created_at,
        )
        return parse_summary(self.client.call("POST", "/v1/summaries", body), "summary")

    def pin(
        self,
        target_type: str,
        target_id: str,
        *,
        reason: str | None = None,
        expires_at: int | None = None,
        ttl_ms: int | None = None,
        scope: Scope | None = None,
    ) -> Pin:
        body = _drop_none(
            target_type=target_type,
            target_id=target_id,
            reason=scrub_text(reason) if isinstance(reason, str) else reason,
            expires_at=expires_at,
            ttl_ms=ttl_ms,
            scope=_scope(scope),
        )
        return parse_pin(self.client.call("POST", "/v1/pins", body), "pin")

    def unpin(self, pin_id: str) -> None:
        self.client.call("DELETE", f"/v1/pins/{path_id(pin_id)}")

    def forget(self, entity_id: str, *, dry_run: bool = False) -> ForgetReport:
        body = {"id": entity_id, "dry_run": True} if dry_run else {"id": entity_id}
        return _report(self.client.call("POST", "/v1/forget", body))

    def forget_matching(self, text: str, *, dry_run: bool = False) -> ForgetReport:
        """Every copy of ``text`` among what the token may touch (the server decides). The
        text goes to the server as typed, not scrubbed: masking it would turn the secret into
        the mask (``[REDACTED:github_token]``), which matches every masked secret of that
        kind. It is in no error message and no log, on either side."""
        body = {"match": text, "dry_run": dry_run}
        return _report(self.client.call("POST", "/v1/forget", body))

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
        return parse_result(self.client.call("POST", "/v1/retrieve", body))
