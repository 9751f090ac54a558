"""Issue 31 (retrieval v4): what the bare query does well is kept. A rare identifier carries
the question, identifiers match as written and by their parts, length does not win, one
session cannot fill the first page, nothing after ``now``, and the first page does not depend
on how many candidates are asked for. On both backends."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import Kindling, NewObservation, Scope
from kindling.model import Observation, ObservationKind, Summary
from kindling.retrieval import plans
from kindling.retrieval.scoring import DEFAULT_WEIGHTS
from kindling.retrieval.signals import Query, Scored, fill_text_signals
from kindling.retrieval.terms import PairMatcher
from kindling.store.fts import build_query

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = Scope(repo_id="/r")
COMMON = ["fix", "backwards", "iterate", "loop", "order", "test", "list", "debug"]


def _add(kd: Kindling, rows: list[tuple[str, ObservationKind, str, int]]) -> list[str]:
    """(session, kind, content, ts) rows in repository ``/r``; their ids in order."""
    found = kd.append_many(
        [
            NewObservation(
                kind=kind, content=text, scope=Scope(session_id=sid, repo_id="/r"), ts=ts
            )
            for sid, kind, text, ts in rows
        ]
    )
    return [o.id for o in found]


VOCAB = [f"w{i}" for i in range(40)]


def _filler(n: int, start: int = 0) -> list[tuple[str, ObservationKind, str, int]]:
    """``n`` commands in 10-step sessions: one of the common words (each in an eighth of them)
    and two words of a larger vocabulary."""
    return [
        (
            f"f{(start + i) // 10}",
            "command",
            f"$ python debug_{i}.py {COMMON[i % 8]} {VOCAB[i % 40]} {VOCAB[(i * 7) % 40]}\n"
            f"[exit 0]\nok {i}",
            1_000 + (start + i) * 1_000,
        )
        for i in range(n)
    ]


def test_a_rare_identifier_beats_common_words(kd: Kindling) -> None:
    answer = _add(
        kd,
        [
            (
                "a",
                "file_diff",
                "Edit src/collections/deque.py\n--- a\n+++ b\n-    def __reversed__(self):\n"
                "+    def __reversed__(self):  # LinkedDeque walks its nodes from the tail",
                500,
            )
        ],
    )[0]
    distractor = _add(
        kd,
        [
            (
                "b",
                "command",
                "$ cat > debug_iterate_backwards.py <<'EOF'\nfor x in reversed(items):  "
                "# iterate backwards, in reverse order\n    print(x)\nEOF\n[exit 0]",
                600,
            )
        ],
    )[0]
    _add(kd, _filler(100))
    got = kd.retrieve("iterate LinkedDeque backwards order", scope=REPO, max_candidates=10)
    ids = [c.entity.id for c in got.candidates]
    assert ids[0] == answer, [c.entity.content[:40] for c in got.candidates]
    assert distractor in ids  # it is found, below the answer


@pytest.mark.parametrize(
    ("question", "content"),
    [
        ("Frame.resample", "$ sed -n '40,60p' frame.py\nclass Frame:\n    def resample(self):"),
        ("why does frame.resample() drop rows", "class Frame:\n    def resample(self, rule):"),
        ("pkg/loader.py:42", "Edit pkg/loader.py\n--- a\n+++ b\n-    return None\n+    return {}"),
        ("loader.py:42:7", "Edit pkg/loader.py\n--- a\n+++ b\n-    return None\n+    return {}"),
        ("Parser::parse_header", "impl Parser {\n    fn parse_header(&mut self) -> Header {"),
        ("--max-depth=3", "$ tree --max-depth 3 src\n[exit 0]\nsrc\n  lib"),
        ("LinkedDeque", "class linked_deque:\n    pass"),
    ],
)  # fmt: skip
def test_identifiers_find_their_item_by_their_parts(
    kd: Kindling, question: str, content: str
) -> None:
    answer = _add(kd, [("a", "file_diff", content, 500)])[0]
    _add(kd, _filler(30))
    got = kd.retrieve(question, scope=REPO, max_candidates=10)
    assert [c.entity.id for c in got.candidates][:1] == [answer], got.provenance.fts_query


def test_a_one_line_command_beats_a_long_listing_with_the_same_words(kd: Kindling) -> None:
    listing_lines = [f"    line_{i} = compute(value_{i})  # step {i}" for i in range(220)]
    listing_lines[7] = "    os.makedirs('build/cache')  # mkdir the build cache"
    listing = "$ cat tools/setup.py\n[exit 0]\n" + "\n".join(listing_lines)
    assert len(listing) > 6_000
    # The listing comes in a session about the build cache (its neighbour holds the words
    # too); the command that made it does not.
    ids = _add(
        kd,
        [
            ("a", "message", "where does setup make the build cache dir (mkdir)?", 450),
            ("a", "command", listing, 500),
            ("b", "command", "$ ls\n[exit 0]\nREADME", 390),
            ("b", "command", "$ mkdir -p build/cache\n[exit 0]", 400),
        ],
    )[1::2]
    _add(kd, _filler(30))
    got = kd.retrieve("mkdir build cache", scope=REPO, max_candidates=10)
    order = [c.entity.id for c in got.candidates]
    assert order.index(ids[1]) < order.index(ids[0])


def _session(entity: Observation | Summary) -> str | None:
    return entity.scope.session_id if isinstance(entity, Observation) else None


def _sessions(kd: Kindling, strong: int, others: int) -> None:
    rows: list[tuple[str, ObservationKind, str, int]] = []
    for i in range(strong):
        rows.append(("big", "error", f"KeyError: 'tenant_id' in billing sync, retry {i}", 100 + i))
    for s in range(others):
        for j in range(2):
            rows.append(
                (f"o{s}", "command", f"$ grep tenant_id billing/sync.py # KeyError {s} {j}", 900)
            )
    _add(kd, rows)
    _add(kd, _filler(20))


def test_one_session_cannot_fill_the_first_page(kd: Kindling) -> None:
    _sessions(kd, strong=12, others=4)
    got = kd.retrieve("KeyError tenant_id billing sync", scope=REPO, max_candidates=20)
    top = [_session(c.entity) for c in got.candidates[:10]]
    assert top.count("big") == 3, top
    assert len(set(top)) >= 4
    # Scoped to the session, the cap does not apply.
    inside = kd.retrieve(
        "KeyError tenant_id billing sync", scope=Scope(session_id="big"), max_candidates=10
    )
    assert len(inside.candidates) == 10


def test_an_item_held_below_the_first_page_scores_no_more_than_the_page(kd: Kindling) -> None:
    """Candidates are ordered by score (seed 000): the strong session's items held below the
    page take the page's last score, and say what they scored on their own."""
    _sessions(kd, strong=12, others=4)
    got = kd.retrieve("KeyError tenant_id billing sync", scope=REPO, max_candidates=20)
    scores = [c.score for c in got.candidates]
    assert scores == sorted(scores, reverse=True)
    held = [c for c in got.candidates[10:] if "held below the first page" in c.explanation.why]
    assert len(held) >= 5
    assert {_session(c.entity) for c in held} == {"big"}
    for c in held:
        assert c.score == got.candidates[9].score
        assert c.explanation is not None
        assert c.explanation.score == c.score
        own = float(c.explanation.why.rsplit("its own score ", 1)[1].rstrip(")"))
        assert own > c.score
    assert all("its own score" not in c.explanation.why for c in got.candidates[:10])
    data = got.to_dict()["candidates"]
    assert [c["score"] for c in data] == [c["explanation"]["score"] for c in data] == scores


def test_unless_fewer_sessions_match(kd: Kindling) -> None:
    _sessions(kd, strong=12, others=0)
    got = kd.retrieve("KeyError tenant_id billing sync", scope=REPO, max_candidates=10)
    assert [_session(c.entity) for c in got.candidates] == ["big"] * 10


def test_nothing_recorded_after_now_is_returned(kd: Kindling) -> None:
    early = _add(kd, [("s1", "error", "TimeoutError: payment gateway", 1_000)])
    later = _add(kd, [("s2", "error", "TimeoutError: payment gateway again", 5_000)])
    cap = kd.open_capsule(intent="payment gateway", scope=Scope(repo_id="/r"), opened_at=8_000)
    closed = kd.close_capsule(
        cap.id, summary="the payment gateway TimeoutError was fixed", closed_at=9_000
    )
    assert closed.summary_id is not None
    for query in ("payment gateway TimeoutError", "how did we fix the payment gateway error", ""):
        got = kd.retrieve(query, scope=REPO, now=3_000)
        seen = [c.entity.id for c in got.candidates]
        assert early[0] in seen or not query
        assert later[0] not in seen, query
        assert all(c.entity.id != closed.summary_id for c in got.candidates)
        for c in got.candidates:
            ts = c.entity.ts if isinstance(c.entity, Observation) else c.entity.created_at
            assert ts <= 3_000, (query, c.entity)


@pytest.mark.parametrize("question", ["alpha omega", "omega alpha listing"])
def test_the_first_page_does_not_depend_on_max_candidates(kd: Kindling, question: str) -> None:
    # 80 short items hold "omega" (high bm25 each), one long listing holds both words (low
    # bm25: its length): how deep the ranking looks must not depend on the limit.
    rows: list[tuple[str, ObservationKind, str, int]] = [
        (f"s{i % 9}", "command", f"$ echo omega {i}\n[exit 0]", 1_000 + i) for i in range(80)
    ]
    rows += [(f"t{i % 9}", "command", f"$ make target{i}\n[exit 0]", 2_000 + i) for i in range(100)]
    words = " ".join(f"word{i}" for i in range(1_400))
    rows.append(("long", "command", f"$ cat listing\n{words} alpha omega {words}", 500))
    _add(kd, rows)
    pages = [
        [c.entity.id for c in kd.retrieve(question, scope=REPO, max_candidates=n).candidates][:10]
        for n in (10, 50, 200)
    ]
    assert pages[0] == pages[1] == pages[2]


def test_identifier_words() -> None:
    from kindling.store.fts import identifier_words

    assert identifier_words("Frame.resample") == ["frame", "resample"]
    assert identifier_words("src/io/ascii/html.py:42") == ["html"]
    assert identifier_words("Class::method") == ["class", "method"]
    assert identifier_words("LinkedDeque") == ["linked", "deque"]
    assert identifier_words("plain") == ["plain"]
    plan = build_query("pkg/file.py:42")
    assert plan.match == '"filepy" OR "file"'


@given(st.text(max_size=60))
@settings(max_examples=200, deadline=None)
def test_any_text_reads_as_a_plan(text: str) -> None:
    plan = build_query(text)  # never raises; identifiers only add plain words
    assert plan.clauses >= 0


def test_a_pasted_error_line_finds_where_its_words_stand_together(kd: Kindling) -> None:
    """Term proximity: the output where the pasted line was printed beats a newer listing
    that holds every word of it, scattered."""
    script = (
        "$ grep -n prop custom_coord.py\n[exit 0]\n12: # no prop attribute: custom_coord has\n"
        "13: object = raise AttributeError(prop)"
    )
    output = (
        "$ python check_coord.py\n[exit 1]\n"
        "AttributeError: 'custom_coord' object has no attribute 'prop'"
    )
    got_ids = _add(kd, [("a", "command", script, 900), ("b", "command", output, 500)])
    _add(kd, _filler(60))
    got = kd.retrieve(
        "AttributeError: 'custom_coord' object has no attribute 'prop'",
        scope=REPO,
        max_candidates=10,
    )
    ids = [c.entity.id for c in got.candidates]
    assert ids.index(got_ids[1]) < ids.index(got_ids[0])
    first = got.candidates[0].explanation.signals
    assert first["proximity"] == 1.0


def test_a_question_of_one_word_has_no_proximity_signal(kd: Kindling) -> None:
    _add(kd, [("a", "command", "$ make lint\n[exit 0]", 500)])
    got = kd.retrieve("lint", scope=REPO, max_candidates=5)
    assert got.candidates
    assert "proximity" not in got.candidates[0].explanation.signals


_PAIR_TEXT = st.text(
    alphabet=st.sampled_from(list("abAB_ -.:/\n1é")) | st.characters(), max_size=60
)


@settings(max_examples=300, deadline=None)
@given(question=_PAIR_TEXT, text=_PAIR_TEXT)
def test_a_pair_is_held_where_the_two_words_stand_together(question: str, text: str) -> None:
    """The definition of term proximity, written as a regular expression per pair: the first
    word whole, then only punctuation or blanks, then the second word whole."""
    matcher = PairMatcher(question)
    if not matcher.pairs:
        assert matcher.share(text) is None
        return
    lower = text.lower()
    held = sum(
        1
        for a, b in matcher.pairs
        if re.search(rf"(?<![^\W_]){re.escape(a)}[\W_]+{re.escape(b)}(?![^\W_])", lower)
    )
    assert matcher.share(text) == held / len(matcher.pairs)


def test_a_pair_is_found_after_a_hit_inside_a_longer_word() -> None:
    """The first place the pair's text occurs is inside a longer word; the next, overlapping
    it, stands alone."""
    assert PairMatcher("qx qx").share("zqx qx qx") == 1.0
    assert PairMatcher("qx qx").share("zqx qx") == 0.0


def test_a_rare_identifier_widens_without_its_common_parts(
    kd: Kindling, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The identifier alone finds less than a page, so the question widens, but not to the
    common words the identifier is made of: they would bring in most of the store, as no
    word the question asks about does."""
    monkeypatch.setattr(plans, "COMMON_MIN_DOCS", 5)
    rows: list[tuple[str, ObservationKind, str, int]] = [
        ("s1", "error", "TestSyncToken failed: expected 3 got 2", 1_000),
        ("s1", "command", "$ pytest -k TestSyncToken\n[exit 0]", 2_000),
    ]
    rows += [("s2", "command", f"$ run token sync test step {i}", 3_000 + i) for i in range(40)]
    rows += [("s3", "message", f"the build may fail on node {i}", 9_000 + i) for i in range(12)]
    _add(kd, rows)
    got = kd.retrieve("why did TestSyncToken fail", scope=REPO, max_candidates=50)
    assert {"test", "sync", "token"} <= set(got.provenance.dropped_terms)
    assert "fail" not in got.provenance.dropped_terms
    texts = [c.entity.content for c in got.candidates]
    assert texts[0] == "TestSyncToken failed: expected 3 got 2"
    assert len(texts) == 14
    assert not [t for t in texts if "fail" not in t and "TestSyncToken" not in t]


def test_an_identifier_that_matched_is_not_widened_to_its_common_parts(
    kd: Kindling, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lone identifier found on fewer items than a page is answered by those items: its
    common parts, evidence of the identifier and no topic of their own, never fill the page.
    One that matches nothing still finds what its parts do."""
    monkeypatch.setattr(plans, "COMMON_MIN_DOCS", 5)
    rows: list[tuple[str, ObservationKind, str, int]] = [
        ("s1", "error", "TestSyncToken failed: expected 3 got 2", 1_000),
        ("s1", "command", "$ pytest -k TestSyncToken\n[exit 0]", 2_000),
    ]
    rows += [("s2", "command", f"$ run token sync test step {i}", 3_000 + i) for i in range(40)]
    _add(kd, rows)
    got = kd.retrieve("TestSyncToken", scope=REPO, max_candidates=50)
    assert sorted(c.entity.content for c in got.candidates) == sorted(r[2] for r in rows[:2])
    assert {"test", "sync", "token"} <= set(got.provenance.dropped_terms)
    misspelt = kd.retrieve("TestSyncTokn", scope=REPO, max_candidates=50)
    assert len(misspelt.candidates) >= 10


def test_a_long_question_is_searched_by_its_rarest_words(kd: Kindling) -> None:
    """A pasted line of eight words runs on its five rarest (``plans.RAREST_WORDS``): the item
    that holds the line comes first, and no item that holds only the three most frequent words
    is a candidate; those words are named as dropped. None of them is common in this store."""
    line = "E0502 cannot borrow locales as mutable in render_table while iterating frames"
    rows: list[tuple[str, ObservationKind, str, int]] = [("s1", "error", line, 1_000)]
    rare = ["e0502", "locales", "render_table", "iterating", "frames"]
    rows += [("s2", "command", f"$ grep {rare[i % 5]} step{i}", 2_000 + i) for i in range(15)]
    rows += [
        ("s3", "message", f"cannot borrow it as mutable here, note {i}", 3_000 + i)
        for i in range(40)
    ]
    _add(kd, rows)
    got = kd.retrieve(line, scope=REPO, max_candidates=50)
    assert {"cannot", "borrow", "mutable"} <= set(got.provenance.dropped_terms)
    texts = [c.entity.content for c in got.candidates]
    assert texts[0] == line
    assert not [t for t in texts if t.startswith("cannot borrow it")]
    one_word = kd.retrieve("cannot borrow mutable", scope=REPO, max_candidates=50)
    assert len(one_word.candidates) >= 40  # a short question searches by all its words


def test_a_question_searches_by_no_more_words_than_the_walk_budget_holds(
    kd: Kindling, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``plans.WALK_BUDGET``: the rarest words are searched while their counts add up to the
    budget (here 20: ``ledger`` 3, ``reconcile`` 15, then ``nightly`` would make 33), so every
    match of those can be ranked; the next word still weighs in each candidate's relevance."""
    monkeypatch.setattr(plans, "WALK_BUDGET", 20)
    rows: list[tuple[str, ObservationKind, str, int]] = [
        ("s1", "message", "ledger reconcile nightly job fixed", 1_000),
        ("s1", "command", "$ ledger check", 1_100),
        ("s1", "command", "$ ledger dump", 1_200),
    ]
    rows += [("s2", "command", f"$ reconcile batch {i}", 2_000 + i) for i in range(14)]
    rows += [("s3", "command", f"$ nightly build {i}", 3_000 + i) for i in range(15)]
    _add(kd, rows)
    got = kd.retrieve("ledger reconcile nightly", scope=REPO, max_candidates=50)
    assert "nightly" in got.provenance.dropped_terms
    texts = [c.entity.content for c in got.candidates]
    assert texts[0] == "ledger reconcile nightly job fixed"
    assert not [t for t in texts if t.startswith("$ nightly")]


@pytest.mark.parametrize("question", ["LinkedDeque", "linked_deque", "Linked.deque"])
def test_the_words_of_an_identifier_weigh_half_however_it_is_written(question: str) -> None:
    """``terms.PART_SHARE``: a text holding the identifier's words but not the identifier
    holds half the question (each part weighs half the identifier; equal counts). CamelCase
    too, whose parts the plan's lower-cased terms no longer show."""
    plan = build_query(question)
    counts = dict.fromkeys(plan.terms, 1)
    query = Query.read(plan, question, 1_000, counts)
    text = Observation("o1", "message", "a linked list and a deque", {}, 1, REPO)
    item = Scored("observation", text, 1, -1.0, 1.0, 1.0, 1.0)
    fill_text_signals([item], query, DEFAULT_WEIGHTS)
    assert len(plan.terms) == 3
    assert item.own == pytest.approx(0.5)
