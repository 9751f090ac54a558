"""Bundles: deterministic export, idempotent and atomic import, validation at the boundary."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling import InvalidInputError, Kindling, Scope
from kindling.bundle import dumps, export_bundle, import_bundle, loads, parse_bundle
from tests.conftest import FakeClock

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)


def _fill(kd: Kindling, clock: FakeClock) -> dict[str, str]:
    cap = kd.open_capsule(intent="fix login", scope=Scope(session_id="s1", repo_id="/r"))
    clock.advance(1000)
    a = kd.append_observation(kind="error", content="KeyError user_id", scope=cap.scope)
    b = kd.append_observation(kind="command", content="pytest -x", scope=cap.scope)
    secret = kd.append_observation(kind="message", content="token abc", scope=cap.scope)
    kd.forget(secret.id)
    clock.advance(1000)
    closed = kd.close_capsule(cap.id, summary="login fixed", confidence=0.8, evidence_refs=[a.id])
    pin = kd.pin("observation", b.id, reason="the repro")
    kd.pin("observation", secret.id)
    kd.append_observation(kind="message", content="elsewhere", scope=Scope(repo_id="/other"))
    return {"capsule": closed.id, "a": a.id, "pin": pin.id, "secret": secret.id}


def _strip_time(bundle: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(bundle)
    out.pop("exportedAt")
    out["dataset"].pop("exportedAt")
    return out


def test_round_trip_is_identical_and_reimport_adds_nothing(
    kd: Kindling, clock: FakeClock, tmp_path: Path
) -> None:
    _fill(kd, clock)
    first = export_bundle(kd, include_redacted=True, exported_at=1)
    assert [o["ts"] for o in first["dataset"]["observations"]] == sorted(
        o["ts"] for o in first["dataset"]["observations"]
    )
    with Kindling.open(tmp_path / "copy.db") as other:
        report = import_bundle(other, loads(dumps(first)))
        assert report.added == {"observations": 4, "capsules": 1, "summaries": 1, "pins": 2}
        assert report.links_added == 3
        second = export_bundle(other, include_redacted=True, exported_at=2)
        assert dumps(_strip_time(second)) == dumps(_strip_time(first))
        again = import_bundle(other, loads(dumps(first)))
        assert sum(again.added.values()) == 0
        assert again.links_added == 0
        assert again.existing == report.added
        assert dumps(export_bundle(other, include_redacted=True, exported_at=1)) == dumps(first)


def test_default_export_leaves_out_redacted_and_what_points_at_it(
    kd: Kindling, clock: FakeClock
) -> None:
    ids = _fill(kd, clock)
    bundle = export_bundle(kd)
    data = bundle["dataset"]
    assert ids["secret"] not in {o["id"] for o in data["observations"]}
    assert all(ids["secret"] not in c["observationIds"] for c in data["capsules"])
    assert all(p["targetId"] != ids["secret"] for p in data["pins"])
    assert bundle["bundleVersion"] == "1.0"
    assert data["version"] == "1.0"


def test_scoped_export(kd: Kindling, clock: FakeClock) -> None:
    _fill(kd, clock)
    data = export_bundle(kd, scope=Scope(repo_id="/other"))["dataset"]
    assert [o["content"] for o in data["observations"]] == ["elsewhere"]
    assert data["capsules"] == []
    assert data["summaries"] == []
    assert data["scope"] == {"repoId": "/other"}


def test_dry_run_writes_nothing(kd: Kindling, clock: FakeClock, tmp_path: Path) -> None:
    _fill(kd, clock)
    bundle = loads(dumps(export_bundle(kd)))
    with Kindling.open(tmp_path / "copy.db") as other:
        report = import_bundle(other, bundle, dry_run=True)
        assert report.added["observations"] == 3
        assert report.links_added == 2
        assert other.stats().observations_by_kind == {}


def test_failed_import_writes_nothing(kd: Kindling, clock: FakeClock, tmp_path: Path) -> None:
    _fill(kd, clock)
    raw = export_bundle(kd)
    raw["dataset"]["summaries"][0]["capsuleId"] = "nowhere"
    bundle = parse_bundle(raw)
    with Kindling.open(tmp_path / "copy.db") as other:
        with pytest.raises(InvalidInputError, match="nowhere"):
            import_bundle(other, bundle)
        assert other.stats().observations_by_kind == {}
        assert other.stats().capsules_by_status == {}


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda b: b.update(bundleVersion="2.0"), "bundleVersion"),
        (lambda b: b.pop("dataset"), "dataset"),
        (lambda b: b["dataset"].update(observations={}), "observations must be a list"),
        (lambda b: b["dataset"]["observations"][0].update(kind="nope"), r"observations\[0\]"),
        (lambda b: b["dataset"]["observations"][1].update(ts=-1), r"observations\[1\]: ts"),
        (lambda b: b["dataset"]["observations"][0].pop("content"), "missing field 'content'"),
        (lambda b: b["dataset"]["summaries"][0].update(confidence=2), "confidence"),
        (lambda b: b["dataset"]["pins"].append(b["dataset"]["pins"][0]), "duplicate id"),
        (lambda b: b["dataset"]["capsules"][0].update(scopeIds={"x": "1"}), "scope key"),
    ],
)
def test_invalid_bundles_say_where(
    kd: Kindling, clock: FakeClock, mutate: Any, message: str
) -> None:
    _fill(kd, clock)
    raw = json.loads(dumps(export_bundle(kd)))
    mutate(raw)
    with pytest.raises(InvalidInputError, match=message):
        parse_bundle(raw)


def test_not_json() -> None:
    with pytest.raises(InvalidInputError, match="not valid JSON"):
        loads("{nope")


def test_typescript_shapes_without_nulls_import(tmp_path: Path) -> None:
    """The TypeScript tool omits absent optional fields instead of writing null."""
    raw = {
        "bundleVersion": "1.0",
        "exportedAt": 5,
        "dataset": {
            "version": "1.0",
            "exportedAt": 5,
            "observations": [
                {"id": "o1", "kind": "error", "content": "boom", "provenance": {}, "ts": 1,
                 "scopeIds": {"repoId": "/r"}, "redacted": False},
                {"id": "o2", "kind": "message", "content": "secret", "provenance": {}, "ts": 2,
                 "scopeIds": {}, "redacted": True},
            ],
            "capsules": [
                {"id": "c1", "type": "session", "intent": "x", "status": "open", "openedAt": 1,
                 "scopeIds": {"repoId": "/r"}, "observationIds": ["o1", "gone"]},
            ],
            "summaries": [],
            "pins": [{"id": "p1", "targetType": "observation", "targetId": "o1", "createdAt": 3,
                      "scopeIds": {}}],
        },
    }  # fmt: skip
    with Kindling.open(tmp_path / "ts.db") as kd:
        report = import_bundle(kd, parse_bundle(raw))
        assert report.skipped == ("capsule c1 lists unknown observation gone",)
        assert kd.get_capsule("c1").observation_ids == ("o1",)
        assert kd.get_observation("o2").content == "[redacted]"
        assert kd.get_pin("p1").reason is None
        hits = kd.retrieve("secret", include_redacted=True).candidates
        assert hits == ()


_texts = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00\x02\x03"),
    min_size=1,
    max_size=40,
).filter(str.strip)
_events = st.lists(
    st.tuples(
        st.sampled_from(["error", "command", "message", "file_diff"]),
        _texts,
        st.integers(min_value=0, max_value=5),  # which session
        st.integers(min_value=0, max_value=10**6),  # clock step
        st.sampled_from(["none", "pin", "forget", "close"]),
    ),
    max_size=25,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=_events)
def test_any_store_round_trips_through_a_bundle(events: list[Any]) -> None:
    """Property: export, import into an empty store, export again gives the same bundle."""
    clock = FakeClock()
    with Kindling.open(":memory:", clock=clock) as kd:
        for kind, text, session, step, action in events:
            clock.advance(step)
            where = Scope(session_id=f"s{session}", repo_id="/r")
            if kd.store.find_open_capsule(Scope(), session_id=where.session_id) is None:
                kd.open_capsule(intent=f"work {session}", scope=where)
            obs = kd.append_observation(kind=kind, content=text, scope=where)
            if action == "pin":
                kd.pin("observation", obs.id, reason=text)
            elif action == "forget":
                kd.forget(obs.id)
            elif action == "close":
                cap = kd.store.find_open_capsule(Scope(), session_id=where.session_id)
                assert cap is not None
                kd.close_capsule(cap.id, summary=text, evidence_refs=[obs.id])
        for redacted in (True, False):
            first = export_bundle(kd, include_redacted=redacted, exported_at=1)
            with Kindling.open(":memory:") as other:
                import_bundle(other, loads(dumps(first)))
                again = export_bundle(other, include_redacted=redacted, exported_at=1)
                assert dumps(again) == dumps(first)
                assert sum(import_bundle(other, loads(dumps(first))).added.values()) == 0
