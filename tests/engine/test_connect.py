"""``kindling.connect()``: one way in, to a file, PostgreSQL or a server, each a ``Memory``;
the environment's choice when no target is given; a one-line ``InvalidInputError`` for a target
that names nothing; and only the engine or the client imported, whichever the target needs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import kindling
from kindling import InvalidInputError, LocalStatus, Memory, ServerStatus, StoreError, connect
from kindling.client.front import RemoteKindling
from kindling.engine import Kindling
from kindling.entry import chosen, target_of
from kindling.errors import TokenRequiredError
from tests.support.parity import T0
from tests.support.pg import pg_schema
from tests.support.server import running_server

pytestmark = pytest.mark.contract  # store_url: a file and PostgreSQL (conftest)

# The JSON of each status, as `kindling status --json` printed it when status() was a dict.
LOCAL_STATUS_KEYS = [
    "database", "sizeBytes", "schemaVersion", "observations", "capsules", "summaries", "pins",
    "openCapsules", "semantic",
]  # fmt: skip
SERVER_STATUS_KEYS = [
    "server", "version", "backend", "schemaVersion", "user", "team", "repos", "openCapsules"
]  # fmt: skip


def test_a_database_file_or_url_is_a_memory_that_keeps_what_it_is_given(store_url: str) -> None:
    with connect(store_url, now=T0) as memory:
        assert isinstance(memory, Memory)
        assert isinstance(memory, Kindling)
        seen = memory.append_observation(kind="message", content="connect keeps this")
        assert seen.ts == T0  # now= is the clock
        status = memory.status()
    with connect(store_url, create=False) as again:
        assert again.get_observation(seen.id).content == "connect keeps this"
    assert isinstance(status, LocalStatus)  # typed: told apart from a server's by its class
    assert list(status.to_json()) == LOCAL_STATUS_KEYS  # the JSON `kindling status` prints
    assert status.to_json()["observations"] == {"total": 1, "byKind": {"message": 1}, "redacted": 0}


def test_memory_is_a_memory_and_is_empty() -> None:
    with connect(":memory:") as memory:
        assert isinstance(memory, Memory)
        assert memory.list_observations() == []


@pytest.mark.slow  # a real `kindling serve` process
def test_a_server_url_is_a_remote_memory(tmp_path: Path) -> None:
    served = str(tmp_path / "served.db")
    with Kindling.open(served) as kd:
        _record, token = kd.team.create_token(user="alice")
    with running_server(served) as (url, _proc):
        memory = connect(url, token=token, now=T0)
        assert isinstance(memory, Memory)
        assert isinstance(memory, RemoteKindling)
        written = memory.append_observation(kind="message", content="through the server")
        assert written.ts == T0
        status = memory.status()
        assert isinstance(status, ServerStatus)
        assert list(status.to_json()) == SERVER_STATUS_KEYS
        assert (status.server, status.user, status.team) == (url, "alice", None)
        with pytest.raises(TokenRequiredError, match="pass its token"):
            connect(url)
    with connect(served) as kd:
        assert kd.get_observation(written.id).content == "through the server"


@pytest.mark.requires("postgres")
def test_postgresql_is_a_memory() -> None:
    with pg_schema() as url, connect(url) as memory:
        assert isinstance(memory, Memory)
        assert isinstance(memory, Kindling)
        assert memory.backend == "postgresql"


def test_no_target_is_the_environments_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "env.db"
    monkeypatch.setenv("KINDLING_DB", str(db))
    with connect() as memory:
        assert isinstance(memory, Kindling)
        memory.append_observation(kind="message", content="x")
    assert db.exists()
    monkeypatch.setenv("KINDLING_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("KINDLING_TOKEN", "kdt_test")
    remote = connect()  # a server wins over KINDLING_DB; nothing is sent yet
    assert isinstance(remote, RemoteKindling)
    assert remote.client.url == "http://127.0.0.1:9"
    assert remote.client.token == "kdt_test"
    assert chosen(url="http://h:1", token="t").token == "t"  # explicit values first
    monkeypatch.setenv("KINDLING_TOKEN", "")  # blank: unset
    with pytest.raises(TokenRequiredError):
        connect()
    monkeypatch.setenv("KINDLING_URL", "${KINDLING_URL}")  # an unexpanded placeholder: unset
    assert chosen().kind == "sqlite"


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("ftp://host/memory", "unknown scheme ftp://"),
        ("mysql://db", "unknown scheme mysql://"),
        ("http://", "http(s):// URL"),
        ("http:///no-host", "http(s):// URL"),
        (42, "not int"),
        (None, "not NoneType"),
    ],
)
def test_a_target_that_names_nothing_is_one_line_of_invalid_input(
    target: object, says: str
) -> None:
    with pytest.raises(InvalidInputError, match=says.replace("(", r"\(").replace(")", r"\)")) as e:
        target_of(target)  # type: ignore[arg-type]
    assert "\n" not in e.value.message
    if target is not None:
        with pytest.raises(InvalidInputError):
            connect(target)  # type: ignore[arg-type]


def test_a_directory_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="is a directory"):
        connect(tmp_path)
    with pytest.raises(InvalidInputError, match="is a directory"):
        connect(str(tmp_path))


def test_reading_never_creates_a_database(tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    with pytest.raises(StoreError, match="no database at"):
        connect(missing, create=False)
    assert not missing.exists()


@pytest.mark.parametrize("now", [-1, True, 1.5, "0"])
def test_now_must_be_epoch_milliseconds(now: object) -> None:
    with pytest.raises(InvalidInputError, match="epoch milliseconds"):
        connect(":memory:", now=now)  # type: ignore[arg-type]


def _loaded_after(code: str) -> set[str]:
    probe = (
        f"import sys\n{code}\nprint(' '.join(m for m in sys.modules if m.startswith('kindling.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_connect_imports_only_what_its_target_needs(tmp_path: Path) -> None:
    assert "kindling.entry" not in _loaded_after("import kindling")  # free until used
    local = _loaded_after(f"import kindling; kindling.connect({str(tmp_path / 'x.db')!r})")
    assert "kindling.engine" in local
    assert not any(m.startswith("kindling.client") for m in local)
    remote = _loaded_after("import kindling; kindling.connect('http://127.0.0.1:9', token='t')")
    assert "kindling.client.front" in remote
    assert not any(m.startswith(("kindling.engine", "kindling.store")) for m in remote)


def test_connect_is_public() -> None:
    assert "connect" in kindling.__all__
    assert kindling.connect is connect
