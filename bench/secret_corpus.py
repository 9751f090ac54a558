"""Recall and false positives of the scrubber on the generated secret corpus, per setting.

    .venv/bin/python bench/secret_corpus.py [--detect-secrets] [--failures N]

With ``--detect-secrets`` (``pip install detect-secrets``; not a dependency) the same corpus
runs through Yelp's detect-secrets scanner with its default plugins, for comparison: a sample
counts as found when a reported value covers the planted secret. Also prints the per-event
cost of ``scrub_secrets`` on typical tool output (best of 5 runs of 2,000 events).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: `tests`

from bench.scrub_speed import _TOOL_OUTPUT
from kindling.secrets.scrub import scrub_secrets
from tests.support.secret_samples import masked, non_secret_samples, secret_samples


def _group(setting: str) -> str:
    if setting == "sentence_unnamed":
        return "unnamed, in a sentence"
    return "bare+sentence" if setting in ("bare", "sentence") else "context"


def ours() -> None:
    samples = secret_samples()
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    failures: Counter[str] = Counter()
    for s in samples:
        ok = masked(s.secret, scrub_secrets(s.text).text)
        for key in (_group(s.setting), s.setting):
            tally[key][0] += ok
            tally[key][1] += 1
        if not ok:
            failures[s.family] += 1
    for key in ("context", "bare+sentence", "unnamed, in a sentence"):
        found, total = tally.pop(key)
        print(f"{key:16} recall {found}/{total} = {found / total:.2%}")
    worst = sorted(tally.items(), key=lambda kv: kv[1][0] / kv[1][1])[:5]
    print("weakest settings:", ", ".join(f"{k} {a / b:.1%}" for k, (a, b) in worst))
    print("families with misses:", dict(failures.most_common(8)))
    non = non_secret_samples()
    changed = sum(scrub_secrets(t).text != t for _, t in non)
    print(f"non-secrets changed {changed}/{len(non)} = {changed / len(non):.2%}")


def per_event_cost() -> None:
    events = [f"{i} {_TOOL_OUTPUT}" for i in range(2000)]
    scrub_secrets("warm up")
    best = min(_timed(events) for _ in range(5))
    size = len(_TOOL_OUTPUT)
    print(f"per event ({size} chars of tool output): {best / len(events) * 1e6:.0f} us")
    plain = [f"{i} npm WARN deprecated glob@7.2.3: no longer supported\n" * 25 for i in range(2000)]
    best = min(_timed(plain) for _ in range(5))
    print(f"per event (2 KB, no trigger word): {best / len(plain) * 1e6:.0f} us")


def _timed(events: list[str]) -> float:
    start = time.perf_counter()
    for e in events:
        scrub_secrets(e)
    return time.perf_counter() - start


def detect_secrets_figures() -> None:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings

    def found(text: str, secret: str) -> bool:
        values = [
            p.secret_value or "" for line in text.splitlines() or [text] for p in scan_line(line)
        ]
        return any(
            v and (v in secret or secret in v) and len(v) >= min(8, len(secret)) for v in values
        )

    with default_settings():
        samples = secret_samples()
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        start = time.perf_counter()
        for s in samples:
            tally[_group(s.setting)][0] += found(s.text, s.secret)
            tally[_group(s.setting)][1] += 1
        elapsed = time.perf_counter() - start
        for key, (a, b) in tally.items():
            print(f"detect-secrets {key:16} recall {a}/{b} = {a / b:.2%}")
        non = non_secret_samples()
        flagged = sum(any(True for line in t.splitlines() for _ in scan_line(line)) for _, t in non)
        print(f"detect-secrets non-secrets flagged {flagged}/{len(non)} = {flagged / len(non):.2%}")
        print(f"detect-secrets per sample: {elapsed / len(samples) * 1e6:.0f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--detect-secrets", action="store_true")
    args = parser.parse_args()
    ours()
    per_event_cost()
    if args.detect_secrets:
        detect_secrets_figures()


if __name__ == "__main__":
    main()
