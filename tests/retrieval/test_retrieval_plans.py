"""The text pool (``provider.TEXT_POOL``) and what lies below it: the first page is decided
within the pool whatever the limit, and a caller asking for more than the pool gives gets
deeper matches after it, each once. On both backends."""

from __future__ import annotations

import pytest

import kindling.retrieval.provider as provider
from kindling import Kindling, NewObservation, Scope

pytestmark = pytest.mark.contract

REPO = Scope(repo_id="/r")


def _add(kd: Kindling, n: int) -> list[str]:
    rows = [
        NewObservation(
            kind="command",
            content=f"$ make config loader step {i}" + " retry" * (i % 5),
            scope=Scope(session_id=f"s{i // 7}", repo_id="/r"),
            ts=1_000 + i * 1_000,
        )
        for i in range(n)
    ]
    return [o.id for o in kd.append_many(rows)]


def test_more_than_the_pool_gives_reads_deeper_and_keeps_the_first_page(kd: Kindling) -> None:
    ids = _add(kd, provider.TEXT_POOL + 60)
    small = kd.retrieve("loader retry", scope=REPO, max_candidates=10, now=10**9)
    large = kd.retrieve(
        "loader retry", scope=REPO, max_candidates=provider.TEXT_POOL + 40, now=10**9
    )
    got = [c.entity.id for c in large.candidates]
    assert len(got) == provider.TEXT_POOL + 40  # past the pool: deeper matches follow
    assert len(set(got)) == len(got)
    assert set(got) <= set(ids)
    assert got[:10] == [c.entity.id for c in small.candidates]


def test_the_pool_bounds_what_is_scored(kd: Kindling, monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit up to the pool reads the pool only (one read per kind of item)."""
    _add(kd, provider.TEXT_POOL + 60)
    depths: list[int] = []
    real = provider.LocalFtsProvider._candidates

    def spy(self, request, plan, reference, scope, depth=provider.TEXT_POOL):  # type: ignore[no-untyped-def]
        depths.append(depth)
        return real(self, request, plan, reference, scope, depth)

    monkeypatch.setattr(provider.LocalFtsProvider, "_candidates", spy)
    kd.retrieve("loader retry", scope=REPO, max_candidates=provider.TEXT_POOL, now=10**9)
    assert depths == [provider.TEXT_POOL]
