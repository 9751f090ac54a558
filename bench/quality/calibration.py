"""``python -m bench.quality.calibration``: an exact match's relevance in stores of 1, 10,
1,000 and 100,000 observations (issue 23: >= 0.3, within 0.1 across sizes), in Latin script
(a full match among Latin fillers) and in Chinese and Japanese (a word of the stored sentence,
found by its segments, among Chinese fillers). The 100k store is built with ``append_many`` in
memory; ``tests/retrieval/test_calibration_and_need.py`` checks 1 to 1,000.
"""

from __future__ import annotations

import argparse

from kindling import Kindling, NewObservation, Scope

WORDS = ["build", "deploy", "cache", "retry", "queue", "parser", "render", "upload", "auth"]
CJK_WORDS = ["构建", "部署", "缓存", "重试", "队列", "解析", "渲染", "上传", "认证"]
# (stored text, question, filler words): the question is the text itself, or a word of it
QUERIES = (
    ("auth library decision", "auth library decision", WORDS),
    ("AuthenticationError login", "AuthenticationError login", WORDS),
    ("why did jwt verify fail", "why did jwt verify fail", WORDS),
    ("数据库迁移在周五进行", "数据库迁移", CJK_WORDS),
    ("東京のデータベース移行は金曜日に決定", "データベース移行", CJK_WORDS),
    ("认证库的决定", "认证库的决定", CJK_WORDS),
)


def filler(n: int, words: list[str] = WORDS) -> list[NewObservation]:
    """``n`` commands of two filler words each, in 40-step sessions of one repository."""
    latin = words[0].isascii()
    return [
        NewObservation(
            kind="command",
            content=(
                f"$ make {words[i % 9]} {words[(i * 4) % 9]} step {i}"
                if latin
                else f"运行 {words[i % 9]}{words[(i * 4) % 9]} 第{i}步"
            ),
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
    for text, query, words in QUERIES:
        seen = []
        for size in sizes:
            with Kindling.open(":memory:", scrub_secrets=False) as kd:
                items = filler(size - 1, words)
                for start in range(0, len(items), 5_000):
                    kd.append_many(items[start : start + 5_000])
                kd.append_observation(kind="message", content=text, scope=Scope(repo_id="/r"))
                top = kd.retrieve(query, scope=Scope(repo_id="/r"), max_candidates=3)
                assert top.candidates[0].entity.content == text, (query, size)
                seen.append(top.candidates[0].explanation.relevance)
        cells = " | ".join(f"{r:.3f}" for r in seen)
        print(f"| {query} | {cells} | {max(seen) - min(seen):.3f} |")


if __name__ == "__main__":
    main()
