"""A small HTTP client of ``kindling serve`` (standard library only).

Every answer is parsed JSON; every failure a ``KindlingError``: the server's error object
becomes the library error of the same code (``invalid_input``, ``not_found``...), the HTTP
layer's own codes become the classes below, and a server that cannot be reached is a
``ServerUnreachableError`` (the hooks spool on it).

Must not be imported by the core; imports only the core.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any, ClassVar
from urllib.parse import quote, urlencode, urlsplit

from kindling.errors import (
    ConflictError,
    DatabaseLockedError,
    InvalidInputError,
    KindlingError,
    NotFoundError,
    SchemaError,
    StoreError,
)

TIMEOUT_S = 10.0


class RemoteError(KindlingError):
    """The server refused the request for a reason of its own (not a library error)."""

    code: ClassVar[str] = "remote"


class UnauthorizedError(RemoteError):
    code = "unauthorized"


class ForbiddenError(RemoteError):
    code = "forbidden"


class TooLargeError(RemoteError):
    code = "too_large"


class ServerUnreachableError(StoreError):
    """No answer from the server (down, wrong URL, network); nothing was written."""

    code = "unreachable"


_BY_CODE: dict[str, type[KindlingError]] = {
    cls.code: cls
    for cls in (
        InvalidInputError,
        NotFoundError,
        ConflictError,
        SchemaError,
        StoreError,
        DatabaseLockedError,
        UnauthorizedError,
        ForbiddenError,
        TooLargeError,
    )
}


def check_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidInputError(
            f"KINDLING_URL / --url must be an http(s):// URL such as http://host:8765, got {url!r}"
        )
    return url.rstrip("/")


def path_id(value: str) -> str:
    """An id as one path segment (``/`` and the rest quoted)."""
    if not isinstance(value, str) or not value:
        raise InvalidInputError("an id must be a non-empty string")
    return quote(value, safe="")


class RemoteClient:
    def __init__(self, url: str, token: str | None, *, timeout_s: float = TIMEOUT_S) -> None:
        self.url = check_url(url)
        if not token:
            raise InvalidInputError("remote mode needs a token: set KINDLING_TOKEN or --token")
        self.token = token
        self.timeout_s = timeout_s

    def call(self, method: str, path: str, body: Any = None, **query: str) -> Any:
        target = self.url + path + (f"?{urlencode(query)}" if query else "")
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode()
        request = urllib.request.Request(target, data=data, method=method)
        request.add_header("authorization", f"Bearer {self.token}")
        request.add_header("content-type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            raise _error(exc) from None
        except (OSError, ValueError) as exc:  # refused, DNS, timeout, a non-JSON answer
            raise ServerUnreachableError(f"no answer from {self.url}: {exc}") from None


def _error(exc: urllib.error.HTTPError) -> KindlingError:
    try:
        err = json.loads(exc.read())["error"]
        code, message = str(err["code"]), str(err["message"])
    except (ValueError, KeyError, TypeError):
        return RemoteError(f"HTTP {exc.code} from the server without a Kindling error object")
    return _BY_CODE.get(code, RemoteError)(message)
