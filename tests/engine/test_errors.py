"""Errors live in one module, and every table of them is read from the classes.

``kindling.errors`` defines every exception class of the package (an AST scan of every other
module finds none); each code is named by one class, which says its HTTP status and whether its
message may reach a client; and every class a server answers with reaches a remote client as
that same class, its message hidden when the class says so.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import kindling.errors as errors
from kindling import Kindling
from kindling.errors import (
    DamagedDatabaseError,
    HttpError,
    KindlingError,
    SchemaError,
    SemanticError,
    ServerUnreachableError,
    StoreError,
    class_of_code,
    wire_classes,
)

SRC = Path(errors.__file__).parent
BUILTIN_EXCEPTIONS = {
    name
    for name in dir(builtins)
    if isinstance(getattr(builtins, name), type)
    and issubclass(getattr(builtins, name), BaseException)
}
OURS = {name for name in errors.__all__ if isinstance(getattr(errors, name), type)}


def exception_classes(source: str) -> list[str]:
    """The classes ``source`` defines whose base is an exception: a built-in one, one of
    ``kindling.errors``, or any name that ends like one (``...Error``, ``...Exception``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for base in node.bases:
            name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
            if (
                name in BUILTIN_EXCEPTIONS
                or name in OURS
                or name.endswith(("Error", "Exception", "Warning"))
            ):
                found.append(node.name)
                break
    return found


def test_no_module_but_errors_defines_an_exception_class() -> None:
    defined = {
        str(path.relative_to(SRC)): names
        for path in sorted(SRC.rglob("*.py"))
        if path != SRC / "errors.py"
        and (names := exception_classes(path.read_text(encoding="utf-8")))
    }
    assert defined == {}


@pytest.mark.parametrize(
    "source",
    [
        "class Refused(Exception):\n    pass\n",
        "class _ParseError(ValueError):\n    pass\n",
        "from kindling.errors import StoreError\nclass Gone(StoreError):\n    code = 'gone'\n",
        "import kindling.errors as e\nclass Late(e.HttpError):\n    pass\n",
        "class Nested:\n    class Inner(KeyError):\n        pass\n",
    ],
)
def test_the_scan_sees_an_exception_class_wherever_it_is(source: str) -> None:
    assert exception_classes(source) != []
    assert exception_classes("class Plain:\n    pass\nclass Data(dict):\n    pass\n") == []


def test_errors_itself_is_seen_by_the_scan() -> None:
    """The scan would notice the classes where they are: it is not blind to this module."""
    assert set(exception_classes((SRC / "errors.py").read_text())) == OURS


def test_each_code_is_named_by_one_class_with_a_status() -> None:
    named: dict[str, list[str]] = {}
    for name in OURS:
        cls = getattr(errors, name)
        if "code" in vars(cls):
            named.setdefault(cls.code, []).append(name)
    assert {code: names for code, names in named.items() if len(names) > 1} == {}
    assert set(named) == set(wire_classes())
    assert {"database_damaged", "semantic", "remote_mode", "request_timeout"} <= set(named)
    for cls in wire_classes().values():
        assert 400 <= cls.http_status <= 599, cls
        assert isinstance(cls.expose_detail, bool), cls
    for name in OURS:  # a subclass that keeps its parent's code is its parent on the wire
        cls = getattr(errors, name)
        assert class_of_code(cls.code) in cls.__mro__, name


def test_what_may_name_the_servers_database_stays_on_the_server() -> None:
    hidden = {cls for cls in wire_classes().values() if not cls.expose_detail}
    stores = {cls for cls in wire_classes().values() if issubclass(cls, StoreError)}
    assert stores <= hidden
    assert {SchemaError, SemanticError, errors.InternalError} <= hidden
    for cls in hidden:
        assert "/" not in cls.hidden_detail, cls
        assert cls("/srv/db.sqlite is damaged").public_message() == cls.hidden_detail
    assert errors.NotFoundError("no pin 'x'").public_message() == "no pin 'x'"


def test_an_unknown_code_is_an_http_error() -> None:
    assert class_of_code("something_new") is HttpError
    assert class_of_code("database_damaged") is DamagedDatabaseError


def _server_classes() -> Iterator[type[KindlingError]]:
    """Every class a server may answer with (the root and the client's own aside)."""
    for cls in wire_classes().values():
        if cls not in (KindlingError, ServerUnreachableError):
            yield cls


def test_every_error_a_server_answers_reaches_the_client_as_its_class(
    kd: Kindling, alice_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One server, each class raised in turn by the store under a request: the client raises
    exactly that class, with the message or, where the class hides it, the generic words."""
    pytest.importorskip("uvicorn")
    from kindling.client.front import RemoteKindling
    from kindling.http.app import create_app
    from tests.support.browser import serving

    raised: list[KindlingError] = []

    def fail(*_: Any, **__: Any) -> Any:
        raise raised[-1]

    monkeypatch.setattr(kd.store, "list_capsules", fail)
    with serving(create_app(kd)) as url:
        remote = RemoteKindling(url, alice_token)
        for cls in _server_classes():
            raised.append(cls(f"{cls.__name__} at /srv/secret/kindling.db"))
            with pytest.raises(KindlingError) as caught:
                remote.list_capsules()
            assert type(caught.value) is cls
            if cls.expose_detail:
                assert caught.value.message == raised[-1].message
            else:
                assert caught.value.message == cls.hidden_detail
                assert "secret" not in caught.value.message


@pytest.fixture
def alice_token(kd: Kindling) -> str:
    return kd.team.create_token(user="alice")[1]
