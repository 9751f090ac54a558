"""Secrets stored encoded: base64 of a credential, and what base64 of plain text is.

``secrets.scrub_rules``' stand-alone token rules ask these checks of a token that may be base64
of text (``may_be_text``, ``base64_text``): such a token is left (a fixture sentence, a GitHub
node id) unless the text it encodes is a secret itself (``encodes_secret``): ``user:secret``
(a login: ``encoded_login``, judged by ``scrub_logins``), a private key block, a run of 16+ hex
digits (a vendor key stored encoded), or one token drawn as a key generator draws (issue 32: a
Kubernetes Secret's ``data`` holds every value base64-encoded, so a generated API key is
stored as base64 of it).

``encoded_rules`` adds rules of its own: a PEM private key encoded whole
(``LS0tLS1CRUdJTi...``: base64 of ``-----BEGIN ``), as a kubeconfig's ``client-key-data`` or a
Secret's ``tls.key`` holds it, masked whatever its length when the label it encodes is a
private one (an encoded certificate, ``certificate-authority-data``, or public key is left);
base64 that encodes ``PRIVATE KEY`` anywhere in it (a key file, or a config holding one,
encoded). ``mixed_rule`` is a stand-alone token rule: a drawn token whose signs mix base64's
two alphabets.

A key in DER on one line is ``secrets.scrub_der``'s (issue 32, fourteenth pass): its rule is
one of ``encoded_rules``, and ``base64_secret`` leaves a public key's run.

Imported with the rules on the first call of ``scrub_secrets``. Must not import anything from
Kindling except ``secrets.scrub_values``, ``secrets.scrub_gate``, ``secrets.scrub_der``,
``secrets.scrub_ids``, ``secrets.scrub_logins`` and ``secrets.regex_cache``;
``secrets.scrub`` hands in its scrubber (``scrub_documents_with``) to judge the document a
token encodes (issue 32, twelfth pass: a Secret's manifest or an env file encoded whole).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kindling.secrets.regex_cache import compile as cached_compile
from kindling.secrets.scrub_der import der_rule, public_der
from kindling.secrets.scrub_gate import gated, has_candidate
from kindling.secrets.scrub_ids import DATA_MAGIC, public_id
from kindling.secrets.scrub_logins import login_kind, printable
from kindling.secrets.scrub_values import (
    LazyPattern,
    decoded,
    digits_and_letters,
    entropy,
    entropy_floor,
    generated_letters,
    generated_one_case,
    is_name,
    mask,
    mixed_case,
    sequential,
    short_generated,
    wordy,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

_HEX_RUN = cached_compile(r"[0-9a-f]{16,}|[0-9A-F]{16,}", re.ASCII)
# One token of a key's alphabet (its parts joined by ``-`` or ``_``), nothing around it.
_ONE_TOKEN = cached_compile(r"[A-Za-z0-9_-]{20,}+", re.ASCII)
# A user's key just before a value (``username: ``, ``"db.user": "``): what it holds is a name.
_USER_KEY = cached_compile(r"(?:user(?:name)?|login|uid)[\"']?[ \t]*+[:=][ \t\"']*+\Z", re.ASCII)
# A password's word: 6-19 characters, a letter among them; no blank, path, address or host.
_PASSWORD_WORD = cached_compile(r"(?=[^A-Za-z]{0,18}+[A-Za-z])[\w!#$%&*+=?^~-]{6,19}+", re.ASCII)


def encodes_secret(token: str, word: bool = True) -> bool:
    """Base64 of text that is itself a key: a private key block, a run of 16+ hex digits (a
    vendor key stored encoded), or one token of 20+ letters and digits drawn as a generator
    draws (``digits_and_letters``, ``generated_letters``, ``generated_one_case``); or, padded
    as an encoder pads it, one word of 6-19 characters (31st pass: a Kubernetes Secret's
    password, ``cGFzc3dvcmQxMjM=``, seen without its key), unless ``word`` is False (a user's
    key before it). A longer name, an id (``client-id-12345``), an address or a fixture
    sentence is not."""
    raw = decoded(token.rstrip("=")) if may_be_text(token) else None
    if raw is None:
        return False
    text = raw.decode("ascii", "replace")
    if "PRIVATE KEY" in text or _HEX_RUN.search(text) is not None:
        return True
    text = text.strip()
    if word and token.endswith("=") and _PASSWORD_WORD.fullmatch(text) is not None:
        return True
    if _ONE_TOKEN.fullmatch(text) is None:
        return _document_with_secret(text)
    core = text.replace("_", "").replace("-", "")
    return digits_and_letters(core) or generated_letters(core) or generated_one_case(core)


# Whether a decoded document holds a secret: ``secrets.scrub`` hands in its own scrubber when
# it compiles the rules (importing it here would be a cycle). Until then, none does.
_HOLDS_SECRET: list[Callable[[str], bool]] = []


def scrub_documents_with(holds_secret: Callable[[str], bool]) -> None:
    _HOLDS_SECRET[:] = [holds_secret]


def _document_with_secret(text: str) -> bool:
    """Base64 of a document that holds a secret: a Kubernetes Secret's manifest, an env file or
    a config encoded whole (``kubectl get secret -o yaml | base64``), or a token with dots (a
    JWT stored encoded, whatever its header: issue 32, 22nd pass). The decoded text is
    scrubbed as any text is; each level of encoding is 3/4 the length of the one around it,
    so nested encodings end, and cost at most three times the outer token's scrub."""
    if len(text) < 24 or not any(c in text for c in ":=\n.") or not _HOLDS_SECRET:
        return False
    return _HOLDS_SECRET[0](text)


def encoded_login(token: str) -> str | None:
    """The kind of login ``token`` is base64 of (``scrub_logins.login_kind``), or None."""
    if len(token) < 12 or len(token) % 4 == 1 or not may_be_text(token):
        return None
    raw = decoded(token)
    return None if raw is None else login_kind(raw)


# Base64 of ASCII text: every byte is under 128, so the first character of each group of
# four (the first byte's top six bits) is one of these 32.
_NOT_FIRST = str.maketrans(dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef"))


def may_be_text(token: str) -> bool:
    """False when ``token`` cannot be base64 of text: more of its groups start with a byte
    of 128 or more than ``printable`` allows. Most names and keys fail here, undecoded."""
    body = token.rstrip("=")
    outside = len(body[::4].translate(_NOT_FIRST))
    return outside <= 0.15 * (len(body) * 3 // 4)


def base64_text(token: str) -> bool:
    if not may_be_text(token):
        return False
    raw = decoded(token.rstrip("="))
    return raw is not None and printable(raw)


def padding_fits(core: str, n: int) -> bool:
    """``n`` ``=`` end ``core`` as base64url's (``-`` or ``_`` in it) or base32's pad it."""
    if n <= 2 and not core.isalnum():
        return (len(core) + n) % 4 == 0
    return core.isupper() and not set(core) & set("0189") and (len(core) + n) % 8 == 0


def generated_part(part: str) -> bool:
    """One part of a token, 20+ letters and digits, drawn as a key generator draws."""
    return len(part) >= 20 and (
        digits_and_letters(part) or generated_letters(part) or generated_one_case(part)
    )


def dotted_draw(token: str) -> bool:
    """A part of a dotted token drawn whole, in both cases, with ``-`` and ``_`` where base64url
    draws them (an Azure Bot Framework secret: ``<id>.<43 drawn>``); not a name joined to a
    number (``com.apple.SerialDriver-0x1b33``) or a host (one case)."""
    return "." in token and any(map(drawn_whole, token.split(".")))


def drawn_whole(part: str) -> bool:
    """``part`` (letters, digits, ``-`` and ``_``) drawn whole as base62 or base64url draws: both
    cases, letters and digits as a generator mixes them, no piece between its signs a name."""
    pieces = [q for q in _URL_SIGNS.split(part) if q]
    core = "".join(pieces)
    return mixed_case(core) and generated_part(core) and not any(map(_named, pieces))


_URL_SIGNS = cached_compile(r"[-_]")


def _named(piece: str) -> bool:
    # (a short piece of a draw reads as a name by chance: ``4irx7GFft``; either test alone
    # errs on longer ones)
    return len(piece) >= 12 and is_name(piece) and wordy(piece)


# A label just before a base64 value that makes it a digest or public data, not a secret (a
# WebSocket handshake's nonce and its digest: ``Sec-WebSocket-Key``, ``-Accept``).
DIGEST_LABELS = ("sha", "md5", "h1:", "integrity", "digest", "hash", "checksum", "websocket-")
# A public key's label (WireGuard's ``PublicKey = ``, ``wg show``'s ``public key:`` and ``peer:``).
_PUBLIC_LABELS = ("public key", "publickey", "public_key", "pubkey", "peer: ")
# Labels of data that is no key (its file signatures: ``DATA_MAGIC``): images, fonts.
_DATA_LABELS = ("icon", "image", "img", "logo", "font", "png", "jpeg", "jpg", "gif", "svg", "woff")


def base64_secret(token: str, before: str) -> str | None:
    """The kind of secret a standard base64 ``token`` (16+ characters holding ``+``, ``/`` or
    padding) is, or None: ``basic_credential`` for base64 of ``user:secret``, ``random_token``
    for random bytes or an encoded key. ``before`` is the text just before it, whose label
    may make it a digest or data. The one judgement of a stand-alone base64 token and of one
    given to a key that names a secret loosely (``STRIPE_KEY=<base64>``)."""
    before = before.lower()
    body = token.rstrip("=")
    if any(label in before for label in DIGEST_LABELS) or base64_fixture(before):
        return None  # a digest's or a fixture's label (``base64 -d``'s output is no fixture)
    if any(w in before for w in _PUBLIC_LABELS):
        return None  # a public key's label
    if not has_candidate(token) or public_der(token) or public_id(token.rstrip("=")):
        return None
    raw = decoded(token) if may_be_text(token) else None
    if raw is not None and (kind := login_kind(raw)) is not None:
        return kind  # a login: HTTP Basic's, SASL PLAIN's, an answer file's password
    if raw is not None and printable(raw):  # base64 of text: a credential if it holds a key
        word = _USER_KEY.search(before) is None  # (username: <base64 of a name>)
        return "random_token" if encodes_secret(token, word) else None
    if "/" in body and "+" not in body and body == token:  # (padding: no path ends in "=")
        parts = [p for p in body.split("/") if p]
        if any(
            p.isalpha() and len(p) >= 4 and (p.islower() or p.isupper() or p.istitle())
            for p in parts
        ):
            return None  # a path: its parts are words, not letters in both cases at random
    if body.isalnum() and generated_part(body):
        return "random_token"  # judged as the random-token rule judges it (padded or not)
    if len(body) < 20 and short_generated(body, "+/", 3):
        return "random_token"  # 12 to 14 random bytes (``openssl rand -base64 12``), as a draw
    digits = sum(c.isdigit() for c in body)
    upper = sum(c.isupper() for c in body)
    lower = sum(c.islower() for c in body)
    if len(body) < 20 or entropy(body) < entropy_floor(len(body)):
        return None
    # A random draw of 24 base64 characters holds fewer than two digits one time in ten: its
    # letters then show the draw (both cases, changing as often as a draw changes them).
    letters = generated_letters(body.replace("+", "").replace("/", ""))
    if min(upper, lower) < 2 or (digits < 2 and not letters):
        return None
    if body.startswith(DATA_MAGIC) or (len(body) > 100 and any(w in before for w in _DATA_LABELS)):
        # Random bytes up to 300 (400 characters) are key material: an RSA key's parts, a
        # sealed session token. Data says what it is: a label (``ICON = ``, ``base64,``), a
        # file's signature, or lines (longer runs never match the pattern).
        return None
    return "random_token"


# --------------------------------------------------------------------------- encoded PEM

# Base64 of ``-----BEGIN `` (11 bytes: the encoding of what follows is not aligned to it, so
# the rule decodes the head to read the label). One run, as YAML and JSON hold it.
_ENCODED_PEM_SRC = (
    r"(?<![A-Za-z0-9+/=_-])LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}+={0,2}(?![A-Za-z0-9+/=_-])"
)
# The label of a key that is not public (as ``scrub_rules``' PEM rule reads it).
_PRIVATE_LABEL = cached_compile(
    r"-----BEGIN (?:(?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?|(?:(?!PUBLIC )[A-Z0-9]+ ){1,3}KEY)"
    r"-----",
    re.ASCII,
)


@gated
def _encoded_pem(m: re.Match[str]) -> tuple[str, str] | None:
    head = m[0][:96]  # 72 bytes: the longest label and its dashes
    raw = decoded(head[: len(head) // 4 * 4])
    if raw is None or not has_candidate(m[0]):
        return None
    if _PRIVATE_LABEL.match(raw.decode("ascii", "replace")) is None:
        return None  # a certificate, a public key, a CSR: public by design
    return "private_key", mask("private_key")


# Base64 of ``PRIVATE KEY`` at each of the three alignments (the characters that the bytes
# around it do not change): a blob that encodes a key file, or a file (a YAML config, a JSON
# service account key) that holds one. Wrapped lines (``base64`` prints 76 a line) are one
# blob; the whole blob is masked.
_PRIVATE_KEY_B64 = ("UFJJVkFURSBLRV", "BSSVZBVEUgS0VZ", "QUklWQVRFIEtF")
_KEY_BLOB_SRC = (
    r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{16,}+(?:\r?\n[ \t]*+[A-Za-z0-9+/]{16,}+)*+={0,2}"
    r"(?![A-Za-z0-9+/=_-])"
)


def _key_blob(m: re.Match[str]) -> tuple[str, str] | None:
    blob = m[0]
    if not any(lit in blob for lit in _PRIVATE_KEY_B64):
        return None
    body = re.sub(r"\s+", "", blob).rstrip("=")
    raw = decoded(body[: len(body) // 4 * 4])
    if raw is None or _PRIVATE_LABEL.search(raw.decode("ascii", "replace")) is None:
        return None  # "PRIVATE KEY" in base64 of other text, not a key's label
    return "private_key", mask("private_key")


# What was decoded (``base64 -d`` prints it) or is about to be encoded: a literal given to an
# encoder (``b64encode(b"x")``, ``BASE64.encode("x")``, ``btoa("x")``) is its input, no base64.
_DECODED = cached_compile(
    r"base64[ \t]++(?:-d|-D|--decode)\b|(?:encode(?:tostring)?|btoa)\([ \t]*+b?[\"'`]\Z", re.ASCII
)


def base64_fixture(before: str) -> bool:
    """The text just before a token (lowercased) labels it base64 (``;base64,``, ``b64 =``,
    ``FIXTURE = base64.b64decode(``): a fixture's encoding; not ``base64 -d``, which prints
    what it decodes (issue 32, eleventh pass), nor an encoder's input (26th pass). A key
    decoded from a literal is ``scrub_files``' place."""
    return ("base64" in before or "b64" in before) and _DECODED.search(before) is None


def ssh_blob(token: str) -> bool:
    """``token`` begins as an SSH public key's base64 does: a four-byte length, then the key
    type's name (``AAAAB3NzaC1yc2E``: ``ssh-rsa``); not a run that merely starts ``AAAA``
    (an X bearer token's zero bytes)."""
    if not token.startswith("AAAA") or len(token) < 16:
        return False
    raw = decoded(token[:16])
    if raw is None:
        return False
    size = int.from_bytes(raw[:4], "big")
    name = raw[4 : 4 + min(size, 8)]
    return 4 <= size <= 64 and all(c in _TYPE_NAME for c in name)


_TYPE_NAME = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789-@.")


# --------------------------------------------------------------------------- mixed alphabets

# A token whose signs no one encoding writes together: ``+`` or ``/`` of standard base64 with
# ``-`` or ``_`` of the URL-safe one (``u+Lyhd2_N2MCy+ZoH-S5``), or a ``~`` inside it, of the
# URL's unreserved signs (``wPqmy2SFHU.0fFg59MTbVeRTtdO~ninYS5``: an Entra ID application's
# older passwords are 34 of them). A password generator draws from such wider alphabets, and
# neither stand-alone token rule reads them: each stops at the other's signs. Bounded as
# they are.
_MIXED_SRC = (
    r"(?<![A-Za-z0-9_+/.,:~%@$\\=-])(?=[A-Za-z0-9_.-]*+[+/~])"
    r"[A-Za-z0-9_~-][A-Za-z0-9+/_~.-]{15,400}+={0,2}(?![A-Za-z0-9_+/=~%@$-])"
)


_SRI = cached_compile(r"(?:sha|md)[0-9]*+-", re.ASCII | re.IGNORECASE)
# 20+ letters and digits of both cases drawn as a key: base64's ``/`` inside a draw, no path's
# part (a path's parts are names; Nix's and Git's hashes are of one case).
_RUN = cached_compile(r"[A-Za-z0-9]{20,}+", re.ASCII)


@gated
def _mixed(m: re.Match[str]) -> tuple[str, str] | None:
    """Its letters and digits are drawn as a key generator draws them, and it is no path."""
    token, before = m[0].rstrip("=."), m.string[max(0, m.start() - 30) : m.start()].lower()
    if _SRI.match(token) or any(x in before for x in DIGEST_LABELS) or base64_fixture(before):
        return None  # a digest: ``sha384-<base64>`` (a subresource's integrity), ``sha256=``
    url_safe = "-" in token or "_" in token
    if not ("~" in token or (url_safe and ("+" in token or "/" in token))):
        return None
    drawn = any(mixed_case(run) and generated_part(run) for run in _RUN.findall(token))
    if "/" in token and "+" not in token and not drawn:
        return None  # ``src/app_v2/Main-3``: a path, or a URL's (no part of it drawn)
    core = "".join(c for c in token if c.isalnum())
    if len(core) < 14 or sequential(core, keyboard=True) or wordy(core):
        return None
    digits = sum(map(str.isdigit, core))
    upper, lower = sum(map(str.isupper, core)), sum(map(str.islower, core))
    if min(upper, lower) < 2 or entropy(core) < min(3.5, entropy_floor(len(core))):
        return None
    # Two digits, or letters that change case as a draw does (a draw of 34 holds fewer than
    # two digits one time in twelve).
    if digits < 2 and not generated_letters(core):
        return None
    return "random_token", mask("random_token")


def mixed_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    """Stand-alone, so it runs with the other stand-alone token rules: after every rule that
    reads a token's key (a key names its kind)."""
    return ("+", "/", "~"), LazyPattern(_MIXED_SRC, re.ASCII), _mixed


def encoded_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    a = re.ASCII
    return [
        (("ls0tls1crudjti",), LazyPattern(_ENCODED_PEM_SRC, a), _encoded_pem),
        (tuple(s.lower() for s in _PRIVATE_KEY_B64), LazyPattern(_KEY_BLOB_SRC, a), _key_blob),
        der_rule(),
    ]
