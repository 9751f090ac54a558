"""Masking of drawn values in a few forms: the table of issue 32's eighth pass (docs/privacy.md).

    .venv/bin/python bench/secret_drawn.py [--draws N]

Each row draws ``N`` values (seed 1) from a generator's alphabet and writes each in the form,
then prints the share masked. To compare with another revision, run it with that revision's
``src`` first on ``PYTHONPATH``. Not a test: the tests pin the forms (``tests/secrets/``).
"""

from __future__ import annotations

import argparse
import random
import string
from collections.abc import Callable

from kindling.secrets.scrub import scrub_secrets

ALNUM = string.ascii_letters + string.digits
SIGNS = "!@#$%^&*"


def _draw(alphabet: str, n: int) -> Callable[[random.Random], str]:
    return lambda rng: "".join(rng.choice(alphabet) for _ in range(n))


ROWS: list[tuple[str, Callable[[random.Random], str], str]] = [
    ("40 letters and digits after `ACMECLOUD=`", _draw(ALNUM, 40), "ACMECLOUD={}"),
    ("40 base64 after `ACMECLOUD_KEY=`", _draw(ALNUM + "+/", 40), "ACMECLOUD_KEY={}"),
    ("24 base64, bare", _draw(ALNUM + "+/", 24), "the value {} came back"),
    ("20 hex in both cases, bare", _draw("0123456789abcdefABCDEF", 20), "the value {} came back"),
    (f"20 of letters, digits and `{SIGNS}`, bare", _draw(ALNUM + SIGNS, 20), "the value {} came"),
    (f"32 of letters, digits and `{SIGNS}`, bare", _draw(ALNUM + SIGNS, 32), "the value {} came"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--draws", type=int, default=300)
    args = parser.parse_args()
    print("| drawn value, form | masked |\n| --- | ---: |")
    for name, draw, form in ROWS:
        rng = random.Random(1)
        values = [draw(rng) for _ in range(args.draws)]
        masked = sum(v not in scrub_secrets(form.format(v)).text for v in values)
        print(f"| {name} | {masked / len(values):.0%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
