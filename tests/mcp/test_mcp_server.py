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

from kindling import Kindling, Scope
from kindling.mcp import MAX_QUERY_CHARS, SNIPPET_CHARS
from kindling.mcp.schemas import OUTPUT_SCHEMAS
from tests.support.hooks import KINDLING

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
    assert sorted(seen) == [
        *("forget", "get", "pin", "recent", "remember", "retrieve", "status", "timeline", "unpin")
    ]
    for tool in seen.values():
        assert tool.description
        assert "\n " not in tool.description, tool.name  # dedented
        assert tool.annotations is not None
        assert tool.output_schema == OUTPUT_SCHEMAS[tool.name]
        assert tool.input_schema["additionalProperties"] is False
    assert seen["retrieve"].annotations.read_only_hint is True
    assert seen["recent"].annotations.read_only_hint is True
    assert seen["timeline"].annotations.read_only_hint is True
    assert seen["get"].annotations.read_only_hint is True
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
    return dict(data)


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
    ("unpin", {"pin_id": "no-such-pin"}, "not_found: no pin with id 'no-such-pin'; retrieve"),
    ("timeline", {"id": "nope"}, "not_found: no observation or summary has id 'nope'"),
    ("timeline", {"id": "x", "before": 51}, "before must be at most 50"),
    ("timeline", {"id": "x", "after": -1}, "after must be at least 0"),
    ("get", {"ids": []}, "ids must have at least 1 item(s)."),
    ("get", {"ids": "abc"}, "ids must be a list."),
    ("get", {"ids": ["a"] * 101}, "ids must have at most 100 items."),
    ("get", {"ids": [""]}, "invalid_input: every id must be a non-empty string"),
    ("get", {"ids": ["a"], "token_budget": -1}, "token_budget must be at least 0"),
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
        assert "()" not in message, message  # names tools, never a Python function
    assert not results[-1].is_error


def test_forget_through_mcp(git_repo: Path) -> None:
    calls: dict[str, CallToolResult] = {}

    async def body(session: ClientSession) -> None:
        calls["remember"] = await session.call_tool("remember", {"content": "the word zanzibar"})
        obs_id = calls["remember"].structured_content["id"]
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


def _session(kd: Kindling, repo: Path, steps: int) -> tuple[list[str], str]:
    """A capsule of ``steps`` commands in session s1, closed with a summary."""
    scope = Scope(session_id="s1", repo_id=str(repo))
    cap = kd.open_capsule(intent="fix the flaky login test", scope=scope)
    ids = [
        kd.append_observation(
            kind="command",
            content=f"$ pytest tests/test_login.py  # try {i}\n" + "assert failed\n" * 40 * i,
            scope=scope,
            ts=1_000 + i,
            capsule_id=cap.id,
        ).id
        for i in range(steps)
    ]
    other = Scope(session_id="s2", repo_id=str(repo))
    kd.append_observation(kind="command", content="$ make other", scope=other, ts=1_003)
    summary = kd.close_capsule(cap.id, summary="login fixed by a retry", closed_at=2_000)
    assert summary.summary_id is not None
    return ids, summary.summary_id


def test_timeline_and_get_open_a_hit(git_repo: Path) -> None:
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        ids, summary_id = _session(kd, git_repo, 8)
    calls: dict[str, CallToolResult] = {}

    async def body(session: ClientSession) -> None:
        calls["middle"] = await session.call_tool("timeline", {"id": ids[4], "before": 2})
        calls["summary"] = await session.call_tool("timeline", {"id": summary_id, "before": 3})
        calls["get"] = await session.call_tool(
            "get", {"ids": [ids[7], summary_id, "nope", ids[7]], "token_budget": 100}
        )
        calls["whole"] = await session.call_tool("get", {"ids": [ids[7]]})

    run_client(git_repo, body)
    middle = structured(calls["middle"], "timeline")
    assert middle["anchor"] == ids[4]
    assert middle["session"] == "s1"
    assert [s["id"] for s in middle["steps"]] == ids[2:10]  # 2 before, 5 after (default)
    assert [s.get("anchor", False) for s in middle["steps"]].count(True) == 1
    assert middle["steps"][2]["anchor"] is True
    assert (middle["moreBefore"], middle["moreAfter"]) == (True, False)
    assert all(len(s["snippet"]) <= SNIPPET_CHARS for s in middle["steps"])
    around_summary = structured(calls["summary"], "timeline")
    assert [s["id"] for s in around_summary["steps"]] == [*ids[5:], summary_id]
    assert around_summary["steps"][-1]["kind"] == "summary"

    got = structured(calls["get"], "get")
    assert [i["id"] for i in got["items"]] == [ids[7], summary_id]
    assert got["missing"] == ["nope"]
    first, second = got["items"]
    assert first["totalChars"] > 400
    assert first["cutChars"] > 0
    assert first["content"].endswith("characters: ask with a larger budget, or for this id alone]")
    assert f"cut {first['cutChars']} characters" in first["content"]
    assert second["content"] == "" or second["cutChars"] == second["totalChars"]
    assert got["truncated"] is True
    assert got["cut"] == [ids[7], summary_id]
    assert got["tokensUsed"] <= 100
    whole = structured(calls["whole"], "get")["items"][0]
    assert whole["cutChars"] == 0
    assert len(whole["content"]) == whole["totalChars"]
    assert whole["content"].count("assert failed") == 280
