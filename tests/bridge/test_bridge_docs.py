"""docs/bridge.md links the schema, and every JSON example in it validates against it."""

from __future__ import annotations

import json
import re
from typing import Any

from jsonschema import Draft202012Validator

from tests.support.bridge import SCHEMA, validator
from tests.support.paths import ROOT

DOC = (ROOT / "docs" / "bridge.md").read_text(encoding="utf-8")
EXAMPLE = re.compile(r"<!-- schema: (\w+) -->\n```json\n(.*?)\n```", re.S)


def test_schema_is_valid_and_linked() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert "](bridge.schema.json)" in DOC
    for name in ("ingest_request", "ingest_response", "retrieve_response"):
        assert f"#/$defs/{name}" in DOC
        assert name in SCHEMA["$defs"]


def test_every_json_example_validates() -> None:
    examples = EXAMPLE.findall(DOC)
    assert len(examples) >= 5
    assert len(examples) == DOC.count("```json")
    for name, text in examples:
        validator(name).validate(json.loads(text))


def test_schema_rejects_what_the_contract_forbids() -> None:
    retrieve = validator("retrieve_response")
    bad_error = {"success": False, "error": "", "results": [], "total_results": 0}
    assert not retrieve.is_valid(bad_error)
    legacy_with_list: dict[str, Any] = {
        "success": True,
        "results": [
            {
                "id": "x",
                "summary_text": "t",
                "score": 0.1,
                "final_score": 0.1,
                "relevance_score": 0.1,
                "semantic_score": 0.1,
                "recency_multiplier": 1.0,
                "status_multiplier": 1.0,
                "tokens": 1,
                **dict.fromkeys(("topic", "topic_id", "plan_id", "session_id", "status"), None),
                **dict.fromkeys(("source_created_at", "created_at", "updated_at"), None),
                "decisions": [],
            }
        ],
        "result_count": 1,
        "total_results": 1,
        "total_tokens": 1,
        "half_life_days": 7,
        "include_superseded": False,
    }
    assert not retrieve.is_valid(legacy_with_list)
    del legacy_with_list["results"][0]["decisions"]
    assert retrieve.is_valid(legacy_with_list)
    legacy_with_list["results"][0]["topic"] = ""
    assert not retrieve.is_valid(legacy_with_list)
