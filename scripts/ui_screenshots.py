"""Screenshots of the memory browser for docs/: the demo session, served and photographed.

    .venv/bin/python scripts/ui_screenshots.py [--out docs/images]

Loads the demo's coding session (``kindling demo``) plus one command whose secret the
scrubber masked into a temporary database, serves ``kindling ui``'s application on
127.0.0.1, and drives the system's headless Chromium (selenium, /usr/bin/chromedriver) through
the main views, saving one PNG each.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from kindling import Kindling, Scope
from kindling.bundle import import_bundle
from kindling.demo import NOW, REPO, session
from kindling.ui.app import create_local_app
from kindling.ui.guard import LocalLogin

WIDTH, MAX_HEIGHT = 1100, 1250
VIEWS = [
    ("ui-repositories.png", "/", None),
    ("ui-timeline.png", f"/repo?repo={REPO}", None),
    ("ui-search.png", f"/search?q=flaky+logout+test&repo={REPO}", "details.why summary"),
    ("ui-item.png", "/item?id=demo-o02", None),
    ("ui-status.png", "/status", None),
]


def seed(kd: Kindling) -> None:
    import_bundle(kd, session())
    kd.append_observation(
        kind="command",
        content="$ curl -H 'Authorization: Bearer ghp_"
        + "a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ12"
        + "'"
        ' https://api.github.com/user\n{"login": "dev"}',
        scope=Scope(session_id="s-0312", repo_id=REPO),
        provenance={"tool": "Bash", "exitCode": 0},
        ts=NOW - 60_000,
    )
    kd.append_observation(
        kind="message",
        content="Bump the docs site to the new theme",
        scope=Scope(session_id="s-docs", repo_id="/home/dev/docs-site"),
        provenance={"role": "user"},
        ts=NOW - 3_600_000,
    )


def shoot(driver: webdriver.Chrome, path: Path) -> None:
    """The page down to its end (at most ``MAX_HEIGHT`` pixels), as one PNG."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(WIDTH, min(int(height) + 150, MAX_HEIGHT))
    driver.save_screenshot(str(path))
    driver.set_window_size(WIDTH, 760)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/ui_screenshots.py")
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["KINDLING_HOME"] = tmp  # the status page names its hooks.log
        db = Path(tmp) / "kindling.db"
        with Kindling.open(db, clock=lambda: NOW) as kd:
            seed(kd)
            login = LocalLogin()
            app = create_local_app(kd, login=login)
            server = uvicorn.Server(uvicorn.Config(app, port=0, log_level="warning"))
            import socket

            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            base = f"http://127.0.0.1:{sock.getsockname()[1]}"
            thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
            thread.start()
            while not server.started:
                time.sleep(0.05)
            options = webdriver.ChromeOptions()
            options.binary_location = "/usr/bin/chromium"
            for arg in (
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--window-size=1100,760",
                "--hide-scrollbars",
            ):
                options.add_argument(arg)
            driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
            try:
                driver.get(f"{base}/?code={login.new_code()}")
                for _ in range(500):  # the page that spends the code moves on to /
                    if driver.current_url == f"{base}/":
                        break
                    time.sleep(0.01)
                for name, path, click in VIEWS:
                    driver.get(base + path)
                    if click:
                        driver.find_element(By.CSS_SELECTOR, click).click()
                    shoot(driver, args.out / name)
                    print(args.out / name, (args.out / name).stat().st_size, "bytes")
                driver.get(f"{base}/forget")
                box = driver.find_element(By.CSS_SELECTOR, "main input[name=match]")
                box.send_keys("logout")
                box.submit()
                driver.find_element(By.CSS_SELECTOR, ".preview")
                shoot(driver, args.out / "ui-forget-preview.png")
            finally:
                driver.quit()
                server.should_exit = True
                thread.join(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
