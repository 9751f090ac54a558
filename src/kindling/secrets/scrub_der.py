"""A key in DER, base64 on one line: masked when private, left when public (issue 32,
fourteenth pass).

``der_rule`` masks base64 of a private key or a key store in DER however long its run (a
2048-bit RSA key is 1,624 characters; the stand-alone token rules stop at 400, as longer base64
is mostly data). ``public_der`` tells ``secrets.scrub_encoded`` that a run is a public key
(a SubjectPublicKeyInfo), which its random-token judgement then leaves.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_values import LazyPattern, decoded, mask

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# Base64 of a private key or a key store in DER, on one line of any length (an env var, a JSON
# or YAML value, a string literal: ``MIIEvQIBADANBgkqhkiG9w0BAQEFAASC...``). Its first bytes
# say what it is: a SEQUENCE, then version 0 (PKCS#1, PKCS#8, DSA), 1 and an octet string
# (an EC key) or 3 (PKCS#12); or an encrypted PKCS#8 key's PBES2 or PKCS#12 algorithm. A
# certificate, a public key or a CSR starts with a SEQUENCE inside instead: public, left.
_DER_KEY_SRC = r"(?<![A-Za-z0-9+/_-])MI[GIJ][A-Za-z0-9+/]{60,}+={0,2}(?![A-Za-z0-9+/=_-])"
_VERSIONS = (b"\x02\x01\x00", b"\x02\x01\x03", b"\x02\x01\x01\x04")
_PBE_OIDS = (b"\x2a\x86\x48\x86\xf7\x0d\x01\x05\x0d", b"\x2a\x86\x48\x86\xf7\x0d\x01\x0c\x01")


def _der_key(m: re.Match[str]) -> tuple[str, str] | None:
    inner = _der_inner(m[0])
    if inner is not None and (
        inner.startswith(_VERSIONS) or any(oid in inner[:20] for oid in _PBE_OIDS)
    ):
        return "private_key", mask("private_key")
    return None


def _der_inner(token: str) -> bytes | None:
    """What base64 of a DER SEQUENCE holds, from its first 24 bytes; None for anything else."""
    raw = decoded(token[:32]) if token.startswith("M") else None
    if raw is None or len(raw) < 8 or raw[0] != 0x30:
        return None
    return raw[2 + (raw[1] & 0x7F if raw[1] & 0x80 else 0) :]


def public_der(token: str) -> bool:
    """Base64 of a public key in DER (a SubjectPublicKeyInfo: an algorithm, then a bit string:
    ``MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A...``, ``MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE...``): a
    JWT verifier's key, published on purpose."""
    inner = _der_inner(token)
    if inner is None or len(inner) < 4 or inner[0] != 0x30 or inner[1] & 0x80:
        return False
    end = 2 + inner[1]
    return len(inner) > end and inner[end] == 0x03


def der_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    return ("mig", "mii", "mij"), LazyPattern(_DER_KEY_SRC, re.ASCII), _der_key
