"""Who may use the page, and the headers that keep a page of hostile text inert.

- Local (``kindling ui``): a random token, given once in the printed URL (``?token=``), is
  swapped for an HttpOnly, SameSite=Strict cookie and a redirect that drops it from the URL.
  A request without it is a 403, and so is one whose ``Host`` is not a loopback name (a DNS
  rebinding page on another domain reaches 127.0.0.1 with its own name in ``Host``).
- Team (``kindling serve``): the login form takes the bearer token and keeps it in the same
  kind of cookie; every request is authenticated with it as the JSON API does.
- Every POST needs the CSRF field (an HMAC of the cookie under a per-process key) and, when the
  browser sends them, an ``Origin`` equal to the page's and ``Sec-Fetch-Site: same-origin``.
- Every answer carries a Content-Security-Policy without inline script or style, and asks
  for no caching, no framing, no referrer to other sites.

Must not import the CLI, other adapters or the rest of Kindling (stdlib and Starlette only).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

from starlette.requests import Request

COOKIE = "kindling_ui"
LOOPBACK = frozenset({"127.0.0.1", "localhost", "[::1]"})
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # "no-referrer" makes a browser send "Origin: null"
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class Refused(Exception):
    """A request the page will not serve (403), with the reason shown."""


def new_token() -> str:
    return secrets.token_urlsafe(32)


def same(a: str | None, b: str) -> bool:
    return a is not None and hmac.compare_digest(a.encode(), b.encode())


def host_name(request: Request) -> str:
    host = request.headers.get("host", "")
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


def check_loopback_host(request: Request) -> None:
    if host_name(request).lower() not in LOOPBACK:
        raise Refused("this page answers only to a loopback Host (127.0.0.1 or localhost)")


class Csrf:
    """CSRF fields bound to the session cookie, under a key that lives as long as the process."""

    def __init__(self) -> None:
        self.key = secrets.token_bytes(32)

    def field(self, cookie: str) -> str:
        return hmac.new(self.key, cookie.encode(), hashlib.sha256).hexdigest()

    def check(self, request: Request, cookie: str | None, sent: str | None) -> None:
        """The checks of a state change: same origin, and the field that only our page has."""
        self.check_origin(request)
        if cookie is None or not same(sent, self.field(cookie)):
            raise Refused("missing or wrong form token; reload the page and try again")

    @staticmethod
    def check_origin(request: Request) -> None:
        """A browser names the page a request comes from: it must be this one."""
        origin = request.headers.get("origin")
        own = f"{request.url.scheme}://{request.headers.get('host', '')}"
        if origin is not None and origin != own:
            raise Refused("cross-origin request refused")
        site = request.headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            raise Refused("cross-site request refused")
