"""The MCP tools: one ``Kindling`` call each, answered in the compact shapes of ``render``.

``retrieve``, ``remember``, ``pin``, ``unpin``, ``forget``, ``recent`` and ``status`` are here;
``timeline`` and ``get`` (opening a hit) in ``disclosure``. Bad values are tool errors in one
plain sentence; queries are capped at ``MAX_QUERY_CHARS``. The default scope is the repository
root of the working directory; ``repo`` overrides it (``"*"`` = every one). Each call opens the
database (applying the spool) and closes it, so the server holds no lock between calls and
shares no connection between threads.

Adapter: no SQL, no ranking. Must not be imported by the core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Annotated, Literal

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult
from pydantic import Field

import kindling.mcp.render as render
from kindling import KindlingError, Scope, __version__
from kindling.config import repo_root
from kindling.entry import connect
from kindling.errors import NotFoundError
from kindling.mcp.disclosure import DisclosureTools
from kindling.memory import Memory
from kindling.model import ServerStatus

ALL_REPOS = "*"
MAX_QUERY_CHARS = 2000  # a question, not a document: a 5 MB query once took 15 s
MAX_TTL_MINUTES = 100 * 365 * 24 * 60  # a century; beyond it a pin is simply permanent
KINDS = Literal["message", "error", "command", "file_diff", "tool_call"]

RepoArg = Annotated[
    str | None,
    Field(
        description="Repository to use: a path (its git root is used) or a stored repo id; "
        "'*' for every repository. Default: the server's repository."
    ),
]


class KindlingTools(DisclosureTools):
    """The tools, bound to one database path and one default repository."""

    def __init__(
        self, db: Path, default_repo: str, opener: Callable[[], Memory] | None = None
    ) -> None:
        self.db = db
        self.default_repo = default_repo
        # The CLI passes its own opener (``entry.chosen``'s: a postgresql:// database, or remote
        # mode, where every tool asks the server); alone, the tools open the file ``db``.
        self._open = opener or (lambda: connect(self.db))

    @contextmanager
    def _kd(self) -> Iterator[Memory]:
        try:
            with self._open() as kd:
                yield kd
        except KindlingError as exc:
            raise render.fail(exc) from None

    def scope(self, repo: str | None, session_id: str | None = None) -> Scope:
        try:
            if repo == ALL_REPOS:
                return Scope(session_id=session_id)
            where = self.default_repo if repo is None else repo
            if Path(where).expanduser().is_dir():
                where = repo_root(str(Path(where).expanduser()))
            return Scope(repo_id=where, session_id=session_id)
        except KindlingError as exc:
            raise render.fail(exc) from None

    # ------------------------------------------------------------------ tools

    def retrieve(
        self,
        query: Annotated[
            str,
            Field(description="What you want to know, in plain words.", max_length=MAX_QUERY_CHARS),
        ],
        repo: RepoArg = None,
        session_id: Annotated[str | None, Field(description="Only this session.")] = None,
        token_budget: Annotated[
            int | None, Field(description="Cap on result tokens (4 chars a token).", ge=0)
        ] = 2000,
        max_candidates: Annotated[int, Field(ge=1, le=100)] = 10,
        explain: Annotated[
            bool, Field(description="Add each result's scoring factors (for debugging).")
        ] = False,
    ) -> CallToolResult:
        """Search Kindling's memory: active pins, the current session summary, then the
        observations and summaries that best match the query, best first, each with id,
        kind, age, score and snippet. An empty query lists recent work."""
        scope = self.scope(repo, session_id)
        with self._kd() as kd:
            try:
                result = kd.retrieve(
                    query, scope=scope, token_budget=token_budget, max_candidates=max_candidates
                )
            except KindlingError as exc:
                raise render.fail(exc) from None
            now = kd.clock()
        pins = [
            {
                "pinId": p.pin.id,
                **render.brief(p.target, now),
                "reason": p.pin.reason,
                "snippet": render.line(p.target.content),
            }
            for p in result.pins
        ]
        summary = result.current_summary
        results = []
        for c in result.relevant():  # the shared "nothing relevant" cut
            item = {
                **render.brief(c.entity, now),
                "score": round(c.score, 3),
                "snippet": render.line(c.match_context or c.entity.content),
            }
            if explain:
                item["explanation"] = c.explanation.to_dict()
            results.append(item)
        prov = result.provenance
        return render.result(
            {
                "pins": pins,
                "currentSummary": None
                if summary is None
                else {**render.brief(summary, now), "snippet": render.line(summary.content)},
                "results": results,
                "more": prov.total_candidates > prov.returned_candidates,
            }
        )

    def remember(
        self,
        content: Annotated[str, Field(description="The fact, decision or finding to keep.")],
        kind: Annotated[
            KINDS, Field(description="message for notes and decisions; error for a failure.")
        ] = "message",
        pin: Annotated[bool, Field(description="Also pin it so it is always retrieved.")] = False,
        reason: Annotated[str | None, Field(description="Why it is pinned.")] = None,
        repo: RepoArg = None,
    ) -> CallToolResult:
        """Store a note (an observation) for this repository, optionally pinned."""
        scope = self.scope(repo)
        with self._kd() as kd:
            try:
                with kd.batch():
                    obs = kd.append_observation(
                        kind=kind, content=content, scope=scope, provenance={"source": "mcp"}
                    )
                    pinned = kd.pin("observation", obs.id, reason=reason) if pin else None
            except KindlingError as exc:
                raise render.fail(exc) from None
        return render.result(
            {"id": obs.id, "kind": obs.kind, "pinId": pinned.id if pinned else None}
        )

    def pin(
        self,
        target_id: Annotated[str, Field(description="Id of an observation or summary.")],
        target_type: Literal["observation", "summary"] = "observation",
        reason: str | None = None,
        ttl_minutes: Annotated[
            int | None, Field(description="Expire after this long.", ge=1, le=MAX_TTL_MINUTES)
        ] = None,
    ) -> CallToolResult:
        """Pin an observation or summary so retrieval always shows it (until unpinned)."""
        with self._kd() as kd:
            try:
                ttl = ttl_minutes * 60_000 if ttl_minutes else None
                made = kd.pin(target_type, target_id, reason=reason, ttl_ms=ttl)
            except KindlingError as exc:
                raise render.fail(exc) from None
        return render.result(
            {
                "pinId": made.id,
                "targetType": made.target_type,
                "targetId": made.target_id,
                "reason": made.reason,
                "expiresAt": made.expires_at,
            }
        )

    def unpin(self, pin_id: Annotated[str, Field(description="Id of the pin.")]) -> CallToolResult:
        """Remove a pin (the pinned observation or summary itself stays)."""
        with self._kd() as kd:
            try:
                kd.unpin(pin_id)
            except NotFoundError:
                # the library's message names a Python function; an agent has tools
                raise ToolError(
                    f"not_found: no pin with id {pin_id!r}; retrieve lists the active pins "
                    "with their pinId"
                ) from None
            except KindlingError as exc:
                raise render.fail(exc) from None
        return render.result({"unpinned": pin_id})

    def forget(
        self,
        observation_id: Annotated[
            str | None, Field(description="Id of the observation, summary or pin to forget.")
        ] = None,
        match: Annotated[
            str | None,
            Field(
                description="Forget every observation, summary, pin reason and capsule intent "
                "containing this text (at least 3 characters) instead of one id.",
                max_length=MAX_QUERY_CHARS,
            ),
        ] = None,
        dry_run: Annotated[
            bool, Field(description="With match: only count what would be forgotten.")
        ] = False,
    ) -> CallToolResult:
        """Forget for good: the text becomes [redacted] everywhere it was copied (index,
        summaries, pin reasons) and leaves the database files. Give one id, or a match text.
        Cannot be undone; `complete` is false while another process still holds old pages."""
        if (observation_id is None) == (match is None):
            raise ToolError("Give exactly one of observation_id or match.")
        with self._kd() as kd:
            try:
                if match is not None:
                    report = kd.forget_matching(match, dry_run=dry_run)
                else:
                    report = kd.forget(observation_id or "")
            except KindlingError as exc:
                raise render.fail(exc) from None
        return render.result(report.to_dict())

    def recent(
        self,
        limit: Annotated[int, Field(ge=1, le=200)] = 10,
        kind: KINDS | None = None,
        repo: RepoArg = None,
    ) -> CallToolResult:
        """The newest observations in this repository, newest first."""
        scope = self.scope(repo)
        with self._kd() as kd:
            try:
                found = kd.list_observations(kind=kind, scope=scope, limit=limit)
            except KindlingError as exc:
                raise render.fail(exc) from None
            now = kd.clock()
        items = [{**render.brief(o, now), "snippet": render.line(o.content)} for o in found]
        return render.result({"observations": items})

    def status(self) -> CallToolResult:
        """Where the database is, the default repository, and what the store holds."""
        with self._kd() as kd:
            here = self.scope(None)
            doc = kd.status()
            if isinstance(doc, ServerStatus):  # remote mode: the server's facts, not counts
                mine: dict[str, int] = {}
                with suppress(KindlingError):  # a team may not be granted the default repository
                    mine["openCapsulesInDefaultRepo"] = len(
                        kd.list_capsules(status="open", scope=here, limit=100)
                    )
                return render.result(
                    {
                        "server": doc.server,
                        "defaultRepo": self.default_repo,
                        "version": __version__,
                        "serverVersion": doc.version,
                        "backend": doc.backend,
                        "schemaVersion": doc.schema_version,
                        "user": doc.user,
                        "team": doc.team,
                        "repos": list(doc.repos),
                        **mine,
                    }
                )
            open_here = kd.list_capsules(status="open", scope=here, limit=100)
            stats = doc.stats
        return render.result(
            {
                "db": str(self.db),
                "defaultRepo": self.default_repo,
                "version": __version__,
                "schemaVersion": stats.schema_version,
                "observationsByKind": stats.observations_by_kind,
                "redactedObservations": stats.redacted_observations,
                "capsulesByStatus": stats.capsules_by_status,
                "summaries": stats.summaries,
                "pins": stats.pins,
                "openCapsulesInDefaultRepo": len(open_here),
            }
        )
