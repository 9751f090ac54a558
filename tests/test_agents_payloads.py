"""Agents v4, payload by payload: each agent module's translation of a native hook payload,
tested as a pure function (the real CLIs' runs are in test_agents_sessions.py)."""

from __future__ import annotations

import pytest

from kindling.agents import gemini


@pytest.mark.parametrize(
    ("native", "typed"),
    [
        ("<hook_context>Kindling memory ...</hook_context>\n\nFix the test", "Fix the test"),
        # a context recorded before the fix holds a block of its own
        ("<hook_context>a <hook_context>b</hook_context> c</hook_context>\n\nQ?", "Q?"),
        ("<hook_context>x</hook_context>\n\n<hook_context>y</hook_context>\n\nQ?", "Q?"),
        ("<hook_context>only context</hook_context>", ""),
        ("<hook_context>never closed\n\nQ?", "<hook_context>never closed\n\nQ?"),
        ("Explain <hook_context>x</hook_context>", "Explain <hook_context>x</hook_context>"),
        ("  plain prompt\n", "  plain prompt\n"),
    ],
)
def test_gemini_prompt_is_stored_as_typed(native: str, typed: str) -> None:
    out = gemini.canonical({"session_id": "s", "prompt": native}, "BeforeAgent")
    assert out is not None
    assert out["prompt"] == typed


def test_gemini_prompt_of_another_type_is_left_to_the_mapping() -> None:
    out = gemini.canonical({"session_id": "s", "prompt": None}, "BeforeAgent")
    assert out is not None
    assert out["prompt"] is None
