"""Retrieval v2 (issue 10): relevance first, a context-aware index, scope tokens, bulk capture.

Each test states a behaviour that a plausible regression breaks: a recency weight back at 0.3,
context columns dropped, a neighbour left indexed after a forget, a scope token that leaks,
recency measured from another repository, a bulk path that skips a check.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import InvalidInputError, Kindling, NewObservation, Scope
from kindling.model import Observation
from kindling.store.identifiers import identifier_parts
from kindling.store.sqlite.index import scope_tokens

DAY = 86_400_000
NOW = 100 * DAY


def _before_now() -> int:
    """The stores' clock: what they record is recorded before the questions' ``NOW``
    (nothing recorded after ``now`` is returned)."""
    return NOW - 3_600_000


REPO = Scope(repo_id="/repo/web")


def _ids(kd: Kindling, query: str, scope: Scope = REPO, limit: int = 50) -> list[str]:
    found = kd.retrieve(query, scope=scope, now=NOW, max_candidates=limit)
    return [c.entity.id for c in found.candidates]


def test_a_weeks_old_decision_beats_thirty_fresh_lines_sharing_one_word() -> None:
    """The issue's case: seed 000's 0.7/0.3 put the decision 31st."""
    with Kindling.open(":memory:", clock=_before_now) as kd:
        decision = kd.append_observation(
            kind="message",
            content="Decision: refresh tokens live in an httpOnly SameSite=Strict cookie, "
            "never in localStorage",
            scope=REPO,
            ts=NOW - 40 * DAY,
        )
        kd.append_many(
            NewObservation("command", f"npm test -- token suite {i} passed", REPO, ts=NOW - i)
            for i in range(30)
        )
        assert _ids(kd, "where do we keep the refresh token?")[0] == decision.id


def test_the_empty_query_is_newest_first() -> None:
    with Kindling.open(":memory:", clock=_before_now) as kd:
        obs = [
            kd.append_observation(kind="message", content=f"step {i}", scope=REPO, ts=i * DAY)
            for i in range(5)
        ]
        assert _ids(kd, "") == [o.id for o in reversed(obs)]


def _login_session(kd: Kindling) -> tuple[str, str, str]:
    cap = kd.open_capsule(intent="fix login 500", scope=Scope(session_id="s1", repo_id="/repo/web"))
    cmd = kd.append_observation(
        kind="command", content="$ pytest tests/test_auth.py -k signin", capsule_id=cap.id, ts=1
    )
    err = kd.append_observation(
        kind="error",
        content="KeyError: 'sub'\n  File \"src/auth/claims.py\", line 12, in decode_claims",
        capsule_id=cap.id,
        ts=2,
    )
    fix = kd.append_observation(
        kind="message", content="decode_claims falls back to uid", capsule_id=cap.id, ts=3
    )
    return cmd.id, err.id, fix.id


def test_an_error_is_found_through_its_capsule_intent_and_says_so() -> None:
    with Kindling.open(":memory:", clock=_before_now) as kd:
        _, err, _ = _login_session(kd)
        found = kd.retrieve("why did the login fail?", scope=REPO, now=NOW)
        hit = next(c for c in found.candidates if c.entity.id == err)
        assert hit.explanation.context_only is True
        assert hit.to_dict()["explanation"]["contextOnly"] is True
        assert "context" in hit.explanation.why
        assert hit.explanation.matched_terms == ()
        assert hit.match_context is not None
        assert hit.match_context.startswith("KeyError")


def test_an_observation_is_found_through_its_previous_neighbour() -> None:
    with Kindling.open(":memory:", clock=_before_now) as kd:
        _, err, fix = _login_session(kd)
        # Enough other rows that bm25 means something (a tiny store hits the match floor).
        kd.append_many(NewObservation("message", f"unrelated note {i}", REPO) for i in range(40))
        # "signin" is only in the command; the error after it is found through it.
        found = kd.retrieve("signin", scope=REPO, now=NOW)
        by_id = {c.entity.id: c for c in found.candidates}
        assert err in by_id
        assert by_id[err].explanation.context_only
        assert fix not in by_id  # only the previous neighbour is context
        own = next(c for c in found.candidates if not c.explanation.context_only)
        assert own.score > by_id[err].score  # context weighs half


def test_forgetting_an_observation_removes_it_from_its_neighbours_context(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    with Kindling.open(db, clock=_before_now) as kd:
        cmd, err, _ = _login_session(kd)
        assert err in _ids(kd, "signin")
        kd.forget(cmd)
        assert _ids(kd, "signin") == []
        assert err in _ids(kd, "KeyError")  # the neighbour itself is still indexed
    con = sqlite3.connect(db)
    con.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, observations_fts, row)")
    assert con.execute("SELECT count(*) FROM temp.v WHERE term = 'signin'").fetchone()[0] == 0
    con.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")
    con.close()


@pytest.mark.parametrize(
    ("content", "query"),
    [
        ("raised AuthenticationError when the JWT expired", "authentication"),
        ("calls validate_token before every request", "validateToken"),
        ("calls validateToken before every request", "validate token"),
        ("src/auth/tokens.ts exports verify", "tokens.ts"),
        ("src/auth/tokens.ts exports verify", "src/auth/tokens.ts"),
        ("why is get_order_user null", "getOrderUser"),
        ("calls getOrderUser twice", "get_order_user"),
        ("python 3.40.1 is installed", "3.40.1"),
    ],
)
def test_identifiers_match_their_parts_without_prefix_scans(content: str, query: str) -> None:
    with Kindling.open(":memory:", clock=_before_now) as kd:
        obs = kd.append_observation(kind="message", content=content, scope=REPO)
        found = kd.retrieve(query, scope=REPO, now=NOW)
        assert [c.entity.id for c in found.candidates] == [obs.id]
        assert "*" not in (found.provenance.fts_query or "")


def test_identifier_parts_and_scope_tokens() -> None:
    assert identifier_parts("AuthenticationError in getHTTPResponse, snake_case") == (
        "authentication error get http response snakecase"
    )
    assert identifier_parts("see src/auth/tokens.ts and jwt.verify(x)") == "tokensts jwtverify"
    assert identifier_parts("plain words only") == ""
    assert scope_tokens(None, "/r", None, None).startswith("kr")
    assert scope_tokens("s", "/r", None, None) != scope_tokens("s", "/r2", None, None)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_scope_tokens_give_exactly_the_scope_filter(seed: int) -> None:
    """The scoped index finds exactly the rows a scope filter over every match finds."""
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma"]
    scopes = [Scope(session_id=s, repo_id=r) for s in ("s1", "s2") for r in ("/a", "/b")]
    scopes += [Scope(repo_id="/a"), Scope(user_id="u", repo_id="/b"), Scope()]
    with Kindling.open(":memory:", clock=_before_now) as kd:
        kd.append_many(
            NewObservation("message", " ".join(rng.choices(words, k=3)), rng.choice(scopes))
            for _ in range(60)
        )
        everything = kd.list_observations(limit=1000)
        for request in [*scopes, Scope(session_id="s1"), Scope(user_id="u")]:
            found = kd.retrieve("alpha", scope=request, now=NOW, max_candidates=1000).candidates
            for c in found:  # context matches too stay inside the scope
                assert isinstance(c.entity, Observation)
                assert all(getattr(c.entity.scope, k) == v for k, v in request.items())
            got = {c.entity.id for c in found if not c.explanation.context_only}
            want = {
                o.id
                for o in everything
                if "alpha" in o.content.split()
                and all(getattr(o.scope, k) == v for k, v in request.items())
            }
            assert got == want, request


def test_recency_is_measured_within_the_request_scope() -> None:
    """A write in another repository changes nothing in this one's scores."""
    with Kindling.open(":memory:", clock=_before_now) as kd:
        kd.append_observation(kind="message", content="cache eviction fix", scope=REPO, ts=DAY)
        before = kd.retrieve("cache", scope=REPO).to_dict()["candidates"]
        kd.append_observation(
            kind="message", content="cache", scope=Scope(repo_id="/other"), ts=90 * DAY
        )
        after = kd.retrieve("cache", scope=REPO).to_dict()["candidates"]
        assert after == before
        assert before[0]["explanation"]["ageMs"] == 0


def _common_store(kd: Kindling) -> None:
    kd.append_many(
        NewObservation("command", f"build step {i} finished", REPO, ts=i) for i in range(520)
    )


def test_very_common_words_are_dropped_and_reported() -> None:
    with Kindling.open(":memory:", clock=_before_now) as kd:
        _common_store(kd)
        rare = kd.append_many(
            NewObservation("message", f"zebra migration {i} finished", REPO, ts=600 + i)
            for i in range(60)
        )
        found = kd.retrieve("zebra build", scope=REPO, now=NOW, max_candidates=50)
        assert "build" in found.provenance.dropped_terms
        assert found.provenance.fts_query is not None
        assert "build" not in found.provenance.fts_query
        assert {c.entity.id for c in found.candidates} <= {o.id for o in rare}


def test_the_whole_question_runs_when_the_rare_words_find_too_little() -> None:
    with Kindling.open(":memory:", clock=_before_now) as kd:
        _common_store(kd)
        found = kd.retrieve("zebra build", scope=REPO, now=NOW, max_candidates=50)
        assert "build" not in found.provenance.dropped_terms
        assert len(found.candidates) == 50


def test_append_many_equals_single_appends_byte_for_byte(tmp_path: Path) -> None:
    rng = random.Random(3)
    words = ["alpha", "beta", "gamma", "delta", "retry", "token"]
    news = [
        NewObservation(
            "message",
            " ".join(rng.choices(words, k=5)),
            Scope(session_id=f"s{i % 3}", repo_id="/r"),
            ts=i * 1000,
            id=f"o{i:03d}",
        )
        for i in range(80)
    ]
    outputs = []
    for name, bulk in (("one.db", False), ("many.db", True)):
        with Kindling.open(tmp_path / name, clock=_before_now) as kd:
            if bulk:
                kd.append_many(news)
            else:
                for n in news:
                    kd.append_observation(
                        kind=n.kind, content=n.content, scope=n.scope, ts=n.ts, id=n.id
                    )
            outputs.append(
                json.dumps(kd.retrieve("alpha token", scope=Scope(repo_id="/r"), now=NOW).to_dict())
            )
    assert outputs[0] == outputs[1]


def test_append_many_is_all_or_nothing_and_names_the_bad_item() -> None:
    with Kindling.open(":memory:", clock=_before_now) as kd:
        good = NewObservation("message", "fine", REPO)
        with pytest.raises(InvalidInputError, match="observation 2"):
            kd.append_many([good, good, NewObservation("message", "   ", REPO)])
        with pytest.raises(InvalidInputError, match="observation 1"):
            kd.append_many([good, NewObservation("nonsense", "x", REPO)])  # type: ignore[arg-type]
        assert kd.list_observations() == []
        assert kd.append_many([]) == []


def test_append_many_scrubs_secrets_like_single_appends() -> None:
    with Kindling.open(":memory:", clock=_before_now) as kd:
        (obs,) = kd.append_many(
            [NewObservation("command", "export GITHUB_TOKEN=ghp_" + "a1B2" * 9, REPO)]
        )
        assert "a1B2a1B2" not in obs.content


def test_appends_in_an_open_batch_are_searchable_and_forgettable(tmp_path: Path) -> None:
    """Indexing is deferred to commit; a search or forget inside the batch indexes first."""
    db = tmp_path / "k.db"
    with Kindling.open(db, clock=_before_now) as kd:
        with kd.batch():
            obs = kd.append_observation(kind="message", content="walrus sighting", scope=REPO)
            assert _ids(kd, "walrus") == [obs.id]
            kd.forget(obs.id)
            other = kd.append_observation(kind="message", content="walrus again", scope=REPO)
        assert _ids(kd, "walrus") == [other.id]
    con = sqlite3.connect(db)
    con.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")
    con.close()


def test_a_failed_batch_leaves_no_index_entry(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    with Kindling.open(db, clock=_before_now) as kd:

        def fail_midway() -> None:
            with kd.batch():
                kd.append_observation(kind="message", content="ghost entry", scope=REPO)
                raise RuntimeError("abort")

        with pytest.raises(RuntimeError):
            fail_midway()
        assert _ids(kd, "ghost") == []
    con = sqlite3.connect(db)
    con.execute("INSERT INTO observations_fts(observations_fts) VALUES ('integrity-check')")
    assert con.execute("SELECT count(*) FROM observation_context").fetchone()[0] == 0
    con.close()


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=900))
def test_the_index_cuts_a_neighbour_as_context_excerpt_does(previous: str) -> None:
    """One rule for the neighbour excerpt: SQLite's view and PostgreSQL's
    ``store.documents.context_excerpt`` give the same text (with the segments of its CJK and
    Thai runs, ``with_segments``, on both)."""
    from kindling.store.documents import context_excerpt, with_segments

    if not previous.strip():
        previous = "x" + previous
    with Kindling.open(":memory:", clock=_before_now) as kd:
        where = Scope(session_id="s", repo_id="/r")
        first = kd.append_observation(kind="command", content=previous, scope=where, ts=1)
        kd.append_observation(kind="message", content="next", scope=where, ts=2)
        stored = kd.get_observation(first.id).content
        conn = kd.store.connection  # type: ignore[attr-defined]
        rows = conn.execute("SELECT context FROM observation_docs ORDER BY rowid").fetchall()
    assert rows[1][0] == with_segments(context_excerpt(stored))
