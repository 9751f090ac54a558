"""The memory browser in a real headless Chromium: the user's path through the page (find a
session, search and read the explanation, pin, forget after the preview), and hostile text
that must stay inert. Skips in one line without Chromium, except under CI=true."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling
from kindling.ui.app import create_local_app
from kindling.ui.guard import LocalLogin
from tests.support.browser import Recorder, driver_or_skip, serving
from tests.support.ui import REPO, SESSION, seed

pytestmark = pytest.mark.slow  # a real Chromium: `-m "not slow"` leaves it out


@pytest.fixture
def driver() -> Iterator[Any]:
    web = driver_or_skip()
    web.implicitly_wait(5)  # a form submit returns before the next page has loaded
    try:
        yield web
    finally:
        web.quit()


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    with Recorder({}) as rec:
        yield rec


@pytest.fixture
def login() -> LocalLogin:
    return LocalLogin()


@pytest.fixture
def page(
    kd: Kindling, db_path: Path, recorder: Recorder, login: LocalLogin
) -> Iterator[tuple[str, dict[str, str]]]:
    beacon = f"http://127.0.0.1:{recorder.port}"
    ids = seed(kd, beacon=f' <img src="{beacon}/img"> <script src="{beacon}/js"></script>')
    with serving(create_local_app(kd, login=login)) as base:
        yield base, ids


def enter(driver: Any, base: str, login: LocalLogin) -> None:
    """Open a one-time code's address, and wait for the page it moves on to (``/``)."""
    from selenium.webdriver.support.wait import WebDriverWait

    driver.get(f"{base}/?code={login.new_code()}")
    WebDriverWait(driver, 10).until(lambda d: d.current_url == f"{base}/")


def by_css(driver: Any, css: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, css)


def text_after_click(driver: Any, css: str, wanted: str) -> str:
    """The text of ``css`` once it holds ``wanted``: a click's form post loads a new page, and
    the old page's element goes stale meanwhile."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.wait import WebDriverWait

    def ready(d: Any) -> str | None:
        text = str(d.find_element("css selector", css).text)
        return text if wanted in text else None

    ignored = (NoSuchElementException, StaleElementReferenceException)
    return str(WebDriverWait(driver, 10, ignored_exceptions=ignored).until(ready))


def click_link(driver: Any, text: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.PARTIAL_LINK_TEXT, text).click()


def no_dialog(driver: Any) -> bool:
    from selenium.common.exceptions import NoAlertPresentException

    try:
        driver.switch_to.alert  # noqa: B018
    except NoAlertPresentException:
        return True
    return False


def test_find_search_pin_and_forget_in_the_browser(
    driver: Any, page: tuple[str, dict[str, str]], db_path: Path, login: LocalLogin
) -> None:
    base, ids = page
    enter(driver, base, login)  # the code left the address bar
    (cookie,) = driver.get_cookies()
    assert cookie["httpOnly"] is True
    assert cookie["sameSite"] == "Strict"

    click_link(driver, REPO)  # repositories -> sessions and capsules
    click_link(driver, "fix the checkout rounding bug")
    assert "Rounding fixed in cart.py" in text_after_click(driver, ".summary", "Rounding fixed")
    click_link(driver, f"session {SESSION}")
    assert "off by a cent" in text_after_click(driver, ".timeline", "off by a cent")

    box = by_css(driver, "nav input[type=search]")
    box.send_keys("rounding failed")
    box.submit()
    hit = by_css(driver, "ol.hits li.hit")
    assert float(by_css(hit, ".score").text) > 0
    why = by_css(hit, "details.why")
    by_css(why, "summary").click()
    assert "matched" in why.text
    assert "relevance" in why.text
    assert "recency" in why.text

    driver.get(f"{base}/item?id={ids['o2']}")
    by_css(driver, "form.pinform input[name=reason]").send_keys("the real cause")
    by_css(driver, "form.pinform input[name=days]").send_keys("7")
    by_css(driver, "form.pinform button").click()
    assert "the real cause" in text_after_click(driver, "li.pin", "the real cause")

    driver.get(f"{base}/item?id={ids['o3']}")
    by_css(driver, "form.danger button").click()
    preview = text_after_click(driver, "main", "would forget")
    assert "would forget 1 observation, 1 summary" in preview
    assert ids["o3"] in preview
    with Kindling.open(db_path) as check:
        assert not check.get_observation(ids["o3"]).redacted  # the preview changed nothing
    by_css(driver, "form.danger button").click()
    assert "forgot 1 observation, 1 summary" in text_after_click(driver, ".report", "forgot")

    driver.get(f"{base}/session?session={SESSION}")
    assert "sum(p) * rate" not in driver.page_source
    with Kindling.open(db_path) as check:
        gone = check.get_observation(ids["o3"])
        assert gone.redacted
        assert "rate" not in gone.content
        (pin,) = check.list_pins()
        assert pin.reason == "the real cause"


def test_hostile_text_stays_inert(
    driver: Any, page: tuple[str, dict[str, str]], recorder: Recorder, login: LocalLogin
) -> None:
    from selenium.webdriver.common.by import By

    base, ids = page
    enter(driver, base, login)
    for path in (f"/session?session={SESSION}", f"/item?id={ids['o4']}", "/search?q=click+me"):
        driver.get(base + path)
        assert no_dialog(driver), path
        main = by_css(driver, "main")
        assert '<script>alert("xss-script")</script>' in main.text
        assert main.find_elements(By.CSS_SELECTOR, "img, script, iframe") == []
        assert main.find_elements(By.CSS_SELECTOR, "a[href^='javascript']") == []
    assert recorder.hits == []  # nothing rendered from the text made a request


def test_a_cross_origin_form_post_is_rejected(
    driver: Any,
    page: tuple[str, dict[str, str]],
    recorder: Recorder,
    db_path: Path,
    login: LocalLogin,
) -> None:
    from selenium.webdriver.support.wait import WebDriverWait

    base, ids = page
    recorder.pages["/attack.html"] = (
        f'<form method="post" action="{base}/forget"><input type="hidden" name="id" '
        f'value="{ids["o1"]}"><input type="hidden" name="csrf" value="guess">'
        '<button id="go" type="submit">win a prize</button></form>'
    )
    enter(driver, base, login)  # the victim is logged in
    driver.get(f"http://127.0.0.1:{recorder.port}/attack.html")
    by_css(driver, "#go").click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url.startswith(base))
    assert "cross-origin request refused" in by_css(driver, "body").text
    with Kindling.open(db_path) as check:
        assert not check.get_observation(ids["o1"]).redacted


def test_a_team_logs_in_and_sees_only_its_repository(driver: Any, kd: Kindling) -> None:
    from kindling.http.app import create_app
    from kindling.ui.app import add_team_ui
    from tests.support.server import make_token
    from tests.support.ui import OTHER_REPO

    ids = seed(kd)
    token = make_token(kd, "alice", "web", REPO)
    app = create_app(kd)
    add_team_ui(app, app.state.api)
    with serving(app) as base:
        driver.get(f"{base}/ui/")
        assert driver.current_url == f"{base}/ui/login"
        box = by_css(driver, "input[name=token]")
        box.send_keys(token)
        box.submit()
        click_link(driver, REPO)
        assert "fix the checkout rounding bug" in text_after_click(driver, "main", "rounding bug")
        driver.get(f"{base}/ui/item?id={ids['o2']}")
        by_css(driver, "form.pinform input[name=reason]").send_keys("team pin")
        by_css(driver, "form.pinform button").click()
        assert "team pin" in text_after_click(driver, "li.pin", "team pin")
        for path in ("/ui/", f"/ui/item?id={ids['other']}", f"/ui/repo?repo={OTHER_REPO}"):
            driver.get(base + path)
            assert "other team's rounding plan" not in driver.page_source
        driver.get(f"{base}/ui/")
        assert OTHER_REPO not in by_css(driver, "main").text
    (pin,) = kd.list_pins()
    assert pin.scope.user_id == "web/alice"  # identity is (team, user)


def test_the_browser_opens_the_private_file_and_the_code_works_once(
    driver: Any, page: tuple[str, dict[str, str]], login: LocalLogin, tmp_path: Path
) -> None:
    """What ``kindling ui`` hands the browser: a file's path; the file sends it on with a code,
    which the first visit spends (the address left in the history opens nothing)."""
    from selenium.webdriver.support.wait import WebDriverWait

    from kindling.cli.commands.ui import opener_page

    base, _ = page
    code = login.new_code()
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    driver.get(opener_page(private, f"{base}/?code={code}").as_uri())
    WebDriverWait(driver, 10).until(lambda d: d.current_url == f"{base}/")
    assert REPO in by_css(driver, "main").text
    (cookie,) = driver.get_cookies()
    assert cookie["name"] == f"kindling_ui_{base.rsplit(':', 1)[1]}"
    assert cookie["httpOnly"] is True
    assert code not in cookie["value"]
    driver.get(f"{base}/pins?code={code}")  # the same browser, from its history: still in
    assert driver.current_url == f"{base}/pins"
    driver.delete_all_cookies()  # anyone else who finds the address
    driver.get(f"{base}/?code={code}")
    assert "spent or wrong" in by_css(driver, "body").text
    driver.get(f"{base}/")
    assert REPO not in driver.page_source
