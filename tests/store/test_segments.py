"""``store.segments``: Han, Kana, Hangul and Thai runs spelled as bigrams, the same way at write
time and at query time. Property tests use SQLite's FTS5 itself as the oracle."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling.retrieval.snippets import find_terms
from kindling.store.documents import searchable_parts, summary_document
from kindling.store.fts import build_query
from kindling.store.postgres.tsquery import tsquery_text, word_query
from kindling.store.segments import (
    has_segments,
    index_segments,
    query_words,
    segment_query,
    segment_spans,
)

JA = "東京のデータベース移行は金曜日に決定"
ZH = "数据库迁移在周五进行"

# Letters of every segmented script, some punctuation of theirs, and Latin.
CJK_ALPHABET = "東京の移行データベース数据库迁周五金曜日決定데이터베이스를ภาษาไทยดิน々ー・。、"
texts = st.text(alphabet=st.sampled_from(CJK_ALPHABET + "ab Z1_.-\"'*()"), max_size=40)
latin = st.text(alphabet=st.characters(max_codepoint=0x2FF), max_size=60)


def test_the_issue_cases_are_spelled_as_bigrams() -> None:
    assert segment_query("データベース移行") == "デー ータ タベ ベー ース ス移 移行"
    assert segment_query("東京") == "東京"
    assert segment_query("数据库迁移") == "数据 据库 库迁 迁移"
    assert segment_query("東") == "東"  # one letter: its own token (every letter is indexed)
    assert index_segments(ZH).split()[:4] == ["数据", "据库", "库迁", "迁移"]
    assert set("数据库迁移在周五进行") <= set(index_segments(ZH).split())  # run ends included


def test_a_mixed_word_keeps_its_latin_letters_in_place() -> None:
    assert segment_query("DB移行") == "DB 移行"
    assert "DB 移行" in index_segments("今日のDB移行")


def test_a_japanese_question_is_cut_at_its_hiragana() -> None:
    assert query_words("東京のデータベース移行はいつ決定しましたか") == [
        "東京",
        "データベース移行",
        "決定",
    ]
    assert query_words("すべて") == ["すべて"]  # hiragana only: the word itself
    assert query_words("数据库迁移") == ["数据库迁移"]


def test_a_chinese_question_is_cut_at_function_words_and_a_korean_word_loses_its_particle() -> None:
    assert query_words("数据库迁移是什么时候进行的") == ["数据库迁移", "进行"]
    assert query_words("现在") == ["现在"]  # short runs are never cut
    assert query_words("데이터베이스를") == ["데이터베이스"]
    assert query_words("데이터") == ["데이터"]


@given(texts)
def test_query_words_only_shorten_or_split(word: str) -> None:
    """A document holding the whole word holds every part the query asks for."""
    for part in query_words(word):
        assert part in word


def test_thai_marks_are_dropped_as_fts5_drops_them() -> None:
    assert segment_query("ดิน") == "ดน"
    assert "ดน" in index_segments("ดิน").split()


def test_parts_and_summary_documents_add_segments_only_to_segmented_text() -> None:
    assert searchable_parts("validateToken ok") == "validate token"
    assert searchable_parts(JA).startswith("東京 京の")
    assert summary_document("plain text") == "plain text"
    assert summary_document(ZH) == ZH + "\n" + index_segments(ZH)


def test_backends_read_the_same_phrase() -> None:
    assert word_query("データベース") == "('デー' <-> 'ータ' <-> 'タベ' <-> 'ベー' <-> 'ース')"
    assert word_query("東") == "'東'"
    plan = build_query("データベース移行")
    assert plan.match == '"デー ータ タベ ベー ース ス移 移行"'


def test_snippet_spans_mark_the_match_inside_a_run() -> None:
    assert find_terms(JA, ["データベース移行"]) == ((3, 11),)
    assert find_terms(JA, ["東"]) == ((0, 1),)
    assert find_terms("東京のDB failed", ["東京", "fail"]) == ((0, 2), (6, 12))
    assert segment_spans("plain", ["東京"]) == []


@given(latin)
def test_latin_text_is_unchanged_byte_for_byte(text: str) -> None:
    assert not has_segments(text)
    assert segment_query(text) == text
    assert index_segments(text) == ""
    assert query_words(text) == [text]
    assert summary_document(text) == text


@given(texts)
def test_segmentation_is_deterministic(text: str) -> None:
    assert index_segments(text) == index_segments(text)
    assert segment_query(text) == segment_query(text)
    assert build_query(text) == build_query(text)


@pytest.fixture(scope="module")
def fts() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
    return conn


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=300)
@given(texts, texts)
def test_no_string_makes_sqlite_raise(fts: sqlite3.Connection, doc: str, query: str) -> None:
    fts.execute("DELETE FROM t")
    fts.execute("INSERT INTO t (body) VALUES (?)", (f"{doc}\n{searchable_parts(doc)}",))
    plan = build_query(query)
    if plan.match is not None:
        fts.execute("SELECT rowid FROM t WHERE t MATCH ?", (plan.match,)).fetchall()
        fts.execute("SELECT rowid FROM t WHERE t MATCH ?", (plan.summary_match,)).fetchall()
    tsquery_text(plan.terms, plan.phrases, plan.negated)  # pure: never raises


run_text = st.text(alphabet=st.sampled_from(CJK_ALPHABET[:-4]), min_size=1, max_size=30)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=300)
@given(run_text, st.data())
def test_every_part_of_a_run_finds_it(
    fts: sqlite3.Connection, run: str, data: st.DataObject
) -> None:
    """Any substring of a run (one letter or more, at its start, middle or end) is found."""
    start = data.draw(st.integers(0, len(run) - 1))
    end = data.draw(st.integers(start + 1, len(run)))
    part = run[start:end]
    if not any(ch.isalnum() for ch in segment_query(part)):
        return  # only marks: no letter to look for
    doc = f"prefix {run} suffix"
    fts.execute("DELETE FROM t")
    fts.execute("INSERT INTO t (body) VALUES (?)", (f"{doc}\n{searchable_parts(doc)}",))
    match = f'"{segment_query(part)}"'
    assert fts.execute("SELECT count(*) FROM t WHERE t MATCH ?", (match,)).fetchone()[0] == 1
