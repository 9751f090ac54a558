"""Helpers for the server tests: an app over a test store, and tokens for it."""

from __future__ import annotations

from typing import Any, cast

from kindling import Kindling
from kindling.store.tokens import ApiToken, TokenStore, new_token


def make_token(kd: Kindling, user: str, team: str | None = None, *repos: str) -> str:
    store = cast(TokenStore, kd.store)
    token_id, token, digest = new_token()
    store.insert_token(ApiToken(token_id, user, team, 1, None), digest)
    for repo in repos:
        assert team is not None
        store.grant_repo(team, repo, 1)
    return token


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_code(response: Any) -> str:
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}, body
    return str(body["error"]["code"])
