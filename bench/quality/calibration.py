"""``python -m bench.quality.calibration``: an exact, full match's relevance in stores of 1, 10,
1,000 and 100,000 observations (issue 23: >= 0.3, within 0.1 across sizes). The 100k store is
built with ``append_many`` in memory; ``tests/test_retrieval_v3.py`` checks 1 to 1,000.
"""

from __future__ import annotations

import argparse

from kindling import Kindling, NewObservation, Scope

WORDS = ["build", "deploy", "cache", "retry", "queue", "parser", "render", "upload", "auth"]
QUERIES = ("auth library decision", "AuthenticationError login", "why did jwt verify fail")


def filler(n: int) -> list[NewObservation]:
    return [
        NewObservation(
            kind="command",
            content=f"$ make {WORDS[i % 9]} {WORDS[(i * 4) % 9]} step {i}",
            scope=Scope(session_id=f"f{i // 40}", repo_id="/r"),
            ts=i * 1_000,
        )
        for i in range(n)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1,10,1000,100000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print("| query | " + " | ".join(f"{n:,} rows" for n in sizes) + " | spread |")
    print("| --- |" + " ---: |" * (len(sizes) + 1))
    for query in QUERIES:
        seen = []
        for size in sizes:
            with Kindling.open(":memory:", scrub_secrets=False) as kd:
                items = filler(size - 1)
                for start in range(0, len(items), 5_000):
                    kd.append_many(items[start : start + 5_000])
                kd.append_observation(kind="message", content=query, scope=Scope(repo_id="/r"))
                top = kd.retrieve(query, scope=Scope(repo_id="/r"), max_candidates=3)
                assert top.candidates[0].entity.content == query, (query, size)
                seen.append(top.candidates[0].explanation.relevance)
        cells = " | ".join(f"{r:.3f}" for r in seen)
        print(f"| {query} | {cells} | {max(seen) - min(seen):.3f} |")


if __name__ == "__main__":
    main()
