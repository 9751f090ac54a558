"""What each backend declares (``store.base.Capabilities``) and the shared SQL's dialect, on
both backends: the engine and the server read the declaration, never a probed attribute, and
the verbs written once (``store.sql``) mean the same on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kindling import Kindling, NewObservation, Scope
from kindling.store.sql.dialect import ID_CHUNK, Dialect
from kindling.store.sqlite.connection import SQLITE
from tests.support.paths import ROOT

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

SRC = ROOT / "src" / "kindling"


def test_each_backend_declares_its_capabilities(kd: Kindling, store_backend: str) -> None:
    caps = kd.store.capabilities
    if store_backend == "sqlite":
        assert (caps.backend, caps.thread_safe, caps.purge_remains) == ("sqlite", False, "")
        assert caps.local_path is not None
        assert Path(caps.local_path).is_file()
    else:
        assert (caps.backend, caps.thread_safe, caps.local_path) == ("postgresql", True, None)
        assert "VACUUM FULL" in caps.purge_remains


def test_an_in_memory_store_has_no_local_file() -> None:
    with Kindling.open(":memory:") as kd:
        assert kd.store.capabilities.local_path is None


def test_a_quiet_store_reports_its_forget_purged(kd: Kindling) -> None:
    obs = kd.append_observation(kind="message", content="forget me", scope=Scope(repo_id="/r"))
    report = kd.forget(obs.id)
    assert report.complete
    assert kd.store.purge_state().purged


def test_no_caller_probes_a_store_by_attribute_name() -> None:
    probe = re.compile(r"(getattr|hasattr)\([^)]*store|isinstance\([^)]*(Sqlite|Postgres)Store")
    found = [
        f"{path.relative_to(SRC)}:{n}"
        for path in SRC.rglob("*.py")
        if "store" not in path.relative_to(SRC).parts[:1]
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if probe.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("text", ["100%", "a_b", "back\\slash", "%", "_", "\\"])
def test_find_text_takes_like_wildcards_literally(kd: Kindling, text: str) -> None:
    scope = Scope(repo_id="/r")
    hit = kd.append_observation(kind="message", content=f"x {text} y", scope=scope)
    kd.append_observation(kind="message", content="x 1000 aXb backslash y", scope=scope)
    assert kd.store.find_text(text).observations == (hit.id,)


def test_find_text_ignores_ascii_case(kd: Kindling) -> None:
    obs = kd.append_observation(kind="message", content="Zanzibar", scope=Scope(repo_id="/r"))
    assert kd.store.find_text("zANZIBAR").observations == (obs.id,)


def test_summaries_citing_reads_each_backends_json(kd: Kindling) -> None:
    scope = Scope(session_id="s1", repo_id="/r")
    first = kd.append_observation(kind="message", content="one", scope=scope)
    other = kd.append_observation(kind="message", content="two", scope=scope)
    capsule = kd.open_capsule(type="session", intent="work", scope=scope)
    summary = kd.add_summary(capsule.id, content="did one", evidence_refs=[first.id])
    assert kd.store.summaries_citing([first.id, "missing"]) == [summary.id]
    assert kd.store.summaries_citing([other.id]) == []
    assert kd.store.summaries_citing([]) == []


@given(st.lists(st.text(min_size=1, max_size=3), max_size=1300))
def test_sqlite_id_lists_are_chunked_in_order_and_whole(ids: list[str]) -> None:
    pairs = list(SQLITE.in_ids("x", ids))
    assert [i for _, chunk in pairs for i in chunk] == ids
    assert all(0 < len(chunk) <= ID_CHUNK for _, chunk in pairs)
    assert all(sql.count("?") == len(chunk) for sql, chunk in pairs)


def test_an_array_dialect_sends_one_parameter() -> None:
    array = Dialect(array_params=True, contains_sql="", json_items_sql="", false_sql="")
    assert list(array.in_ids("x", ["a", "b"])) == [("x = ANY(?)", [["a", "b"]])]
    assert list(array.in_ids("x", [])) == []


@given(st.lists(st.text(min_size=1, max_size=3), max_size=1300))
def test_sqlite_excluded_ids_are_whole_lists_of_bounded_length(ids: list[str]) -> None:
    sql, params = SQLITE.not_in_ids("x", ids)
    assert params == ids
    assert sql.count("?") == len(ids)
    assert sql.count("NOT IN") == -(-len(ids) // ID_CHUNK)


def test_an_array_dialect_excludes_with_one_parameter() -> None:
    array = Dialect(array_params=True, contains_sql="", json_items_sql="", false_sql="NOT {column}")
    assert array.not_in_ids("x", ["a", "b"]) == ("x <> ALL(?)", [["a", "b"]])
    assert array.not_in_ids("x", []) == ("", [])
    assert array.is_false("o.redacted") == "NOT o.redacted"


def test_an_empty_query_reads_past_many_excluded_ids(kd: Kindling) -> None:
    """The shared newest-first read leaves out more ids than one SQLite list holds, and
    forgotten rows unless asked for them."""
    scope = Scope(repo_id="/r")
    made = kd.append_many(
        [NewObservation(kind="message", content=f"n{i}", scope=scope) for i in range(ID_CHUNK + 60)]
    )
    forgotten = made[-1]
    kd.forget(forgotten.id)
    excluded = [o.id for o in made[-(ID_CHUNK + 20) : -1]]  # the newest but the forgotten one
    found = kd.store.search_observations(
        None, scope, exclude_ids=excluded, include_redacted=False, limit=100
    )
    kept = sorted(made[: -(ID_CHUNK + 20)], key=lambda o: (-o.ts, o.id))  # newest, then id
    kept_ids = [o.id for o in kept]
    assert [m.observation.id for m in found] == kept_ids
    with_forgotten = kd.store.search_observations(
        None, scope, exclude_ids=excluded, include_redacted=True, limit=100
    )
    assert sorted(m.observation.id for m in with_forgotten) == sorted([forgotten.id, *kept_ids])


def test_batch_links_continue_each_capsules_order(kd: Kindling) -> None:
    first, second = Scope(session_id="s1", repo_id="/r"), Scope(session_id="s2", repo_id="/r")
    a = kd.open_capsule(intent="a", scope=first)
    b = kd.open_capsule(intent="b", scope=second)
    early = kd.append_observation(kind="message", content="early", scope=first)
    batch = [
        NewObservation(kind="message", content=f"n{i}", capsule_id=(a.id, b.id)[i % 3 == 2])
        for i in range(700)  # more than one SQLite statement's worth of links
    ]
    made = kd.append_many(batch)
    in_a = [o.id for i, o in enumerate(made) if i % 3 != 2]
    in_b = [o.id for i, o in enumerate(made) if i % 3 == 2]
    assert kd.get_capsule(a.id).observation_ids == (early.id, *in_a)
    assert kd.get_capsule(b.id).observation_ids == tuple(in_b)
    store = kd.store
    assert not store.link_observation(a.id, early.id)  # already there: left as it is
    assert store.link_observation(b.id, early.id)
    assert kd.get_capsule(b.id).observation_ids == (*in_b, early.id)
    assert sorted(store.capsules_of(early.id)) == sorted([a.id, b.id])
