"""The Starlette application: the route table served, authentication, body limits and the
error contract.

Every route is a row of ``model.wire.routes.ROUTES`` (the same rows the OpenAPI document and
the remote client read), served by one loop: authenticate (unless the route is public), take
the path id, the query and the body the row names, make one library call in a worker thread
(``Api.run``), answer JSON. Every failure is ``{"error": {"code": ..., "message": ...}}`` with
the status and the code of the exception's class (``kindling.errors``: the library's codes
and the HTTP layer's own); a class whose detail may not reach a client (a store failure's own
words name the database's host, port, name or file) is logged, and the client gets the class's
generic words. Unexpected exceptions become a 500 ``internal`` error without a traceback.

Bodies are read up to the route's limit before parsing (``Content-Length`` is checked first,
the stream counted anyway) and within the route's timeout (``--read-timeout``, ten times it
for a bulk route), so a huge or slow body costs nothing; JSON nested deeper than
``bodies.MAX_DEPTH`` and a NUL in a path or query parameter are 400s. Each endpoint is one
library call, one transaction, so a failed request writes nothing.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kindling.errors import (
    ConflictError,
    HttpError,
    InternalError,
    InvalidInputError,
    KindlingError,
    MethodNotAllowedError,
    NotFoundError,
    RequestTimeoutError,
    TooLargeError,
)
from kindling.http.api import Api
from kindling.http.bodies import BodyDecoder, decode
from kindling.http.idspace import TAKEN
from kindling.http.openapi import openapi_document
from kindling.http.shedding import READ_TIMEOUT_S
from kindling.memory import ServedMemory
from kindling.model.checks import MAX_CONTENT_BYTES, MAX_PROVENANCE_BYTES
from kindling.model.wire.routes import ROUTES, Timeout
from kindling.model.wire.routes import Route as RouteSpec

# One capture at its caps, in the worst JSON spelling (a control character is 6 bytes,
# \u0001), with room for the other fields: what the engine accepts, the server accepts.
MAX_BODY_BYTES = 6 * (MAX_CONTENT_BYTES + MAX_PROVENANCE_BYTES) + (64 << 10)
MAX_IMPORT_BYTES = 64 << 20  # bundles are whole stores (and append_many batches)
IMPORT_TIMEOUT_FACTOR = 10  # ... and take longer to send
log = logging.getLogger("kindling.http")

Handler = Callable[[Request], Awaitable[Response]]


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def told(request: Request, exc: KindlingError) -> tuple[int, str]:
    """The status and message a client gets for ``exc`` (its class says both); a message the
    client may not read goes to the log."""
    if isinstance(exc, ConflictError) and exc.message.startswith(TAKEN):
        return exc.http_status, TAKEN  # one answer whoever holds the id, on every backend
    if not exc.expose_detail:
        log.error("%s %s: %s", request.method, request.url.path, exc.message)
    return exc.http_status, exc.public_message()


def error_answer(request: Request, exc: KindlingError) -> JSONResponse:
    status, message = told(request, exc)
    return error_response(status, exc.code, message)


async def read_bytes(request: Request, limit: int, timeout_s: float) -> bytes:
    """The body: at most ``limit`` bytes (``TooLargeError``), all in within ``timeout_s``
    (``RequestTimeoutError``). Every body the server reads, JSON or a page's form, is read
    here."""
    declared = request.headers.get("content-length")
    if declared is not None and not declared.isdigit():
        raise InvalidInputError("Content-Length must be a number of bytes")
    if declared is not None and int(declared) > limit:
        raise TooLargeError(f"request body over {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(timeout_s):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise TooLargeError(f"request body over {limit} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise RequestTimeoutError(
            f"the request body did not arrive within {timeout_s:g} s"
        ) from None
    return b"".join(chunks)


async def read_json(
    request: Request,
    limit: int,
    timeout_s: float = READ_TIMEOUT_S,
    decoder: BodyDecoder | None = None,
) -> Any:
    """The body's JSON value (``read_bytes``), decoded by ``decoder`` (large bodies in its
    helper process) or here."""
    data = await read_bytes(request, limit, timeout_s)
    return decode(data) if decoder is None else await decoder.decode(data)


async def read_object(
    request: Request,
    limit: int = MAX_BODY_BYTES,
    timeout_s: float = READ_TIMEOUT_S,
    decoder: BodyDecoder | None = None,
) -> dict[str, Any]:
    body = await read_json(request, limit, timeout_s, decoder)
    if not isinstance(body, dict):
        raise InvalidInputError("the body must be a JSON object")
    return body


def body_limits(timeout: Timeout, read_timeout_s: float) -> tuple[int, float]:
    """A route's body limit and time (``routes.Timeout``; a route without a body reads none)."""
    if timeout == "bulk":
        return MAX_IMPORT_BYTES, IMPORT_TIMEOUT_FACTOR * read_timeout_s
    return MAX_BODY_BYTES, read_timeout_s


def no_nul(request: Request) -> None:
    """A NUL in the path or query is a 400 (PostgreSQL cannot even compare such text)."""
    if "\x00" in request.url.path or any(
        "\x00" in k or "\x00" in v for k, v in request.query_params.multi_items()
    ):
        raise InvalidInputError("the path and query parameters may not contain NUL characters")


def endpoint(api: Api, spec: RouteSpec, read_timeout_s: float, bodies: BodyDecoder) -> Handler:
    """One row of the route table served: its caller, path id, query and body, in that order,
    handed to its handler (see ``model.wire.routes``)."""
    handler: Callable[..., Any] = (
        openapi_document if spec.name == "openapi" else getattr(api, spec.handler_name)
    )
    limit, timeout_s = body_limits(spec.timeout, read_timeout_s)

    async def run(request: Request) -> Response:
        try:
            no_nul(request)
            args: list[Any] = [await api.who(request)] if spec.auth else []
            args += spec.bound
            if spec.takes_id:
                args.append(request.path_params["id"])
            if spec.query:
                args.append(dict(request.query_params))
            if spec.body is not None:
                args.append(await read_object(request, limit, timeout_s, bodies))
            answer = await api.run(lambda: handler(*args)) if spec.auth else handler(*args)
            return JSONResponse(answer, status_code=spec.status)
        except KindlingError as exc:
            return error_answer(request, exc)
        except Exception:  # a bug: log it here, never send a traceback
            log.exception("unexpected error on %s %s", request.method, request.url.path)
            return error_answer(request, InternalError("unexpected error"))

    return run


def create_app(kd: ServedMemory, read_timeout_s: float = READ_TIMEOUT_S) -> Starlette:
    """The API over ``kd``; the caller owns ``kd`` and closes it after the server stops.
    A request body must arrive within ``read_timeout_s`` (a bulk route's: ten times that)."""
    api = Api(kd)
    bodies = BodyDecoder()  # large bodies are decoded in a helper process (``bodies``)
    routes = [
        Route(spec.path, endpoint(api, spec, read_timeout_s, bodies), methods=[spec.method])
        for spec in ROUTES
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        known = (NotFoundError, MethodNotAllowedError)
        kind = next((c for c in known if c.http_status == status), HttpError)
        detail = exc.detail if isinstance(exc, HTTPException) else "error"
        return error_response(status, kind.code, f"{request.method} {request.url.path}: {detail}")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        bodies.close()  # the helper process, if a large body started it

    app = Starlette(
        routes=routes, exception_handlers={HTTPException: http_error}, lifespan=lifespan
    )
    app.state.api = api  # the memory browser's team page shares its handlers and lock
    app.state.bodies = bodies  # ``kindling serve`` starts its helper process before it listens
    app.state.read_timeout_s = read_timeout_s  # ... and its forms' bodies have this time too
    return app
