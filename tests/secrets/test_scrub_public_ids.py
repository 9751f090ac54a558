"""Ids and public values that look drawn, left (issue 32, fourteenth pass).

A helper that had not read the scrubber wrote 700 lines of what a session holds that looks
random and is no secret; 66 of them were altered. Each format here says by its fixed parts
that it names something: a Stripe object's id, a ULID, an IPFS content id, a GitHub node id,
a PNG's base64, base64 of a JSON document that holds no secret (a JWT's header alone, a
cursor), an ad click's id, PKCE's challenge, a WebSocket handshake's nonce, and a URL whose
password is a placeholder (``<password>@host:5432/db``: the port and the database were read as
the password's value). What such a format holds when it is a secret is masked still.

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import base64
import json
import random
import string

import pytest

from kindling.secrets.scrub import scrub_secrets

ALNUM = string.ascii_letters + string.digits
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _draw(alphabet: str, n: int, rng: random.Random) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _ulid(rng: random.Random) -> str:
    ms = rng.randrange(1_600_000_000_000, 1_900_000_000_000)
    head = ""
    for _ in range(10):
        head = CROCKFORD[ms % 32] + head
        ms //= 32
    return head + _draw(CROCKFORD, 16, rng)


def _legacy_node(rng: random.Random) -> str:
    kind = rng.choice(["Repository", "User", "Issue", "PullRequest"])
    raw = f"0{len(kind)}:{kind}{rng.randrange(10**8)}" if len(kind) < 10 else ""
    raw = raw or f"{len(kind):03d}:{kind}{rng.randrange(10**8)}"
    return base64.b64encode(raw.encode()).decode()


def _lines(seed: int) -> list[str]:
    rng = random.Random(seed)
    header = base64.urlsafe_b64encode(b'{"alg":"RS256","typ":"JWT","kid":"k1"}').decode()
    cursor = base64.b64encode(json.dumps({"offset": rng.randrange(999), "dir": "asc"}).encode())
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42" + _draw(ALNUM, 20, rng)
    return [
        f'{{"id": "cus_{_draw(ALNUM, 14, rng)}", "object": "customer"}}',
        f"charge: ch_{_draw(ALNUM, 24, rng)}  payment_intent: pi_{_draw(ALNUM, 24, rng)}",
        f"--> payment_intent.succeeded [evt_{_draw(ALNUM, 24, rng)}]",
        f'{{"event_id": "{_ulid(rng)}", "aggregate": "order"}}',
        f"added Qm{_draw(BASE58, 44, rng)} report.pdf",
        f'  "cid": "bafkrei{_draw("abcdefghijklmnopqrstuvwxyz234567", 53, rng)}",',
        f'    "node_id": "PR_kwDO{_draw(ALNUM, 18, rng)}",',
        f"$ echo '{header}' | base64 -d",
        f'  "payload_b64": "{cursor.decode()}"',
        f"  logo.png: {png}",
        f"https://shop.example.net/p?variant=42&gclid={_draw(ALNUM, 40, rng)}",
        f"&code_challenge={_draw(ALNUM + '-_', 43, rng)}&code_challenge_method=S256",
        "Sec-WebSocket-Key: " + base64.b64encode(rng.randbytes(16)).decode(),
        'psql "postgresql://app:<password>@localhost:5432/app_dev?sslmode=disable"',
        "DATABASE_URL=postgresql://app:YOUR_PASSWORD@db.internal:5432/orders",
        # A GitHub id of the first form (base64 of ``010:Repository<id>``), a Swift symbol,
        # a label of words naming the key's kind.
        f'{{"id": "{_legacy_node(rng)}", "name": "widgets"}}',
        f"dyld[{rng.randrange(99999)}]: Symbol not found: _$s10Foundation4DateV3nowACvgZ",
        f"Cache key: node-cache-Linux-x64-npm-{rng.randbytes(32).hex()}",
    ]


@pytest.mark.parametrize("seed", range(3))
def test_ids_and_public_values_are_left(seed: int) -> None:
    for line in _lines(seed):
        assert scrub_secrets(line).text == line


@pytest.mark.parametrize("seed", range(3))
def test_what_such_formats_hold_as_a_secret_is_masked(seed: int) -> None:
    rng = random.Random(seed)
    key = _draw(ALNUM, 32, rng)
    grafana = base64.b64encode(json.dumps({"k": key, "n": "ci", "id": 1}).encode()).decode()
    secret = f"pi_{_draw(ALNUM, 24, rng)}_secret_{_draw(ALNUM, 25, rng)}"
    basic = base64.b64encode(f"12345:{key}".encode()).decode()  # (a number for a user)
    for text, value in [
        (f"the value {grafana} came back", grafana),
        (f"clientSecret: {secret}", secret),
        (f"the value {secret} came back", secret),
        (f"postgresql://app:{key}@localhost:5432/app_dev", key),
        (f"auth: {basic}", basic),
        (f"Cache key: {key}\nAPI key: {key}", key),
    ]:
        out = scrub_secrets(text).text
        assert value not in out, out
