"""``secrets.privacy``: the scrubbing of an entity's values, done once, at the engine's door."""

from __future__ import annotations

from pathlib import Path

import pytest

import kindling.secrets.privacy as privacy
from kindling import ChatMemoryFields, Kindling
from kindling.bundle import Bundle
from kindling.model import Capsule, Observation, Pin, Scope, Summary
from kindling.secrets.privacy import REDACTED_KINDS_KEY, scrub_content
from kindling.secrets.scrub import Scrubbed, scrub_secrets
from kindling.store.sqlite import SqliteStore
from tests.support.secret_corpus import SECRETS, planted

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


def test_a_store_passed_to_the_constructor_is_scrubbed_too(db_path: Path) -> None:
    """The hooks build ``Kindling(SqliteStore(...))`` themselves: still scrubbed."""
    with Kindling(SqliteStore(db_path)) as kd:
        obs = kd.append_observation(kind="command", content=planted("stripe_live"))
        assert SECRETS["stripe_live"][0] not in obs.content
        assert SECRETS["stripe_live"][0] not in kd.get_observation(obs.id).content


def test_an_import_is_scrubbed_at_the_engines_door(kd: Kindling) -> None:
    """Import writes no row of its own: every text of a bundle is scrubbed by the engine."""
    where = Scope(repo_id="r")
    bundle = Bundle(
        exported_at=1,
        scope=Scope(),
        observations=(Observation("o1", "command", planted("openai"), {}, 1, where),),
        capsules=(Capsule("c1", "session", planted("openai"), "closed", 1, 2, where),),
        summaries=(Summary("s1", "c1", planted("openai"), 0.5, 2),),
        pins=(Pin("p1", "observation", "o1", planted("openai"), 2, None, where),),
    )
    kd.import_bundle(bundle)
    secret = SECRETS["openai"][0]
    assert secret not in kd.get_observation("o1").content
    assert kd.get_observation("o1").provenance == {REDACTED_KINDS_KEY: ["openai_api_key"]}
    assert secret not in kd.get_capsule("c1").intent
    assert secret not in kd.get_summary("s1").content
    assert secret not in (kd.get_pin("p1").reason or "")


def test_each_text_is_scrubbed_once(kd: Kindling, monkeypatch: pytest.MonkeyPatch) -> None:
    """One scan per text: no second pass under the store, no cache to skip one."""
    calls: list[str] = []

    def counting(text: str) -> Scrubbed:
        calls.append(text)
        return scrub_secrets(text)

    monkeypatch.setattr(privacy, "scrub_secrets", counting)
    content = f"deploy {planted('openai')}"
    kd.append_observation(kind="command", content=content, provenance={"cmd": "deploy"})
    assert calls.count(content) == 1
    assert calls.count("deploy") == 1
    calls.clear()
    capsule = kd.open_capsule(intent="ship the release")
    kd.add_summary(capsule.id, content="shipped it")
    assert calls == ["ship the release", "shipped it"]
    calls.clear()
    kd.add_memory("/ws", "we chose JWT", ChatMemoryFields(topic="Auth tokens", decisions=("JWT",)))
    assert sorted(calls) == ["Auth tokens", "JWT", "we chose JWT"]
