"""``kindling mcp`` as a real process, driven by the MCP SDK's stdio client."""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import jsonschema
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent
from tests.hookutil import KINDLING

from kindling import Kindling, Scope
from kindling.mcp_schemas import OUTPUT_SCHEMAS
from kindling.mcp_server import MAX_QUERY_CHARS, SNIPPET_CHARS

Session = Callable[[ClientSession], Awaitable[None]]


def run_client(cwd: Path, body: Session) -> None:
    params = StdioServerParameters(command=KINDLING, args=["mcp"], cwd=cwd, env=dict(os.environ))

    async def main() -> None:
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                await body(session)

    anyio.run(main)


def text(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def test_tools_are_listed_with_descriptions_annotations_and_schemas(git_repo: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        listed = await session.list_tools()
        seen.update({t.name: t for t in listed.tools})

    run_client(git_repo, body)
    assert sorted(seen) == ["forget", "pin", "recent", "remember", "retrieve", "status", "unpin"]
    for tool in seen.values():
        assert tool.description
        assert "\n " not in tool.description, tool.name  # dedented
        assert tool.annotations is not None
        assert tool.output_schema == OUTPUT_SCHEMAS[tool.name]
        assert tool.input_schema["additionalProperties"] is False
    assert seen["retrieve"].annotations.read_only_hint is True
    assert seen["recent"].annotations.read_only_hint is True
    assert seen["forget"].annotations.destructive_hint is True
    assert seen["remember"].annotations.destructive_hint is False
    assert seen["retrieve"].input_schema["properties"]["query"]["maxLength"] == MAX_QUERY_CHARS


def structured(result: CallToolResult, tool: str) -> dict[str, Any]:
    """The structured content, checked against the tool's declared schema and the text block."""
    assert not result.is_error, text(result)
    data = result.structured_content
    assert data is not None
    jsonschema.validate(data, OUTPUT_SCHEMAS[tool])
    assert json.loads(text(result)) == data  # the serialized JSON, as the spec asks
    return data


def test_remember_then_retrieve_is_compact_and_model_readable(git_repo: Path) -> None:
    calls: dict[str, CallToolResult] = {}

    async def body(session: ClientSession) -> None:
        calls["remember"] = await session.call_tool(
            "remember",
            {
                "content": "Decision: sessions expire after 30 minutes of inactivity",
                "pin": True,
                "reason": "agreed with the team",
            },
        )
        await session.call_tool("remember", {"content": "The session cookie is httpOnly"})
        calls["retrieve"] = await session.call_tool(
            "retrieve", {"query": "when does the session cookie expire?"}
        )
        calls["explained"] = await session.call_tool(
            "retrieve", {"query": "session cookie", "explain": True}
        )
        calls["recent"] = await session.call_tool("recent", {"limit": 5})
        calls["status"] = await session.call_tool("status", {})

    run_client(git_repo, body)
    remembered = structured(calls["remember"], "remember")
    found = structured(calls["retrieve"], "retrieve")
    [pin] = found["pins"]
    assert pin["id"] == remembered["id"]
    assert pin["pinId"] == remembered["pinId"]
    assert (pin["kind"], pin["age"], pin["reason"]) == (
        "message",
        "just now",
        "agreed with the team",
    )
    assert pin["snippet"] == "Decision: sessions expire after 30 minutes of inactivity"
    assert found["results"]
    for item in found["results"]:
        assert set(item) <= {"id", "kind", "age", "score", "snippet", "session", "path"}
        assert 0 < item["score"] <= 1.0
        assert item["score"] == round(item["score"], 3)
    assert any("httpOnly" in item["snippet"] for item in found["results"])
    wire = json.dumps(found)
    for internal in ("bm25", "explanation", "scopeIds", "provenance", "ageMs"):
        assert internal not in wire  # no scoring internals unless asked
    explained = structured(calls["explained"], "retrieve")
    assert all("bm25" in item["explanation"] for item in explained["results"])
    recent = structured(calls["recent"], "recent")
    assert [o["kind"] for o in recent["observations"]] == ["message", "message"]
    assert structured(calls["status"], "status")["defaultRepo"] == str(git_repo)


BAD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("retrieve", {"query": "x", "bogus": 1}, "retrieve takes no argument 'bogus'; it takes: "),
    ("retrieve", {}, "query is required."),
    ("retrieve", {"query": "x", "max_candidates": "ten"}, "max_candidates must be a whole number"),
    ("retrieve", {"query": "x", "max_candidates": 500}, "max_candidates must be at most 100"),
    ("retrieve", {"query": "x" * (MAX_QUERY_CHARS + 1)}, "query must be at most 2000 characters"),
    ("retrieve", {"query": "x", "explain": "maybe"}, "explain must be true or false"),
    ("remember", {"content": "x", "kind": "bogus"}, 'kind must be one of: "message", "error"'),
    ("remember", {"content": "   "}, "invalid_input: content is blank"),
    ("pin", {"target_id": "x", "ttl_minutes": 10**12}, "ttl_minutes must be at most"),
    ("unpin", {"pin_id": "no-such-pin"}, "not_found: no pin with id 'no-such-pin'"),
]


def test_bad_calls_are_tool_errors_in_one_plain_sentence(git_repo: Path) -> None:
    results: list[CallToolResult] = []

    async def body(session: ClientSession) -> None:
        for tool, args, _ in BAD_CALLS:
            results.append(await session.call_tool(tool, args))
        results.append(await session.call_tool("status", {}))  # still alive after errors

    run_client(git_repo, body)
    for (tool, args, expected), result in zip(BAD_CALLS, results, strict=False):
        message = text(result)
        assert result.is_error, (tool, args)
        assert message.startswith(expected), message
        assert "\n" not in message
        for noise in ("pydantic", "http", "validation error", "Error executing tool", "[type="):
            assert noise not in message, message
    assert not results[-1].is_error


def test_forget_through_mcp(git_repo: Path) -> None:
    calls: dict[str, CallToolResult] = {}

    async def body(session: ClientSession) -> None:
        calls["remember"] = await session.call_tool("remember", {"content": "the word zanzibar"})
        obs_id = calls["remember"].structured_content["id"]  # type: ignore[index]
        calls["forget"] = await session.call_tool("forget", {"observation_id": obs_id})
        calls["dry"] = await session.call_tool("forget", {"match": "zanzibar", "dry_run": True})
        calls["both"] = await session.call_tool("forget", {"observation_id": obs_id, "match": "x"})

    run_client(git_repo, body)
    obs_id = structured(calls["remember"], "remember")["id"]
    report = structured(calls["forget"], "forget")
    assert (report["id"], report["observations"], report["complete"]) == (obs_id, [obs_id], True)
    assert structured(calls["dry"], "forget")["observations"] == []  # already gone
    assert calls["both"].is_error
    assert "exactly one" in calls["both"].content[0].text  # type: ignore[union-attr]
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        assert kd.get_observation(obs_id).redacted
        assert kd.list_observations(scope=Scope(repo_id=str(git_repo)))[0].content == "[redacted]"


def test_huge_pinned_memories_are_bounded_in_structured_content(git_repo: Path) -> None:
    calls: dict[str, CallToolResult] = {}
    big = "stack frame\n" * 5000

    async def body(session: ClientSession) -> None:
        await session.call_tool("remember", {"content": big, "kind": "error", "pin": True})
        calls["retrieve"] = await session.call_tool("retrieve", {"query": "stack frame"})
        calls["everywhere"] = await session.call_tool("recent", {"repo": "*"})

    run_client(git_repo, body)
    data = structured(calls["retrieve"], "retrieve")
    assert len(data["pins"][0]["snippet"]) <= SNIPPET_CHARS
    assert len(text(calls["retrieve"])) < 2000
    assert len(structured(calls["everywhere"], "recent")["observations"]) == 1
