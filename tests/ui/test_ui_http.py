"""The memory browser over HTTP (no browser): the local page's token, Host and CSRF guards,
what each view shows, pin/unpin/forget through forms, keyset pages, and bad input."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from kindling import Kindling, Scope
from kindling.ui.app import create_local_app
from kindling.ui.guard import LocalLogin
from tests.conftest import FakeClock
from tests.support.cli import KINDLING, run
from tests.support.ui import HOSTILE, OTHER_REPO, REPO, SESSION, seed

ORIGIN = "http://127.0.0.1:8000"
COOKIE = "kindling_ui_8000"  # the session cookie's name carries the server's port
PAGES = [
    "/",
    "/repo?repo=" + REPO,
    "/session?session=" + SESSION,
    "/timeline",
    "/search?q=round",
    "/pins",
    "/status",
    "/forget",
]


@pytest.fixture
def ids(kd: Kindling) -> dict[str, str]:
    return seed(kd)


@pytest.fixture
def login() -> LocalLogin:
    return LocalLogin()


@pytest.fixture
def anon(kd: Kindling, db_path: Path, login: LocalLogin) -> Iterator[TestClient]:
    app = create_local_app(kd, login=login)
    with TestClient(app, base_url=ORIGIN, follow_redirects=False) as c:
        yield c


@pytest.fixture
def client(anon: TestClient, ids: dict[str, str], login: LocalLogin) -> TestClient:
    r = anon.get(f"/?code={login.new_code()}")
    assert r.status_code == 200
    return anon


def csrf(client: TestClient, path: str = "/forget") -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get(path).text)
    assert found
    return found.group(1)


def test_the_code_becomes_an_httponly_strict_cookie_and_leaves_the_address(
    anon: TestClient, ids: dict[str, str], login: LocalLogin
) -> None:
    code = login.new_code()
    r = anon.get(f"/repo?repo={REPO}&code={code}")
    assert r.status_code == 200  # a page that moves on (see test_ui_browser), not a redirect
    assert '<meta http-equiv="refresh" content="0; url=/repo?repo=%2Fwork%2Fshop">' in r.text
    assert code not in r.text
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    session = anon.cookies[COOKIE]
    assert code not in cookie
    assert len(session) >= 43  # 256 random bits of its own, not the code
    assert "HttpOnly" in cookie
    assert "samesite=strict" in cookie.lower()
    assert anon.get("/repo", params={"repo": REPO}).status_code == 200


@pytest.mark.parametrize("path", [*PAGES, "/item?id=x", "/static/ui.css"])
def test_without_the_token_every_page_is_403(anon: TestClient, path: str) -> None:
    assert anon.get(path).status_code == (200 if path.startswith("/static") else 403)
    assert anon.get("/?code=wrong").status_code == 403
    anon.cookies.set(COOKIE, "wrong")
    assert anon.get(path).status_code == (200 if path.startswith("/static") else 403)
    anon.cookies.clear()
    assert COOKIE not in anon.cookies


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "", "localhost.evil:1"]
)
def test_a_foreign_host_gets_403_even_with_the_token(client: TestClient, host: str) -> None:
    for path in ["/", "/?code=anything", "/static/ui.js", "/nope"]:
        r = client.get(path, headers={"host": host})
        assert r.status_code == 403, (path, host)
    r = client.post("/pin", headers={"host": host}, data={"csrf": csrf(client)})
    assert r.status_code == 403


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"])
def test_loopback_names_are_served(client: TestClient, host: str) -> None:
    assert client.get("/", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("path", PAGES)
def test_every_page_forbids_inline_script_and_framing(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200, r.text
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp
    assert "unsafe" not in csp
    assert "default-src 'none'" in csp
    assert "frame-ancestors 'none'" in csp
    assert r.headers["cache-control"] == "no-store"
    assert r.headers["referrer-policy"] == "same-origin"
    scripts = re.findall(r"<script[^>]*>", r.text)
    assert scripts == ['<script src="/static/ui.js" defer>']
    assert not re.search(r"<[a-z][^>]*\son[a-z]+=", r.text)  # no event handler attribute


@pytest.mark.parametrize("path", ["/session?session=" + SESSION, "/timeline", "/search?q=click"])
def test_hostile_text_is_shown_as_text(client: TestClient, ids: dict[str, str], path: str) -> None:
    page = client.get(path).text
    assert "&lt;script&gt;alert(&quot;xss-script&quot;)&lt;/script&gt;" in page
    assert "<script>alert" not in page
    assert "<img" not in page
    assert 'href="javascript' not in page.lower()
    assert re.findall(r'href="([^"]*)"', page) == [
        h for h in re.findall(r'href="([^"]*)"', page) if h.startswith("/")
    ]
    item = client.get("/item", params={"id": ids["o4"]}).text
    assert HOSTILE not in item
    assert "&lt;img src=&quot;/x&quot; onerror=" in item


def test_the_views_show_the_seeded_session(client: TestClient, ids: dict[str, str]) -> None:
    repos = client.get("/").text
    assert REPO in repos
    assert OTHER_REPO in repos  # the owner of the local file sees everything
    repo = client.get("/repo", params={"repo": REPO}).text
    assert "fix the checkout rounding bug" in repo
    assert "session sess-checkout" in repo
    assert 'class="said">Rounding fixed in cart.py' in repo  # the capsule's summary
    session = client.get("/session", params={"session": SESSION}).text
    for shown in [
        "prompt",
        "exit 1",
        "AssertionError",
        'class="add">+total = sum(p) * rate',
        'class="del">-total = sum(p)',
    ]:
        assert shown in session
    capsule = client.get("/item", params={"id": ids["capsule"]}).text
    assert "Rounding fixed in cart.py" in capsule
    assert ids["o2"] in capsule
    obs = client.get("/item", params={"id": ids["o1"]}).text
    assert "exitCode" in obs
    assert ids["capsule"] in obs  # provenance and its capsule
    status = client.get("/status").text
    assert "observations</th><td>6 (" in status
    assert "no errors logged" in status


def test_search_shows_score_explanation_and_context_only_marks(client: TestClient) -> None:
    page = client.get("/search", params={"q": "rounding", "repo": REPO}).text
    assert 'class="score"' in page
    assert "why: matched rounding" in page
    assert "<th>relevance</th>" in page
    assert "<th>recency</th>" in page
    # the hostile note shares the capsule intent's word "checkout" but not its own text
    ctx = client.get("/search", params={"q": "checkout bug", "session": SESSION}).text
    assert "context-only match" in ctx


def test_status_reports_hook_errors(client: TestClient, tmp_path: Path) -> None:
    home = Path(__import__("os").environ["KINDLING_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "hooks.log").write_text("2026 PostToolUse: database locked\n2026 Stop: boom\n")
    page = client.get("/status").text
    assert "2 error lines" in page
    assert "Stop: boom" in page


def test_pin_with_reason_and_expiry_then_unpin(
    client: TestClient, kd: Kindling, ids: dict[str, str], clock: FakeClock
) -> None:
    r = client.post(
        "/pin",
        data={
            "csrf": csrf(client),
            "target_type": "observation",
            "target_id": ids["o2"],
            "reason": "the real cause",
            "days": "7",
        },
    )
    assert r.status_code == 303
    assert r.headers["location"] == f"/item?id={ids['o2']}"
    (pin,) = kd.list_pins()
    assert (pin.target_id, pin.reason) == (ids["o2"], "the real cause")
    assert pin.expires_at == clock.now + 7 * 86_400_000
    assert "the real cause" in client.get("/pins").text
    session = client.get("/session", params={"session": SESSION}).text
    assert "<h2>Pinned</h2>" in session
    assert session.count('class="badge pinned">pinned') == 2  # the pin, and its observation
    r = client.post("/unpin", data={"csrf": csrf(client), "pin_id": pin.id})
    assert r.status_code == 303
    assert kd.list_pins() == []


def test_forget_one_item_previews_then_forgets(
    client: TestClient, kd: Kindling, ids: dict[str, str]
) -> None:
    token = csrf(client)
    preview = client.post("/forget/preview", data={"csrf": token, "id": ids["o3"]})
    assert preview.status_code == 200
    assert "would forget 1 observation, 1 summary" in preview.text
    assert ids["o3"] in preview.text
    assert ids["summary"] in preview.text
    assert kd.get_observation(ids["o3"]).content.startswith("--- a/cart.py")  # not yet
    done = client.post("/forget", data={"csrf": token, "id": ids["o3"]})
    assert "forgot 1 observation, 1 summary" in done.text
    assert kd.get_observation(ids["o3"]).redacted
    assert "sum(p) * rate" not in client.get("/session", params={"session": SESSION}).text


def test_forget_matching_text_previews_exactly_what_goes(
    client: TestClient, kd: Kindling, ids: dict[str, str]
) -> None:
    token = csrf(client)
    preview = client.post("/forget/preview", data={"csrf": token, "match": "AssertionError"})
    assert "would forget 1 observation" in preview.text
    assert ids["o2"] in preview.text
    assert not kd.get_observation(ids["o2"]).redacted
    done = client.post("/forget", data={"csrf": token, "match": "AssertionError"})
    assert "forgot 1 observation" in done.text
    assert kd.get_observation(ids["o2"]).redacted
    nothing = client.post("/forget/preview", data={"csrf": token, "match": "AssertionError"})
    assert "Nothing matches" in nothing.text


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
        {"origin": "http://127.0.0.1:9999"},
    ],
)
def test_cross_origin_posts_are_refused(
    client: TestClient, kd: Kindling, ids: dict[str, str], headers: dict[str, str]
) -> None:
    data = {"csrf": csrf(client), "id": ids["o1"]}
    assert client.post("/forget", data=data, headers=headers).status_code == 403
    assert not kd.get_observation(ids["o1"]).redacted


@pytest.mark.parametrize("bad", [None, "", "0" * 64, "x"])
def test_posts_without_the_form_token_are_refused(
    client: TestClient, kd: Kindling, ids: dict[str, str], bad: str | None
) -> None:
    data = {"id": ids["o1"]} | ({} if bad is None else {"csrf": bad})
    assert client.post("/forget", data=data, headers={"origin": ORIGIN}).status_code == 403
    assert not kd.get_observation(ids["o1"]).redacted
    assert client.get("/forget").status_code == 200  # a GET never changes anything


@pytest.mark.parametrize(
    ("method", "path", "data", "status", "says"),
    [
        ("get", "/item", None, 400, "give an id"),
        ("get", "/item?id=nope", None, 404, "has id 'nope'"),
        ("get", "/search?q=x&n=abc", None, 400, "n must be a whole number"),
        ("get", "/search?q=x&n=100000", None, 400, "n must be a whole number"),
        ("get", "/timeline?before=garbage", None, 400, "before must be"),
        ("get", "/timeline?before=12:", None, 400, "before must be"),
        ("get", "/timeline?limit=0", None, 400, "limit must be"),
        ("post", "/pin", {"target_type": "capsule", "target_id": "x"}, 400, "target_type must"),
        ("post", "/pin", {"target_type": "observation", "target_id": "nope"}, 404, "no obs"),
        (
            "post",
            "/pin",
            {"target_type": "observation", "target_id": "x", "days": "-1"},
            400,
            "whole number of days",
        ),
        ("post", "/forget/preview", {"id": "a", "match": "abc"}, 400, "not both"),
        ("post", "/forget/preview", {}, 400, "not both"),
        ("post", "/forget/preview", {"match": "ab"}, 400, "at least 3 characters"),
        ("post", "/forget", {"id": "nope"}, 404, "no observation, summary or pin"),
        ("post", "/unpin", {"pin_id": "nope"}, 404, "no pin"),
    ],
)
def test_bad_input_is_a_one_line_error_page(
    client: TestClient,
    method: str,
    path: str,
    data: dict[str, str] | None,
    status: int,
    says: str,
) -> None:
    if method == "post":
        r = client.post(path, data={"csrf": csrf(client), **(data or {})})
    else:
        r = client.get(path)
    assert r.status_code == status, r.text
    assert says in r.text.replace("&#x27;", "'")
    assert "Traceback" not in r.text


def test_a_huge_or_broken_form_is_refused(client: TestClient) -> None:
    token = csrf(client)
    r = client.post("/forget/preview", data={"csrf": token, "match": "a" * 70_000})
    assert r.status_code == 413  # the API's answer to a body over its limit (one body reader)
    assert "over 65536 bytes" in r.text
    r = client.post(
        "/forget/preview",
        content=b"csrf=\xff\xfe",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 400


def test_keyset_pages_walk_the_timeline(client: TestClient, kd: Kindling) -> None:
    for n in range(120):
        kd.append_observation(
            kind="command",
            content=f"step-{n:03d}",
            ts=2_000_000_000_000 + n,
            scope=Scope(repo_id="/pages"),
        )
    seen: list[str] = []
    path: str | None = "/repo?repo=%2Fpages"
    while path:
        page = client.get(path).text
        seen += re.findall(r"step-(\d{3})", page)
        older = re.search(r'href="(/repo\?[^"]*before=[^"]*)">older', page)
        path = older.group(1).replace("&amp;", "&") if older else None
    assert seen == [f"{n:03d}" for n in reversed(range(120))]
    assert "end of the timeline" in page


def test_kindling_ui_serves_the_database_behind_its_printed_address(
    kd: Kindling, db_path: Path, ids: dict[str, str]
) -> None:
    """The real command: a free port on 127.0.0.1, the address printed, the page working."""
    with subprocess.Popen(
        [str(KINDLING), "--db", str(db_path), "ui", "--no-open"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            found = re.search(r"(http://127\.0\.0\.1:\d+)/\?code=(\S+)", line)
            assert found, line
            base, code = found.groups()
            with httpx.Client(base_url=base, follow_redirects=True, timeout=30) as web:
                assert web.get("/").status_code == 403
                assert web.get(f"/?code={code}").status_code == 200
                page = web.get("/")
                assert page.status_code == 200
                assert REPO in page.text
                assert web.get("/status").status_code == 200
                assert web.get("/", headers={"host": "rebound.example"}).status_code == 403
        finally:
            proc.terminate()


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_deterministic(client: TestClient, path: str) -> None:
    assert client.get(path).content == client.get(path).content


def test_a_busy_port_is_a_one_line_error(db_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = run("--db", str(db_path), "ui", "--no-open", "--port", str(port))
    assert r.code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in r.stderr
    assert "Traceback" not in r.stderr


def test_the_timeline_shows_one_kind(client: TestClient) -> None:
    errors = client.get("/session", params={"session": SESSION, "kind": "error"}).text
    assert "AssertionError" in errors
    assert "off by a cent" not in errors
    assert "<strong>errors</strong>" in errors
    bad = client.get("/session", params={"session": SESSION, "kind": "bogus"})
    assert bad.status_code == 400
    assert "observation kind" in bad.text


def test_bidi_controls_in_stored_text_are_shown_not_obeyed(
    client: TestClient, kd: Kindling
) -> None:
    """A repository named with a right-to-left override would read as another address."""
    repo = "/work/\u202egnp.exe\u202c"
    kd.append_observation(
        kind="message",
        content="step \u2066one\u2069 \u200fdone\u061c",
        scope=Scope(repo_id=repo, session_id="s-\u202dbidi"),
        ts=1_700_000_500_000,
    )
    marked = '<span class="bidi">&lt;U+202E&gt;</span>gnp.exe<span class="bidi">&lt;U+202C&gt;'
    pages = {
        "/": marked,
        "/repo?repo=" + repo: marked,
        "/timeline": "&lt;U+2066&gt;</span>one",
        "/search?q=step&repo=" + repo: marked,
        "/session?session=s-\u202dbidi": 's-<span class="bidi">&lt;U+202D&gt;</span>bidi',
    }
    for path, shown in pages.items():
        page = client.get(path).text
        for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c":
            assert ch not in page, (path, hex(ord(ch)))
        assert shown in page, path
    page = client.get("/repo", params={"repo": repo}).text
    assert "<title>/work/&lt;U+202E&gt;gnp.exe&lt;U+202C&gt; · Kindling</title>" in page
    assert "&lt;U+2066&gt;</span>one" in page
    search = client.get("/search", params={"q": "step", "repo": repo}).text
    assert 'value="/work/&#x202E;gnp.exe&#x202C;"' in search  # the form keeps the real name
