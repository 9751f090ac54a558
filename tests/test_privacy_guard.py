"""``capture.privacy``: the store wrapper that scrubs every write, and its helpers."""

from __future__ import annotations

import copy
from pathlib import Path

from kindling import Kindling
from kindling.capture.privacy import (
    REDACTED_KINDS_KEY,
    ScrubbingStore,
    guard_store,
    scrub_content,
)
from kindling.model import Observation, Scope
from kindling.store.sqlite import SqliteStore
from tests.secret_corpus import SECRETS, planted

GHP = SECRETS["github_ghp"][0]


def test_provenance_strings_are_scrubbed_and_keys_kept() -> None:
    text, prov = scrub_content(
        "plain", {"cmd": f"push {GHP}", "argv": [["x", f"t={GHP}"]], "n": 3, "ok": None}
    )
    assert text == "plain"
    assert GHP not in repr(prov)
    assert set(prov) == {"cmd", "argv", "n", "ok", REDACTED_KINDS_KEY}
    assert prov["n"] == 3
    assert prov[REDACTED_KINDS_KEY] == ["github_token"]


def test_redacted_kinds_merge_with_what_the_caller_gave() -> None:
    _, prov = scrub_content(planted("password_kv"), {REDACTED_KINDS_KEY: ["jwt", 5]})
    assert prov[REDACTED_KINDS_KEY] == ["jwt", "password"]
    _, prov = scrub_content(planted("password_kv"), {REDACTED_KINDS_KEY: "nonsense"})
    assert prov[REDACTED_KINDS_KEY] == ["password"]
    _, prov = scrub_content("nothing secret", {"a": "b"})
    assert prov == {"a": "b"}


def test_a_store_passed_to_the_constructor_is_wrapped_too(db_path: Path) -> None:
    """The hooks build ``Kindling(SqliteStore(...))`` themselves: still redacted."""
    with Kindling(SqliteStore(db_path)) as kd:
        assert isinstance(kd.store, ScrubbingStore)
        obs = kd.append_observation(kind="command", content=planted("stripe_live"))
        assert SECRETS["stripe_live"][0] not in obs.content


def test_writes_straight_to_the_store_are_scrubbed(kd: Kindling) -> None:
    raw = Observation(
        id="o1", kind="command", content=planted("openai"), provenance={}, ts=1, scope=Scope()
    )
    kd.store.insert_observation(raw, None)
    stored = kd.get_observation("o1")
    assert SECRETS["openai"][0] not in stored.content
    assert stored.provenance == {REDACTED_KINDS_KEY: ["openai_api_key"]}


def test_guard_store_wraps_once_and_only_when_asked(db_path: Path) -> None:
    store = SqliteStore(db_path)
    wrapped = guard_store(store, True)
    assert isinstance(wrapped, ScrubbingStore)
    assert guard_store(wrapped, True) is wrapped
    assert guard_store(store, False) is store
    assert copy.copy(wrapped).inner is store  # attribute lookup does not recurse
    store.close()
