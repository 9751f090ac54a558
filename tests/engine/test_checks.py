"""``model.checks``: the checks every write runs, against their plain reference forms."""

from __future__ import annotations

import json
import string
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kindling.errors import InvalidInputError
from kindling.model.checks import MAX_PROVENANCE_BYTES
from kindling.model.sanitize import cap_content, clean_text, require_provenance


def _clean_text_reference(text: str) -> str:
    """``clean_text`` as it was before its ASCII fast path: every text through translate."""
    cleaned = text.translate({0: "\ufffd", 2: "\ufffd", 3: "\ufffd"})
    try:
        cleaned.encode("utf-8")
    except UnicodeEncodeError:
        cleaned = cleaned.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return cleaned


@given(
    st.text(st.characters(exclude_categories=()), max_size=40) | st.text("ab\x00\x01\x02\x03\x04")
)
def test_clean_text_replaces_nul_markers_and_lone_surrogates_only(text: str) -> None:
    cleaned = clean_text(text)
    assert cleaned == _clean_text_reference(text)
    assert type(cleaned) is str
    cleaned.encode("utf-8")  # never raises


def test_clean_text_of_a_str_subclass_is_a_plain_str() -> None:
    class Shouting(str):
        pass

    assert type(clean_text(Shouting("abc"))) is str


def _provenance_reference(value: dict[str, Any]) -> dict[str, Any]:
    """``require_provenance`` through its JSON round trip only (no fast path)."""
    text = clean_text(json.dumps(value, allow_nan=False, sort_keys=True, ensure_ascii=False))
    if len(text.encode("utf-8")) > MAX_PROVENANCE_BYTES:
        raise InvalidInputError("too large")
    parsed: dict[str, Any] = json.loads(text)
    return parsed


SCALARS = (
    st.text(string.printable, max_size=12)
    | st.text(max_size=12)
    | st.text(st.characters(exclude_categories=()), max_size=6)
    | st.integers()
    | st.floats()
    | st.booleans()
    | st.none()
)
KEYS = (
    st.text(string.ascii_letters, max_size=8)
    | st.text(max_size=8)
    | st.sampled_from(["tool", "b", "a", "exitCode", "\ud800", "é"])
)


@given(st.dictionaries(KEYS, SCALARS | st.lists(SCALARS, max_size=2), max_size=6))
@example({"tool": "Bash", "exitCode": 0, "b": True, "a": None, "t": 1.5})  # flat: not in key order
def test_provenance_is_what_its_json_round_trip_gives(value: dict[str, Any]) -> None:
    try:
        expected = _provenance_reference(value)
    except (InvalidInputError, ValueError, TypeError):
        with pytest.raises(InvalidInputError):
            require_provenance(value)
        return
    got = require_provenance(value)
    assert repr(got) == repr(expected)  # the same values, types and key order


def test_provenance_near_the_size_limit_is_refused_as_before() -> None:
    for n in (MAX_PROVENANCE_BYTES // 6, MAX_PROVENANCE_BYTES - 20, MAX_PROVENANCE_BYTES):
        value = {"out": "x" * n}
        try:
            expected: object = _provenance_reference(value)
        except InvalidInputError:
            expected = InvalidInputError
        try:
            got: object = require_provenance(value)
        except InvalidInputError:
            got = InvalidInputError
        assert got == expected, n
    escaped = {"out": '"' * (MAX_PROVENANCE_BYTES // 2)}  # each character escaped to two
    with pytest.raises(InvalidInputError):
        require_provenance(escaped)


def _cap_reference(text: str, limit: int) -> tuple[str, int | None]:
    """``cap_content`` as it was before its length shortcut: every text encoded."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text, None
    marker = f"\n…[kindling: {len(data) - limit} bytes elided]…\n"
    keep = (limit - len(marker.encode("utf-8"))) // 2
    head = data[:keep].decode("utf-8", "ignore")
    tail = data[len(data) - keep :].decode("utf-8", "ignore")
    return head + marker + tail, len(data)


@given(st.text("aé日😀", max_size=60) | st.text(max_size=60), st.integers(8, 60))
@example("日" * 30, 40)  # 30 characters, 90 bytes
def test_content_is_capped_as_its_utf8_bytes_say(text: str, limit: int) -> None:
    text = clean_text(text)
    assert cap_content(text, limit) == _cap_reference(text, limit)
