"""With the semantic signal ranking, one session may fill the first page (issue 35): the
session cap guards a list ordered by words alone, and a list also ordered by meaning keeps the
several steps of one session that answer the question. Lexically, and with the signal on but no
vectors yet, the cap holds as before (``retrieval.spread``)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import Kindling, NewObservation, Scope
from kindling.model import Observation, TargetType
from kindling.retrieval.provider import LocalFtsProvider
from kindling.retrieval.scoring import DEFAULT_WEIGHTS

NOW = 1_767_225_600_000
REPO = Scope(repo_id="shop")
QUESTION = "KeyError tenant_id billing sync"


class Meaning:
    """A stand-in scorer: the "big" session's steps are close in meaning, the rest are not."""

    def __init__(self, close: set[str], known: bool = True) -> None:
        self.close, self.known = close, known

    @property
    def model(self) -> str:
        return "stand-in"

    def similarities(
        self, query: str, items: Sequence[tuple[TargetType, str]]
    ) -> dict[tuple[TargetType, str], float]:
        if not self.known:  # no vector stored yet
            return {}
        return {k: 0.9 if k[1] in self.close else 0.1 for k in items}


def _fill(kd: Kindling, strong: int, others: int) -> set[str]:
    rows = [
        NewObservation(
            kind="error",
            content=f"KeyError: 'tenant_id' in billing sync, retry {i}",
            scope=Scope(repo_id="shop", session_id="big"),
            ts=NOW - 10_000 + i,
        )
        for i in range(strong)
    ]
    rows += [
        NewObservation(
            kind="command",
            content=f"$ grep tenant_id billing/sync.py # KeyError {s} {j}",
            scope=Scope(repo_id="shop", session_id=f"o{s}"),
            ts=NOW - 5_000 + 10 * s + j,
        )
        for s in range(others)
        for j in range(2)
    ]
    return {o.id for o in kd.append_many(rows) if o.scope.session_id == "big"}


def _page(kd: Kindling, scorer: Meaning | None) -> list[str | None]:
    provider = LocalFtsProvider(kd.store, DEFAULT_WEIGHTS, semantic=scorer)
    got = Kindling(kd.store, provider=provider).retrieve(
        QUESTION, scope=REPO, max_candidates=20, now=NOW
    )
    top = [c.entity for c in got.candidates[:10]]
    return [e.scope.session_id if isinstance(e, Observation) else None for e in top]


def _check(kd: Kindling, strong: int, others: int) -> None:
    big = _fill(kd, strong, others)
    assert _page(kd, None).count("big") == 3  # by words alone: the cap
    assert _page(kd, Meaning(big, known=False)).count("big") == 3  # no vectors yet: the cap
    assert _page(kd, Meaning(big)).count("big") == strong  # by meaning too: every step


@settings(max_examples=10, deadline=None)
@given(strong=st.integers(4, 9), others=st.integers(4, 6))
def test_meaning_lets_one_session_hold_the_page(
    tmp_path_factory: pytest.TempPathFactory, strong: int, others: int
) -> None:
    with Kindling.open(tmp_path_factory.mktemp("spread") / "k.db") as kd:
        _check(kd, strong, others)


@pytest.mark.contract
def test_the_rule_holds_on_every_backend(kd: Kindling) -> None:
    """The provider is the same on both backends (``kd``: SQLite, then PostgreSQL)."""
    _check(kd, strong=6, others=5)
