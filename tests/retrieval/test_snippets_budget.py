"""Evidence snippets and token budgeting (pure functions)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.retrieval.budget import CharTokenizer, fit_to_budget
from kindling.retrieval.snippets import (
    _TOKEN,
    MAX_SPANS,
    SCAN_CHARS,
    SNIPPET_CHARS,
    find_terms,
    make_snippet,
    stem,
)

TRACE = "\n".join(
    ["TypeError: jwt.verify is not a function"]
    + [f"    at frame{i} (src/lib/file{i}.ts:{i}:1)" for i in range(40)]
    + ["    at verifyToken (src/auth/tokens.ts:42:17)"]
    + [f"    at outer{i} (node_modules/x/y{i}.js:1:1)" for i in range(40)]
    + ["    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)"]
)


def _mark(text: str, word: str) -> tuple[tuple[int, int], ...]:
    return find_terms(text, [word])


def test_short_content_is_shown_whole() -> None:
    assert make_snippet("fix the login bug") == "fix the login bug"


def test_snippet_is_centred_on_the_match_and_bounded() -> None:
    text = "lorem ipsum " * 60 + "the cursor pagination broke" + " dolor sit" * 60
    snip = make_snippet(text, _mark(text, "cursor"))
    assert "cursor" in snip
    assert snip.startswith("…")
    assert snip.endswith("…")
    assert len(snip) <= SNIPPET_CHARS + 2


def test_stack_trace_keeps_first_and_last_lines() -> None:
    snip = make_snippet(TRACE, _mark(TRACE, "verifyToken"), kind="error")
    lines = snip.split("\n")
    assert lines[0] == "TypeError: jwt.verify is not a function"
    assert lines[-1].startswith("at process.processTicksAndRejections")
    assert any("verifyToken" in line for line in lines)
    assert len(snip) < 3 * SNIPPET_CHARS


def test_redacted_content_never_shows() -> None:
    text = "secret stuff"
    assert make_snippet(text, _mark(text, "secret"), redacted=True) == "[redacted]"


def test_terms_are_found_by_stem_and_identifier_part() -> None:
    text = "Login failed: AuthenticationError in validate_token; failing again"
    found = [text[a:b] for a, b in find_terms(text, ["fails", "authentication", "validateToken"])]
    assert found == ["failed", "Authentication", "validate", "token", "failing"]
    assert find_terms(text, ["kubernetes"]) == ()
    assert find_terms(text, ["a", "?", ""]) == ()  # one-letter stems would match everything


@given(st.text(max_size=300), st.lists(st.text(max_size=12), max_size=4))
def test_find_terms_never_fails_and_spans_are_in_the_text(text: str, words: list[str]) -> None:
    spans = find_terms(text, words)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert list(spans) == sorted(spans)


@given(st.text(max_size=2000), st.sampled_from([None, "error", "command"]))
def test_snippets_never_fail_and_stay_bounded(text: str, kind: str | None) -> None:
    snip = make_snippet(text, kind=kind)
    assert len(snip) <= 3 * SNIPPET_CHARS + 10
    assert make_snippet(text, kind=kind) == snip


def test_budget_cuts_at_first_misfit_in_rank_order() -> None:
    out = fit_to_budget(10, [5, 50, 1], 20)
    assert (out.kept, out.tokens_used, out.truncated) == (1, 15, True)
    assert fit_to_budget(0, [5, 5], 10).truncated is False
    assert fit_to_budget(0, [5, 5], None).kept == 2
    assert fit_to_budget(100, [1], 10).kept == 0


def test_char_tokenizer_is_ceil_of_quarter() -> None:
    tok = CharTokenizer()
    assert [tok.count("x" * n) for n in (0, 1, 4, 5, 8)] == [0, 1, 1, 2, 2]


def _spans_by_definition(content: str, words: list[str]) -> tuple[tuple[int, int], ...]:
    """``find_terms`` as its docstring defines it, one regular expression: a stem at the start
    of a token (after no letter or digit, or at a lower-to-upper step), case ignored, then the
    rest of its token; adjacent hits are one span; at most MAX_SPANS (CJK runs aside)."""
    stems = sorted({s for w in words for t in _TOKEN.findall(w) if len(s := stem(t)) >= 2})
    if not stems:
        return ()
    pattern = re.compile(
        r"(?:(?<![^\W_])|(?<=[a-z0-9])(?=[A-Z]))(?i:"
        + "|".join(re.escape(s) for s in sorted(stems, key=len, reverse=True))
        + r")(?:[a-z0-9]*|[A-Z0-9]*(?![a-z]))"
    )
    spans: list[tuple[int, int]] = []
    for m in pattern.finditer(content, 0, SCAN_CHARS):
        if spans and spans[-1][1] == m.start():
            spans[-1] = (spans[-1][0], m.end())
            continue
        if len(spans) >= MAX_SPANS:
            break
        spans.append((m.start(), m.end()))
    return tuple(spans)


_LATIN = st.text(alphabet=st.sampled_from(list("aAbBsStTkK_ .-1ſıİé")), max_size=80)


@settings(max_examples=400, deadline=None)
@given(content=_LATIN | st.text(max_size=80), words=st.lists(_LATIN, min_size=1, max_size=3))
def test_find_terms_follows_its_definition(content: str, words: list[str]) -> None:
    assert find_terms(content, words) == _spans_by_definition(content, words)


def test_a_hit_inside_a_word_does_not_hide_the_next_one() -> None:
    """``xtoken token``: the first ``token`` is inside a word; the second is found."""
    assert find_terms("xtoken token", ["token"]) == ((7, 12),)
    assert find_terms("getToken", ["token"]) == ((3, 8),)
    assert find_terms("TOKENS", ["token"]) == ((0, 5),)  # the rest: lower case or digits
    # a longer stem inside a word ("abab" of "xabAb") overlaps a shorter one starting a part
    assert find_terms("xabAb", ["abab", "ab"]) == ((3, 5),)
