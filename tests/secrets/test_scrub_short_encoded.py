"""Short encodings of random bytes, standing alone (issue 32, nineteenth pass).

- Standard base64 of 12 to 14 random bytes (``openssl rand -base64 12``): 16 characters, or
  up to 19 and padding. The base64 rule judged a body only from 20 characters, so the draw was
  masked alone only when it held neither ``+``, ``/`` nor padding (the random-token rule's
  ``short_generated`` judged it then): about half were masked. Its letters and digits are
  judged as that draw's now, with up to three of base64's signs among them.
- A TOTP seed: base32 of 10 bytes, 16 capitals and digits 2 to 7. The one-case draw judge
  wants the class to change as often as a draw of 36 characters changes it; base32's 26
  letters and 6 digits run longer, so about one in five was masked.

Seeds and keys are drawn, never fixed fakes; the look-alikes are written here.
"""

from __future__ import annotations

import base64
import random

import pytest

from kindling.secrets.scrub import scrub_secrets

SENTENCE = "the value {} came back from the call"


def _masked_share(values: list[str]) -> float:
    kept = [v for v in values if v.rstrip("=") in scrub_secrets(SENTENCE.format(v)).text]
    return 1 - len(kept) / len(values)


def _bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


@pytest.mark.parametrize("n", [12, 13, 14])
def test_most_short_base64_draws_are_masked_alone(n: int) -> None:
    rng = random.Random(n)
    values = [base64.b64encode(_bytes(rng, n)).decode() for _ in range(300)]
    assert _masked_share(values) >= 0.75


@pytest.mark.parametrize("n", [12, 13, 14])
def test_short_base64_draws_with_signs_are_masked_alone(n: int) -> None:
    rng = random.Random(100 + n)
    values: list[str] = []
    while len(values) < 200:
        value = base64.b64encode(_bytes(rng, n)).decode()
        if "+" in value or "/" in value:
            values.append(value)
    assert _masked_share(values) >= 0.65


def test_most_totp_seeds_are_masked_alone() -> None:
    rng = random.Random(32)
    values = [base64.b32encode(_bytes(rng, 10)).decode() for _ in range(300)]
    assert _masked_share(values) >= 0.6


@pytest.mark.parametrize(
    "text",
    [
        "DB_PASSWORD: vault: k29q7/b1234567890#password",
        "DB_PASSWORD: vault:k29q7/b1234567890#password",
        "token: ref+vault://x7Kq2/Lm9Pq4Rt8W#token",
    ],
)
def test_a_short_path_in_a_store_reference_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_a_totp_seed_is_masked_in_an_otpauth_uri_and_after_a_key() -> None:
    seed = base64.b32encode(_bytes(random.Random(5), 10)).decode()
    for text in (
        f"otpauth://totp/Example:ada?secret={seed}&issuer=Example",
        f"MFA_SECRET={seed}",
        f'{{"totp_seed": "{seed}"}}',
    ):
        assert seed not in scrub_secrets(text).text, text


@pytest.mark.parametrize(
    "text",
    [
        "Q2hlY2sgSW50ZWdyaXR5IQ==",  # base64 of a sentence
        "aGVsbG8gd29ybGQhIQ==",  # "hello world!!"
        "AAAAAAAAAAAAAAAAAAAA==",
        "usr/lib/Local+Path",  # a path with a plus
        "ACCELERATORTYPES",
        "HTTP2SETTINGSABC",
        "SECTION4PART2ABC",  # capitals and digits 2-7 spelled from words
        "ABCDEFGHIJ234567",  # base32's alphabet in order
        "20260511T101530Z",  # a timestamp
    ],
)
def test_encoded_look_alikes_are_left(text: str) -> None:
    sentence = SENTENCE.format(text)
    assert scrub_secrets(sentence).text == sentence
