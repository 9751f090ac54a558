"""Pure parts of the bridge: argument parsing, times, the template, the arithmetic."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kindling.bridge.contract import (
    RetrieveArgs,
    format_iso8601,
    parse_iso8601,
    parse_retrieve_args,
    split_command_line,
)
from kindling.bridge.ranking import (
    final_score,
    order_key,
    recency_multiplier,
    status_multiplier,
    take_within_budget,
)
from kindling.bridge.render import summary_text
from kindling.errors import ArgumentError, InvalidInputError
from kindling.model import ChatMemoryFields

DAY = 86_400_000


def test_defaults() -> None:
    assert parse_retrieve_args(["/w", "q"]) == RetrieveArgs("/w", "q", 3, 2000, 7.0, False)


def test_split_command_line_reads_options_only_before_the_arguments() -> None:
    line = split_command_line(["--db", "x.db", "/w", "-5", "--", "--help"])
    assert line.positional == ("/w", "-5", "--", "--help")
    assert str(line.db) == "x.db"
    assert not line.help
    assert split_command_line(["-h"]).help
    # A query that looks like an option is text.
    for query in ("-h", "--help", "--db", "--", "--json", "--db=x"):
        line = split_command_line(["/w", query, "3"])
        assert (line.positional, line.help, line.db) == (("/w", query, "3"), False, None)
    assert split_command_line(["--", "-h", "--db"]).positional == ("-h", "--db")
    line = split_command_line(["--json", '{"query": "q"}'])
    assert line.json_request == '{"query": "q"}'


@given(st.text())
def test_any_argument_parses_or_fails_cleanly(word: str) -> None:
    try:
        args = parse_retrieve_args(["/w", "q", word, word, word, word])
    except ArgumentError:
        return
    assert 1 <= args.max_results <= 50
    assert 100 <= args.max_tokens <= 100_000
    assert 0.5 <= args.half_life_days <= 90


def test_iso8601_round_trip_and_zones() -> None:
    assert parse_iso8601("1970-01-01T00:00:00Z", "t") == 0
    assert parse_iso8601("2026-01-01T02:00:00+02:00", "t") == 1_767_225_600_000
    assert parse_iso8601("2026-01-01", "t") == 1_767_225_600_000  # no zone: UTC
    assert format_iso8601(1_767_225_600_000) == "2026-01-01T00:00:00Z"
    assert format_iso8601(1_767_225_600_123) == "2026-01-01T00:00:00.123Z"
    with pytest.raises(InvalidInputError):
        parse_iso8601("not a time", "t")


@given(st.integers(min_value=0, max_value=253_402_300_799_999))
def test_iso8601_round_trips_every_millisecond(ms: int) -> None:
    assert parse_iso8601(format_iso8601(ms), "t") == ms


def test_recency_multiplier() -> None:
    now = 100 * DAY
    assert recency_multiplier(None, now, 7) == 1.0
    assert recency_multiplier(now, now, 7) == 1.0
    assert recency_multiplier(now + DAY, now, 7) == 1.0  # future times do not boost
    assert recency_multiplier(now - 7 * DAY, now, 7) == 0.5
    assert recency_multiplier(now - 14 * DAY, now, 7) == 0.25
    assert recency_multiplier(now - 3 * DAY, now, 2) == round(math.exp(-math.log(2) * 1.5), 6)


def test_status_multipliers_and_order() -> None:
    assert [status_multiplier(s) for s in ("DecisionRecord", "Active", "Superseded", None)] == [
        1.1,
        1.0,
        0.4,
        1.0,
    ]
    assert final_score(0.5, 0.5, 1.1) == 0.275
    keys = [
        order_key(0.5, "Superseded", "a"),
        order_key(0.5, "DecisionRecord", "z"),
        order_key(0.9, "Superseded", "m"),
        order_key(0.5, "Active", "b"),
        order_key(0.5, None, "a"),
    ]
    assert sorted(keys) == [keys[2], keys[1], keys[4], keys[3], keys[0]]


def test_budget_is_a_prefix() -> None:
    assert take_within_budget([50, 60, 10], 3, 100) == 1  # 10 would fit, but rank order rules
    assert take_within_budget([50, 50, 10], 3, 100) == 2
    assert take_within_budget([50, 50, 10], 1, 100) == 1
    assert take_within_budget([200], 3, 100) == 1  # the first result is kept even when over
    assert take_within_budget([200, 1], 3, 100) == 1
    assert take_within_budget([], 3, 100) == 0


def test_template_of_a_minimal_memory() -> None:
    assert summary_text(ChatMemoryFields(topic="T", decisions=("a\nb",))) == (
        "Summary: T\n\nTopic: T\nContext: None\nDecisions:\n- a\n  b\nRationale:\n- None\n"
        "Open Questions:\n- None\nNext Steps:\n- None\nReferences:\n- None"
    )
