"""The parity suite, errors half: the same failure raises the same class on a local store and
through a server, on both backends.

The caller's mistakes (a bad value, an unknown id, a state that forbids the call) and the
store's failures (a lock held past the timeout, a damaged SQLite file) are provoked the same
way on a local database and on the database behind ``kindling serve``; the semantic signal's
failure behind a server of the same application in this process (``kindling serve`` has no
switch that makes the signal required). The classes must be equal, and be the ones the library
documents (``kindling.errors``), so that two wrong answers cannot agree.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import pytest

from kindling import Kindling, KindlingError, Scope, connect
from kindling.client.front import RemoteKindling
from kindling.errors import (
    ConflictError,
    DamagedDatabaseError,
    DatabaseLockedError,
    InvalidInputError,
    NotFoundError,
    SemanticError,
)
from kindling.memory import Memory
from tests.support.parity import Pair, local_and_served
from tests.support.pg import pg_schema
from tests.support.server import running_server

pytest.importorskip("uvicorn")
pytestmark = pytest.mark.contract  # both backends (conftest)

WHERE = Scope(repo_id="webapp", session_id="s1")
PATIENCE_S = 60.0  # the server waits its busy timeout (5 s on SQLite) before it answers


def _closed_twice(m: Memory) -> Any:
    capsule = m.open_capsule(intent="twice", scope=Scope(repo_id="webapp", session_id="s2"))
    m.close_capsule(capsule.id)
    return m.close_capsule(capsule.id)


def _same_id_twice(m: Memory) -> Any:
    m.open_capsule(intent="first", scope=Scope(repo_id="webapp"), id="cap-twice")
    return m.open_capsule(intent="second", scope=Scope(repo_id="webapp"), id="cap-twice")


MISTAKES: dict[str, tuple[Callable[[Memory], Any], type[KindlingError]]] = {
    "unknown kind": (
        lambda m: m.append_observation(kind="nope", content="x", scope=WHERE),  # type: ignore[arg-type]
        InvalidInputError,
    ),
    "blank content": (
        lambda m: m.append_observation(kind="message", content="  ", scope=WHERE),
        InvalidInputError,
    ),
    "candidates below 1": (lambda m: m.retrieve("x", max_candidates=0), InvalidInputError),
    "unknown capsule": (lambda m: m.close_capsule("no-such-capsule"), NotFoundError),
    "unknown observation": (lambda m: m.get_observation("no-such-id"), NotFoundError),
    "unknown entity": (lambda m: m.describe("no-such-id"), NotFoundError),
    "unknown anchor": (lambda m: m.timeline("no-such-id"), NotFoundError),
    "unknown pin": (lambda m: m.unpin("no-such-pin"), NotFoundError),
    "summary of nothing": (lambda m: m.add_summary("no-such-capsule", content="x"), NotFoundError),
    "closed twice": (_closed_twice, ConflictError),
    "the same id twice": (_same_id_twice, ConflictError),
}


def raised(call: Callable[[], Any]) -> type[KindlingError]:
    with pytest.raises(KindlingError) as caught:
        call()
    assert caught.value.message.count("\n") == 0, caught.value.message  # one line
    return type(caught.value)


def test_the_same_mistake_raises_the_same_class(store_url: str, tmp_path: Path) -> None:
    with local_and_served(store_url, tmp_path) as pair:
        remote = connect(pair.url, token=pair.token)
        with connect(pair.local_url) as local:
            here = {name: raised(partial(call, local)) for name, (call, _) in MISTAKES.items()}
        there = {name: raised(partial(call, remote)) for name, (call, _) in MISTAKES.items()}
    expected = {name: cls for name, (_, cls) in MISTAKES.items()}
    assert here == expected
    assert there == expected


# ---------------------------------------------------------------------------- store failures


def _with_options(url: str, extra: str) -> str:
    """A PostgreSQL URL with ``extra`` added to its ``options`` (kept by the store)."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query["options"] = f"{query.get('options', '')} {extra}".strip()
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


@contextmanager
def held(store: str) -> Iterator[None]:
    """Another writer holding ``store``'s write lock (a SQLite file, or the observations table
    of a PostgreSQL schema) until the block ends."""
    if not store.startswith("postgresql://"):
        holder = sqlite3.connect(store, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    import psycopg

    with psycopg.connect(store) as conn:
        conn.execute("LOCK TABLE observations IN ACCESS EXCLUSIVE MODE")
        yield
        conn.rollback()


@contextmanager
def another_store(store_url: str, tmp_path: Path) -> Iterator[str]:
    """A store of ``store_url``'s backend for a server: a new file, or a new schema."""
    if store_url.startswith("postgresql://"):
        with pg_schema() as url:
            yield url
    else:
        yield str(tmp_path / "served.db")


@contextmanager
def locked_pair(store_url: str, tmp_path: Path) -> Iterator[Pair]:
    """``local_and_served``, where a PostgreSQL server's writes wait at most 0.5 s for a lock
    (by its URL: ``kindling serve`` has no such flag; SQLite waits its 5 s busy timeout)."""
    if not store_url.startswith("postgresql://"):
        with local_and_served(store_url, tmp_path) as pair:
            yield pair
        return
    with another_store(store_url, tmp_path) as server_db:
        served = _with_options(server_db, "-clock_timeout=500")
        with Kindling.open(served) as kd:
            _, token = kd.team.create_token(user="alice")
        with running_server(served) as (url, _proc):
            yield Pair(store_url, server_db, url, token)


def _write(m: Memory) -> Any:
    return m.append_observation(kind="message", content="while it is locked", scope=WHERE)


def test_a_lock_held_past_the_timeout_is_the_same_class(store_url: str, tmp_path: Path) -> None:
    with locked_pair(store_url, tmp_path) as pair:
        remote = RemoteKindling(pair.url, pair.token, timeout_s=PATIENCE_S)
        with Kindling.open(pair.local_url, busy_timeout_s=0.5) as local:
            _write(local), _write(remote)  # both stores exist, with their tables
            with held(pair.local_url):
                here = raised(lambda: _write(local))
            with held(pair.server_url):
                there = raised(lambda: _write(remote))
            _write(local), _write(remote)  # and both work again once the lock is gone
    assert here is there is DatabaseLockedError


def _damage(path: str) -> None:
    """Every page into the file (a checkpoint, which also makes each open connection drop
    the pages it keeps), then random bytes over all but the first (SQLite still opens it)."""
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0  # not busy
    conn.close()
    size = os.path.getsize(path)
    with open(path, "r+b") as fh:
        fh.seek(4096)
        fh.write(os.urandom(size - 4096))


def test_a_damaged_database_is_the_same_class(store_url: str, tmp_path: Path) -> None:
    if store_url.startswith("postgresql://"):
        pytest.skip("a damaged file is SQLite's: PostgreSQL keeps its own files")
    with local_and_served(store_url, tmp_path) as pair:
        remote = RemoteKindling(pair.url, pair.token, timeout_s=PATIENCE_S)
        with Kindling.open(pair.local_url) as local:
            for n in range(100):
                for m in (local, remote):
                    m.append_observation(kind="message", content=f"note {n} " * 40, scope=WHERE)
            _damage(pair.local_url)
            _damage(pair.server_url)
            here = raised(lambda: _write(local))
            there = raised(lambda: _write(remote))
    assert here is there is DamagedDatabaseError


def test_a_missing_semantic_signal_is_the_same_class(store_url: str, tmp_path: Path) -> None:
    """A store opened with the semantic signal required and no vectors: ``retrieve`` fails
    locally and behind a server with the class, the server's words kept to its log."""
    from kindling.http.app import create_app
    from tests.support.browser import serving

    with (
        another_store(store_url, tmp_path) as server_db,
        Kindling.open(server_db, semantic=True) as served,
    ):
        _, token = served.team.create_token(user="bob")
        with serving(create_app(served)) as url, Kindling.open(store_url, semantic=True) as local:
            remote = RemoteKindling(url, token)
            for m in (local, remote):
                m.append_observation(kind="message", content="zebra", scope=WHERE)
            here = raised(lambda: local.retrieve("zebra", scope=WHERE))
            there = raised(lambda: remote.retrieve("zebra", scope=WHERE))
    assert here is there is SemanticError
