"""The orchestrator's tiers and token budget, on the in-memory fakes (no database)."""

from __future__ import annotations

from kindling.model import Explanation, Observation, Pin, Scope, Summary
from kindling.retrieval.budget import CharTokenizer
from kindling.retrieval.fakes import FakeProvider, FakeTierStore
from kindling.retrieval.orchestrator import RetrieveRequest, retrieve
from kindling.retrieval.provider import ProviderHit
from kindling.store.base import CapsuleRef

REPO = Scope(repo_id="/repo")
OTHER = Scope(repo_id="/other")


def obs(id_: str, text: str = "x" * 40, *, redacted: bool = False) -> Observation:
    return Observation(id_, "message", text, {}, 1_000, REPO, redacted=redacted)


def pin(id_: str, target: str, created: int, *, kind: str = "observation", **kw: object) -> Pin:
    scope = kw.get("scope", REPO)
    expires = kw.get("expires_at")
    assert isinstance(scope, Scope)
    assert expires is None or isinstance(expires, int)
    return Pin(id_, kind, target, None, created, expires, scope)  # type: ignore[arg-type]


def hit(entity: Observation, score: float) -> ProviderHit:
    why = Explanation(0.5, None, 0.5, 0, 1.0, 1.0, 1.0, 1.0, score, (), "fake")
    return ProviderHit("observation", entity.id, score, "fake", (), entity.ts, entity, why)


def request(**kw: object) -> RetrieveRequest:
    base: dict[str, object] = {
        "query": "x",
        "scope": REPO,
        "token_budget": None,
        "max_candidates": 10,
        "include_redacted": False,
        "intent": None,
        "now": 5_000,
    }
    return RetrieveRequest(**{**base, **kw})  # type: ignore[arg-type]


def run(store: FakeTierStore, provider: FakeProvider, **kw: object):  # type: ignore[no-untyped-def]
    return retrieve(store, provider, CharTokenizer(), request(**kw), wall_clock_ms=9_999)


def test_pins_newest_first_once_each_in_scope_and_active() -> None:
    a, b, c, gone = obs("a"), obs("b"), obs("c"), obs("gone", redacted=True)
    store = FakeTierStore(
        observations=[a, b, c, gone],
        pins=[
            pin("p1", "a", 100),
            pin("p2", "b", 300),
            pin("p3", "a", 200),  # a second pin of a: shown once, by the newer pin
            pin("p4", "c", 400, expires_at=5_000),  # expired at now
            pin("p5", "c", 50, scope=OTHER),  # another repository
            pin("p6", "gone", 500),  # forgotten target
            pin("p7", "missing", 600),  # deleted target
        ],
    )
    result = run(store, FakeProvider())
    assert [p.pin.id for p in result.pins] == ["p2", "p3"]
    with_forgotten = run(store, FakeProvider(), include_redacted=True)
    assert [p.pin.id for p in with_forgotten.pins] == ["p6", "p2", "p3"]


def test_the_current_summary_is_the_newest_open_capsules_unless_pinned() -> None:
    old, new = Summary("s-old", "c-old", "old", 1.0, 1), Summary("s-new", "c-new", "new", 1.0, 2)
    store = FakeTierStore(
        summaries=[old, new],
        open_capsules=[
            (CapsuleRef("c-old", "open", REPO), 10),
            (CapsuleRef("c-new", "open", REPO), 20),
        ],
    )
    assert run(store, FakeProvider()).current_summary == new
    assert run(store, FakeProvider(), scope=Scope()).current_summary is None  # no scope
    assert run(store, FakeProvider(), scope=OTHER).current_summary is None
    store.pins.append(pin("p", "s-new", 1, kind="summary"))
    result = run(store, FakeProvider())
    assert result.current_summary is None
    assert [p.target for p in result.pins] == [new]


def test_candidates_leave_out_what_the_tiers_show_and_are_cut_to_the_budget() -> None:
    a, b, c, d = obs("a", "a" * 40), obs("b", "b" * 40), obs("c", "c" * 40), obs("d", "d" * 40)
    store = FakeTierStore(
        observations=[a, b, c, d],
        summaries=[Summary("s", "cap", "s" * 40, 1.0, 1)],
        pins=[pin("p", "a", 1)],
        open_capsules=[(CapsuleRef("cap", "open", REPO), 1)],
    )
    provider = FakeProvider(hits=[hit(a, 0.9), hit(b, 0.8), hit(c, 0.7), hit(d, 0.6)])
    # 10 tokens each: pin 10 + summary 10 fixed, then b and c fit in 40, d does not
    result = run(store, provider, token_budget=40)
    assert provider.requests[-1].exclude_ids == ("a", "s")
    assert [cand.entity.id for cand in result.candidates] == ["b", "c"]
    assert result.provenance.tokens_used == 40
    assert result.provenance.truncated_due_to_token_budget
    assert result.provenance.total_candidates == 3
    unlimited = run(store, provider)
    assert [cand.entity.id for cand in unlimited.candidates] == ["b", "c", "d"]
    assert not unlimited.provenance.truncated_due_to_token_budget


def test_the_fixed_tiers_are_never_cut() -> None:
    a, b = obs("a", "a" * 400), obs("b", "b" * 4)
    store = FakeTierStore(observations=[a, b], pins=[pin("p", "a", 1)])
    result = run(store, FakeProvider(hits=[hit(b, 0.5)]), token_budget=5)
    assert [p.target.id for p in result.pins] == ["a"]
    assert result.candidates == ()
    assert result.provenance.tokens_used == 100
    assert result.provenance.truncated_due_to_token_budget
