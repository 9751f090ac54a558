"""The local memory browser on both backends (``kindling --db postgresql://... ui``)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from kindling import Kindling
from kindling.ui.app import create_local_app
from kindling.ui.guard import LocalLogin
from tests.support.ui import REPO, SESSION, seed

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)


def test_every_view_works_on_the_backend(kd: Kindling, store_backend: str) -> None:
    ids = seed(kd)
    login = LocalLogin()
    app = create_local_app(kd, login=login)
    with TestClient(app, base_url="http://127.0.0.1:1", follow_redirects=True) as web:
        assert web.get(f"/?code={login.new_code()}").status_code == 200
        assert REPO in web.get("/").text
        pages = {
            f"/repo?repo={REPO}": "fix the checkout rounding bug",
            f"/session?session={SESSION}": "AssertionError",
            "/search?q=rounding": "why: matched rounding",
            f"/item?id={ids['o1']}": "exitCode",
            "/status": "observations</th><td>6 (",
        }
        for path, shown in pages.items():
            r = web.get(path)
            assert r.status_code == 200, (path, r.text)
            assert shown in r.text, path
        csrf = web.get("/forget").text.split('name="csrf" value="')[1].split('"')[0]
        preview = web.post("/forget/preview", data={"csrf": csrf, "match": "AssertionError"})
        assert "would forget 1 observation" in preview.text
        assert not kd.get_observation(ids["o2"]).redacted
