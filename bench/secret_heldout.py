"""Masking on public scanner corpora, split by source: tuning vs held-out, on disk.

    .venv/bin/python bench/secret_heldout.py [--fast] [--misses N] [--source NAME]
    .venv/bin/python -m bench.secret_heldout --signal [--fast]   # issue 32's measure

The corpora are ``tests/data/secret_corpora/*.json`` (built by
``scripts/build_secret_corpora.py`` and ``bench/secret_sources.py`` from the scanners' own test
data; sources and licences in each file; ``semgrep.json`` and ``sonar.json`` are built into
``/tmp/kindling-secret-corpora`` and not committed, see ``bench/secret_sources.py``). Tuning:
kingfisher, gitleaks (its rules are loaded as data), and CredSweeper's validated findings on
its own samples (added for issue 32's fourth pass, its misses read), LeakTK's findings on
its fake leaks and leaky-repo's labelled files (the twelfth pass), and sonar-text's rule
examples (the thirteenth; counted when built). Held out:
detect-secrets (its misses by format were read while issue 18 was tuned), and the fresh ones,
never looked at while tuning: whispers, ripsecrets, semgrep, and trivy (added for issue 18's
second round, measured once before any change).
For each positive sample two observations are written through ``Kindling``, each in a session
of its own:

- "masked in context": the example as its scanner's authors wrote it;
- "bare in a sentence": ``the value <secret> came back from the call``.

A secret counts as masked when its value is found nowhere in the database, -wal, -shm or
spool files afterwards (the check of ``tests/secrets/test_secrets_on_disk.py``). ``--fast`` asks
``scrub_secrets`` only (no files): quicker while tuning, same verdict for a single text.
``--naive`` scores the naive baseline instead, in the same harness (in memory): a value after
a secret word and ``=`` or ``:``, and any token of 20+ characters as random as a generated
key (Shannon entropy >= 3.5 bits a character), as a simple scanner would mask.

``--signal`` is issue 32's restated measure: the same corpora restricted to the secrets that
carry a signal by themselves (``signal_bearing``: 16+ characters, not hex of one case, not a
UUID; a git SHA, a digest or an id is the same string as such a "secret"), in context and bare,
the scrubber and the naive baseline in the same run, one table.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from kindling.secrets.scrub_values import entropy

CORPORA = Path(__file__).resolve().parent.parent / "tests" / "data" / "secret_corpora"
EXTRA = Path("/tmp/kindling-secret-corpora")  # built corpora whose licence keeps them out of git
# gitleaks' own rules are loaded as data since issue 18's fourth pass: its corpus tunes now.
# CredSweeper's findings joined them for issue 32's fourth pass: the other two were saturated;
# LeakTK's findings on its fake leaks and leaky-repo's files for the twelfth (whole files),
# sonar-text's rule examples for the thirteenth.
TUNING = ("kingfisher", "gitleaks", "credsweeper", "leaktk", "leaky_repo", "sonar")
HELD_OUT = ("detect_secrets", "whispers", "ripsecrets", "semgrep", "trivy")
SENTENCE = "the value {} came back from the call"
# One-case hex (with or without 0x) and UUIDs: the same strings as digests, SHAs and ids.
_HEX_ONE_CASE = re.compile(r"(?:0[xX])?(?:[0-9a-f]+|[0-9A-F]+)")
_UUID = re.compile(r"[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}")


def signal_bearing(secret: str) -> bool:
    """Issue 32's line: 16+ characters, not one-case hex, not a UUID."""
    return not (len(secret) < 16 or _HEX_ONE_CASE.fullmatch(secret) or _UUID.fullmatch(secret))


def load(name: str) -> dict[str, object]:
    path = CORPORA / f"{name}.json"
    if not path.exists():
        path = EXTRA / f"{name}.json"
    data: dict[str, object] = json.loads(path.read_text("utf-8"))
    return data


def available(name: str) -> bool:
    return (CORPORA / f"{name}.json").exists() or (EXTRA / f"{name}.json").exists()


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
    from kindling.secrets.scrub import scrub_secrets

    return [s not in scrub_secrets(t).text for t, s in zip(texts, secrets, strict=True)]


_NAIVE_KEYED = re.compile(
    r"(?i)(?:key|secret|token|passw(?:or)?d|pwd|auth|credential)[\w.-]{0,20}[\"']?\s*[:=]+\s*"
    r"[\"']?([^\s\"',;]{8,})"
)
_NAIVE_TOKEN = re.compile(r"[A-Za-z0-9+/_=.~-]{20,}")


def naive(text: str) -> str:
    """The naive baseline: a keyed value, or a token as random as a generated key."""
    text = _NAIVE_KEYED.sub(lambda m: m[0].replace(m[1], "[REDACTED]"), text)

    def token(m: re.Match[str]) -> str:
        return "[REDACTED]" if entropy(m[0]) >= 3.5 else m[0]

    return _NAIVE_TOKEN.sub(token, text)


def in_naive(texts: list[str], secrets: list[str]) -> list[bool]:
    return [s not in naive(t) for t, s in zip(texts, secrets, strict=True)]


def measure(
    name: str, fast: bool, baseline: bool = False, signal: bool = False
) -> tuple[list[bool], list[bool], list[dict[str, str]]]:
    items = positives(name)
    if signal:
        items = [p for p in items if signal_bearing(p["secret"])]
    check = in_naive if baseline else in_memory if fast else on_disk
    secrets = [p["secret"] for p in items]
    context = check([p["text"] for p in items], secrets)
    bare = check([SENTENCE.format(s) for s in secrets], secrets)
    return context, bare, items


def _share(flags: Iterable[bool]) -> str:
    values = list(flags)
    return f"{sum(values)}/{len(values)} = {sum(values) / max(1, len(values)):.1%}"


def _pct(flags: list[bool]) -> str:
    return f"{sum(flags) / max(1, len(flags)):.1%} ({sum(flags)} / {len(flags)})"


def signal_table(names: list[str], fast: bool) -> list[str]:
    """Issue 32's table: signal-bearing secrets, naive and scrubber, in context and bare."""
    rows = [
        "| corpus | part | signal-bearing / all | naive in context | in context "
        "| naive bare | bare |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    pooled: list[list[bool]] = [[], [], [], []]
    counts = [0, 0]
    for name in names:
        total = len(positives(name))
        context, bare, items = measure(name, fast, signal=True)
        n_context, n_bare, _ = measure(name, fast, baseline=True, signal=True)
        part = "tuning" if name in TUNING else "held out"
        rows.append(
            f"| {name} | {part} | {len(items)} / {total} | {_pct(n_context)} | "
            f"**{_pct(context)}** | {_pct(n_bare)} | **{_pct(bare)}** |"
        )
        if name in HELD_OUT:
            for into, flags in zip(pooled, (n_context, context, n_bare, bare), strict=True):
                into.extend(flags)
            counts[0] += len(items)
            counts[1] += total
    nc, c, nb, b = pooled
    rows.append(
        f"| held out, pooled | | {counts[0]} / {counts[1]} | {_pct(nc)} | **{_pct(c)}** | "
        f"{_pct(nb)} | **{_pct(b)}** |"
    )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fast", action="store_true")
    parser.add_argument("--misses", type=int, default=0, help="print N misses per source")
    parser.add_argument("--source", action="append", help="only these corpora")
    parser.add_argument("--naive", action="store_true", help="score the naive baseline")
    parser.add_argument(
        "--signal", action="store_true", help="issue 32's table: signal-bearing secrets only"
    )
    args = parser.parse_args()
    names = args.source or [n for n in (*TUNING, *HELD_OUT) if available(n)]
    if args.signal:
        print("\n".join(signal_table(names, args.fast)))
        return 0
    for name in names:
        context, bare, items = measure(name, args.fast, args.naive)
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
