"""Who may use the page, and the headers that keep a page of hostile text inert.

- Local (``kindling ui``): ``LocalLogin`` makes one-time codes (``?code=``); the first request
  that carries one spends it and gets a session: a new random value, in an HttpOnly,
  SameSite=Strict cookie, and a page that moves on to the address without the code. Sessions live in
  the process (a restart ends them). A request without a session is a 403, and so is one whose
  ``Host`` is not a loopback name (a DNS rebinding page on another domain reaches 127.0.0.1
  with its own name in ``Host``).
- Team (``kindling serve``): the login form takes the bearer token, checks it, and opens a
  session (``TeamSessions``): a new random value in the same kind of cookie, never the token.
  The process keeps the session's digest with the token's SHA-256 (what the store keeps) and
  checks that token again on every request, so a revoked token's sessions end at once.
  Sessions end on logout, after ``TEAM_IDLE_S`` unused or ``TEAM_MAX_AGE_S`` in all, and with
  the process (a restart logs everyone out).
- Cookies belong to a host, not a port (a browser sends a 127.0.0.1 cookie to every server on
  127.0.0.1), so each cookie's name carries the server's port (``cookie_name``): two pages on
  one host neither read nor overwrite each other's.
- Every POST needs the CSRF field (an HMAC of the cookie under a per-process key) and, when the
  browser sends them, an ``Origin`` equal to the page's and ``Sec-Fetch-Site: same-origin``.
- Every answer carries a Content-Security-Policy without inline script or style, and asks
  for no caching, no framing, no referrer to other sites.

Must not import the CLI, other adapters or the rest of Kindling but ``errors`` (stdlib and
Starlette).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from starlette.requests import Request

from kindling.errors import Refused

LOCAL_COOKIE = "kindling_ui"  # the name's prefix; ``cookie_name`` adds the port
TEAM_COOKIE = "kindling_team"
TEAM_IDLE_S = 8 * 3600  # a team page session unused this long is over: a working day's pause
TEAM_MAX_AGE_S = 24 * 3600  # ... and any session after this long, used or not
MAX_TEAM_SESSIONS = 10_000  # beyond this, a login ends the least recently used session
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


def new_token() -> str:
    return secrets.token_urlsafe(32)


def cookie_name(prefix: str, request: Request) -> str:
    """``prefix_<port>``: the port this server listens on (the socket's, not the ``Host``)."""
    server = request.scope.get("server")
    port = server[1] if server and server[1] is not None else None
    return prefix if port is None else f"{prefix}_{port}"


def _digest(value: str) -> bytes:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).digest()


class LocalLogin:
    """The local page's keys: one-time codes, each of which opens one session and is spent,
    and the sessions they opened. Only digests are kept, and only in this process."""

    def __init__(self) -> None:
        self._codes: set[bytes] = set()
        self._sessions: set[bytes] = set()

    def new_code(self) -> str:
        code = new_token()
        self._codes.add(_digest(code))
        return code

    def redeem(self, code: str | None) -> str | None:
        """A new session for an unspent code (now spent), else None."""
        if not code:
            return None
        try:
            self._codes.remove(_digest(code))
        except KeyError:
            return None
        session = new_token()
        self._sessions.add(_digest(session))
        return session

    def valid(self, session: str | None) -> bool:
        return bool(session) and _digest(session or "") in self._sessions


@dataclass(slots=True)
class _TeamSession:
    token_hash: str
    opened: float
    used: float


class TeamSessions:
    """The team page's sessions: the digest of each session value, with the SHA-256 of the
    token it was opened with. Only in this process: a restart ends them all. Not thread-safe:
    used from the event loop only."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._sessions: OrderedDict[bytes, _TeamSession] = OrderedDict()  # least recent first

    def open(self, token_hash: str) -> str:
        """A new session for the token of this hash (checked by the caller)."""
        now = self._clock()
        self._prune(now)
        while len(self._sessions) >= MAX_TEAM_SESSIONS:
            self._sessions.popitem(last=False)
        session = new_token()
        self._sessions[_digest(session)] = _TeamSession(token_hash, now, now)
        return session

    def token_hash(self, session: str | None) -> str | None:
        """The hash of the token behind a live session (its idle time starts again), else
        None (unknown, ended or expired)."""
        if not session or len(session) > 256:
            return None
        key = _digest(session)
        found = self._sessions.get(key)
        now = self._clock()
        if found is None:
            return None
        if now - found.used > TEAM_IDLE_S or now - found.opened > TEAM_MAX_AGE_S:
            del self._sessions[key]
            return None
        found.used = now
        self._sessions.move_to_end(key)
        return found.token_hash

    def end(self, session: str | None) -> None:
        if session:
            self._sessions.pop(_digest(session), None)

    def _prune(self, now: float) -> None:
        """Drop expired sessions from the least recently used end."""
        while self._sessions:
            key, oldest = next(iter(self._sessions.items()))
            if now - oldest.used <= TEAM_IDLE_S:
                break
            del self._sessions[key]

    def __len__(self) -> int:
        return len(self._sessions)


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
