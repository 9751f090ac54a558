"""``Kindling.retrieve()``: its arguments checked, then the three-tier orchestration
(``retrieval.orchestrator``), imported on first use so capture never pays for it.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from kindling.engine.base import EngineBase
from kindling.errors import InvalidInputError
from kindling.model import RetrieveResult, Scope
from kindling.model.sanitize import require_limit, require_scope, require_ts


class RetrieveVerbs(EngineBase):
    """What matters now."""

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
