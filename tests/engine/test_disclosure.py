"""Opening a hit: ``Kindling.timeline`` and ``Kindling.get_items`` on both backends, the HTTP
endpoints with the server's access rule, and the remote client that reads them back."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import InvalidInputError, Kindling, NotFoundError, Scope
from kindling.model import cut_marker
from tests.support.server import auth, error_code, make_token

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = "/src/webapp"
S1 = Scope(session_id="s1", repo_id=REPO)


def _session(kd: Kindling, steps: int = 8) -> tuple[list[str], str, str]:
    """``steps`` commands in session s1 (two at each time, so ties are ordered by writing),
    a command of another session among them, then the capsule closed with a summary."""
    cap = kd.open_capsule(intent="fix the flaky login test", scope=S1, opened_at=900)
    ids = []
    for i in range(steps):
        obs = kd.append_observation(
            kind="command", content=f"step {i}", scope=S1, ts=1_000 + i // 2, capsule_id=cap.id
        )
        ids.append(obs.id)
        if i == 3:
            kd.append_observation(
                kind="command", content="elsewhere", scope=Scope(session_id="s2", repo_id=REPO)
            )
    closed = kd.close_capsule(cap.id, summary="login fixed by a retry", closed_at=1_002)
    assert closed.summary_id is not None
    return ids, closed.summary_id, cap.id


def test_a_timeline_is_the_window_around_the_anchor_in_time_order(kd: Kindling) -> None:
    ids, _, _ = _session(kd)
    t = kd.timeline(ids[4], before=2, after=2)
    assert [o.id for o in t.steps] == ids[2:7]
    assert t.anchor.id == ids[4]
    assert t.session_id == "s1"
    assert (t.more_before, t.more_after) == (True, True)
    first = kd.timeline(ids[0], before=3, after=0)
    assert [o.id for o in first.steps] == [ids[0]]
    assert (first.more_before, first.more_after) == (False, True)
    whole = kd.timeline(ids[7], before=50, after=50)
    assert [o.id for o in whole.steps] == ids  # never another session's steps
    assert (whole.more_before, whole.more_after) == (False, False)


def test_a_summary_anchors_at_its_time_in_its_capsules_session(kd: Kindling) -> None:
    ids, summary_id, _ = _session(kd)
    t = kd.timeline(summary_id, before=3, after=3)
    assert t.anchor.id == summary_id
    # closed at 1_002: after the steps of that time, before those of 1_003
    assert [s.id for s in t.steps] == [*ids[3:6], summary_id, *ids[6:]]
    assert t.to_dict()["anchorType"] == "summary"
    assert (t.more_before, t.more_after) == (True, False)


def test_timeline_bad_input(kd: Kindling) -> None:
    ids, _, cap_id = _session(kd, 2)
    with pytest.raises(NotFoundError, match="no observation or summary has id"):
        kd.timeline(cap_id)  # a capsule is not a step
    with pytest.raises(NotFoundError):
        kd.timeline("nope")
    for bad in (-1, 51, True, "3", 2.0):
        with pytest.raises(InvalidInputError, match="from 0 to 50"):
            kd.timeline(ids[0], before=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        kd.timeline("")


def test_get_items_are_whole_in_the_order_asked_with_the_unknown_reported(kd: Kindling) -> None:
    ids, summary_id, cap_id = _session(kd)
    got = kd.get_items([summary_id, "nope", ids[1], cap_id, ids[1]])
    assert [(i.type, i.entity.id) for i in got.items] == [
        ("summary", summary_id),
        ("observation", ids[1]),
        ("capsule", cap_id),
    ]
    assert got.missing == ("nope",)
    assert got.truncated is False
    assert got.items[2].entity.to_dict()["intent"] == "fix the flaky login test"
    assert got.tokens_used == sum(kd.tokenizer.count(t) for t in ("login fixed by a retry",
                                  "step 1", "fix the flaky login test"))  # fmt: skip


def test_get_items_cut_texts_to_the_budget_and_say_what_was_cut(kd: Kindling) -> None:
    big = kd.append_observation(kind="error", content="x" * 1_000, scope=S1).id
    small = kd.append_observation(kind="message", content="short note", scope=S1).id
    got = kd.get_items([big, small], token_budget=100)
    first, second = got.items
    assert (first.total_chars, first.cut_chars) == (1_000, 600)
    assert first.entity.to_dict()["content"] == "x" * 400 + cut_marker(600)
    assert (second.cut_chars, second.entity.to_dict()["content"]) == (10, cut_marker(10))
    assert got.tokens_used == 100
    assert got.truncated is True
    assert kd.get_items([big], token_budget=0).items[0].cut_chars == 1_000
    assert kd.get_items([big]).items[0].cut_chars == 0  # no budget: whole


@pytest.mark.parametrize(
    "ids",
    [[], "abc", [""], [1], ["a"] * 101, None],
    ids=["empty", "str", "blank", "int", "101", "none"],
)
def test_get_items_bad_ids(kd: Kindling, ids: Any) -> None:
    with pytest.raises(InvalidInputError):
        kd.get_items(ids)


def test_get_items_bad_budget(kd: Kindling) -> None:
    for bad in (-1, True, "10"):
        with pytest.raises(InvalidInputError, match="token_budget"):
            kd.get_items(["a"], token_budget=bad)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(st.text(max_size=300), min_size=1, max_size=5),
    budget=st.none() | st.integers(0, 300),
)
def test_get_items_budget_property(texts: list[str], budget: int | None) -> None:
    """Kept prefixes never pass the budget, cut only when needed, and are deterministic."""
    with Kindling.open(":memory:") as kd:
        ids = [kd.append_observation(kind="message", content="-" + t, scope=S1).id for t in texts]
        got = kd.get_items(ids, token_budget=budget)
        assert got == kd.get_items(ids, token_budget=budget)
        assert budget is None or got.tokens_used <= budget
        used = 0
        for item in got.items:
            whole = kd.get_observation(item.entity.id).content
            shown = item.entity.to_dict()["content"]
            kept = whole[: item.total_chars - item.cut_chars]
            assert shown == (kept + cut_marker(item.cut_chars) if item.cut_chars else whole)
            used += kd.tokenizer.count(kept)
        assert used == got.tokens_used


# ------------------------------------------------------------------ over HTTP


@pytest.fixture
def client(kd: Kindling) -> Iterator[Any]:
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from kindling.http.app import create_app

    with TestClient(create_app(kd), raise_server_exceptions=False) as c:
        yield c


def test_http_timeline_and_items_follow_the_access_rule(kd: Kindling, client: Any) -> None:
    ids, summary_id, cap_id = _session(kd)
    mine = make_token(kd, "alice", "web", REPO)
    theirs = make_token(kd, "mallory", "billing", "/src/billing")
    # written by the library without a user: the team's repository makes it the team's
    r = client.get(f"/v1/timeline/{ids[4]}", params={"before": 1, "after": 1}, headers=auth(mine))
    assert r.status_code == 200, r.text
    assert r.json() == kd.timeline(ids[4], before=1, after=1).to_dict()
    r = client.get(f"/v1/timeline/{ids[4]}", headers=auth(theirs))
    assert (r.status_code, error_code(r)) == (404, "not_found")
    item_ids = [ids[0], summary_id, cap_id]
    body = {"ids": item_ids, "token_budget": 5}
    r = client.post("/v1/items", json=body, headers=auth(mine))
    assert r.json() == kd.get_items(item_ids, token_budget=5).to_dict()
    r = client.post("/v1/items", json=body, headers=auth(theirs))
    assert r.json()["items"] == []
    assert r.json()["missing"] == item_ids  # as unknown as ids nobody has
    for path, params in ((f"/v1/timeline/{ids[0]}", {"before": "-1"}),
                         (f"/v1/timeline/{ids[0]}", {"before": "99"}),
                         (f"/v1/timeline/{ids[0]}", {"limit": "3"})):  # fmt: skip
        r = client.get(path, params=params, headers=auth(mine))
        assert (r.status_code, error_code(r)) == (400, "invalid_input"), params
    for bad in ({}, {"ids": "x"}, {"ids": ["x"], "token_budget": -1}, {"ids": ["x"], "k": 1}):
        r = client.post("/v1/items", json=bad, headers=auth(mine))
        assert (r.status_code, error_code(r)) == (400, "invalid_input"), bad
    assert client.post("/v1/items", json=body).status_code == 401
    assert client.get(f"/v1/timeline/{ids[0]}").status_code == 401
