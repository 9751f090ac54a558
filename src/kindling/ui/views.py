"""The read pages: repositories, a repository's or session's timeline (all kinds or one), one
item, pins and status (search is ``ui.search``). Each listing is one ``Source`` call (a
timeline page adds its scope's pins; a repository's first page its sessions and their
summaries), rendered by ``pages``.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kindling.errors import InvalidInputError
from kindling.model import Scope
from kindling.ui.markup import Markup, size, tag, when
from kindling.ui.pages import (
    Ctx,
    capsule_row,
    layout,
    link,
    observation,
    pager,
    pin_row,
    post_form,
    scope_line,
    summary_block,
)
from kindling.ui.source import Source

PAGE = 50  # observations per timeline page
SESSIONS = 20
PINS = 200  # the pins of a scope shown (and marked in its timeline)
KINDS = (
    (None, "all"),
    ("message", "messages"),
    ("command", "commands"),
    ("error", "errors"),
    ("file_diff", "edits"),
    ("tool_call", "tools"),
)  # newest capsules on a repository's page


def whole(params: Mapping[str, str], name: str, default: int, top: int) -> int:
    value = params.get(name)
    if value is None or value == "":
        return default
    if not (value.isascii() and value.isdigit() and 0 < int(value) <= top):
        raise InvalidInputError(f"{name} must be a whole number from 1 to {top}")
    return int(value)


async def repos(src: Source, ctx: Ctx, params: Mapping[str, str]) -> Markup:
    found = await src.run(src.repos)
    rows = [
        tag(
            "tr",
            None,
            tag("td", None, link(ctx, r["repoId"], "/repo", repo=r["repoId"])),
            tag("td", {"class": "num"}, r["observations"]),
            tag("td", None, when(r["lastTs"])),
        )
        for r in found
    ]
    table = tag(
        "table",
        {"class": "list"},
        tag(
            "tr",
            None,
            tag("th", None, "repository"),
            tag("th", None, "observations"),
            tag("th", None, "last activity"),
        ),
        *rows,
    )
    empty = tag("p", {"class": "muted"}, "No repository has observations yet.")
    extra = tag("p", None, link(ctx, "Everything, newest first", "/timeline"))
    return layout(ctx, "Repositories", table if rows else empty, extra)


async def choose_repo(src: Source, ctx: Ctx, path: str, params: Mapping[str, str]) -> Markup:
    """A team token reads one repository at a time: which one?"""
    found = await src.run(src.repos)
    rest = {k: v for k, v in params.items() if k != "repo"}
    links = [tag("li", None, link(ctx, r["repoId"], path, **rest, repo=r["repoId"])) for r in found]
    note = tag("p", {"class": "muted"}, "A team token reads one repository at a time.")
    return layout(ctx, "Choose a repository", note, tag("ul", None, *links))


async def timeline(src: Source, ctx: Ctx, params: Mapping[str, str], path: str) -> Markup:
    """``/repo``, ``/session`` and ``/timeline``: a keyset page of observations, newest first;
    a repository's page starts with its newest sessions (capsules)."""
    scope = Scope(repo_id=params.get("repo") or None, session_id=params.get("session") or None)
    if src.needs_repo and scope.repo_id is None:
        return await choose_repo(src, ctx, path, params)
    before = params.get("before") or None
    limit = whole(params, "limit", PAGE, 500)
    kind = params.get("kind") or None
    items = await src.run(lambda: src.observations(scope, before, limit, kind))
    title = f"Session {scope.session_id}" if scope.session_id else scope.repo_id or "Everything"
    body: list[object] = [tag("p", None, scope_line(ctx, scope.to_dict()))]
    pins = await src.run(lambda: src.pins(scope, PINS))
    if path == "/repo" and before is None:
        caps = await src.run(lambda: src.capsules(scope, SESSIONS))
        said = await src.run(lambda: src.summaries(scope, SESSIONS))
        by_capsule = {x["capsuleId"]: x for x in said}
        rows = (capsule_row(ctx, c, by_capsule.get(c["id"])) for c in caps)
        body += [tag("h2", None, "Sessions and capsules"), tag("ul", {"class": "capsules"}, *rows)]
        if not caps:
            body.append(tag("p", {"class": "muted"}, "no capsules"))
    if pins and before is None and kind is None and not scope.is_empty():  # everything: /pins
        body += [tag("h2", None, "Pinned"), tag("ul", None, *(pin_row(ctx, p) for p in pins))]
    pinned = {p["targetId"] for p in pins}
    search = tag(
        "form",
        {"method": "get", "action": ctx.url("/search"), "class": "scoped"},
        tag("input", {"type": "search", "name": "q", "placeholder": f"search in {title}"}),
        tag("input", {"type": "hidden", "name": "repo", "value": scope.repo_id})
        if scope.repo_id
        else "",
        tag("input", {"type": "hidden", "name": "session", "value": scope.session_id})
        if scope.session_id
        else "",
        tag("button", {"type": "submit"}, "Search"),
    )
    body += [
        tag("p", None, link(ctx, "pins here", "/pins", repo=scope.repo_id))
        if scope.repo_id
        else "",
        search,
        tag("h2", None, "Timeline"),
        _kinds(ctx, path, scope, kind),
        tag(
            "div",
            {"class": "timeline"},
            *(observation(ctx, o, pinned=o["id"] in pinned) for o in items),
        ),
        pager(ctx, path, items, limit, repo=scope.repo_id, session=scope.session_id, kind=kind),
    ]
    return layout(ctx, title, *body)


def _kinds(ctx: Ctx, path: str, scope: Scope, kind: str | None) -> Markup:
    """Links that show one kind of observation (the current one in bold)."""
    here = {"repo": scope.repo_id, "session": scope.session_id}
    shown: list[object] = ["show: "]
    for value, label in KINDS:
        name = tag("strong", None, label) if value == kind else label
        shown += [link(ctx, name, path, **here, kind=value), " "]
    return tag("p", {"class": "kinds"}, *shown)


async def item(src: Source, ctx: Ctx, params: Mapping[str, str]) -> Markup:
    entity_id = params.get("id") or ""
    if not entity_id:
        raise InvalidInputError("give an id")
    found = await src.run(lambda: src.item(entity_id))
    kind, links = kind_of(found), found.get("links") or {}
    body: list[object] = []
    if kind == "observation":
        body.append(observation(ctx, found, full=True))
        body.append(_provenance(found.get("provenance") or {}))
        body.append(tag("p", None, scope_line(ctx, found.get("scopeIds") or {})))
        caps = links.get("capsules") or []
        body.append(
            tag("p", None, "capsule: ", *(link(ctx, c, "/item", id=c) for c in caps))
            if caps
            else tag("p", {"class": "muted"}, "in no capsule")
        )
    elif kind == "capsule":
        body.append(
            tag(
                "p",
                None,
                tag("strong", None, found.get("intent")),
                " ",
                tag("span", {"class": "badge"}, found.get("status")),
                " opened ",
                when(found.get("openedAt")),
                " ",
                scope_line(ctx, found.get("scopeIds") or {}),
            )
        )
        body.append(summary_block(ctx, links.get("summary")))
        body.append(tag("h2", None, "Observations"))
        body.append(
            tag(
                "div",
                {"class": "timeline"},
                *(observation(ctx, o) for o in links.get("observations") or []),
            )
        )
    elif kind == "summary":
        body.append(summary_block(ctx, found))
        cap = found.get("capsuleId")
        body.append(tag("p", None, "capsule: ", link(ctx, cap, "/item", id=cap)))
        body += [tag("h2", None, "Evidence")]
        body += [observation(ctx, o) for o in links.get("evidence") or []]
    elif kind == "pin":
        body.append(tag("ul", None, pin_row(ctx, found)))
    if kind in ("observation", "summary"):
        body.append(tag("h2", None, "Pins"))
        body.append(tag("ul", None, *(pin_row(ctx, p) for p in links.get("pins") or [])))
        body.append(_pin_form(ctx, kind, found["id"]))
    if kind in ("observation", "summary", "pin"):
        body.append(post_form(ctx, "/forget/preview", {"id": found["id"]}, "Forget…", cls="danger"))
    title = f"Capsule: {found.get('intent')}" if kind == "capsule" else f"{kind.capitalize()}"
    return layout(ctx, title, tag("p", {"class": "muted"}, found["id"]), *body)


def kind_of(found: Mapping[str, Any]) -> str:
    """The entity type of a ``describe`` answer (a capsule's ``type`` is its capsule type)."""
    if "observationIds" in found:
        return "capsule"
    return str(found["type"])


def _provenance(prov: Mapping[str, Any]) -> Markup:
    if not prov:
        return Markup("")
    rows = [tag("tr", None, tag("th", None, k), tag("td", None, str(v))) for k, v in prov.items()]
    return tag(
        "details",
        {"class": "prov", "open": True},
        tag("summary", None, "provenance"),
        tag("table", None, *rows),
    )


def _pin_form(ctx: Ctx, kind: str, target: str) -> Markup:
    return post_form(
        ctx,
        "/pin",
        {"target_type": kind, "target_id": target},
        "Pin",
        tag(
            "input", {"type": "text", "name": "reason", "placeholder": "reason", "maxlength": "500"}
        ),
        tag(
            "label",
            None,
            "expires in days ",
            tag(
                "input",
                {
                    "type": "number",
                    "name": "days",
                    "min": "1",
                    "max": "3650",
                    "placeholder": "never",
                },
            ),
        ),
        cls="pinform",
    )


async def pins(src: Source, ctx: Ctx, params: Mapping[str, str]) -> Markup:
    scope = Scope(repo_id=params.get("repo") or None)
    if src.needs_repo and scope.repo_id is None:
        return await choose_repo(src, ctx, "/pins", params)
    found = await src.run(lambda: src.pins(scope, 200))
    rows = [pin_row(ctx, p) for p in found]
    return layout(
        ctx,
        "Pins",
        tag("ul", None, *rows) if rows else tag("p", {"class": "muted"}, "nothing pinned"),
    )


async def status(src: Source, ctx: Ctx, params: Mapping[str, str]) -> Markup:
    """The memory's ``status``: a database's counts, or a server's facts for the token; then
    the open capsules and, for ``kindling ui``, this machine's hook health."""
    doc = await src.run(src.status)
    rows: list[tuple[str, object]] = []
    if "observations" in doc:  # a database (``Kindling.status``)
        obs, caps = doc["observations"], doc["capsules"]
        kinds = ", ".join(f"{k} {n}" for k, n in obs["byKind"].items())
        local = "://" not in doc["database"]
        rows += [
            ("database", doc["database"]),
            ("size", size(doc["sizeBytes"]) if local else "-"),
            ("schema", doc["schemaVersion"]),
            ("observations", f"{obs['total']} ({kinds})"),
            ("forgotten", obs["redacted"]),
            ("capsules", ", ".join(f"{k} {n}" for k, n in caps["byStatus"].items()) or "0"),
            ("summaries", doc["summaries"]),
            ("pins", doc["pins"]),
            ("last capture", when(doc["lastCapture"]) if doc.get("lastCapture") else "never"),
        ]
    else:  # a server, as the token sees it (``GET /v1/status``)
        rows += [("server", doc["server"])] if doc.get("server") else []
        rows += [
            ("version", f"{doc.get('version') or '-'} ({doc['backend']})"),
            ("schema", doc["schemaVersion"]),
            ("user", doc["user"]),
            ("team", doc["team"] or "none (personal token)"),
            ("repositories", ", ".join(doc["repos"]) or "-"),
        ]
    recent: list[object] = []
    hooks = doc.get("hooks")
    if hooks is not None:
        health = "no errors logged" if hooks["errors"] == 0 else f"{hooks['errors']} error lines"
        rows.append(("hook health", f"{health} ({hooks['log']})"))
        if hooks["recent"]:
            recent.append(tag("pre", {"class": "log"}, "\n".join(hooks["recent"])))
    mine = "Open capsules" if "observations" in doc else "Your open capsules"
    opened = [capsule_row(ctx, c) for c in doc.get("openCapsules") or []]
    recent += [tag("h2", None, mine), tag("ul", {"class": "capsules"}, *opened)] if opened else []
    table = tag(
        "table",
        {"class": "facts"},
        *(tag("tr", None, tag("th", None, k), tag("td", None, str(v))) for k, v in rows),
    )
    return layout(ctx, "Status", table, *recent)
