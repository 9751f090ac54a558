"""``kindling mcp`` as a real process, driven by the MCP SDK's stdio client."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent
from tests.hookutil import KINDLING

from kindling import Kindling, Scope

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


def test_tools_are_listed_with_descriptions_and_annotations(git_repo: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        listed = await session.list_tools()
        seen.update({t.name: t for t in listed.tools})

    run_client(git_repo, body)
    assert sorted(seen) == ["forget", "pin", "recent", "remember", "retrieve", "status", "unpin"]
    for tool in seen.values():
        assert tool.description
        assert tool.annotations is not None
    assert seen["retrieve"].annotations.read_only_hint is True
    assert seen["recent"].annotations.read_only_hint is True
    assert seen["forget"].annotations.destructive_hint is True
    assert seen["remember"].annotations.destructive_hint is False
    assert "query" in seen["retrieve"].input_schema["properties"]


def test_remember_then_retrieve_then_errors(git_repo: Path, tmp_path: Path) -> None:
    calls: dict[str, CallToolResult] = {}

    async def body(session: ClientSession) -> None:
        calls["remember"] = await session.call_tool(
            "remember",
            {"content": "Decision: sessions expire after 30 minutes of inactivity", "pin": True},
        )
        calls["retrieve"] = await session.call_tool(
            "retrieve", {"query": "when do sessions expire?"}
        )
        calls["elsewhere"] = await session.call_tool(
            "retrieve", {"query": "sessions expire", "repo": str(tmp_path)}
        )
        calls["recent"] = await session.call_tool("recent", {"limit": 5})
        calls["status"] = await session.call_tool("status", {})
        calls["unpin_missing"] = await session.call_tool("unpin", {"pin_id": "no-such-pin"})
        calls["bad_kind"] = await session.call_tool("remember", {"content": "x", "kind": "bogus"})
        calls["blank"] = await session.call_tool("remember", {"content": "   "})
        calls["forget"] = await session.call_tool(
            "forget",
            {"observation_id": calls["remember"].structured_content["observation"]["id"]},  # type: ignore[index]
        )
        calls["after"] = await session.call_tool("status", {})  # still alive after errors

    run_client(git_repo, body)
    remembered = calls["remember"]
    assert not remembered.is_error
    obs = remembered.structured_content["observation"]  # type: ignore[index]
    assert obs["scopeIds"] == {"repoId": str(git_repo)}
    assert remembered.structured_content["pin"] is not None  # type: ignore[index]

    found = calls["retrieve"]
    assert not found.is_error
    assert "sessions expire after 30 minutes" in text(found)
    assert found.structured_content["pins"][0]["target"]["id"] == obs["id"]  # type: ignore[index]
    assert "Nothing in memory matches." in text(calls["elsewhere"])
    assert obs["id"] in text(calls["recent"])
    assert str(git_repo) in text(calls["status"])

    for name in ("unpin_missing", "bad_kind", "blank"):
        assert calls[name].is_error, name
    assert "not_found: no pin with id 'no-such-pin'" in text(calls["unpin_missing"])
    assert "content is blank" in text(calls["blank"])
    assert not calls["forget"].is_error
    assert not calls["after"].is_error
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        assert kd.get_observation(obs["id"]).redacted
        assert kd.list_observations(scope=Scope(repo_id=str(git_repo)))[0].content == "[redacted]"


def test_huge_pinned_memories_are_bounded_in_structured_content(git_repo: Path) -> None:
    calls: dict[str, CallToolResult] = {}
    big = "stack frame\n" * 5000

    async def body(session: ClientSession) -> None:
        await session.call_tool("remember", {"content": big, "kind": "error", "pin": True})
        calls["retrieve"] = await session.call_tool("retrieve", {"query": "stack frame"})
        calls["everywhere"] = await session.call_tool("recent", {"repo": "*"})

    run_client(git_repo, body)
    data = calls["retrieve"].structured_content
    assert data is not None
    target = data["pins"][0]["target"]
    assert target["contentTruncatedFromChars"] == len(big)
    assert len(target["content"]) <= 4000
    assert len(text(calls["retrieve"])) < 2000
    assert "1 recent observation(s)" in text(calls["everywhere"])
