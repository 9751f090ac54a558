"""The one exception tree of Kindling: every exception class of the package is defined here.

Every error a caller can see is a ``KindlingError``. Each class carries what every adapter needs
to answer for it, so no adapter keeps a table of its own:

- ``code``: stable, exposed verbatim by JSON outputs (CLI ``--json``, bridge, MCP, HTTP);
- ``http_status``: the status ``kindling serve`` answers with;
- ``expose_detail``: whether the message may reach a client of the server. When it may not
  (a store failure names the database: host, port, name or a file's path), the server logs the
  message and sends ``hidden_detail`` instead.

The server's answer and the remote client's class both come from here (``public_message``,
``class_of_code``): the same failure raises the same class locally and through a server. Every
message says what was wrong and how to fix it; adapters turn these into one-line messages and
never show a traceback for them.

Tree::

    KindlingError                      code               status  detail
    ├── InvalidInputError              invalid_input      400     the caller passed a bad value
    │   ├── ArgumentError              (invalid_input)            bad bridge arguments (exit 2)
    │   ├── PayloadError               (invalid_input)            a hook's stdin is not an object
    │   ├── QuerySyntaxError           (invalid_input)            FTS5 operators that do not parse
    │   └── TokenRequiredError         (invalid_input)            a server's URL without a token
    ├── NotFoundError                  not_found          404     an id that does not exist
    ├── ConflictError                  conflict           409     a state that forbids the request
    ├── RemoteModeError                remote_mode        400     needs a database, not a server
    ├── SchemaError                    schema             500     hidden: the schema is unusable
    ├── InternalError                  internal           500     hidden: a bug (see the log)
    ├── SemanticError                  semantic           503     hidden: no semantic extra/model
    ├── StoreError                     store              503     hidden: the database failed
    │   ├── DatabaseLockedError        database_locked    503     hidden: locked past the timeout
    │   ├── DamagedDatabaseError       database_damaged   503     hidden: fails SQLite's checks
    │   └── ServerUnreachableError     unreachable        503     no answer from the server
    └── HttpError                      http_error         400     the HTTP layer refused
        ├── UnauthorizedError          unauthorized       401     no valid bearer token
        │   └── NeedLogin              (unauthorized)             the team page wants a login
        ├── ForbiddenError             forbidden          403     the token may not do this
        │   └── Refused                (forbidden)                the page will not serve this
        ├── MethodNotAllowedError      method_not_allowed 405     a route without this method
        ├── RequestTimeoutError        request_timeout    408     the body did not arrive in time
        └── TooLargeError              too_large          413     the body is over its limit

A class in parentheses keeps its parent's code: the wire knows the parent (``class_of_code``).

Must not import anything from Kindling.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # ``typing`` costs every hook process 3 ms at import (they import this)
    from typing import ClassVar

__all__ = [
    "ArgumentError",
    "ConflictError",
    "DamagedDatabaseError",
    "DatabaseLockedError",
    "ForbiddenError",
    "HttpError",
    "InternalError",
    "InvalidInputError",
    "KindlingError",
    "MethodNotAllowedError",
    "NeedLogin",
    "NotFoundError",
    "PayloadError",
    "QuerySyntaxError",
    "Refused",
    "RemoteModeError",
    "RequestTimeoutError",
    "SchemaError",
    "SemanticError",
    "ServerUnreachableError",
    "StoreError",
    "TokenRequiredError",
    "TooLargeError",
    "UnauthorizedError",
    "class_of_code",
    "wire_classes",
]

_SEE_LOG = "the server's log says why"


class KindlingError(Exception):
    """Root of every error Kindling raises on purpose."""

    code: ClassVar[str] = "kindling_error"
    http_status: ClassVar[int] = 500
    expose_detail: ClassVar[bool] = True
    hidden_detail: ClassVar[str] = f"the server failed; {_SEE_LOG}"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_dict(self) -> dict[str, str]:
        """The JSON error object adapters print: ``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}

    def public_message(self) -> str:
        """What a client of the server may read: the message, or in its place the class's
        generic words when the message may name the server's database or files."""
        return self.message if self.expose_detail else self.hidden_detail


# ---------------------------------------------------------------------------- the caller's


class InvalidInputError(KindlingError, ValueError):
    """A value the caller passed is not acceptable (bad kind, blank content, ...)."""

    code = "invalid_input"
    http_status = 400


class ArgumentError(InvalidInputError):
    """Missing, extra or malformed bridge command-line arguments (exit status 2, like click)."""


class PayloadError(InvalidInputError):
    """A hook's input is not a JSON object."""


class QuerySyntaxError(InvalidInputError):
    """A query's FTS5 operators do not parse. The store catches it and reads every word of the
    query as a plain term, so it never reaches a caller."""


class TokenRequiredError(InvalidInputError):
    """A ``kindling serve`` URL was given (``connect()``, ``--url``, ``KINDLING_URL``) without
    the bearer token every request needs."""


class NotFoundError(KindlingError, LookupError):
    """An id that names no entity in this store."""

    code = "not_found"
    http_status = 404


class ConflictError(KindlingError):
    """A valid request that the current state forbids (closing a closed capsule, ...)."""

    code = "conflict"
    http_status = 409


class RemoteModeError(KindlingError):
    """A verb or command that works on a database itself (its tokens, its whole-store counts,
    its vectors, its file) was asked of a client of ``kindling serve``."""

    code = "remote_mode"
    http_status = 400


# ---------------------------------------------------------------------------- the server's


class SchemaError(KindlingError):
    """The database's schema is newer than this Kindling, or not a Kindling database."""

    code = "schema"
    http_status = 500
    expose_detail = False
    hidden_detail = f"the database's schema is not one this server reads; {_SEE_LOG}"


class InternalError(KindlingError):
    """A bug: what a server answers for an exception it did not expect (logged there)."""

    code = "internal"
    http_status = 500
    expose_detail = False
    hidden_detail = "internal server error; see the log"


class SemanticError(KindlingError):
    """The optional semantic signal cannot run: its extra is not installed, or a model file is
    missing or not the pinned one. The message names what and how to fix it (and may name the
    models folder, so a server keeps it to its log)."""

    code = "semantic"
    http_status = 503
    expose_detail = False
    hidden_detail = f"the server's semantic signal cannot run; {_SEE_LOG}"


class StoreError(KindlingError):
    """The database itself failed: I/O error, corruption, or a file that is not SQLite."""

    code = "store"
    http_status = 503
    expose_detail = False
    hidden_detail = f"the store failed; {_SEE_LOG}"


class DatabaseLockedError(StoreError):
    """Another process held the write lock for longer than the busy timeout."""

    code = "database_locked"
    hidden_detail = "the store is busy; retry"


class DamagedDatabaseError(StoreError):
    """The database file fails SQLite's checks; nothing is written to it."""

    code = "database_damaged"
    hidden_detail = f"the store's database is damaged; {_SEE_LOG}"


class ServerUnreachableError(StoreError):
    """No answer from the server (down, wrong URL, network); nothing was written. Raised by
    the remote client only (the hooks spool on it)."""

    code = "unreachable"


# ---------------------------------------------------------------------------- the HTTP layer's


class HttpError(KindlingError):
    """The HTTP layer refused the request, not the library (authentication, size, time,
    method), or a server answered what Kindling never sends."""

    code = "http_error"
    http_status = 400


class UnauthorizedError(HttpError):
    """No bearer token, or one that is unknown or revoked."""

    code = "unauthorized"
    http_status = 401


class NeedLogin(UnauthorizedError):
    """No valid session on the team page: go to the login form."""


class ForbiddenError(HttpError):
    """The token may not touch this repository or entity."""

    code = "forbidden"
    http_status = 403


class Refused(ForbiddenError):
    """A request the memory browser will not serve (403), with the reason shown: a foreign
    ``Host``, a missing form token, a cross-site request."""


class MethodNotAllowedError(HttpError):
    """The path exists, but not with this method."""

    code = "method_not_allowed"
    http_status = 405


class RequestTimeoutError(HttpError):
    """The request's body did not arrive within the server's ``--read-timeout``."""

    code = "request_timeout"
    http_status = 408


class TooLargeError(HttpError):
    """The request's body is over the route's limit."""

    code = "too_large"
    http_status = 413


def wire_classes() -> dict[str, type[KindlingError]]:
    """Each code and the class that names it (a subclass that keeps its parent's code is
    not listed: on the wire it is its parent). A test checks that no code is named twice."""
    found: dict[str, type[KindlingError]] = {}
    pending: list[type[KindlingError]] = [KindlingError]
    while pending:
        cls = pending.pop(0)
        if cls.__module__ == __name__ and "code" in vars(cls):
            found.setdefault(cls.code, cls)
        pending.extend(cls.__subclasses__())
    return found


def class_of_code(code: str) -> type[KindlingError]:
    """The class a client raises for a server's error ``code`` (an unknown one: ``HttpError``,
    the server answered what this Kindling does not know)."""
    return wire_classes().get(code, HttpError)
