"""The pieces every page is made of: the layout, an observation, a capsule, a pin, a hit.

Each takes the API's wire JSON and returns ``Markup``; text from the store only ever reaches
the page through ``markup.esc`` (``tag`` children and attribute values).

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kindling.ui.markup import Markup, tag, url, when

PREVIEW_CHARS = 1200  # an observation's text shown in a timeline; the item page shows it all
KIND_LABELS = {"tool_call": "tool", "file_diff": "edit", "node_error": "error"}


@dataclass(frozen=True, slots=True)
class Ctx:
    """What every page needs: the mount point, the CSRF field, who is looking."""

    base: str
    csrf: str
    who: str
    team: bool

    def url(self, path: str, **query: object) -> str:
        return url(self.base, path, **query)


def link(ctx: Ctx, text: object, path: str, **query: object) -> Markup:
    return tag("a", {"href": ctx.url(path, **query)}, text)


def layout(ctx: Ctx, title: str, *body: object) -> Markup:
    nav = tag(
        "nav",
        None,
        tag("strong", None, "Kindling"),
        link(ctx, "Repositories", "/"),
        link(ctx, "Pins", "/pins"),
        link(ctx, "Forget", "/forget"),
        link(ctx, "Status", "/status"),
        tag(
            "form",
            {"method": "get", "action": ctx.url("/search"), "class": "navsearch"},
            tag("input", {"type": "search", "name": "q", "placeholder": "search memory  /"}),
        ),
        tag("span", {"class": "who"}, ctx.who),
        logout(ctx) if ctx.team else "",
    )
    head = tag(
        "head",
        None,
        Markup('<meta charset="utf-8">'),
        tag("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}),
        tag("title", None, f"{title} · Kindling"),
        tag("link", {"rel": "stylesheet", "href": ctx.url("/static/ui.css")}),
        tag("script", {"src": ctx.url("/static/ui.js"), "defer": True}),
    )
    main = tag("main", None, tag("h1", None, title), *body)
    return Markup(
        "<!doctype html>" + tag("html", {"lang": "en"}, head, tag("body", None, nav, main))
    )


def logout(ctx: Ctx) -> Markup:
    return post_form(ctx, "/logout", {}, "Log out", cls="inline")


def post_form(
    ctx: Ctx, path: str, hidden: Mapping[str, object], button: str, *fields: object, cls: str = ""
) -> Markup:
    """A POST form with its CSRF field; ``hidden`` values are escaped like any other text."""
    inputs = [tag("input", {"type": "hidden", "name": "csrf", "value": ctx.csrf})]
    inputs += [
        tag("input", {"type": "hidden", "name": k, "value": str(v)})
        for k, v in hidden.items()
        if v is not None
    ]
    return tag(
        "form",
        {"method": "post", "action": ctx.url(path), "class": cls or None},
        *inputs,
        *fields,
        tag("button", {"type": "submit"}, button),
    )


def scope_line(ctx: Ctx, scope: Mapping[str, str]) -> Markup:
    parts: list[object] = []
    if scope.get("repoId"):
        parts.append(link(ctx, scope["repoId"], "/repo", repo=scope["repoId"]))
    if scope.get("sessionId"):
        parts.append(
            link(
                ctx,
                f"session {scope['sessionId']}",
                "/session",
                session=scope["sessionId"],
                repo=scope.get("repoId"),
            )
        )
    for key in ("agentId", "userId"):
        if scope.get(key):
            parts.append(tag("span", None, f"{key[:-2]} {scope[key]}"))
    return tag("span", {"class": "scope"}, *parts)


def text_block(content: str, kind: str, full: bool) -> Markup:
    shown = content if full or len(content) <= PREVIEW_CHARS else content[:PREVIEW_CHARS]
    cut = "" if shown is content else tag("div", {"class": "cut"}, f"… {len(content)} chars")
    if kind == "file_diff":
        lines = []
        for line in shown.splitlines():
            cls = "add" if line.startswith("+") else "del" if line.startswith("-") else None
            if line.startswith(("@@", "+++", "---", "diff ")):
                cls = "hunk"
            lines.append(tag("span", {"class": cls}, line + "\n"))
        return Markup(tag("pre", {"class": "diff"}, *lines) + cut)
    return Markup(tag("pre", None, shown) + cut)


def observation(
    ctx: Ctx, obs: Mapping[str, Any], *, full: bool = False, pinned: bool = False
) -> Markup:
    kind = str(obs["kind"])
    prov = obs.get("provenance") or {}
    label = KIND_LABELS.get(kind, kind)
    if kind == "message" and prov.get("role") == "user":
        label = "prompt"
    badges: list[object] = [tag("span", {"class": f"kind k-{label}"}, label)]
    if isinstance(prov.get("exitCode"), int):
        badges.append(tag("span", {"class": "badge"}, f"exit {prov['exitCode']}"))
    for key in ("tool", "path"):
        if isinstance(prov.get(key), str):
            badges.append(tag("code", None, prov[key]))
    masked = prov.get("redactedKinds")
    if isinstance(masked, list) and masked:
        badges.append(
            tag("span", {"class": "badge masked"}, "masked: " + ", ".join(map(str, masked)))
        )
    if obs.get("redacted"):
        badges.append(tag("span", {"class": "badge masked"}, "forgotten"))
    if pinned:
        badges.append(tag("span", {"class": "badge pinned"}, "pinned"))
    head = tag(
        "div",
        {"class": "head"},
        tag("time", None, when(obs.get("ts"))),
        *badges,
        link(ctx, obs["id"], "/item", id=obs["id"]),
    )
    return tag(
        "article",
        {"class": f"obs k-{label}", "id": f"o-{obs['id']}"},
        head,
        text_block(str(obs.get("content", "")), kind, full),
    )


def capsule_row(
    ctx: Ctx, cap: Mapping[str, Any], summary: Mapping[str, Any] | None = None
) -> Markup:
    said = tag("div", {"class": "said"}, summary.get("content")) if summary else ""
    return tag(
        "li",
        {"class": f"capsule {cap.get('status')}"},
        tag("time", None, when(cap.get("openedAt"))),
        tag("span", {"class": "badge"}, cap.get("status")),
        link(ctx, cap.get("intent") or "(no intent)", "/item", id=cap["id"]),
        tag("span", {"class": "muted"}, f" {len(cap.get('observationIds') or [])} observations "),
        scope_line(ctx, cap.get("scopeIds") or {}),
        said,
    )


def summary_block(ctx: Ctx, summary: Mapping[str, Any] | None) -> Markup:
    if not summary:
        return Markup("")
    return tag(
        "section",
        {"class": "summary"},
        tag("h2", None, "Summary"),
        tag("p", None, summary.get("content")),
        tag(
            "div",
            {"class": "muted"},
            f"confidence {summary.get('confidence')} · {when(summary.get('createdAt'))} · ",
            link(ctx, summary["id"], "/item", id=summary["id"]),
        ),
    )


def pin_row(ctx: Ctx, pin: Mapping[str, Any]) -> Markup:
    expires = pin.get("expiresAt")
    return tag(
        "li",
        {"class": "pin"},
        tag("span", {"class": "badge pinned"}, "pinned"),
        link(
            ctx, f"{pin.get('targetType')} {pin.get('targetId')}", "/item", id=pin.get("targetId")
        ),
        tag("span", None, f" {pin.get('reason') or '(no reason)'} "),
        tag("span", {"class": "muted"}, "expires " + (when(expires) if expires else "never")),
        post_form(ctx, "/unpin", {"pin_id": pin["id"]}, "Unpin", cls="inline"),
    )


def explanation(exp: Mapping[str, Any]) -> Markup:
    # The named signals come as they are (a new signal shows without a change here).
    signals = exp.get("signals")
    named = (
        list(signals.items())
        if isinstance(signals, Mapping)
        else [(name, exp.get(name)) for name in ("scope", "intent", "confidence")]
    )
    rows = [
        ("score", exp.get("score")),
        ("relevance", exp.get("relevance")),
        ("bm25", exp.get("bm25")),
        ("recency", exp.get("recency")),
        *named,
        ("source", exp.get("source")),
        ("question asks for", exp.get("need") or "-"),
        ("matched", ", ".join(map(str, exp.get("matchedTerms") or [])) or "-"),
    ]
    cells = [tag("tr", None, tag("th", None, k), tag("td", None, _num(v))) for k, v in rows]
    return tag(
        "details",
        {"class": "why"},
        tag("summary", None, "why: ", exp.get("why") or ""),
        tag("table", None, *cells),
    )


def _num(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return "-" if value is None else str(value)


def pager(
    ctx: Ctx, path: str, items: Sequence[Mapping[str, Any]], limit: int, **query: object
) -> Markup:
    """The "older" link of a keyset page: after the last row shown."""
    if len(items) < limit:
        return tag("p", {"class": "muted"}, "end of the timeline")
    last = items[-1]
    return tag(
        "p",
        {"class": "pager"},
        link(ctx, "older →", path, before=f"{last['ts']}:{last['id']}", **query),
    )
