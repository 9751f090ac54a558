"""The injection quality set (bench/quality/injection.py) runs, and the rules hold their
figures on it: the session-start context carries the useful events and no noise."""

from __future__ import annotations

from bench.quality.injection import evaluate


def test_injection_set_figures() -> None:
    report = evaluate(seeds=1)
    assert report["injections"] == 13  # 5 session starts and 8 prompts
    assert report["usefulShareAtStart"] >= 0.9
    assert report["noiseShare"] <= 0.05
    assert report["commandsKept"] == report["commandLines"]
    assert report["perShape"]["explore"]["noiseAtStart"] == 0
