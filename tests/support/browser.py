"""Helpers of the browser tests: headless Chromium from the system's packages through
selenium (never a downloaded browser), a served page in a thread, a recording HTTP server."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from tests.support.requires import CHROMEDRIVER, CHROMIUM, require


def driver_or_skip() -> Any:
    """A headless Chromium driven by selenium, or the rule of ``requires("chromium")``."""
    require("chromium")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = next(b for b in CHROMIUM if os.path.exists(b))
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,900",
        "--disable-extensions",
        "--no-first-run",
    ):
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@contextmanager
def serving(app: ASGIApp) -> Iterator[str]:
    """The app on a real 127.0.0.1 port in a thread; yields its base URL."""
    sock = free_socket()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


class Recorder:
    """An HTTP server that records every request and serves fixed pages (the attacker)."""

    def __init__(self, pages: dict[str, str]) -> None:
        self.hits: list[str] = []
        self.pages = pages
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                recorder.hits.append(self.path)
                body = recorder.pages.get(self.path, "").encode()
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Recorder:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
