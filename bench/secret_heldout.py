"""Masking on public scanner corpora, split by source: tuning vs held-out, on disk.

    .venv/bin/python bench/secret_heldout.py [--fast] [--misses N] [--source NAME]

The corpora are ``tests/data/secret_corpora/*.json`` (built by
``scripts/build_secret_corpora.py`` from the scanners' own test data; sources and licences in
each file). Tuning: kingfisher. Held out: gitleaks, detect-secrets (never looked at while
tuning). For each positive sample two observations are written through ``Kindling``, each in
a session of its own:

- "masked in context": the example as its scanner's authors wrote it;
- "bare in a sentence": ``the value <secret> came back from the call``.

A secret counts as masked when its value is found nowhere in the database, -wal, -shm or
spool files afterwards (the check of ``tests/test_secrets_on_disk.py``). ``--fast`` asks
``scrub_secrets`` only (no files): quicker while tuning, same verdict for a single text.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

CORPORA = Path(__file__).resolve().parent.parent / "tests" / "data" / "secret_corpora"
TUNING = ("kingfisher",)
HELD_OUT = ("gitleaks", "detect_secrets")
SENTENCE = "the value {} came back from the call"


def load(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((CORPORA / f"{name}.json").read_text("utf-8"))
    return data


def positives(name: str) -> list[dict[str, str]]:
    items = load(name)["positives"]
    assert isinstance(items, list)
    return items


def on_disk(texts: list[str], secrets: list[str]) -> list[bool]:
    """Write each text as an observation of its own session; True where its secret is absent
    from every file of the store afterwards."""
    from kindling import Kindling, Scope

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        # A store per sample: a value one sample leaks must not count against another.
        for i, (text, secret) in enumerate(zip(texts, secrets, strict=True)):
            db = Path(tmp) / f"{i}.db"
            with Kindling.open(db) as kd:
                kd.append_observation(kind="command", content=text, scope=Scope(session_id="s"))
            files = [p for p in Path(tmp).iterdir() if p.name.startswith(db.name)]
            out.append(not any(secret.encode() in p.read_bytes() for p in files if p.is_file()))
    return out


def in_memory(texts: list[str], secrets: list[str]) -> list[bool]:
    from kindling.capture.scrub import scrub_secrets

    return [s not in scrub_secrets(t).text for t, s in zip(texts, secrets, strict=True)]


def measure(name: str, fast: bool) -> tuple[list[bool], list[bool], list[dict[str, str]]]:
    items = positives(name)
    check = in_memory if fast else on_disk
    secrets = [p["secret"] for p in items]
    context = check([p["text"] for p in items], secrets)
    bare = check([SENTENCE.format(s) for s in secrets], secrets)
    return context, bare, items


def _share(flags: Iterable[bool]) -> str:
    values = list(flags)
    return f"{sum(values)}/{len(values)} = {sum(values) / max(1, len(values)):.1%}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fast", action="store_true")
    parser.add_argument("--misses", type=int, default=0, help="print N misses per source")
    parser.add_argument("--source", action="append", help="only these corpora")
    args = parser.parse_args()
    names = args.source or [*TUNING, *HELD_OUT]
    for name in names:
        context, bare, items = measure(name, args.fast)
        part = "tuning" if name in TUNING else "held-out"
        print(f"{part:8} {name:15} in context {_share(context):22} bare {_share(bare)}")
        shown = 0
        for ok, ok_bare, item in zip(context, bare, items, strict=True):
            if shown < args.misses and not (ok and ok_bare):
                shown += 1
                mark = ("" if ok else "C") + ("" if ok_bare else "B")
                print(
                    f"  miss[{mark}] {item['rule']}: {item['secret']!r} in {item['text'][:160]!r}"
                )
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
