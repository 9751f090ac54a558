"""Public material the rules of ``secrets.scrub`` read around, left as it is: it looks random
to them, and it is published on purpose.

- PEM blocks that hold no secret: certificates, public keys, certificate requests, CRLs, PKCS#7
  and parameters (a private key's block is masked whole by its own rule), also one cut off
  before its ``END`` line where the text ends (27th pass: ``head`` of a certificate).
- Git's binary patches: base85 data, as ``git diff --binary`` prints it.
- A JSON Web Key's public members (issue 32, 25th pass): in an object that names its key type
  (``"kty"``), the modulus and exponent of an RSA key (``"n"``, ``"e"``), the point of an
  elliptic curve's (``"x"``, ``"y"``), its certificates (``"x5c"``), their thumbprints and the
  key's id. A JWKS document (``/.well-known/jwks.json``) is published for anyone to verify
  tokens with. The private members (``"d"``, ``"p"``, ``"q"``, ``"dp"``, ``"dq"``, ``"qi"``,
  a symmetric key's ``"k"``) are not among them, and are masked.
- Ciphertext committed by design (31st pass): SOPS' and hiera-eyaml's ``ENC[...]`` values,
  and a SealedSecret's ``encryptedData``, which only the cluster's controller can open.

A member whose value starts with a vendor's prefix (``ghp_``, ``AKIA``) is a token wherever it
stands, and is read by the other rules. Loaded on the first text that holds one of them. Must
not import anything from Kindling except ``secrets.secret_shapes``.
"""

from __future__ import annotations

import re

_PEM_OR_PATCH: re.Pattern[str] | None = None
_JWK: re.Pattern[str] | None = None
_MEMBER: re.Pattern[str] | None = None


def _compile() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    global _PEM_OR_PATCH, _JWK, _MEMBER
    if _PEM_OR_PATCH is None or _JWK is None or _MEMBER is None:
        _PEM_OR_PATCH = re.compile(
            r"-----BEGIN (?P<label>(?:[A-Z0-9]+ ){0,3}(?:CERTIFICATE|PUBLIC KEY|CERTIFICATE"
            r" REQUEST|X509 CRL|PKCS7|CMS|DH PARAMETERS|EC PARAMETERS)(?: [A-Z0-9]+){0,2})-----"
            # The body never holds five dashes: the scan stops at the next one (linear).
            r"(?:(?:[A-Za-z0-9+/=\s:,.()\\]|-(?!----))*+-----END (?P=label)-----"
            # ... or cut off before its end, where the text ends (``head`` of a certificate)
            r"|(?:\r?\n[ \t]*+[A-Za-z0-9+/=]{1,100}+)++[ \t]*+(?:\r?\n[ \t]*+)?\Z)"
            r"|GIT binary patch\r?\n(?:(?:literal|delta) [0-9]{1,12}+\r?\n"
            r"(?:[A-Za-z][!-~]{1,80}+(?:\r?\n|\Z))*+(?:\r?\n)?)++",
            re.ASCII,
        )
        # An object without objects inside (a JWK is flat; its certificates are an array), up
        # to the next brace: each character is read from one opening brace at most.
        _JWK = re.compile(r"\{[^{}]{1,20000}+\}", re.ASCII)
        # A public member's value: a string, or the array of strings of ``x5c`` (quotes may be
        # escaped: a JSON document inside another's string, as a tool's output is).
        _MEMBER = re.compile(
            r"(?P<q>\\?[\"'])(?:n|e|x|y|crv|kid|x5c|x5t|x5t#S256|x5u|alg|use|kty)(?P=q)"
            r"[ \t\r\n]*+:[ \t\r\n]*+(?P<value>(?P<v>\\?[\"'])[\w.:/+=#-]{1,4000}+(?P=v)"
            r"|\[[ \t\r\n]*+(?:\\?[\"'][A-Za-z0-9+/=]{1,20000}+\\?[\"'][ \t\r\n,]*+){1,20}+\])",
            re.ASCII,
        )
    return _PEM_OR_PATCH, _JWK, _MEMBER


# Ciphertext committed on purpose, which only its owner's key opens (31st pass): SOPS' and
# hiera-eyaml's values (``ENC[AES256_GCM,data:...,type:str]``, ``ENC[PKCS7,MIIB...]``), and a
# SealedSecret's (``kubeseal``'s output: a value of its ``encryptedData``, base64 that starts
# with ``Ag``, its format's version; maybe cut short with dots in a document).
_SOPS = re.compile(r"ENC\[(?:AES256_GCM|PKCS7|GPG|KMS)[,:][^\]\s]{1,20000}+\]", re.ASCII)
_SEALED = re.compile(
    r"(?<=[:\"'])[ \t]*+[\"']?(?P<value>Ag[A-Za-z0-9+/]{20,}+={0,2}(?:\.{3,}+)?)(?=[\"',\s]|\Z)",
    re.ASCII,
)


def public_blocks(text: str, lowered: str) -> list[tuple[int, int]]:
    """The spans of ``text`` (``lowered`` is its lower case) that hold public PEM blocks, git's
    binary patches and committed ciphertext, in order."""
    spans = [m.span() for m in _SOPS.finditer(text)] if "enc[" in lowered else []
    if "sealedsecret" in lowered and "encrypteddata" in lowered:
        spans += [m.span("value") for m in _SEALED.finditer(text)]
    if "-----begin" not in lowered and "git binary patch" not in lowered:
        return sorted(spans)
    pem_or_patch, _, _ = _compile()
    # (not git's base85 throughout: read as any text is)
    spans += [
        m.span()
        for m in pem_or_patch.finditer(text)
        if not m[0].startswith("GIT") or git_base85(m[0])
    ]
    return sorted(spans)


def public_members(text: str, lowered: str) -> list[tuple[int, int]]:
    """The spans of the values of JSON Web Keys' public members in ``text`` (``lowered`` is its
    lower case), in order."""
    spans: list[tuple[int, int]] = []
    if "kty" not in lowered:
        return spans
    _, jwk, member = _compile()
    for obj in jwk.finditer(text):
        if re.search(r"[\"']kty\\?[\"'][ \t\r\n]*+:", obj[0]):  # (in JSON, or escaped in it)
            start = obj.start()
            spans += [
                (start + m.start("value"), start + m.end("value"))
                for m in member.finditer(obj[0])
                if not _vendor_token(m["value"].strip("\\\"'"))
            ]
    return spans


_SHAPED: re.Pattern[str] | None = None


def _vendor_token(value: str) -> bool:
    """``value`` has a vendor's token shape (``ghp_...``, ``AKIA...``): a token wherever it
    stands, which its rules read."""
    global _SHAPED
    if _SHAPED is None:
        from kindling.secrets.secret_shapes import TOKEN_SHAPES

        shapes = "|".join(f"{re.escape(literal)}{rest}" for _, literal, rest in TOKEN_SHAPES)
        _SHAPED = re.compile(f"(?:{shapes})", re.ASCII)
    return _SHAPED.fullmatch(value) is not None


# git's base85 alphabet (``git show --binary``, ``git format-patch --binary``;
# moved here from ``scrub_encoded`` in issue 32's 29th pass). Compiled at import: this module
# is imported on the first text that holds a PEM block or a patch.
_BASE85 = re.compile(r"[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]*+", re.ASCII)


def git_base85(block: str) -> bool:
    """Every data line of a ``GIT binary patch`` block measures as git's base85 does: its first
    letter gives its bytes (A-Z 1 to 26, a-z 27 to 52), five characters carry each four of them.
    A secret pasted after the header does not (``ghp_...`` is no line of 33 bytes)."""
    for line in block.splitlines()[1:]:
        if not line or line.startswith(("literal ", "delta ")):
            continue
        size = ord(line[0]) - (64 if line[0] <= "Z" else 70)
        if len(line) - 1 != 5 * ((size + 3) // 4) or not _BASE85.fullmatch(line, 1):
            return False
    return True
