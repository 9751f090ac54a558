"""Throughput of the secret scrubber on realistic tool output and on adversarial inputs.

Run: ``.venv/bin/python bench/scrub_speed.py``. Prints MB/s (1 MB = 1,000,000 characters of
input) for each input, best of a few runs. Not a test: the figures depend on the machine; the
regression guard for pathological inputs lives in ``tests/secrets/test_scrub.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kindling.secrets.scrub import scrub_secrets

MIB = 1 << 20

# One screen of what a coding agent sees, with a few planted fake secrets among ordinary lines.
_TOOL_OUTPUT = """\
$ git log --oneline -3
9fceb02d0ae598e95dc970b74767f19372d61af8 Fix tokenizer edge case in validateToken
a1b2c3d Merge branch 'task-list' into main
$ pytest -q tests/test_auth.py
....F.
FAILED tests/test_auth.py::test_password_field - AssertionError: the password field is validated
$ cat .env
DATABASE_URL=postgres://app:Sup3rS3cret!@db.internal:5432/app
DB_PASSWORD=correct-horse-battery-staple-42
GITHUB_TOKEN=ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE0000
OPENAI_API_KEY=sk-proj-FAKE0000FAKE0000FAKE0000FAKE0000
PWD=/home/dev/project
$ curl -s -H "Authorization: Bearer abc123def456ghi789" https://api.example.com/v1/items
{"id": "3f1e2d4c-5b6a-4789-9abc-def012345678", "name": "desk-lamp", "max_tokens": 512}
  "integrity": "sha512-Q2xpY2sgaGVyZSB0byBzZWUgdGhlIHdob2xlIGhhc2ggaW4gYmFzZTY0IQ==",
  "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
def login(username: str, password: str) -> Session:
    token = issue_token(username, password=password)
    return Session(token=token, expires_in=3600)
src/kindling/secrets/scrub.py:42: Basic auth is deprecated; tokenize the input first
"""

_ADVERSARIAL: dict[str, str] = {
    "a * 1 MiB": "a" * MIB,
    "= * 1 MiB": "=" * MIB,
    "eyJ repeated": ("eyJ" * (MIB // 3 + 1))[:MIB],
    "eyJx. repeated": ("eyJxxxxxxxx." * (MIB // 12 + 1))[:MIB],
    "BEGIN without END": ("-----BEGIN " * (MIB // 11 + 1))[:MIB],
    "BEGIN RSA header, no END": ("-----BEGIN RSA PRIVATE KEY-----\n" * (MIB // 32 + 1))[:MIB],
    "x:// repeated": ("x://" * (MIB // 4 + 1))[:MIB],
    "x://u: then no @": "x://u:" + "p" * MIB,
    "<private> unclosed repeated": ("<private>" * (MIB // 9 + 1))[:MIB],
    "password= repeated": ("password=" * (MIB // 9 + 1))[:MIB],
    'password=" unclosed': ('password="' + "a" * MIB)[:MIB],
    "password=a.a.a...": ("password=" + "a." * MIB)[:MIB],
    "--a-a-a... flag": ("--" + "a-" * MIB)[:MIB],
    "Authorization: repeated": ("Authorization: " * (MIB // 15 + 1))[:MIB],
    "sk- repeated": ("sk-" * (MIB // 3 + 1))[:MIB],
    "ghp_ + 1 MiB body": "ghp_" + "A" * MIB,
    # gitleaks' data rules, woken by vendor words, once tried 51 lengths at every position.
    "vendor words, xYZ. repeated": ("sumo.okta.jira.cohere.meraki." + "xYZ." * MIB)[:MIB],
    # kingfisher's "any character", (?:.|[\n\r]), once took 2^n ways through n carriage returns.
    "vendor words, \\r runs": (("adobe okta " + "\r" * 40 + " x A1b2C3d4e5F6g7H8q9 ") * MIB)[:MIB],
}


def _best_seconds(fn: Callable[[], object], runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    realistic = (_TOOL_OUTPUT * (MIB // len(_TOOL_OUTPUT) + 1))[:MIB]
    cases = {"realistic tool output (1 MiB)": realistic, **_ADVERSARIAL}
    width = max(len(name) for name in cases)
    for name, text in cases.items():
        seconds = _best_seconds(lambda text=text: scrub_secrets(text))
        rate = len(text) / seconds / 1_000_000
        print(f"{name:<{width}}  {seconds * 1000:8.1f} ms  {rate:8.1f} MB/s")
    small = _TOOL_OUTPUT
    per_call = _best_seconds(lambda: [scrub_secrets(small) for _ in range(1000)]) / 1000
    print(f"{'one screen of tool output':<{width}}  {per_call * 1e6:8.1f} us per call")


if __name__ == "__main__":
    main()
