"""CI smoke of the latency harness end to end at 10k observations: shape only, never timings."""

from __future__ import annotations

import json
from pathlib import Path

from bench.__main__ import main
from bench.latency import CONFIGS


def test_harness_writes_well_formed_report(tmp_path: Path) -> None:
    out, data = tmp_path / "out", tmp_path / "data"
    argv = ["--sizes", "10k", "--out", str(out), "--data", str(data), "--repeats", "1"]
    argv += ["--per-class", "2", "--capture-n", "200", "--no-cli"]
    assert main(argv) == 0
    report = json.loads((out / "bench.json").read_text())
    (size,) = report["sizes"]
    assert size["size"] == 10_000
    assert size["store"]["observations"] == 10_000
    assert size["bytesPerObservation"] > 0
    assert set(size["retrieval"]) == {c.name for c in CONFIGS}
    for m in size["retrieval"].values():
        for side in ("retrieve", "bareFts"):
            assert m[side]["n"] == m["queries"] * m["repeats"] > 0
            assert 0 <= m[side]["p50"] <= m[side]["p95"] <= m[side]["p99"]
    assert size["capture"]["appendMany"]["obsPerSecond"] > 0
    assert size["capture"]["batched"]["obsPerSecond"] > 0
    assert size["capture"]["perObservation"]["obsPerSecond"] > 0
    assert "skipped" in size["cli"]
    assert "| 10000 | nl_repo |" in (out / "bench.md").read_text()
    # a second run reuses the cached store instead of building it again
    assert main(argv) == 0
    assert json.loads((out / "bench.json").read_text())["sizes"][0]["store"]["cached"] is True
