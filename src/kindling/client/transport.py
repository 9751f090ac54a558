"""A small HTTP client of ``kindling serve`` (standard library only).

Every answer is parsed JSON; every failure a ``KindlingError``: the server's error object
becomes the class of its code (``errors.class_of_code``: the class the same failure raises
locally), and a server that cannot be reached is a ``ServerUnreachableError`` (the hooks spool
on it).

Must not be imported by the core; imports only the core.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from kindling.errors import (
    HttpError,
    InvalidInputError,
    KindlingError,
    ServerUnreachableError,
    TokenRequiredError,
    class_of_code,
)
from kindling.model.wire.routes import route

TIMEOUT_S = 10.0


def check_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidInputError(
            f"KINDLING_URL / --url must be an http(s):// URL such as http://host:8765, got {url!r}"
        )
    return url.rstrip("/")


def path_id(value: object) -> str:
    """An id as one path segment (``/`` and the rest quoted)."""
    if not isinstance(value, str) or not value:
        raise InvalidInputError("an id must be a non-empty string")
    return quote(value, safe="")


class RemoteClient:
    def __init__(self, url: str, token: str | None, *, timeout_s: float = TIMEOUT_S) -> None:
        self.url = check_url(url)
        if not token:
            raise TokenRequiredError("remote mode needs a token: set KINDLING_TOKEN or --token")
        self.token = token
        self.timeout_s = timeout_s

    def call(
        self, name: str, body: Any = None, /, entity_id: str | None = None, **query: str
    ) -> Any:
        """Call the route ``name`` of the route table (``model.wire.routes``): ``entity_id``
        fills its ``{id}``; ``body`` and ``query`` may hold only what the route takes."""
        spec = route(name)
        if set(query) - set(spec.query) or (body is None) != (spec.body is None):
            raise TypeError(f"{name}: a body or query parameters its route does not take")
        if spec.takes_id:
            path = spec.path.replace("{id}", path_id(entity_id))
        elif entity_id is None:
            path = spec.path
        else:
            raise TypeError(f"{name}: its route takes no id")
        target = self.url + path + (f"?{urlencode(query)}" if query else "")
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode()
        request = urllib.request.Request(target, data=data, method=spec.method)
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
    """The server's error object as the class the same failure raises locally."""
    try:
        err = json.loads(exc.read())["error"]
        code, message = str(err["code"]), str(err["message"])
    except (ValueError, KeyError, TypeError):
        return HttpError(f"HTTP {exc.code} from the server without a Kindling error object")
    return class_of_code(code)(message)
