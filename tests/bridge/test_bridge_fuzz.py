"""Property tests of the bridge handler (in process): no input escapes the JSON contract."""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling.bridge.handler import run_ingest, run_retrieve
from tests.support.bridge import INGEST, RETRIEVE

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
keys = st.sampled_from(
    [
        "topic",
        "text",
        "context",
        "status",
        "topic_id",
        "plan_id",
        "session_id",
        "source_created_at",
        "decisions",
        "rationale",
        "open_questions",
        "next_steps",
        "references",
        "other",
    ]
)
memories = st.dictionaries(keys, json_values, max_size=6)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(body: Any, code: int, validator: Any) -> None:
    assert isinstance(body, dict)
    validator.validate(body)
    assert body.get("code") != "kindling_error", body  # never the internal-error fallback
    assert (code == 0) == body["success"]


@SETTINGS
@given(memory=memories | json_values)
def test_any_ingest_json_gives_a_contract_answer(memory: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {"KINDLING_NOW": "1767225600000"}
        payload = io.BytesIO(json.dumps(memory).encode("utf-8"))
        outcome = run_ingest([tmp], default_db=Path(tmp) / "k.db", stdin=payload, env=env)
        _check(outcome.body, outcome.exit_code, INGEST)


@SETTINGS
@given(words=st.lists(st.text(max_size=20), max_size=7))
def test_any_retrieve_arguments_give_a_contract_answer(words: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {"KINDLING_NOW": "1767225600000"}
        db = Path(tmp) / "k.db"
        seeded = run_ingest(
            [tmp], default_db=db, stdin=io.BytesIO(b'{"topic": "alpha beta"}'), env=env
        )
        assert seeded.exit_code == 0
        argv = [tmp, *words[1:]] if words and words[0] == "" else words
        outcome = run_retrieve(argv, default_db=db, env=env)
        if isinstance(outcome.body, str):  # -h / --help
            assert outcome.exit_code == 0
            return
        _check(outcome.body, outcome.exit_code, RETRIEVE)


class _Terminal(io.BytesIO):
    def isatty(self) -> bool:
        return True


def test_ingest_from_a_terminal_is_a_usage_error(tmp_path: Path) -> None:
    outcome = run_ingest([str(tmp_path)], default_db=tmp_path / "k.db", stdin=_Terminal(), env={})
    _check(outcome.body, outcome.exit_code, INGEST)
    assert outcome.exit_code == 2
    assert "pipe the memory JSON" in outcome.body["error"]  # type: ignore[index]
    assert not (tmp_path / "k.db").exists()
