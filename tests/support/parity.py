"""Helpers of the parity suites: a local store and a ``kindling serve`` of the same backend,
and a normal form of JSON in which ids, and the user a server stamps, do not matter."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kindling import Kindling
from tests.support.pg import pg_schema
from tests.support.server import running_server

T0 = 1_767_225_600_000  # 2026-01-01: every step's clock is T0 + its number of seconds
_ID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|session-[0-9a-f]{24}|kdt_\w+"
)


@dataclass
class Pair:
    """A local database and a server over another database of the same backend."""

    local_url: str
    server_url: str
    url: str  # the server's http:// address
    token: str  # a personal token ("alice") of the server


@contextmanager
def local_and_served(store_url: str, tmp_path: Path) -> Iterator[Pair]:
    with ExitStack() as stack:
        if store_url.startswith("postgresql://"):
            server_db = stack.enter_context(pg_schema())
        else:
            server_db = str(tmp_path / "served.db")
        with Kindling.open(server_db) as kd:
            _, token = kd.team.create_token(user="alice")
        url, _proc = stack.enter_context(running_server(server_db))
        yield Pair(store_url, server_db, url, token)


def normal(value: Any) -> str:
    """``value`` (JSON data) as text in which each id is ``<n>``, numbered in order of first
    appearance, and no ``userId`` appears (a server stamps the token's user on everything)."""
    text = json.dumps(_drop_user(value), ensure_ascii=False, sort_keys=False, indent=1)
    seen: dict[str, str] = {}
    return _ID.sub(lambda m: seen.setdefault(m.group(0), f"<{len(seen)}>"), text)


def _drop_user(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_user(v) for k, v in value.items() if k not in ("userId", "user_id")}
    if isinstance(value, list | tuple):
        return [_drop_user(v) for v in value]
    return value
