"""The team page when its database fails: a 503 without detail, as the JSON API answers, on
both backends. The store's message names the database (a PostgreSQL host, port and name, or a
file path): the server's log gets it, a visitor (with a token or without) does not."""

from __future__ import annotations

import sqlite3
from urllib.parse import urlsplit

import pytest
from starlette.testclient import TestClient

from kindling import Kindling
from kindling.http.app import create_app
from kindling.ui.app import add_team_ui
from tests.support.server import auth, make_token
from tests.support.ui import REPO, seed

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

BASE = "http://kindling.internal:8765"


def break_the_store(store_url: str) -> None:
    """A real failure on either backend: the tokens table is gone from under the server."""
    sql = "ALTER TABLE api_tokens RENAME TO api_tokens_gone"
    if store_url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(store_url, autocommit=True) as conn:
            conn.execute(sql)
    else:
        with sqlite3.connect(store_url) as conn:
            conn.execute(sql)


def secrets_of(store_url: str) -> list[str]:
    """What a store failure's message names: the host, port and database, or the file."""
    if not store_url.startswith("postgresql://"):
        return [store_url, "api_tokens"]
    parts = urlsplit(store_url)
    return [f"{parts.hostname}:{parts.port or 5432}", parts.path.lstrip("/"), "api_tokens"]


def test_a_store_failure_is_a_503_without_detail(
    kd: Kindling, store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    seed(kd)
    token = make_token(kd, "alice", "web", REPO)
    app = create_app(kd)
    add_team_ui(app, app.state.api)
    with TestClient(app, base_url=BASE, follow_redirects=False) as web:
        assert web.post("/ui/login", data={"token": token}).status_code == 303
        assert web.get("/ui/").status_code == 200
        break_the_store(store_url)
        answers = {
            "logged in": web.get("/ui/"),
            "logged-in post": web.post("/ui/pin", data={"csrf": "x"}),
        }
        web.cookies.clear()
        answers["a stranger's login"] = web.post("/ui/login", data={"token": "kdt_guess"})
        web.cookies.set("kindling_team_8765", "kdt_guess", path="/ui")
        guess = web.get("/ui/status")  # an unknown session never reaches the store
        api = web.get("/v1/status", headers=auth(token))
    assert (guess.status_code, guess.headers["location"]) == (303, "/ui/login")
    assert api.status_code == 503
    for who, r in answers.items():
        assert r.status_code == 503, (who, r.text)
        assert "the store failed; the server&#x27;s log says why" in r.text, who
        for secret in secrets_of(store_url):
            assert secret not in r.text, (who, secret)
        assert "Traceback" not in r.text
    assert any(secrets_of(store_url)[0] in m for m in caplog.messages)  # the log says why
