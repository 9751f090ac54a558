"""A private key in DER, base64 on one line (issue 32, fourteenth pass).

An env var, a JSON or YAML value or a string literal often holds a key as one base64 run with
no PEM label: ``MIIEvQIBADANBgkqhkiG9w0BAQEFAASC...``. Runs longer than 400 characters were
left (long base64 is mostly data: images, fonts), so a 2048-bit RSA key (1,624 characters) or
a PKCS#12 store was kept whole unless a key's name stood before it. The first bytes of the
DER say what it is: version 0 (PKCS#1, PKCS#8), 1 then an octet string (an EC key), 3 (a
PKCS#12 store), or an encrypted key's algorithm; such a run is masked. A public key's run
(a SubjectPublicKeyInfo) is left even when it is short enough to read as random.

The DER is built here: a real header, then bytes drawn from a seed.
"""

from __future__ import annotations

import base64
import random

import pytest

from kindling.secrets.scrub import scrub_secrets

RSA_ALGORITHM = bytes.fromhex("300d06092a864886f70d0101010500")
EC_ALGORITHM = bytes.fromhex("301306072a8648ce3d020106082a8648ce3d030107")
PBES2 = bytes.fromhex("06092a864886f70d01050d")


def _tlv(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 0x80:
        return bytes([tag, n]) + body
    size = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(size)]) + size + body


def _drawn(n: int, seed: int) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(n))


def _pkcs8(seed: int) -> bytes:
    inner = _tlv(0x30, b"\x02\x01\x00" + _drawn(1180, seed))
    return _tlv(0x30, b"\x02\x01\x00" + RSA_ALGORITHM + _tlv(0x04, inner))


def _pkcs1(seed: int) -> bytes:
    return _tlv(0x30, b"\x02\x01\x00" + _tlv(0x02, b"\x00" + _drawn(256, seed)) + _drawn(900, seed))


def _pkcs12(seed: int) -> bytes:
    return _tlv(0x30, b"\x02\x01\x03" + _tlv(0x30, _drawn(2400, seed)))


def _encrypted(seed: int) -> bytes:
    algorithm = _tlv(0x30, PBES2 + _tlv(0x30, _drawn(60, seed)))
    return _tlv(0x30, algorithm + _tlv(0x04, _drawn(1220, seed + 1)))


def _rsa_public(seed: int) -> bytes:
    return _tlv(0x30, RSA_ALGORITHM + _tlv(0x03, b"\x00" + _drawn(270, seed)))


def _ec_public(seed: int) -> bytes:
    return _tlv(0x30, EC_ALGORITHM + _tlv(0x03, b"\x00\x04" + _drawn(64, seed)))


def _wrappings(b64: str) -> list[str]:
    return [
        f"the value {b64} came back from the call",
        f'{{"data": "{b64}"}}',
        f"blob: {b64}\n",
        f'String material = "{b64}";',
        f"export BLOB={b64}",
    ]


@pytest.mark.parametrize("build", [_pkcs8, _pkcs1, _pkcs12, _encrypted])
@pytest.mark.parametrize("seed", range(3))
def test_a_private_key_in_der_on_one_line_is_masked(build: object, seed: int) -> None:
    assert callable(build)
    b64 = base64.b64encode(build(seed)).decode()
    assert len(b64) > 400  # longer than a random token's run
    for text in _wrappings(b64):
        out = scrub_secrets(text).text
        assert b64[:40] not in out, out[:120]
        assert b64[-40:] not in out, out[-120:]
        assert "[REDACTED:private_key]" in out


@pytest.mark.parametrize("build", [_rsa_public, _ec_public])
@pytest.mark.parametrize("seed", range(3))
def test_a_public_key_in_der_on_one_line_is_left(build: object, seed: int) -> None:
    assert callable(build)
    b64 = base64.b64encode(build(seed)).decode()
    for text in _wrappings(b64)[:4]:  # (a key's name may still mask what it names)
        assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    "text",
    [
        "the MIGRATION ran " + "MI" * 40 + " ok",
        "see " + "MIJ" + "A" * 80 + " here",
        "cert: " + base64.b64encode(_tlv(0x30, _tlv(0x30, _drawn(900, 1)))).decode(),
    ],
)
def test_other_runs_that_start_like_der_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
