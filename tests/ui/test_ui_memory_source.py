"""The memory browser over a ``kindling.memory.Memory`` (``ui.source.MemorySource``): a local
database file, and a real ``kindling serve`` through ``RemoteKindling`` as a team token, where
the repositories, the status and the one-repository rule are the server's answers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kindling import Kindling
from kindling.client.front import RemoteKindling
from kindling.errors import ForbiddenError
from kindling.model import Scope
from kindling.ui.app import create_local_app
from kindling.ui.guard import LocalLogin
from kindling.ui.source import MemorySource
from tests.support.server import make_token, running_server
from tests.support.ui import OTHER_REPO, REPO, SESSION, seed

pytest.importorskip("uvicorn")


def test_a_local_file_is_everything_its_owner_has(db_path: Path, tmp_path: Path) -> None:
    log = tmp_path / "hooks.log"
    log.write_text("2026 Stop: boom\n")
    with Kindling.open(db_path) as kd:
        ids = seed(kd)
        src = MemorySource(kd, hooks_log=log)
        assert (src.who, src.needs_repo) == ("local", False)
        assert {r["repoId"] for r in src.repos()} == {REPO, OTHER_REPO}
        status = src.status()
        assert status["database"] == str(db_path.resolve())
        assert status["observations"]["total"] == 6
        assert status["lastCapture"] == 1_700_000_100_000
        assert status["hooks"]["errors"] == 1
        hits = src.search("rounding", Scope(repo_id=REPO), 10)["candidates"]
        assert ids["o0"] in {h["entity"]["id"] for h in hits}
        page = src.observations(Scope(session_id=SESSION), None, 2)
        older = src.observations(Scope(session_id=SESSION), f"{page[-1]['ts']}:{page[-1]['id']}", 2)
        assert [o["id"] for o in page + older] == [ids[f"o{n}"] for n in (4, 3, 2, 1)]
        assert src.item(ids["capsule"])["intent"] == "fix the checkout rounding bug"
        preview = src.forget({"match": "AssertionError", "dry_run": True})
        assert preview["dryRun"] is True
        assert not kd.get_observation(ids["o2"]).redacted


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str, dict[str, str]]]:
    """A real ``kindling serve`` on a seeded file; team ``web`` is granted ``REPO`` only."""
    db = str(tmp_path / "team.db")
    with Kindling.open(db) as kd:
        ids = seed(kd)
        token = make_token(kd, "carol", "web", REPO)
    with running_server(db) as (url, _proc):
        yield url, token, ids


def test_a_server_is_what_the_team_token_may_see(server: tuple[str, str, dict[str, str]]) -> None:
    url, token, ids = server
    with RemoteKindling(url, token) as memory:
        src = MemorySource(memory)
        assert src.who == f"carol (web) at {url}"
        assert src.needs_repo  # the server's status names a team
        assert [r["repoId"] for r in src.repos()] == [REPO]  # the API's rule, not the page's
        assert src.repos()[0]["observations"] == 5
        status = src.status()
        assert (status["user"], status["team"], status["repos"]) == ("carol", "web", [REPO])
        assert "observations" not in status
        assert "hooks" not in status
        hits = src.search("rounding", Scope(repo_id=REPO), 10)["candidates"]
        assert ids["o0"] in {h["entity"]["id"] for h in hits}
        assert len(src.observations(Scope(repo_id=REPO), None, 50)) == 5
        with pytest.raises(ForbiddenError):
            src.observations(Scope(repo_id=OTHER_REPO), None, 50)


def test_the_page_over_a_server_shows_the_teams_memory(
    server: tuple[str, str, dict[str, str]],
) -> None:
    url, token, ids = server
    login = LocalLogin()
    with RemoteKindling(url, token) as memory:
        app = create_local_app(memory, login=login)
        with TestClient(app, base_url="http://127.0.0.1:1", follow_redirects=True) as web:
            assert web.get(f"/?code={login.new_code()}").status_code == 200
            home = web.get("/").text
            assert REPO in home
            assert OTHER_REPO not in home
            assert "carol (web)" in home
            repo = web.get("/repo", params={"repo": REPO}).text
            assert "fix the checkout rounding bug" in repo
            assert "AssertionError" in repo
            assert "Choose a repository" in web.get("/timeline").text  # a team names one
            found = web.get("/search", params={"q": "rounding", "repo": REPO}).text
            assert ids["o0"] in found
            other = web.get("/repo", params={"repo": OTHER_REPO})
            assert other.status_code == 403
            assert "other team" not in other.text
            status = web.get("/status").text
            assert re.search(r"team</th><td>web<", status)
            assert url in status
            assert web.get("/item", params={"id": ids["other"]}).status_code == 404


def test_bad_input_over_a_server_is_the_servers_one_line_answer(
    server: tuple[str, str, dict[str, str]],
) -> None:
    url, token, ids = server
    login = LocalLogin()
    bad = [
        ("/item", {"id": "nope"}, 404, "not_found"),
        ("/item", {"id": ids["other"]}, 404, "not_found"),  # another team's id: unknown
        ("/search", {"q": "plan", "repo": OTHER_REPO}, 403, "forbidden"),
        ("/repo", {"repo": REPO, "kind": "bogus"}, 400, "invalid observation kind"),
        ("/repo", {"repo": REPO, "before": "garbage"}, 400, "before must be"),
    ]
    with RemoteKindling(url, token) as memory:
        app = create_local_app(memory, login=login)
        with TestClient(app, base_url="http://127.0.0.1:1", follow_redirects=True) as web:
            web.get(f"/?code={login.new_code()}")
            for path, params, status, said in bad:
                r = web.get(path, params=params)
                assert r.status_code == status, (path, params)
                assert said in r.text, (path, params)
                assert "other team" not in r.text
            form = re.search(r'name="csrf" value="([0-9a-f]+)"', web.get("/forget").text)
            assert form
            preview = web.post("/forget/preview", data={"csrf": form[1], "match": "rounding plan"})
            assert "Nothing matches" in preview.text  # another team's text is not the token's
