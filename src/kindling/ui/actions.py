"""The pages that change memory: pin, unpin, and forget with its preview (the dry run) and
its report. Each change is one ``Source`` call made from a POST that ``app`` has checked
(CSRF field, same origin); the preview is the same call with ``dry_run``.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kindling.errors import InvalidInputError
from kindling.ui.markup import Markup, tag
from kindling.ui.pages import Ctx, layout, link, post_form
from kindling.ui.source import Json, Source

DAY_MS = 86_400_000
MAX_DAYS = 3650


def pin_body(form: Mapping[str, str]) -> Json:
    """The pin form as the API's body: target, reason, and an expiry in whole days."""
    target_type = form.get("target_type", "")
    if target_type not in ("observation", "summary"):
        raise InvalidInputError("target_type must be observation or summary")
    body: Json = {"target_type": target_type, "target_id": form.get("target_id", "")}
    reason = form.get("reason", "").strip()
    if reason:
        body["reason"] = reason
    days = form.get("days", "").strip()
    if days:
        if not (days.isascii() and days.isdigit() and 0 < int(days) <= MAX_DAYS):
            raise InvalidInputError(f"the expiry must be a whole number of days, 1 to {MAX_DAYS}")
        body["ttl_ms"] = int(days) * DAY_MS
    return body


async def pin(src: Source, ctx: Ctx, form: Mapping[str, str]) -> str:
    body = pin_body(form)
    await src.run(lambda: src.pin(body))
    return ctx.url("/item", id=body["target_id"])


async def unpin(src: Source, ctx: Ctx, form: Mapping[str, str]) -> str:
    pin_id = form.get("pin_id", "")
    await src.run(lambda: src.unpin(pin_id))
    return ctx.url("/pins")


def _target(form: Mapping[str, str]) -> Json:
    entity_id, match = form.get("id", ""), form.get("match", "")
    if bool(entity_id) == bool(match):
        raise InvalidInputError("give an id or a text to match, not both")
    return {"id": entity_id} if entity_id else {"match": match}


async def forget_form(src: Source, ctx: Ctx, params: Mapping[str, str]) -> Markup:
    field = tag(
        "input",
        {
            "type": "text",
            "name": "match",
            "required": True,
            "minlength": "3",
            "placeholder": "text to forget everywhere (3 characters or more)",
        },
    )
    note = tag(
        "p",
        {"class": "muted"},
        "Every observation, summary, pin reason and capsule intent containing this text "
        "(case-insensitive) is forgotten, with the summaries derived from them. You see the "
        "list first.",
    )
    return layout(ctx, "Forget", note, post_form(ctx, "/forget/preview", {}, "Preview…", field))


def _listing(ctx: Ctx, report: Mapping[str, Any]) -> Markup:
    sections = []
    for key, name in (
        ("observations", "observations"),
        ("summaries", "summaries"),
        ("pins", "pin reasons"),
        ("capsules", "capsule intents"),
    ):
        ids = report.get(key) or []
        if ids:
            items = [tag("li", None, link(ctx, i, "/item", id=i)) for i in ids]
            sections += [
                tag("h2", None, f"{len(ids)} {name}"),
                tag("ul", {"class": f"ids forget-{key}"}, *items),
            ]
    return Markup("".join(sections))


async def forget_preview(src: Source, ctx: Ctx, form: Mapping[str, str]) -> Markup:
    target = _target(form)
    report = await src.run(lambda: src.forget({**target, "dry_run": True}))
    total = sum(len(report.get(k) or []) for k in ("observations", "summaries", "pins", "capsules"))
    what = f"id {target['id']}" if "id" in target else f"the text “{target['match']}”"
    confirm = (
        post_form(ctx, "/forget", target, f"Forget these {total} now", cls="danger")
        if total
        else tag("p", None, "Nothing matches: nothing to forget.")
    )
    return layout(
        ctx,
        "Forget: preview",
        tag("p", {"class": "preview"}, f"Forgetting {what} {report['message']}:"),
        _listing(ctx, report),
        confirm,
    )


async def forget(src: Source, ctx: Ctx, form: Mapping[str, str]) -> Markup:
    target = _target(form)
    report = await src.run(lambda: src.forget(target))
    holders = report.get("holders") or []
    return layout(
        ctx,
        "Forget: done",
        tag("p", {"class": "report"}, report["message"]),
        _listing(ctx, report),
        tag("p", {"class": "muted"}, "still held by: " + ", ".join(holders)) if holders else "",
        tag("p", None, link(ctx, "back to repositories", "/")),
    )
