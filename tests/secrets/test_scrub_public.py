"""Issue 32, 25th pass: a JSON Web Key's public members are published on purpose and left,
while its private members and anything around it are masked (``secrets.scrub_public``)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _draw(seed: int, n: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(B64URL) for _ in range(n))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), indent=st.sampled_from([None, 2]))
def test_a_key_sets_public_members_are_left_and_its_private_ones_masked(
    seed: int, indent: int | None
) -> None:
    n, d, x, y = _draw(seed, 342), _draw(seed + 1, 342), _draw(seed + 2, 43), _draw(seed + 3, 43)
    kid = _draw(seed + 4, 27)
    cert = "MIIC" + _draw(seed + 5, 200).replace("-", "+").replace("_", "/")
    rsa = {"kty": "RSA", "kid": kid, "use": "sig", "n": n, "e": "AQAB", "x5c": [cert], "d": d}
    ec = {"kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": kid}
    text = json.dumps({"keys": [rsa, ec]}, indent=indent)
    out = scrub_secrets(text).text
    for public in (n, x, y, kid, cert):
        assert public in out
    assert d not in out
    assert "[REDACTED:private_key]" in out


def test_a_python_dict_of_a_public_key_is_left() -> None:
    n = _draw(7, 342)
    text = f"jwk = {{'kty': 'RSA', 'n': '{n}', 'e': 'AQAB', 'alg': 'RS256'}}"
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    "text",
    [
        # The same members outside an object that names a key type: a random token.
        '{"n": "' + _draw(3, 342) + '"}',
        # A vendor's token is one wherever it stands.
        '{"kty": "RSA", "x": "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"}',
        # A secret beside a key, in the same object and after it.
        '{"kty": "RSA", "n": "' + _draw(4, 64) + '", "api_key": "Zk82mQp0aLx7wqAb12Zk82mQp0"}',
    ],
)
def test_what_is_not_a_public_member_is_still_masked(text: str) -> None:
    out = scrub_secrets(text).text
    assert "[REDACTED:" in out
    assert "ghp_aBcDeF" not in out
    assert "Zk82mQp0aLx7" not in out


def test_a_key_beside_a_certificate_and_a_password() -> None:
    n = _draw(9, 342)
    text = (
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ4+bZ\n-----END CERTIFICATE-----\n"
        f'{{"kty":"RSA","n":"{n}","e":"AQAB"}}\npassword=Zk82mQp0aLx7wq!\n'
    )
    out = scrub_secrets(text).text
    assert "MIIBszCCAVmgAwIBAgIUQ4+bZ" in out
    assert n in out
    assert "Zk82mQp0aLx7wq!" not in out


def test_a_nul_in_the_text_reads_the_key_as_any_text() -> None:
    # (the values stand aside behind NUL markers: a text holding one is read whole, safely)
    d = _draw(11, 64)
    out = scrub_secrets(f'\x00{{"kty":"EC","d":"{d}"}}').text
    assert d not in out


def test_a_key_set_inside_a_tools_json_output_is_read_the_same() -> None:
    # A hook's payload holds the tool's output as a JSON string: the key set's quotes escaped.
    n, d = _draw(21, 342), _draw(22, 342)
    inner = json.dumps({"keys": [{"kty": "RSA", "n": n, "e": "AQAB", "d": d}]})
    out = scrub_secrets(json.dumps({"tool_response": {"stdout": inner}})).text
    assert n in out
    assert d not in out
