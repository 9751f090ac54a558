"""Keyset pages of observations, the repositories listing and the dry run of one forget, on
both backends (the memory browser reads through these)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling import InvalidInputError, Kindling, NotFoundError, Scope

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)


def _seed(kd: Kindling, times: list[int]) -> None:
    for n, ts in enumerate(times):
        repo = "/a" if n % 3 else "/b"
        kd.append_observation(
            kind="command", content=f"step {n}", ts=ts, id=f"o{n:03d}", scope=Scope(repo_id=repo)
        )


def _pages(kd: Kindling, size: int, scope: Scope | None = None) -> list[str]:
    seen: list[str] = []
    before: tuple[int, str] | None = None
    while True:
        page = kd.list_observations(scope=scope, limit=size, before=before)
        seen += [o.id for o in page]
        if len(page) < size:
            return seen
        before = (page[-1].ts, page[-1].id)


def test_pages_walk_the_whole_listing_once_in_order(kd: Kindling) -> None:
    _seed(kd, [100, 100, 100, 90, 90, 80, 70, 70, 70, 70, 60, 50])  # many ties on ts
    whole = [o.id for o in kd.list_observations(limit=100)]
    assert len(whole) == 12
    for size in (1, 2, 3, 5, 12, 13):
        assert _pages(kd, size) == whole
    in_a = [o.id for o in kd.list_observations(scope=Scope(repo_id="/a"), limit=100)]
    assert _pages(kd, 2, Scope(repo_id="/a")) == in_a
    assert kd.list_observations(before=(50, "o011")) == []
    assert [o.id for o in kd.list_observations(before=(70, "o007"), limit=2)] == ["o008", "o009"]


def test_bad_cursors_are_refused(kd: Kindling) -> None:
    for bad in [(1,), ("1", "x"), (True, "x"), (-1, "x"), [1, "x"], (1, 2)]:
        with pytest.raises(InvalidInputError):
            kd.list_observations(before=bad)  # type: ignore[arg-type]


def test_repositories_newest_activity_first_with_counts(kd: Kindling) -> None:
    _seed(kd, [10, 20, 30, 40, 50])  # /b: o000, o003; /a: o001, o002, o004
    kd.append_observation(kind="message", content="no repo", ts=99)
    repos = kd.list_repos()
    assert [r.to_dict() for r in repos] == [
        {"repoId": "/a", "observations": 3, "lastTs": 50},
        {"repoId": "/b", "observations": 2, "lastTs": 40},
    ]
    assert [r.repo_id for r in kd.list_repos(scope=Scope(repo_id="/b"))] == ["/b"]
    assert [r.repo_id for r in kd.list_repos(limit=1)] == ["/a"]


def test_forget_dry_run_names_what_forget_removes_and_changes_nothing(kd: Kindling) -> None:
    cap = kd.open_capsule(intent="fix", scope=Scope(session_id="s", repo_id="/r"))
    obs = kd.append_observation(kind="error", content="Traceback flakyness", capsule_id=cap.id)
    summary = kd.close_capsule(cap.id, summary="fixed it", evidence_refs=[obs.id]).summary_id
    pin = kd.pin("observation", obs.id, reason="why")
    preview = kd.forget(obs.id, dry_run=True)
    assert preview.dry_run
    assert (preview.observations, preview.summaries) == ((obs.id,), (summary,))
    assert kd.get_observation(obs.id).content == "Traceback flakyness"
    done = kd.forget(obs.id)
    assert (done.observations, done.summaries) == (preview.observations, preview.summaries)
    assert kd.forget(pin.id, dry_run=True).pins == (pin.id,)
    with pytest.raises(NotFoundError):
        kd.forget("nope", dry_run=True)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    times=st.lists(st.integers(0, 5), min_size=1, max_size=15),
    size=st.integers(1, 4),
)
def test_any_page_size_gives_the_same_listing(
    tmp_path_factory: pytest.TempPathFactory, times: list[int], size: int
) -> None:
    path = tmp_path_factory.mktemp("p") / "k.db"
    with Kindling.open(path) as kd:
        _seed(kd, times)
        assert _pages(kd, size) == [o.id for o in kd.list_observations(limit=100)]


def test_the_remote_client_pages_and_previews_like_the_library(
    kd: Kindling, store_url: str
) -> None:
    """``KINDLING_URL`` mode: the same ``before`` pages and ``forget(dry_run=True)``."""
    from kindling.client.front import RemoteKindling
    from tests.support.server import make_token, running_server

    token = make_token(kd, "alice")
    with running_server(store_url) as (url, _proc):
        remote = RemoteKindling(url, token)
        for n in range(5):
            remote.append_observation(kind="command", content=f"step {n}", ts=100 + n // 2)
        first = remote.list_observations(limit=2)
        rest = remote.list_observations(limit=10, before=(first[-1].ts, first[-1].id))
        whole = remote.list_observations(limit=10)
        assert [o.id for o in first + rest] == [o.id for o in whole]
        preview = remote.forget(whole[0].id, dry_run=True)
        assert preview.dry_run
        assert preview.observations == (whole[0].id,)
        assert not remote.get_observation(whole[0].id).redacted
