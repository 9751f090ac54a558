"""base64url with its padding: a Fernet key, an Azure Functions key (issue 32, fourteenth pass).

``base64.urlsafe_b64encode(os.urandom(32))`` gives 43 characters of ``A-Za-z0-9-_`` and one
``=``; Cryptography's ``Fernet.generate_key()`` is exactly that. Neither token rule read it: the
URL-safe one stopped before ``=``, the base64 one at ``-`` and ``_``. So a Fernet key standing
alone was never masked, nor after a key ending in a weak word (``FERNET_KEY=...``). Both are
now judged as the draw they are, without the padding. So is base32 with its padding (up to six
``=``: ``base64.b32encode`` of 16 random bytes, a TOTP seed), alone or after ``key:``.

Keys are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import base64
import random

import pytest

from kindling.secrets.scrub import scrub_secrets


def _key(n: int, seed: int) -> str:
    """base64url of ``n`` random bytes, padded, holding ``-`` or ``_`` (a draw without them
    is standard base64 too, the other rule's)."""
    rng = random.Random(seed)
    while True:
        key = base64.urlsafe_b64encode(bytes(rng.randrange(256) for _ in range(n))).decode()
        if ("-" in key or "_" in key) and key.endswith("="):
            return key


@pytest.mark.parametrize("n", [16, 32, 40, 64])
@pytest.mark.parametrize("seed", range(4))
def test_a_padded_base64url_key_is_masked(n: int, seed: int) -> None:
    key = _key(n, seed * 97 + n)
    for text in (
        f"the value {key} came back from the call",
        f"FERNET_KEY={key}",
        f"AZURE_FUNCTIONS_KEY={key}\n",
        f'{{"key": "{key}"}}',
        f"x-functions-key: {key}",
    ):
        out = scrub_secrets(text).text
        assert key.rstrip("=") not in out, out
        assert "[REDACTED:" in out


def test_nearly_every_fernet_key_is_masked_alone() -> None:
    keys = [_key(32, 5000 + i) for i in range(200)]
    masked = sum(k not in scrub_secrets(f"use {k} here").text for k in keys)
    assert masked >= 0.97 * len(keys)


def _base32(n: int, seed: int) -> str:
    rng = random.Random(seed)
    while True:
        key = base64.b32encode(bytes(rng.randrange(256) for _ in range(n))).decode()
        if sum(c.isdigit() for c in key) >= 3:  # (a draw with fewer reads as a word's letters)
            return key


@pytest.mark.parametrize("n", [11, 16, 24])
@pytest.mark.parametrize("seed", range(4))
def test_a_padded_base32_seed_is_masked(n: int, seed: int) -> None:
    key = _base32(n, seed * 31 + n)
    assert key.endswith("=")
    for text in (f"key: {key}", f"TOTP_KEY={key}", f'  "totp_secret": "{key}"'):
        out = scrub_secrets(text).text
        assert key.rstrip("=") not in out, out


def test_most_padded_base32_seeds_are_masked_alone() -> None:
    # Alone, one case is judged as the one-case rule judges a draw (20 characters or more):
    # 16 bytes give 26 and six ``=``. 11 bytes give 18, too few to tell from a name's capitals.
    keys = [_base32(16, 7000 + i) for i in range(200)]
    masked = sum(k.rstrip("=") not in scrub_secrets(f"the value {k} came back").text for k in keys)
    assert masked >= 0.85 * len(keys)


@pytest.mark.parametrize(
    "text",
    [
        "SOME_LONG_SETTING_NAME_2024=\n",
        "HEADER_SEPARATOR_LINE======",  # a name before a rule of signs
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ====== (the alphabet, padded)",  # an empty value after a name
        "pip install requests_toolbelt==1.0.0 now",
        "if some_long_variable_name_x == other_value_y:",
        "ab-cd_ef-gh_ij-kl_mn-op_qr= here",  # kebab and snake: a name
        "path/to/some-file_name-v2.tar.gz= ok",
    ],
)
def test_names_before_equals_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
