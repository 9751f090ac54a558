"""``kindling ui`` in remote mode, the real commands: ``kindling serve`` on loopback with a team
token's memory, then ``kindling ui`` pointed at it (KINDLING_URL, KINDLING_TOKEN), read over
HTTP and in a real headless Chromium. The token travels in the environment, never on a
command line; the page keeps every guard of the local one (code, cookie, Host, CSRF)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from kindling import Kindling
from tests.support.browser import driver_or_skip
from tests.support.cli import run
from tests.support.server import KINDLING, free_port, make_token, running_server
from tests.support.ui import OTHER_REPO, REPO, seed

pytest.importorskip("uvicorn")


@dataclass
class Team:
    """A teammate's environment pointed at a running server, and what its store holds."""

    env: dict[str, str]
    db: str
    ids: dict[str, str]

    @property
    def url(self) -> str:
        return self.env["KINDLING_URL"]

    @property
    def token(self) -> str:
        return self.env["KINDLING_TOKEN"]


@pytest.fixture
def team(tmp_path: Path) -> Iterator[Team]:
    """``kindling serve`` on loopback over a seeded store; team ``web``'s token is granted
    ``REPO`` (another team's ``OTHER_REPO`` is in the same store)."""
    db = str(tmp_path / "team.db")
    with Kindling.open(db) as kd:
        ids = seed(kd)
        token = make_token(kd, "carol", "web", REPO)
    with running_server(db) as (url, _proc):
        env = dict(os.environ, KINDLING_URL=url, KINDLING_TOKEN=token)
        env["KINDLING_DB"] = str(tmp_path / "never-used.db")
        yield Team(env, db, ids)


@contextmanager
def kindling_ui(team: Team) -> Iterator[tuple[str, str, subprocess.Popen[str]]]:
    """``kindling ui --no-open --json`` in the team's environment: its page's base URL, the
    printed code, and the process."""
    with subprocess.Popen(
        [str(KINDLING), "ui", "--no-open", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=team.env,
    ) as proc:
        try:
            assert proc.stdout is not None
            lines = [proc.stdout.readline()]
            while lines[-1] not in ("}\n", ""):
                lines.append(proc.stdout.readline())
            printed = json.loads("".join(lines))
            assert printed["server"] == team.url
            found = re.fullmatch(r"(http://127\.0\.0\.1:\d+)/\?code=(\S+)", printed["url"])
            assert found, printed
            yield found[1], found[2], proc
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def test_kindling_ui_shows_the_teams_memory_behind_its_code(team: Team) -> None:
    with kindling_ui(team) as (base, code, proc):
        assert team.token.encode() not in Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        with httpx.Client(base_url=base, follow_redirects=True, timeout=30) as web:
            assert web.get("/").status_code == 403  # no session yet
            assert web.get(f"/?code={code}").status_code == 200
            home = web.get("/")
            assert REPO in home.text
            assert OTHER_REPO not in home.text
            page = web.get("/repo", params={"repo": REPO}).text
            assert "fix the checkout rounding bug" in page
            assert web.get("/", headers={"host": "rebound.example"}).status_code == 403
            target = {"id": team.ids["o2"]}
            assert web.post("/forget", data=target).status_code == 403  # no CSRF field
        with httpx.Client(base_url=base, timeout=30) as stranger:
            assert stranger.get(f"/?code={code}").status_code == 403  # the code is spent
    with Kindling.open(team.db) as kd:
        assert not kd.get_observation(team.ids["o2"]).redacted


@pytest.mark.parametrize(
    ("token", "said"),
    [(None, "pass its token"), ("x", "")],
)
def test_no_token_or_a_dead_server_is_one_line(token: str | None, said: str) -> None:
    port = free_port()  # nothing listens there
    args = ["--url", f"http://127.0.0.1:{port}", *(["--token", token] if token else [])]
    r = run(*args, "ui", "--no-open", env={"KINDLING_TOKEN": ""})
    assert r.code == 1
    assert said in r.stderr
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_an_unknown_token_is_refused_before_serving(team: Team) -> None:
    r = run("ui", "--no-open", env={**team.env, "KINDLING_TOKEN": "not-a-token"})
    assert r.code == 1
    assert "unknown or revoked token" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.slow  # a real Chromium
def test_kindling_ui_against_a_server_in_chromium(team: Team) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait

    driver: Any = driver_or_skip()
    driver.implicitly_wait(5)
    try:
        with kindling_ui(team) as (base, code, _proc):
            driver.get(f"{base}/?code={code}")
            WebDriverWait(driver, 10).until(lambda d: d.current_url == f"{base}/")
            main = driver.find_element(By.CSS_SELECTOR, "main").text
            assert REPO in main
            assert OTHER_REPO not in main
            assert "carol (web)" in driver.find_element(By.CSS_SELECTOR, ".who").text
            driver.find_element(By.PARTIAL_LINK_TEXT, REPO).click()
            WebDriverWait(driver, 10).until(lambda d: "/repo?" in d.current_url)
            main = driver.find_element(By.CSS_SELECTOR, "main").text
            assert "fix the checkout rounding bug" in main  # the capsule
            assert "AssertionError: 10.01 != 10.00" in main  # an observation
            box = driver.find_element(By.CSS_SELECTOR, "form.scoped input[name=q]")
            box.send_keys("rounding")
            box.submit()
            WebDriverWait(driver, 10).until(lambda d: "/search?" in d.current_url)
            hits = driver.find_elements(By.CSS_SELECTOR, "ol.hits li.hit")
            assert hits
            assert team.ids["o0"] in driver.find_element(By.CSS_SELECTOR, "ol.hits").text
            driver.get(f"{base}/item?id={team.ids['other']}")  # another team's id: not found
            assert "other team's rounding plan" not in driver.page_source
    finally:
        driver.quit()
