"""Evidence snippets and token budgeting (pure functions)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kindling.retrieval.budget import CharTokenizer, fit_to_budget
from kindling.retrieval.snippets import SNIPPET_CHARS, make_snippet, matched_terms

TRACE = "\n".join(
    ["TypeError: jwt.verify is not a function"]
    + [f"    at frame{i} (src/lib/file{i}.ts:{i}:1)" for i in range(40)]
    + ["    at verifyToken (src/auth/tokens.ts:42:17)"]
    + [f"    at outer{i} (node_modules/x/y{i}.js:1:1)" for i in range(40)]
    + ["    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)"]
)


def _mark(text: str, word: str) -> str:
    return text.replace(word, f"\x02{word}\x03")


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
    assert make_snippet("secret stuff", "\x02secret\x03 stuff", redacted=True) == "[redacted]"


def test_stale_highlight_is_ignored() -> None:
    assert make_snippet("new text", "\x02old\x03 text") == "new text"


def test_matched_terms_in_order() -> None:
    assert matched_terms("a \x02Jwt\x03 b \x02login\x03 \x02jwt\x03") == ("jwt", "login")
    assert matched_terms(None) == ()


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
