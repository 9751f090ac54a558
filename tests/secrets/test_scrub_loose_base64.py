"""Standard base64 given to a key that names a secret loosely, and alone (issue 32, eighth pass).

``STRIPE_KEY=<key>`` was masked when the key was letters and digits, and left when it held
``+`` or ``/``: the loose-key rule read only a name's characters, and the stand-alone base64
rule never starts after ``=``. Such a value is judged now as a stand-alone base64 token is
(``scrub_encoded.base64_secret``): random bytes and base64 of ``user:secret`` are masked;
a path, base64 of a sentence, a public key and a digest are left.

The judgement itself read two kinds of draws as no key: one with fewer than two digits (one
draw of 24 characters in ten), and one with a part of four letters of one case between two
``/`` (``.../cPZK/...``, read as a path's word). Its letters now show the draw in the first
case; in the second only a word (all small, all capitals, or a capital then small letters)
makes a path.

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import base64
import random
import string

import pytest

from kindling.secrets.scrub import scrub_secrets

B64 = string.ascii_letters + string.digits + "+/"


def _draw(n: int, seed: int) -> str:
    """Random base64 of ``n`` characters holding a ``+`` or a ``/`` (what this pass is about)."""
    rng = random.Random(seed)
    while True:
        value = "".join(rng.choice(B64) for _ in range(n))
        if ("+" in value or "/" in value) and sum(c.isdigit() for c in value) >= 2:
            return value


FORMS = [
    "ACMECLOUD_KEY={}",
    "export STRIPE_KEY={}",
    'stripeKey: "{}"',
    "app.key = {}",
    "AUTH={}",
    "x-amz-sig: {}",
    "  private: {}",
]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("n", "seed"), [(24, 1), (40, 2), (44, 3), (64, 4), (88, 5)])
def test_random_base64_after_a_weak_key_is_masked(form: str, n: int, seed: int) -> None:
    value = _draw(n, seed)
    result = scrub_secrets(form.format(value))
    assert value not in result.text
    assert "[REDACTED:" in result.text
    assert result.text.startswith(form.split("{}")[0])  # the key is kept


@pytest.mark.parametrize("padding", ["=", "=="])
def test_padded_base64_after_a_weak_key_is_masked_with_its_padding(padding: str) -> None:
    value = _draw(42, 7) + padding
    result = scrub_secrets(f"ACME_KEY={value}\n")
    assert result.text == "ACME_KEY=[REDACTED:secret]\n"


def test_base64_of_a_basic_credential_after_a_weak_key_is_masked() -> None:
    secret = _draw(20, 8)
    value = base64.b64encode(f"ada:{secret}".encode()).decode()
    assert scrub_secrets(f"REGISTRY_AUTH={value}").text == "REGISTRY_AUTH=[REDACTED:secret]"


@pytest.mark.parametrize(
    "text",
    [
        "SSH_KEY=/home/ada/.ssh/id_ed25519",
        "KEY=secrets/prod/stripe/live",
        "CACHE_KEY=users/42/profile+avatar",
        "AUTH=basic",
        "private: true",
        # Base64 of a sentence (padded): data, not a secret.
        "FIXTURE_KEY=" + base64.b64encode(b"a fixture sentence, not a key").decode(),
        # Published on purpose.
        "PUBLIC_KEY=" + _draw(44, 9),
        "publishable_key: " + _draw(44, 10),
        # Mixed alphabets: neither base64 nor base64url.
        "ACME_KEY=abc+def_ghi/jkl-mno",
    ],
)
def test_look_alikes_after_a_weak_key_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize("seed", range(20))
def test_the_judgement_is_the_stand_alone_one(seed: int) -> None:
    """Whatever the draw, a value after a weak key is masked when the same value alone in a
    sentence is (one judgement, ``base64_secret``), and never less."""
    value = _draw(20 + seed * 3, 100 + seed)
    alone = value not in scrub_secrets(f"the value {value} came back").text
    keyed = value not in scrub_secrets(f"ACME_KEY={value}").text
    assert keyed >= alone


@pytest.mark.parametrize(
    "value",
    [
        # Fewer than two digits: the letters show the draw.
        "Xq/RvTmkPbWzLcHdNfGsYjKu",
        "ZmWq+HtRcVbNpLkXsJdGfTyQ9e",
        # A part of four letters between slashes that is no word.
        "GqbeB6veWzSmA3y/nXL/cPZK",
        "PFCHuqh7TqFMf25/gwW/ONJu",
    ],
)
def test_base64_draws_the_judgement_used_to_leave_are_masked(value: str) -> None:
    for text in (f"the value {value} came back", f"ACME_KEY={value}"):
        assert value not in scrub_secrets(text).text


@pytest.mark.parametrize(
    "text",
    [
        "see src/main/java/org/acme/TokenStore for the class",
        "the value Users/Ada/Library/Keychains came back",
        "the value usr/local/share/Keyboard+Layouts came back",
        "the value Docs/API/Reference/Overview came back",
    ],
)
def test_paths_are_still_left(text: str) -> None:
    assert scrub_secrets(text).text == text
