"""A literal an API client's constructor takes first (issue 32, fourteenth pass).

``FirecrawlClient("fc-<hex>")``, ``new AxiomClient("xaat-<uuid>")``, ``ApiClient("<key>")``: the
client's name says what it is given, as a key's name would. A prefix and hex digits or a UUID
(the form many vendors give their keys) was left there, as it is alone (an id's or a digest's
form); it is masked now, and a generated value too. A URL, a host, a name, a bare UUID, hex
alone and a digest are left.
"""

from __future__ import annotations

import random
import string

import pytest

from kindling.secrets.scrub import scrub_secrets


def _hex(n: int, rng: random.Random) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _uuid(rng: random.Random) -> str:
    h = _hex(32, rng)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _values(seed: int) -> list[str]:
    rng = random.Random(seed)
    alnum = string.ascii_letters + string.digits
    return [
        f"fc-{_hex(32, rng)}",
        f"key_{_hex(40, rng)}",
        f"pat.{_uuid(rng)}",
        "".join(rng.choice(alnum) for _ in range(32)),
    ]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    "call",
    [
        'client = FirecrawlClient("{}")',
        "const c = new AcmeApiClient('{}');",
        'var sdk = NewWidgetSDK("{}")',
        "api = VendorApi(`{}`, timeout=3)",
    ],
)
def test_a_key_given_to_a_client_is_masked(seed: int, call: str) -> None:
    for value in _values(seed):
        out = scrub_secrets(call.format(value)).text
        assert value not in out, out
        assert "[REDACTED:" in out


@pytest.mark.parametrize(
    "text",
    [
        'c = MongoClient("mongodb://localhost:27017")',
        'c = QdrantClient("localhost")',
        'c = StorageClient("my-project-name-2024")',
        'c = TenantClient("123e4567-e89b-42d3-a456-426614174000")',
        'c = GitClient("2a7ad459e0a1a33a0d2d2adade21407adcd27324")',
        'c = ChainClient("0x0d72426ef8c4e5d1b1fe113f652b5fa1ce8eef57e8dd1c60aacc4edd03205ca6")',
        'c = CdnClient("sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC")',
        'c = GitHubApi("getRepositoryContents")',
        'c = HttpClient("https://api.example.com/v1")',
    ],
)
def test_what_a_client_is_given_that_is_no_key_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text
