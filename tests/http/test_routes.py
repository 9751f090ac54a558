"""One route table (``model.wire.routes``): the app serves it, the OpenAPI document describes
it, the client calls it, and every body is read under the route's timeout.
"""

from __future__ import annotations

import ast
import asyncio
import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

import kindling
from kindling import Kindling
from kindling.model.wire.routes import BY_NAME, ROUTES, find, route

pytest.importorskip("starlette")

from kindling.http.app import IMPORT_TIMEOUT_FACTOR, create_app
from kindling.http.openapi import openapi_document

SRC = Path(kindling.__file__).parent
TABLE = {(r.path, r.method.lower()) for r in ROUTES}
READ_TIMEOUT_S = 0.05  # a body that has not ended by then never will (see ``never_ending``)
GUARD_S = 60.0  # no answer by then: the body is waited for without a bound


def test_the_table_names_each_route_once() -> None:
    assert len(BY_NAME) == len(ROUTES)
    assert len(TABLE) == len(ROUTES)
    for spec in ROUTES:
        assert route(spec.name) is spec
        assert spec.timeout == ("none" if spec.body is None else "bulk" if spec.bulk else "body")


def test_the_openapi_document_is_the_route_table() -> None:
    doc = openapi_document()
    ops = {(path, method): op for path, item in doc["paths"].items() for method, op in item.items()}
    assert set(ops) == TABLE
    schemas = doc["components"]["schemas"]
    for spec in ROUTES:
        op = ops[(spec.path, spec.method.lower())]
        assert op["operationId"] == spec.name
        assert str(spec.status) in op["responses"]
        assert spec.response.removesuffix("[]") in schemas
        params = {p["name"] for p in op.get("parameters", [])}
        assert params == {*spec.query, *(["id"] if spec.takes_id else [])}
        assert ("requestBody" in op) == (spec.body is not None)
        assert (op.get("security") == []) == (not spec.auth)
    errors = {code for r in ops.values() for s, v in r["responses"].items() if s[0] in "45"
              for code in v["description"].split(", ")}  # fmt: skip
    assert {"database_damaged", "semantic", "request_timeout", "too_large", "store"} <= errors


def test_the_app_serves_exactly_the_route_table(kd: Kindling) -> None:
    app = create_app(kd)
    served = {
        (getattr(r, "path", ""), method.lower())
        for r in app.routes
        for method in getattr(r, "methods", set()) - {"HEAD"}
    }
    assert served == TABLE


FORWARDERS = ("_list", "_one", "_deliver_held")  # helpers that pass on the route they are given


def _calls(path: Path) -> list[tuple[str, ast.Call]]:
    """Each call of a route (``.call``, ``._list``, ``._one``) and the function it is in."""
    found = []
    for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("call", "_list", "_one")
                and node.args
            ):
                found.append((fn.name, node))
    return found


def test_the_client_calls_only_table_routes_and_every_one() -> None:
    """Each call names a route of the table by a literal; no path is spelled in the client."""
    called: set[str] = set()
    for path in sorted((SRC / "client").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert '"/v1' not in text, path
        assert "'/v1" not in text, path
        for function, call in _calls(path):
            first = call.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                assert first.value in BY_NAME, (path.name, first.value)
                called.add(first.value)
            elif function not in FORWARDERS:
                pytest.fail(f"{path.name}:{call.lineno} names its route at run time")
    assert called == set(BY_NAME) - {"openapi"}


def test_what_the_outbox_holds_falls_on_table_routes() -> None:
    """The outbox now holds hook records (``records.apply``); requests an earlier version
    spooled as (method, path) find their route before they are sent."""
    legacy = [
        ("POST", "/v1/observations"),
        ("POST", "/v1/summaries"),
        ("POST", "/v1/capsules/c-1/close"),
    ]
    found = []
    for method, path in legacy:
        hit = find(method, unquote(path))
        assert hit is not None, path
        found.append(hit[0].name)
    assert found == ["append_observation", "add_summary", "close_capsule"]
    assert find("POST", "/v1/capsules") == (route("open_capsule"), None)


def test_find_is_the_inverse_of_a_routes_path() -> None:
    for spec in ROUTES:
        entity_id = "id-1" if spec.takes_id else None
        path = spec.path.replace("{id}", entity_id or "")
        assert find(spec.method, path) == (spec, entity_id), spec.name
    assert find("GET", "/v1/nothing") is None
    assert find("PUT", "/v1/observations") is None
    assert find("POST", "/v1/capsules/a/b/close") is None


def test_a_call_the_route_does_not_take_is_refused_before_sending() -> None:
    from kindling.client.transport import RemoteClient
    from kindling.errors import InvalidInputError

    client = RemoteClient("http://127.0.0.1:9", "t")  # nothing listens: nothing is sent
    with pytest.raises(TypeError):
        client.call("status", {"x": 1})
    with pytest.raises(TypeError):
        client.call("list_pins", bogus="1")
    with pytest.raises(TypeError):
        client.call("status", entity_id="x")
    with pytest.raises(InvalidInputError, match="id must be a non-empty string"):
        client.call("unpin")
    with pytest.raises(KeyError):
        client.call("no_such_route")


# ---------------------------------------------------------------------------- one read timeout


async def _never_ending(app: Any, path: str, headers: dict[str, str]) -> tuple[int, Any]:
    """POST ``path`` with a body whose first bytes come and the rest never do; the status and
    decoded body of the answer (a guard fails the test if none comes)."""
    sent: list[dict[str, Any]] = []
    first = [b'{"a": ']
    stalled = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if first:
            return {"type": "http.request", "body": first.pop(), "more_body": True}
        await stalled.wait()  # the rest of the body never arrives
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8765),
    }
    try:
        await asyncio.wait_for(app(scope, receive, send), GUARD_S)
    except TimeoutError:
        pytest.fail(f"POST {path}: no answer while its body never ended")
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], body


BODY_ROUTES = [r for r in ROUTES if r.body is not None]


@pytest.mark.parametrize("spec", BODY_ROUTES, ids=lambda r: r.name)
def test_every_api_body_is_read_under_the_read_timeout(kd: Kindling, spec: Any) -> None:
    token = kd.team.create_token(user="alice")[1]
    app = create_app(kd, read_timeout_s=READ_TIMEOUT_S)
    path = spec.path.replace("{id}", "some-id")
    headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    status, body = asyncio.run(_never_ending(app, path, headers))
    assert status == 408
    message = json.loads(body)["error"]
    assert message["code"] == "request_timeout"
    factor = IMPORT_TIMEOUT_FACTOR if spec.timeout == "bulk" else 1
    assert f"within {factor * READ_TIMEOUT_S:g} s" in message["message"]


def test_the_team_pages_login_form_is_read_under_the_read_timeout(kd: Kindling) -> None:
    """``POST /ui/login`` read its form with no bound: a client that sent part of one held a
    request of ``kindling serve`` for as long as it liked, whatever ``--read-timeout`` said."""
    from kindling.ui.app import add_team_ui

    app = create_app(kd, read_timeout_s=READ_TIMEOUT_S)
    add_team_ui(app, app.state.api)
    headers = {"content-type": "application/x-www-form-urlencoded", "host": "127.0.0.1:8765"}
    status, body = asyncio.run(_never_ending(app, "/ui/login", headers))
    assert status == 408
    assert b"did not arrive within 0.05 s" in body
