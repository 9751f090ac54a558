"""The rules of ``secrets.scrub``: pattern sources, their handlers, and compiling them.

The rules that recognise a secret by its own shape or place (private tags, PEM blocks, vendor
tokens, ``Authorization`` headers, URL passwords, command lines, random tokens) live here; the
rules that recognise it by the key it is assigned to are in ``secrets.scrub_keyed``, and the
value checks both use in ``secrets.scrub_values``. ``compile_rules`` lists them all in the
order they run. Imported on the first call of ``scrub_secrets``, never at import (hooks import
the scrubber).

Must not import anything from Kindling but the scrubber's other modules in ``secrets``
(``scrub_*``, ``secret_shapes``, ``regex_cache``), never ``secrets.scrub``: it imports this one.
"""

from __future__ import annotations

import re

from kindling.secrets.regex_cache import compile as cached_compile
from kindling.secrets.scrub_commands import place_rules
from kindling.secrets.scrub_context import context_rules, near_key_rules
from kindling.secrets.scrub_data import data_rules
from kindling.secrets.scrub_encoded import (
    base64_fixture,
    base64_secret,
    base64_text,
    dotted_draw,
    encoded_login,
    encoded_rules,
    encodes_secret,
    generated_part,
    mixed_rule,
    padding_fits,
    ssh_blob,
)
from kindling.secrets.scrub_gate import gated, has_candidate, woken_by_any_candidate
from kindling.secrets.scrub_ids import public_id
from kindling.secrets.scrub_keyed import keyed_rules
from kindling.secrets.scrub_letters import (
    base32_draw,
    drawn_letters,
    grouped_draw,
    hex_digest,
    mixed_hex,
)
from kindling.secrets.scrub_loose import LOOSE_WORDS, OTHER_KEYS, drawn_alone_rule, loose_rules
from kindling.secrets.scrub_named import named_rules
from kindling.secrets.scrub_password import password_rules, phrase_rules
from kindling.secrets.scrub_patterns import KEY_BODY
from kindling.secrets.scrub_printed import printed_rules
from kindling.secrets.scrub_refs import after_function, in_reference, names_a_secret
from kindling.secrets.scrub_selfnamed import selfnamed_rules
from kindling.secrets.scrub_signs import near_signs_rule
from kindling.secrets.scrub_sql import sql_rules
from kindling.secrets.scrub_tables import table_rules
from kindling.secrets.scrub_typed import typed_in_parts, typed_placeholder
from kindling.secrets.scrub_url import url_password_rule, url_rules
from kindling.secrets.scrub_values import (
    LazyPattern,
    P,
    compile_values,
    digits_and_letters,
    entropy,
    generated_letters,
    generated_one_case,
    leave_value,
    mask,
    mixed_case,
    random_enough,
    short_generated,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule


# --------------------------------------------------------------------------- rules


def _private_tag(m: re.Match[str]) -> tuple[str, str] | None:
    body = m["body"]
    if not body.strip() or P.marker.fullmatch(body):
        return None
    return "private_tag", f"{m['open']}{mask('private_tag')}{m['close']}"


_PRIVATE_SRC = r"(?P<open><private>)(?P<body>(?:[^<]++|<(?!/private>))*+)(?P<close></private>|\Z)"

# Any key block that is not public: ``PRIVATE KEY``, ``PGP PRIVATE KEY BLOCK``, labels that drop
# the word (``RSA KEY``, ``SSH2 ENCRYPTED KEY``: a public key says so), OpenVPN's static key.
_PEM_LABEL = (
    r"(?:(?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?|(?:(?!PUBLIC )[A-Z0-9]+ ){1,3}KEY"
    r"|OpenVPN Static key V[0-9])-----"
)
_PEM_SRC = (
    rf"-----BEGIN {_PEM_LABEL}"
    # A whole block (a body holds no five dashes: the scan stops at the next BEGIN or END),
    rf"(?:[^-]*+(?:-(?!----)[^-]*+)*+-----END {_PEM_LABEL}"
    # or a truncated one (``head id_rsa``): base64 and ``Proc-Type:`` lines, raw or JSON-escaped.
    r"|(?:(?:\r?\n|\\n)(?:[A-Za-z0-9+/=]++|[A-Za-z-]++:[^\r\n\\]*+)(?=\r?\n|\\n|\Z))*+)"
)


def _pem(m: re.Match[str]) -> tuple[str, str] | None:
    """A private key's block, masked whole, and a header alone (the start of a key pasted in
    part: scanners count the header as the key). A whole block around no key is left (a
    scanner's pattern: ``...KEY-----[\\S\\s]{15,}?-----END...``)."""
    header = m[0].find("-----", 5) + 5
    if "-----END " in m[0] and KEY_BODY.search(m[0][header:]) is None:
        return None
    return "private_key", mask("private_key")


def _whole(kind: str) -> Rule:
    return lambda m: (kind, mask(kind))


def _shaped(kind: str) -> Rule:
    # A vendor's token, unless elided by hand (``sk_live_...``, ``xoxp-1234...``: a mark no
    # token's alphabet holds). A fill of x's in its body is still masked: scanners count a
    # prefix with a placeholder body as the token (``ghp_xxxx...``, 23rd pass).
    def rule(m: re.Match[str]) -> tuple[str, str] | None:
        elided = any(mark in m[0] for mark in _ELISIONS) and leave_value(m[0])
        return None if elided else (kind, mask(kind))

    return rule


_ELISIONS = ("...", "\u2026", "***")


def _gated_whole(kind: str) -> Rule:
    def rule(m: re.Match[str]) -> tuple[str, str] | None:
        return (kind, mask(kind)) if has_candidate(m[0]) else None

    return gated(rule)


_PERCENT_TAIL = r"(?:%[0-9A-Fa-f]{2}[A-Za-z0-9_+/=.-]*+)*+"
_GLUED = r"[A-Za-z0-9]*+"  # glued after a shape of fixed length: the token's (a longer key)


def _huggingface(m: re.Match[str]) -> tuple[str, str] | None:
    # Real tokens are 34 random letters; ``hf_ReadRegisterFromDevice`` is a C identifier.
    body = m[0].split("_")[-1]
    upper = sum(c.isupper() for c in body)
    if upper < 7 or len(body) - upper < 7:
        return None
    return "huggingface_token", mask("huggingface_token")


_SLACK_WEBHOOK_SRC = (
    r"(?P<prefix>hooks\.slack\.com(?:/|%2F)(?:services|workflows|triggers)(?:/|%2F))"
    r"[A-Za-z0-9]++(?:(?:/|%2F)\w++)*+"
)


def _slack_webhook(m: re.Match[str]) -> tuple[str, str] | None:
    return "slack_webhook", f"{m['prefix']}{mask('slack_webhook')}"


# Starts at the character after ``Authorization`` or ``Bearer`` and looks back for the word:
# those characters are far rarer than the letters a word-first scan would stop at.
_AUTH_SRC = r"""
    (?P<prefix>["' \t:=](?<=[nr].)
        (?: (?<=authorization.)
            (?: (?<=["'])[ \t]*+[:=] | (?<=[ \t])[ \t]*+[:=] | (?<=[:=]) )
            [ \t]*+["']?
            (?:(?P<scheme>bearer|basic|token|bot|apikey|api-key|digest|ssws|sso-key)[ \t]++
              # An auth-param's name before its quoted value: ``Token token="..."``.
              (?:[a-z][a-z0-9_-]{0,30}+=(?=["']))?["']?
              # Any other scheme word (NTLM, Negotiate, a vendor's): RFC 7235's "scheme
              # token68", when a token68 of 16+ characters follows it.
              | (?P<other>[a-z][a-z0-9_.-]{1,30}+)[ \t]++
                (?=[a-z0-9._~+/-]{16,}+=*+(?![^\s"'`,;)}]))
            )?
          | (?<![a-z0-9_]bearer.)(?<=bearer[ \t])[ \t]*+(?P<bearer>)
        )
    )
    (?P<value>[^\s"'`]++)
    """


def _authorization(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"].rstrip(",;)}")
    tail = m["value"][len(value) :]
    # A named scheme is strong context; without one the value must look like a credential
    # ("Authorization: required", "Bearer tokens": prose; Bearer $token, <any text>, {{ t }};
    # Go's header dump, "Authorization":[]string{"Bearer x"}, and nushell's ($env.TOKEN) open
    # a structure or an expression: no token68 holds a bracket).
    min_len = 1 if m["scheme"] else 16 if m["bearer"] is not None else 8
    basic = (m["scheme"] or "").lower() == "basic"
    variable = (
        value[:1] in "<{[("
        or (value[:1] == "$" and P.identifier.fullmatch(value[1:]))
        or names_a_secret(value)  # Bearer GITHUB_TOKEN: a variable's name
        or (basic and "_" in value and P.identifier.fullmatch(value) is not None)
    )  # (Basic's credentials are standard base64, with no "_": Basic AUTH_STRING names them)
    if len(value) < min_len or P.prose_word.fullmatch(value) or leave_value(value) or variable:
        return None
    drawn = random_enough(value) or (  # base64 with no digit drawn (1 in 1000 of 40)
        mixed_case(value) and ("+" in value or "/" in value) and entropy(value) >= 4.0
    )
    if m["other"] and not (drawn and has_candidate(value)):
        return None  # "Authorization: header missing ..." is prose, not an unknown scheme
    if m.string.startswith(" [REDACTED:", m.end()):
        return None  # the scheme of credentials masked already
    return "authorization", f"{m['prefix']}{mask('authorization')}{tail}"


# A stand-alone token that looks generated: a vendor key without a prefix in a sentence.
# Bounded by blanks, quotes or a comma (a URL path or a hash label before it makes it part of
# something else), or after ``NAME=`` (judged as alone unless the name is a digest's or another
# key's, ``_other_key``). 16 to ``LONGEST_TOKEN`` characters (1Password's: 900). A dot inside
# joins parts (``t1.<id>.<secret>``; a part drawn whole: ``dotted_draw``), one ending it is the
# sentence's. A ``-`` may start it (base64url's ``"d": "-phZ8..."``, ``-Xmx4g``), padding end
# it (Fernet's ``=``, base32's). An ``=`` before it follows a name (``密码=``), a blank or ``?:+``.
LONGEST_TOKEN = 2048
AFTER_NAME = r"(?:(?<!=)|(?<=[A-Za-z0-9_\u00c0-\U0010ffff \t?:+]=))"
_RANDOM_SRC = (
    r"(?<![A-Za-z0-9_+/.~%@$\\-])(?<!\\\[)" + AFTER_NAME + r"(?<!::)"  # ([x] too, not \[x)
    r"-?[A-Za-z0-9_][A-Za-z0-9_-]{0,2047}+"
    r"(?:\.[A-Za-z0-9_-]{1,256}+)*(?:={1,6}+)?(?![A-Za-z0-9_+/=~%@$-])"
)
_SEPARATORS = cached_compile(r"[-_.]")
# Itanium C++ (``_ZN``, ``_ZL``, ``_ZZ``, ``_Z3``) and Rust v0 (``_RNv``) mangled names
# (``_ZN4node11Environment...``).
_MANGLED = cached_compile(r"_(?:Z[NLZSTt0-9]|RN[vCstN])", re.ASCII)


@woken_by_any_candidate
def _random_token(m: re.Match[str]) -> tuple[str, str] | None:
    token = m[0].rstrip("=")  # (padded: base64url's or base32's; base64 is the next rule's)
    padded = token != m[0] and ("." in token or not padding_fits(token, len(m[0]) - len(token)))
    if padded or len(token) < 16 or (len(token) > LONGEST_TOKEN and "." not in token):
        return None
    if m.start() and m.string[m.start() - 1] == ":" and not _labelled(m.string, m.start() - 1):
        return None  # a link in a chain (``spotify:track:<id>``), a port, a URL's part
    if m.start() and m.string[m.start() - 1] == "=" and _other_key(m.string, m.start() - 1):
        return None  # ``sha256=<digest>``, ``--etag=...``, ``PUBLISHABLE_KEY=``, ``cache.key=``
    if after_function(m.string, m.start()):
        return None  # MasterUserPassword: !Ref DBApiKeyRds1 names a parameter
    if ssh_blob(token) or public_id(token) or _MANGLED.match(token):
        return None  # an SSH key's blob, an id, a symbol
    if (login := encoded_login(token)) is not None:  # a docker config's "auth", SASL PLAIN's
        return login, mask(login)
    if base64_fixture(m.string[max(0, m.start() - 30) : m.start()].lower()):
        return None  # a base64 fixture (not ``base64 -d``'s): encoded data, no credential
    core = token.replace("_", "").replace("-", "")
    if typed_in_parts(token) or grouped_draw(token):
        return "random_token", mask("random_token")  # abcd1234-ef01-gh23-ij45-kl6789012345
    segments = _SEPARATORS.split(token)
    if max(map(len, segments)) < 16 and not mixed_case(token):
        return None  # snake_case or kebab-case: a name (manylinux_2_17_x86_64)
    if token[:2] in ("0x", "0X"):
        segments[0] = segments[0][2:]  # a hex literal in code: 0xAADD9DB8...
    if any(map(hex_digest, segments)):
        return None  # a git SHA, a digest, a cache key: hex is never told from a hash
    # A name, a host or a version joins words and numbers; a token may join a generated part
    # to a label or an id (``t1.<id>.<secret>``, ``<user id>-<secret>``). With a dot, only a
    # part can show it: the whole of ``x86_64.manylinux2014`` mixes letters and digits too.
    whole = "." not in token and (
        short_generated(token)
        or base32_draw(token)
        or drawn_letters(token)
        or (
            len(token) >= 20
            and (digits_and_letters(core) or generated_letters(core) or generated_one_case(core))
        )
        or typed_placeholder(token)
        or mixed_hex(core)
    )
    if not (whole or any(map(generated_part, segments)) or dotted_draw(token)):
        return None
    if not has_candidate(token) or (base64_text(token) and not encodes_secret(token)):
        return None  # base64 of readable text (a fixture, a GitHub node id)
    return "random_token", mask("random_token")


# A label glued to a value by ``:`` (``app_password:<token>``, ``key:<token>``): a word alone,
# after a blank, a quote, a bracket or the start of the line; not a link in a chain
# (``spotify:track:<id>``, ``arn:aws:...``, ``https://``). A number alone is an id glued to its
# secret (a Telegram bot's ``<bot id>:<token>``); ``12:34`` holds no token to judge, and a
# grep's ``file.py:12:<line>`` is a chain.
_LABEL = cached_compile(r"[A-Za-z_][\w.$+-]{0,63}+|[0-9]{1,20}+", re.ASCII)  # (robot$ci+x)
# A label that names a digest (its value is a hash) or an id (``${DOC_ID:x}``, ``[id=x]``).
_HASH_LABEL = cached_compile(
    r"(?:sha|md|blake|xxh|crc|h)[0-9-]*+|[\w.-]*?(?:hash|digest|checksum|integrity|etag|(?-i:_ID))"
    r"|id|host(?:name)?",  # (Terraform's ``[id=<resource id>]``; a host's name)
    re.ASCII | re.IGNORECASE,
)
_KEY_BEFORE = cached_compile(r"[\w.-]{1,64}+\Z", re.ASCII)


def _other_key(text: str, equals: int) -> bool:
    """The key before ``=`` names what its value is, and no secret: a digest (``sha256=``,
    ``integrity=``, ``--etag=``), or a key of another kind (``scrub_loose.OTHER_KEYS``: a
    publishable key, a site key, a cache key), as the key rules read it."""
    if (key := _KEY_BEFORE.search(text, max(0, equals - 64), equals)) is None:
        return False
    name = key[0].lstrip("-").lower()
    return _HASH_LABEL.fullmatch(name) is not None or any(w in name for w in OTHER_KEYS)


_BEFORE_LABEL = " \t\r\n\"'`([{,;|"


def _labelled(text: str, colon: int) -> bool:
    start = colon
    while start > 0 and colon - start <= 64 and text[start - 1] not in _BEFORE_LABEL:
        start -= 1
    if (start and text[start - 1] not in _BEFORE_LABEL) or not _LABEL.fullmatch(text, start, colon):
        return False
    return _HASH_LABEL.fullmatch(text, start, colon) is None  # ``h1:``, ``sha256:``


# Standard base64 of 16+ characters that holds ``+`` or ``/`` or ends with padding: a key or a
# Basic credential (12+ when padded: ``YWRtaW46YWRtaW4=``); an alphanumeric token is the above's.
_BASE64_SRC = (
    r"(?<![A-Za-z0-9_+/.,:~%@$\\-])" + AFTER_NAME + r"(?:[A-Za-z0-9+/]{16,400}+={0,2}"
    r"|[A-Za-z0-9+/]{12,15}+={1,2})(?![A-Za-z0-9_+/=~%@$-])"
)


@gated
def _base64_token(m: re.Match[str]) -> tuple[str, str] | None:
    token = m[0]
    if not any(c in token for c in "+/=") or ssh_blob(token) or in_reference(m.string, *m.span()):
        return None  # alphanumeric (the random-token rule's), an SSH key's blob, a reference's
    if after_function(m.string, m.start()):
        return None  # a CI's ciphertext (secure: <base64>), a !Ref's name
    if m.start() and m.string[m.start() - 1] == "=" and _other_key(m.string, m.start() - 1):
        return None  # ``integrity=<digest>``, ``PUBLISHABLE_KEY=``, as for a random token
    kind = base64_secret(token, m.string[max(0, m.start() - 30) : m.start()])
    short = len(token.rstrip("=")) < 16  # (under 16, only a Basic credential is told apart)
    return None if kind is None or (short and kind != "basic_credential") else (kind, mask(kind))


# --------------------------------------------------------------------------- compiling


def compile_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    from kindling.secrets.secret_shapes import FREE_SHAPES, TOKEN_SHAPES, VENDOR_WORDS

    a, ai, av = re.ASCII, re.ASCII | re.IGNORECASE, re.ASCII | re.IGNORECASE | re.VERBOSE
    compile_values(VENDOR_WORDS, LOOSE_WORDS)

    rules: list[tuple[tuple[str, ...], LazyPattern, Rule]] = [
        (("<private",), LazyPattern(_PRIVATE_SRC, ai), _private_tag),
        (("private key", " key-----", "static key v"), LazyPattern(_PEM_SRC, a), _pem),
        *encoded_rules(),
    ]
    for kind, literal, rest in TOKEN_SHAPES:
        # The look-behind: a prefix inside a word is none (``task-list`` holds no ``sk-`` key),
        # nor one a ``.`` glues to a name (a file's: ``video_box.ico-<32 hex>.png``).
        lit = re.escape(literal)
        # A token percent-encoded in a URL keeps going after its first %XX.
        pattern = LazyPattern(f"{lit}(?<![A-Za-z0-9_.-]{lit}){rest}{_GLUED}{_PERCENT_TAIL}", a)
        rules.append(((literal.lower(),), pattern, _shaped(kind)))
    rules.append(
        (("hf_", "api_org_"), LazyPattern(r"\b(?:hf|api_org)_[A-Za-z]{34}\b", a), _huggingface)
    )
    for kind, keyword, source in FREE_SHAPES:
        # A one-character keyword (``.``, ``|``) wakes nearly every text: gated (digits in it).
        handler = _gated_whole(kind) if len(keyword) == 1 else _whole(kind)
        rules.append(((keyword,), LazyPattern(f"(?:{source}){_GLUED}", a), handler))
    rules += [
        (("hooks.slack.com",), LazyPattern(_SLACK_WEBHOOK_SRC, a), _slack_webhook),
        (("authorization", "bearer"), LazyPattern(_AUTH_SRC, av), _authorization),
        *context_rules(),
        *url_rules(),
        *place_rules(),
        *printed_rules(),
        url_password_rule(),
        *named_rules(),
        *sql_rules(),
        *table_rules(),
        *phrase_rules(),
        *keyed_rules(),
        *password_rules(),
        *loose_rules(),
        *data_rules(),
        *near_key_rules(),
        near_signs_rule(),
        mixed_rule(),
        (tuple("0123456789"), LazyPattern(_RANDOM_SRC, a), _random_token),
        (("+", "/", "="), LazyPattern(_BASE64_SRC, a), _base64_token),
        drawn_alone_rule(),
        *selfnamed_rules(),
    ]
    return rules
