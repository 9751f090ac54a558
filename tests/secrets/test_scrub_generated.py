"""Tokens masked because they are as random as a generated key, and look-alikes left alone
(issue 18, third pass: detection that generalises).

Each masked case fails if its rule is removed: a stand-alone token of letters in both cases
(``scrub_values.generated_letters``, woken by any candidate: it holds no keyword), a token up
to 256 characters, base64 of a hex key or of a private key, a key ending in ``key``, ``auth``,
``sig``, ``signature`` or ``private`` with a generated value, 16+ lower-case letters after
``token=``, a value glued to its key by a dash, Airtable's ``pat`` tokens, and cookie values.
Each left case is what such a rule would take without its guard: names spelled from words,
placeholders typed in sequence, hex literals, go.sum lines, settings, ordinary cookies.
"""

from __future__ import annotations

import base64
import random
import string

import pytest

from kindling.secrets.scrub import scrub_secrets
from kindling.secrets.scrub_values import generated_letters, looks_generated

SENTENCE = "the value {} came back from the call"


def _draw(alphabet: str, n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


@pytest.mark.parametrize(
    "token",
    [
        "kETSVUrnPuVzCcVj32iAkQCcHHYxXGx2",  # letters in both cases, two digits
        "Ufvuj-d6alhwGKvvLh_8Nq0K",  # base64url with separators, segments under 16
        "QhRwXbKpMzVtLcJyNfGdSaWe",  # letters only: no digit to wake a rule by keyword
        _draw(string.ascii_letters + string.digits + "_-", 140, 1),  # a Dropbox-length token
    ],
)
def test_a_bare_generated_token_is_masked(token: str) -> None:
    result = scrub_secrets(SENTENCE.format(token))
    assert token not in result.text
    assert result.kinds == ("random_token",)


def test_random_draws_of_letters_are_masked_bare() -> None:
    # 200 draws of 24-64 letters in both cases: a generated key with no digit to find it by.
    letters = string.ascii_letters
    draws = [_draw(letters, 24 + seed % 41, seed) for seed in range(200)]
    masked = sum(d not in scrub_secrets(SENTENCE.format(d)).text for d in draws)
    assert masked >= 190, masked


@pytest.mark.parametrize(
    "text",
    [
        # Names spelled from words, acronyms and numbers: seven humps in ten hold a vowel.
        "IncExSeqOrElseSerSchema: TypeAlias = Union[IncExSeqSerSchema, SerSchema]",
        "MLKEM768X25519PublicKey = rust_openssl.hpke.MLKEM768X25519PublicKey",
        '    SCHEME_NOT_HTTP_OR_HTTPS = "SchemeNotHTTPOrHTTPS"',
        '    c_function_name="CPyStr_GetItemUnsafeAsInt",',
        "        'DAQmx_DeviceInfo', 'DAQmx_DIO_Config', 'DAQmx_DIO_WriteNewData', 'DAQmx_Scan',",
        "                'gsnXYBarChartBarWidth', 'gsnXYBarChartColors',",
        # A hex literal in code, and a regular expression's character class.
        "    group_order = 0xAADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA70330870553E5"
        "C414CA92619418661197FAC10471DB1D381085DDADDB58796829CA90069  # noqa: E501",
        "            (r'\\\\[sSwWdDbBZApPxucItnvfr0]+', String.Escape),",
        # A go.sum line whose module path ends in a key word.
        "cloud.google.com/go/auth v0.22.0/go.mod h1:M9o2Oz+YI2jAfxewJgb1vyI3vceHF+eohmxyzmrl+9s=",
        "github.com/aws/aws-sdk-go-v2/credentials v1.19.34 h1:w3dTcnDVoQIewjo7JG45hduAToikiIFL",
        # Keys ending in "key" that are code, a cache key or published on purpose.
        "            key = base64.urlsafe_b64decode(key)",
        "        RegEnumKey = win32api.RegEnumKey",
        '    cache_key = "a8f9b2c3d4e5f6a7b8c9d0e1f2a3b4c5"',
        "RECAPTCHA_SITE_KEY=6Lc9mP2vL7qAbCdEf1234xxQwErTy",
        "STRIPE_PUBLISHABLE_KEY=pk_live_D8TY4jEw8Ym9hYe3cXaSMr0v",
        # A dictionary password in a sample (kingfisher's list of weak passwords is left out).
        "user = User(username='scolvin', password=b'password1')  #> b'password1'",
        "see path/patch and the patterns of pat.file",
        # What the brief names as never a bare secret, with random letters in both cases in it.
        "data:image/png;base64,g+HKKSsqgUzUZf2ykIm6YFLVxuQKvdnkIkads45guT+Ns2RXQhRwXbKpMzVtLc",
        "sha512-pKvURIxJVi2CgRXROh/M6pJ/UrTVRZKX+LQ+QtqJI4vBNibkPcs43bCCSIkn7JB",
        "h1:ofzkNjhU/4iM/0uOeHXWAMJoI5BBKoz3mzfQsRFIsPo=",
        "https://github.com/QhRwXbKpMzVtLcJyNfGdSaWe/WxYzAbCdEfGhIjKlMnOp",
        "/home/me/QhRwXbKpMzVtLcJyNfGdSaWe/file.txt",
        "commit 395df8f7c51f007019cb30201c49e884b46b92fa 56702004-1ab3-4e30-b527-0a9b1dbe5b91",
        # Settings named by a weak secret word.
        "auth=basic private=true signature: required",
        "auth_method=password123abc author=JohnSmithTheThird2024",
        # Lower-case words after a key word: prose, not a value.
        "Unexpected token: punctuationmarkers",
        "token = authorization followed by more words",
    ],
)
def test_look_alikes_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_base64_of_a_key_is_masked_and_base64_of_text_is_left() -> None:
    hex_key = base64.b64encode(b"e2a9c1f04b7d3e8a6c5b2f1d0e9a8b7c").decode()
    pem = base64.b64encode(b"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA").decode()
    text = base64.b64encode(b"just a sentence in a test fixture").decode()
    assert hex_key not in scrub_secrets(SENTENCE.format(hex_key)).text
    assert pem not in scrub_secrets(SENTENCE.format(pem)).text
    assert scrub_secrets(SENTENCE.format(text)).text == SENTENCE.format(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # Any key that ends in "key", given a generated value.
        ("STRIPE_KEY=Xk9mP2vL7qAbCdEf1234", "Xk9mP2vL7qAbCdEf1234"),
        ('stripeKey: "QhRwXbKpMzVtLcJyNfGdSaWe"', "QhRwXbKpMzVtLcJyNfGdSaWe"),
        ("WIDGET_KEY = 8d1f3c5a7e9b2d4f6a8c0e1b3d5f7a9c", "8d1f3c5a7e9b2d4f6a8c0e1b3d5f7a9c"),
        # The other words that mean secret only with a generated value: auth, sig, signature,
        # private (``auth=basic`` is a setting).
        ("AUTH=Xk9mP2vL7qAbCdEf1234", "Xk9mP2vL7qAbCdEf1234"),
        ('"signature": "8d1f3c5a7e9b2d4f6a8c0e1b3d5f7a9c"', "8d1f3c5a7e9b2d4f6a8c0e1b3d5f7a9c"),
        ("x_amz_sig = 'QhRwXbKpMzVtLcJyNfGdSaWe'", "QhRwXbKpMzVtLcJyNfGdSaWe"),
        ("private=Xk9mP2vL7qAbCdEf1234", "Xk9mP2vL7qAbCdEf1234"),
        # 16+ lower-case letters after "=": no word, a key of lower-case letters.
        ("api_token=qzmxkvwhrtplngsbdf", "qzmxkvwhrtplngsbdf"),
        # A value glued to its key by a dash.
        ("dd-apikey-dd52c29224affe29d163c6bf99e5c34f", "dd52c29224affe29d163c6bf99e5c34f"),
        ("holisticTOKEN-Xk9mP2vL7qAbCdEf1234Qw", "Xk9mP2vL7qAbCdEf1234Qw"),
        # Airtable's personal access token names itself.
        (
            "the value patXfsZBLOgxbJqSi.fd6210cfb2e0b2049bd8e7fa0e69f26a3a704412af6fcbd93a097c4"
            "2507fc893 came back",
            "fd6210cfb2e0b2049bd8e7fa0e69f26a3a704412af6fcbd93a097c42507fc893",
        ),
    ],
)
def test_keyed_and_shaped_values_are_masked(text: str, value: str) -> None:
    assert value not in scrub_secrets(text).text


def test_a_dash_joined_kebab_name_is_left() -> None:
    text = "token-refresh-interval-seconds-default"
    assert scrub_secrets(text).text == text


def test_the_randomness_checks() -> None:
    assert generated_letters("kETSVUrnPuVzCcVjiAkQCcHHYxXGx")
    assert not generated_letters("getAccessTokenFromHeadersNow")  # words
    assert not generated_letters("ABCDEFGHIJKLMNOPQRSTabcdefgh")  # typed in sequence
    assert not generated_letters("abcdefghijklmnopqrstuvwxyzab")  # one case
    assert looks_generated("8d1f3c5a7e9b2d4f6a8c0e1b3d5f7a9c")
    assert not looks_generated("urlsafe_b64decode")
    assert not looks_generated("Ed25519PrivateKey.from_private_bytes")


def test_a_generated_cookie_value_is_masked_and_the_rest_of_the_header_kept() -> None:
    text = 'Cookie: session=pLIix6MEOLeMa61EqJomTEI1; theme=dark; sid="a8F9k2m3X9q7Lp4Rz"'
    assert scrub_secrets(text).text == (
        'Cookie: session=[REDACTED:token]; theme=dark; sid="[REDACTED:token]"'
    )


@pytest.mark.parametrize(
    "text",
    [
        "cookie: lang=en-US; theme=dark",
        "Cookie: _ga=GA1.2.1234567890.1600000000",  # an analytics id, dotted
        'headers["Cookie"] = cookie_jar.header()',
    ],
)
def test_ordinary_cookies_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
