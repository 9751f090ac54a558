"""Secrets stored encoded, and three prefixes (issue 32): each masked case fails without its rule.

- A PEM private key encoded whole in base64 (a kubeconfig's ``client-key-data``, a Secret's
  ``tls.key``), whatever its length; an encoded certificate (``certificate-authority-data``:
  every certificate of certifi's bundle) or public key is left byte for byte.
- Base64 of one generated token (a Kubernetes Secret's ``data`` holds an API key so), masked
  bare; base64 of a name, an id, a sentence or a dotted name is left.
- Figma's ``figd_``, Teamwork's ``tkn.v1_`` and Scrapfly's ``scp-live-``/``scp-test-``, bare;
  the prefix with a short or wrong tail is left.

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import base64
import random
import re
import string
import textwrap
from pathlib import Path

import certifi
import pytest

from kindling.secrets.scrub import scrub_secrets

SENTENCE = "the value {} came back from the call"
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"


def _draw(alphabet: str, n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def _pem(label: str, seed: int, n: int = 1600) -> str:
    body = "\n".join(textwrap.wrap(_draw(B64, n, seed), 64))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----\n"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "label", ["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"]
)
@pytest.mark.parametrize("seed", range(3))
def test_an_encoded_private_key_is_masked_whatever_its_length(label: str, seed: int) -> None:
    encoded = _b64(_pem(label, seed, n=200 + 900 * seed))
    for text in (
        f"    client-key-data: {encoded}\n",
        f'{{"data": {{"tls.key": "{encoded}"}}}}',
        SENTENCE.format(encoded),
    ):
        result = scrub_secrets(text)
        assert encoded not in result.text
        assert encoded[:60] not in result.text  # masked whole, not in part
        assert "private_key" in result.kinds


def test_every_encoded_certificate_and_public_key_is_left() -> None:
    bundle = Path(certifi.where()).read_text("ascii")
    blocks = re.findall(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----\n?", bundle, re.S)
    assert len(blocks) > 100
    blocks += [_pem("PUBLIC KEY", 1), _pem("RSA PUBLIC KEY", 2), _pem("CERTIFICATE REQUEST", 3)]
    for block in blocks:
        text = f"    certificate-authority-data: {_b64(block)}\n"
        assert scrub_secrets(text).text == text


@pytest.mark.parametrize("seed", range(20))
def test_base64_of_a_generated_token_is_masked_bare(seed: int) -> None:
    token = _draw(ALNUM, 20 + seed, seed)
    encoded = _b64(token)
    assert encoded.rstrip("=") not in scrub_secrets(SENTENCE.format(encoded)).text
    assert encoded not in scrub_secrets(f"  api-key: {encoded}").text


@pytest.mark.parametrize(
    "text",
    [
        "client-id-12345-for-tests",
        "the quick brown fox jumps over 13 lazy dogs",
        "com.example.app.MainActivity",
        "my_database_name_2024",
        "getAccessTokenFromHeaders",
        "ReleaseBuild2024Version17",
    ],
)
def test_base64_of_a_name_an_id_or_a_sentence_is_left(text: str) -> None:
    line = SENTENCE.format(_b64(text))
    assert scrub_secrets(line).text == line


@pytest.mark.parametrize("seed", range(5))
def test_figma_teamwork_and_scrapfly_tokens_are_masked_bare(seed: int) -> None:
    tokens = {
        "figma_token": "figd_" + _draw(ALNUM + "_-", 40, seed),
        "teamwork_token": "tkn.v1_" + _draw(ALNUM, 71, seed) + "=",
        "scrapfly_key": f"scp-{'live' if seed % 2 else 'test'}-"
        + _draw(string.ascii_lowercase + string.digits, 32, seed),
    }
    for kind, token in tokens.items():
        result = scrub_secrets(SENTENCE.format(token))
        assert token not in result.text
        assert kind in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "see figd_notes for the design",
        "tkn.v1_short is the prefix",
        "scp-live-demo and scp-prod-1234 are hosts",
        "figd_ is the prefix of a Figma token",
    ],
)
def test_the_prefixes_with_a_short_or_wrong_tail_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
