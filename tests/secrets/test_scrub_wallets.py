"""A cryptocurrency wallet's secrets (issue 32, fifteenth pass): a seed phrase after its name,
and a private key given to the code that builds a wallet from it. A wallet's address is
public and left (tests/secrets/test_scrub_left_in_place.py).

Seed phrases are drawn from a seed out of a list of words, never fixed.
"""

from __future__ import annotations

import random

import pytest

from kindling.secrets.scrub import scrub_secrets

# Words of BIP-39's list's lengths (3 to 8 small letters).
_WORD_LIST = (
    "abandon ability able about above absent absorb abstract absurd abuse access accident "
    "legal winner thank year wave sausage worth useful yellow zebra zero zone zoo ozone "
    "harbor marble ember copper lantern orbit meadow canyon falcon pepper silver thunder"
)
WORDS = _WORD_LIST.split()


def _phrase(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(n))


@pytest.mark.parametrize(
    "template",
    [
        'mnemonic: "{}"',
        "MNEMONIC={}",
        "SEED_PHRASE='{}'",
        "seed phrase: {}",
        "Secret Recovery Phrase: {}",
        '{{"mnemonic": "{}"}}',
        "const mnemonic = `{}`;",
    ],
)
@pytest.mark.parametrize("n", [12, 15, 24])
def test_a_seed_phrase_after_its_name_is_masked(template: str, n: int) -> None:
    phrase = _phrase(n, n)
    out = scrub_secrets(template.format(phrase)).text
    assert phrase not in out, out
    assert " ".join(phrase.split()[:3]) not in out, out
    assert "[REDACTED:secret]" in out, out


@pytest.mark.parametrize(
    "text",
    [
        # Prose about a mnemonic holds short words; too few words are no phrase; a list of
        # options is no phrase either.
        "mnemonic: a list of twelve words that you write down on paper and keep safe",
        "mnemonic: the phrase you wrote down",
        "mnemonic: true",
        "seed phrase: see the vault entry",
    ],
)
def test_what_a_seed_phrase_is_not_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


KEY = "086622b63afa1325757ba4390bfcaaea0cd8c3fca9cac1b20c10449f938b6411"


@pytest.mark.parametrize(
    "template",
    [
        'const wallet = new ethers.Wallet("0x{}");',
        'const wallet = new Wallet("{}", provider);',
        'acct = Account.from_key("0x{}")',
        "const account = privateKeyToAccount('0x{}');",
        'w = Wallet.fromPrivateKey(Buffer.from("{}", "hex"))',
    ],
)
def test_a_private_key_given_to_a_wallet_is_masked(template: str) -> None:
    out = scrub_secrets(template.format(KEY)).text
    assert KEY not in out, out


@pytest.mark.parametrize(
    "text",
    [
        # A transaction's hash and a role's id are the same 32 bytes, and public.
        f"tx 0x{KEY} confirmed in block 19482713",
        f"bytes32 constant MINTER_ROLE = 0x{KEY};",
        "const wallet = new ethers.Wallet(process.env.PRIVATE_KEY, provider);",
    ],
)
def test_thirty_two_bytes_elsewhere_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
