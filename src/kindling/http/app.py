"""The Starlette application: routes, authentication, body limits and the error contract.

Every failure is ``{"error": {"code": ..., "message": ...}}``: the library's stable codes
(``invalid_input`` 400, ``not_found`` 404, ``conflict`` 409, ``store``/``database_locked`` 503,
``schema`` 500) plus the HTTP layer's own (``unauthorized`` 401, ``forbidden`` 403,
``too_large`` 413, ``method_not_allowed`` 405, ``request_timeout`` 408). Bodies are read up to
a limit before parsing (``Content-Length`` is checked first, the stream counted anyway) and
within the read timeout, so a huge or slow body costs nothing; JSON nested deeper than
``bodies.MAX_DEPTH`` and a NUL in a path or query parameter are 400s. Each endpoint is one
library call, one transaction, so a failed request writes nothing. Unexpected exceptions
become a 500 ``internal`` error without a traceback in the body; a store failure's own words
(which name the database's host, port and name) go to the log, never to the client.

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

from kindling.engine import Kindling
from kindling.errors import InvalidInputError, KindlingError, StoreError
from kindling.http.api import GETTERS, Api, HttpError
from kindling.http.auth import Principal
from kindling.http.bodies import BodyDecoder, decode
from kindling.http.idspace import TAKEN
from kindling.http.openapi import openapi_document
from kindling.http.shedding import READ_TIMEOUT_S
from kindling.model.checks import MAX_CONTENT_BYTES, MAX_PROVENANCE_BYTES

# One capture at its caps, in the worst JSON spelling (a control character is 6 bytes,
# \u0001), with room for the other fields: what the engine accepts, the server accepts.
MAX_BODY_BYTES = 6 * (MAX_CONTENT_BYTES + MAX_PROVENANCE_BYTES) + (64 << 10)
MAX_IMPORT_BYTES = 64 << 20  # bundles are whole stores (and append_many batches)
IMPORT_TIMEOUT_FACTOR = 10  # ... and take longer to send
# A store failure's message names the database (host, port, name, a file's path): the log gets
# it, clients get these words, whatever the failure (a damaged file, a lock, a lost connection).
HIDDEN = {
    "store": "the store failed; the server's log says why",
    "database_locked": "the store is busy; retry",
    "schema": "the database's schema is not one this server reads; the server's log says why",
}
STATUS_OF_CODE = {
    "invalid_input": 400,
    "not_found": 404,
    "conflict": 409,
    "schema": 500,
    "store": 503,
    "database_locked": 503,
    "database_damaged": 503,
}
log = logging.getLogger("kindling.http")

Handler = Callable[[Request], Awaitable[Response]]


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def read_json(
    request: Request,
    limit: int,
    timeout_s: float = READ_TIMEOUT_S,
    decoder: BodyDecoder | None = None,
) -> Any:
    """The body's JSON value: at most ``limit`` bytes, all in within ``timeout_s``, decoded by
    ``decoder`` (large bodies in its helper process) or here."""
    declared = request.headers.get("content-length")
    if declared is not None and not declared.isdigit():
        raise InvalidInputError("Content-Length must be a number of bytes")
    if declared is not None and int(declared) > limit:
        raise HttpError(413, "too_large", f"request body over {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(timeout_s):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise HttpError(413, "too_large", f"request body over {limit} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise HttpError(
            408, "request_timeout", f"the request body did not arrive within {timeout_s:g} s"
        ) from None
    data = b"".join(chunks)
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


def no_nul(request: Request) -> None:
    """A NUL in the path or query is a 400 (PostgreSQL cannot even compare such text)."""
    if "\x00" in request.url.path or any(
        "\x00" in k or "\x00" in v for k, v in request.query_params.multi_items()
    ):
        raise InvalidInputError("the path and query parameters may not contain NUL characters")


def create_app(kd: Kindling, read_timeout_s: float = READ_TIMEOUT_S) -> Starlette:
    """The API over ``kd``; the caller owns ``kd`` and closes it after the server stops.
    A request body must arrive within ``read_timeout_s`` (a bundle: ten times that)."""
    api = Api(kd)
    bodies = BodyDecoder()  # large bodies are decoded in a helper process (``bodies``)

    def endpoint(handler: Callable[[Request], Awaitable[Any]], status: int = 200) -> Handler:
        async def wrapped(request: Request) -> Response:
            try:
                no_nul(request)
                return JSONResponse(await handler(request), status_code=status)
            except HttpError as exc:
                return error_response(exc.status, exc.code, exc.message)
            except KindlingError as exc:
                code = exc.code
                if isinstance(exc, StoreError) and code != "database_locked":
                    code = "store"  # a damaged file, a lost connection: one answer
                message = HIDDEN.get(code)
                if exc.code == "conflict" and exc.message.startswith(TAKEN):
                    message = TAKEN  # one answer whoever holds the id, on every backend
                elif message is not None:
                    log.error("%s %s: %s", request.method, request.url.path, exc.message)
                code_status = STATUS_OF_CODE.get(code, 400)
                return error_response(code_status, code, message or exc.message)
            except Exception:  # a bug: log it here, never send a traceback
                log.exception("unexpected error on %s %s", request.method, request.url.path)
                return error_response(500, "internal", "internal server error; see the log")

        return wrapped

    async def observations(request: Request) -> Any:
        who = await api.who(request)
        body = await read_object(request, timeout_s=read_timeout_s, decoder=bodies)
        return await api.run(lambda: api.append_observation(who, body))

    async def batch(request: Request) -> Any:
        who = await api.who(request)
        body = await read_object(
            request, MAX_IMPORT_BYTES, IMPORT_TIMEOUT_FACTOR * read_timeout_s, bodies
        )
        return await api.run(lambda: api.append_many(who, body))

    def posted(handler: Callable[[Principal, dict[str, Any]], Any]) -> Handler:
        """A POST whose JSON object body is the handler's argument."""

        async def run(request: Request) -> Any:
            who = await api.who(request)
            body = await read_object(request, timeout_s=read_timeout_s, decoder=bodies)
            return await api.run(lambda: handler(who, body))

        return run

    async def capsules(request: Request) -> Any:
        who = await api.who(request)
        body = await read_object(request, timeout_s=read_timeout_s, decoder=bodies)
        return await api.run(lambda: api.open_capsule(who, body))

    async def close_capsule(request: Request) -> Any:
        who = await api.who(request)
        body = await read_object(request, timeout_s=read_timeout_s, decoder=bodies)
        capsule_id = request.path_params["id"]
        return await api.run(lambda: api.close_capsule(who, capsule_id, body))

    async def summaries(request: Request) -> Any:
        who = await api.who(request)
        body = await read_object(request, timeout_s=read_timeout_s, decoder=bodies)
        return await api.run(lambda: api.add_summary(who, body))

    async def pins(request: Request) -> Any:
        who = await api.who(request)
        body = await read_object(request, timeout_s=read_timeout_s, decoder=bodies)
        return await api.run(lambda: api.pin(who, body))

    async def unpin(request: Request) -> Any:
        who = await api.who(request)
        pin_id = request.path_params["id"]
        return await api.run(lambda: api.unpin(who, pin_id))

    async def forget(request: Request) -> Any:
        who = await api.who(request)
        body = await read_object(request, timeout_s=read_timeout_s, decoder=bodies)
        return await api.run(lambda: api.forget(who, body))

    async def retrieve(request: Request) -> Any:
        who = await api.who(request)
        body = await read_object(request, timeout_s=read_timeout_s, decoder=bodies)
        return await api.run(lambda: api.retrieve(who, body))

    def listing(handler: Callable[[Principal, dict[str, str]], Any]) -> Handler:
        """A GET whose query parameters are the handler's arguments."""

        async def run(request: Request) -> Any:
            who = await api.who(request)
            params = dict(request.query_params)
            return await api.run(lambda: handler(who, params))

        return endpoint(run)

    def lookup(handler: Callable[[Principal, str], Any]) -> Handler:
        """A GET of one id (``{id}`` in the path)."""

        async def run(request: Request) -> Any:
            who = await api.who(request)
            entity_id = request.path_params["id"]
            return await api.run(lambda: handler(who, entity_id))

        return endpoint(run)

    def getter(kind: str) -> Callable[[Principal, str], Any]:
        return lambda who, entity_id: api.get_entity(who, kind, entity_id)

    async def timeline(request: Request) -> Any:
        who = await api.who(request)
        anchor_id, params = request.path_params["id"], dict(request.query_params)
        return await api.run(lambda: api.timeline(who, anchor_id, params))

    async def items(request: Request) -> Any:
        who = await api.who(request)
        body = await read_object(request, timeout_s=read_timeout_s, decoder=bodies)
        return await api.run(lambda: api.get_items(who, body))

    async def status(request: Request) -> Any:
        who = await api.who(request)
        return await api.run(lambda: api.status(who))

    async def import_(request: Request) -> Any:
        who = await api.who(request)
        dry_run = request.query_params.get("dry_run", "false")
        if dry_run not in ("true", "false"):
            raise InvalidInputError("dry_run must be true or false")
        body = await read_json(
            request, MAX_IMPORT_BYTES, IMPORT_TIMEOUT_FACTOR * read_timeout_s, bodies
        )
        return await api.run(lambda: api.import_(who, body, dry_run == "true"))

    async def openapi(request: Request) -> Any:
        return openapi_document()

    routes = [
        Route("/v1/observations", endpoint(observations, 201), methods=["POST"]),
        Route("/v1/observations/batch", endpoint(batch, 201), methods=["POST"]),
        Route("/v1/memories", endpoint(posted(api.add_memory), 201), methods=["POST"]),
        Route("/v1/memories/search", endpoint(posted(api.search_memories)), methods=["POST"]),
        Route("/v1/forget/finish", endpoint(posted(api.finish_forget)), methods=["POST"]),
        Route("/v1/repos", listing(api.list_repos), methods=["GET"]),
        Route("/v1/capsules", endpoint(capsules, 201), methods=["POST"]),
        Route("/v1/capsules/{id}/close", endpoint(close_capsule), methods=["POST"]),
        Route("/v1/summaries", endpoint(summaries, 201), methods=["POST"]),
        Route("/v1/pins", endpoint(pins, 201), methods=["POST"]),
        Route("/v1/pins/{id}", endpoint(unpin), methods=["DELETE"]),
        Route("/v1/observations", listing(api.list_observations), methods=["GET"]),
        Route("/v1/capsules", listing(api.list_capsules), methods=["GET"]),
        Route("/v1/summaries", listing(api.list_summaries), methods=["GET"]),
        Route("/v1/pins", listing(api.list_pins), methods=["GET"]),
        *(Route(f"/v1/{kind}/{{id}}", lookup(getter(kind)), methods=["GET"]) for kind in GETTERS),
        Route("/v1/entities/{id}", lookup(api.describe), methods=["GET"]),
        Route("/v1/timeline/{id}", endpoint(timeline), methods=["GET"]),
        Route("/v1/items", endpoint(items), methods=["POST"]),
        Route("/v1/forget", endpoint(forget), methods=["POST"]),
        Route("/v1/retrieve", endpoint(retrieve), methods=["POST"]),
        Route("/v1/status", endpoint(status), methods=["GET"]),
        Route("/v1/export", listing(api.export), methods=["GET"]),
        Route("/v1/import", endpoint(import_), methods=["POST"]),
        Route("/openapi.json", endpoint(openapi), methods=["GET"]),
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        code = {404: "not_found", 405: "method_not_allowed"}.get(status, "http_error")
        detail = exc.detail if isinstance(exc, HTTPException) else "error"
        return error_response(status, code, f"{request.method} {request.url.path}: {detail}")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        bodies.close()  # the helper process, if a large body started it

    app = Starlette(
        routes=routes, exception_handlers={HTTPException: http_error}, lifespan=lifespan
    )
    app.state.api = api  # the memory browser's team page shares its handlers and lock
    app.state.bodies = bodies  # ``kindling serve`` starts its helper process before it listens
    return app
