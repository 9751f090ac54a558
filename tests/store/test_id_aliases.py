"""The store's side of the server's id views (``http.idspace``): ``id_aliases`` and
``taken_ids``, on both backends."""

from __future__ import annotations

import pytest

from kindling import Kindling, Scope

pytestmark = pytest.mark.contract  # both backends (conftest)


def test_an_owners_alias_is_recorded_once(kd: Kindling) -> None:
    assert kd.team.id_aliases("team:web") == {}
    assert kd.team.add_id_alias("team:web", "x", "x~1") == "x~1"
    assert kd.team.add_id_alias("team:web", "x", "x~2") == "x~1"  # the first one stays
    assert kd.team.add_id_alias("team:api", "x", "x~3") == "x~3"  # another owner's own
    assert kd.team.add_id_alias("user:alice", "y", "x~3") == ""  # a stored id is one owner's
    assert kd.team.id_aliases("team:web") == {"x": "x~1"}
    assert kd.team.id_aliases("team:api") == {"x": "x~3"}
    assert kd.team.id_aliases("user:alice") == {}


def test_taken_ids_are_those_of_every_kind(kd: Kindling) -> None:
    cap = kd.open_capsule(intent="i", scope=Scope(session_id="s"), id="c1")
    obs = kd.append_observation(kind="message", content="x", id="o1", capsule_id=cap.id)
    summary = kd.close_capsule(cap.id, summary="done").summary_id
    pin = kd.pin("observation", obs.id).id
    many = [f"free-{n}" for n in range(1200)]  # more than one chunk of ids
    asked = ["c1", "o1", summary or "", pin, "nobody", *many]
    assert kd.team.taken_ids(asked) == {"c1", "o1", summary, pin}
    assert kd.team.taken_ids([]) == set()
