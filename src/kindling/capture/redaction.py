"""Pure secret scrubber: masks credentials in text before Kindling writes anything to disk.

The write path calls :func:`redact_secrets` on every observation's content. A masked value
becomes ``[REDACTED:<kind>]`` and everything around it is kept, so the text stays useful::

    export GITHUB_TOKEN=[REDACTED:github_token]
    postgres://app:[REDACTED:url_password]@db:5432/x
    Authorization: Bearer [REDACTED:authorization]

Rules run in a fixed order, most specific first, so a value is named by what it is (a GitHub
token under ``TOKEN=`` reports ``github_token``, not ``token``):

1. ``<private>...</private>``: the inside is masked and the tags are kept. An unclosed tag
   masks to the end of the text, because truncated output must not leak what was marked private.
2. PEM private key blocks, BEGIN through END, as one mask. A block cut off before END is
   masked through its last base64 or header line. Certificates and public keys are left.
3. Tokens recognisable by their prefix (``ghp_``, ``sk-``, ``AKIA``, ``eyJ...`` JWTs, ...).
4. ``Authorization:`` headers (scheme kept) and stand-alone ``Bearer <token>``.
5. Passwords in URLs (``scheme://user:pass@host``): only ``pass`` is masked.
6. ``key = value`` / ``key: value`` / ``"key": "value"`` / ``--key value`` where the key ends in
   a secret word (password, token, secret, api_key, ...): the key and separator are kept.

Precision choices (deliberate leaks, each to keep ordinary developer text intact): empty values,
already-masked values and placeholders (``${VAR}``, ``$VAR``, ``<your-token>``, ``{{ x }}``,
``%s``, ``?``, ``***``, ``xxx``) are left; an unquoted value is left when it reads as code
(``os.environ["X"]``, ``get_token()``, ``self.password``, a variable passed as ``password=pw,``),
a type (``password: str``), a literal (``None``, ``true``), a path (``PWD=/home/me``), or prose
after a colon (``token: the API token to use``). Keys must end in the secret word, so
``max_tokens=5`` and ``tokenizer = x`` are not keys. The scrubber is idempotent because every rule
leaves a value that is already a mask.

Every pattern is compiled once at import and runs in linear time: quantifiers that could
backtrack are possessive or bounded, and open-ended scans stop at the delimiter that ends them.

Must not import anything from Kindling except ``kindling.errors``; standard library ``re`` only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from kindling.errors import InvalidInputError

__all__ = ["SECRET_KINDS", "Redaction", "redact_secrets"]

SECRET_KINDS: tuple[str, ...] = (
    "anthropic_api_key",
    "api_key",
    "authorization",
    "aws_access_key_id",
    "aws_secret_access_key",
    "github_token",
    "gitlab_token",
    "google_api_key",
    "huggingface_token",
    "jwt",
    "npm_token",
    "openai_api_key",
    "password",
    "private_key",
    "private_tag",
    "pypi_token",
    "secret",
    "slack_token",
    "slack_webhook",
    "stripe_secret_key",
    "token",
    "url_password",
)


@dataclass(frozen=True, slots=True)
class Redaction:
    """The scrubbed text and which kinds of secret were masked in it (never the values)."""

    text: str
    kinds: tuple[str, ...]

    @property
    def changed(self) -> bool:
        """True when anything was masked; the text is then different from the input."""
        return bool(self.kinds)


# A rule looks at one match and returns (kind, replacement), or None to leave the match as is.
_Rule: TypeAlias = Callable[[re.Match[str]], tuple[str, str] | None]


def _mask(kind: str) -> str:
    return f"[REDACTED:{kind}]"


_MARKER = re.compile(r"\[REDACTED:[a-z0-9_]+\]", re.ASCII)

# Values nobody should mask: earlier masks (this is what makes the scrubber idempotent) and
# placeholders that name where a secret comes from instead of holding one.
_LEAVE_VALUE = re.compile(
    r"""
      \[REDACTED:[a-z0-9_]+\]
    | \$\{.*                       # ${VAR}, ${VAR:-default}, ${{ secrets.X }}
    | \$\(.*                       # $(pass show x)
    | \$[A-Z_][A-Z0-9_]*           # $VAR (lower case after $ could be a real password)
    | \{\{.*\}\}                   # {{ template }}
    | \{\w*\}                      # {} {0} {token}
    | <[^<>]+>                     # <your-token>
    | %\(?\w*\)?[sd]               # %s %(password)s
    | [?] | :[A-Za-z_]\w*          # SQL parameters
    | \*+ | x{3,} | X{3,} | \.{3,} | …
    | (?i:your|insert|enter)[_-].* # your_api_key_here
    """,
    re.ASCII | re.VERBOSE,
)

# Unquoted values that are code, types or literals rather than secrets.
_CODE_VALUE = re.compile(
    r"""
      [A-Za-z_$][\w$]*+(?:\.[A-Za-z_$][\w$]*+)*+[(\[].*  # call or subscript: os.environ[, f(
    | [A-Za-z_]++(?:\.[A-Za-z_]++)++                      # attribute chain, no digits: self.token
    | [{\[(\#].*                                       # structure opener or comment
    | (?i:none|null|nil|true|false|undefined|yes|no|on|off|str|string|bytes|int|integer
         |number|bool|boolean|any|unknown|object|secretstr)
    | (?:~|\.{1,2})?/[\w.@+~/-]*                      # POSIX path
    | [A-Za-z]:\\.*                                    # Windows path
    """,
    re.ASCII | re.VERBOSE,
)
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*", re.ASCII)
# A single word of prose ("authentication", "Required.", "token-based") is not a credential.
_PROSE_WORD = re.compile(r"[A-Za-z][a-z]*(?:[-'][a-z]+)*[.,;:!?]?", re.ASCII)
_NEXT_WORD = re.compile(r"[ \t]++[A-Za-z]", re.ASCII)


def _private_tag(m: re.Match[str]) -> tuple[str, str] | None:
    body = m["body"]
    if not body.strip() or _MARKER.fullmatch(body):
        return None
    return "private_tag", f"{m['open']}{_mask('private_tag')}{m['close']}"


_PRIVATE = re.compile(
    r"(?P<open><private>)(?P<body>(?:[^<]++|<(?!/private>))*+)(?P<close></private>|\Z)",
    re.ASCII | re.IGNORECASE,
)

_PEM_LABEL = r"(?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----"
_PEM = re.compile(
    rf"-----BEGIN {_PEM_LABEL}"
    # A whole block: a PEM body never contains five dashes, so the scan stops at the next
    # BEGIN or END instead of running to the end of the text for every unterminated header.
    rf"(?:[^-]*+(?:-(?!----)[^-]*+)*+-----END {_PEM_LABEL}"
    # A truncated block (``head id_rsa``): its base64 and ``Proc-Type:`` lines, in raw text or
    # in a JSON string with escaped newlines.
    r"|(?:(?:\r?\n|\\n)(?:[A-Za-z0-9+/=]++|[A-Za-z-]++:[^\r\n\\]*+)(?=\r?\n|\\n|\Z))*+)",
    re.ASCII,
)

# Speed: ``re`` scans fast only when a pattern opens with a literal or a character class, so
# every pattern below consumes its literal first and checks what precedes it with a look-behind.

# (kind, literal prefix, rest of the token). One pattern per prefix: separate literal scans are
# several times faster than one alternation over all of them.
_TOKEN_SHAPES: tuple[tuple[str, str, str], ...] = (
    ("anthropic_api_key", "sk-ant-", "[A-Za-z0-9_-]{20,}+"),
    # Requiring a digit keeps kebab-case words after ``sk-`` out; real keys always have one.
    ("openai_api_key", "sk-", "(?=[A-Za-z0-9_-]*?[0-9])[A-Za-z0-9_-]{20,}+"),
    ("github_token", "gh", "[pousr]_[A-Za-z0-9]{36,}+"),
    ("github_token", "github_pat_", "[A-Za-z0-9_]{22,}+"),
    ("gitlab_token", "glpat-", "[A-Za-z0-9_-]{20,}+"),
    ("slack_token", "xox", "[abposre]-[A-Za-z0-9-]{10,}+"),
    ("slack_token", "xapp-", "[A-Za-z0-9-]{10,}+"),
    ("stripe_secret_key", "sk_", "(?:live|test)_[A-Za-z0-9]{16,}+"),
    ("stripe_secret_key", "rk_", "(?:live|test)_[A-Za-z0-9]{16,}+"),
    ("google_api_key", "AIza", "[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])"),
    ("aws_access_key_id", "AKIA", "[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ("aws_access_key_id", "ASIA", "[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ("npm_token", "npm_", "[A-Za-z0-9]{36}(?![A-Za-z0-9])"),
    ("pypi_token", "pypi-AgE", "[A-Za-z0-9_-]{50,}+"),
    ("huggingface_token", "hf_", "[A-Za-z0-9]{34,}+"),
    ("jwt", "eyJ", r"[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}+"),
)


def _token_rule(kind: str, literal: str, rest: str) -> tuple[re.Pattern[str], _Rule]:
    # The look-behind keeps a prefix from matching inside a longer word: ``task-list`` and
    # ``risk-free`` hold no ``sk-`` key.
    lit = re.escape(literal)
    pattern = re.compile(f"{lit}(?<![A-Za-z0-9_-]{lit}){rest}", re.ASCII)
    return pattern, lambda m: (kind, _mask(kind))


# The T.../B... ids and the last segment together are the webhook's credential.
_SLACK_WEBHOOK = re.compile(
    r"(?P<prefix>hooks\.slack\.com/services/)T[A-Z0-9]++/B[A-Z0-9]++/\w++", re.ASCII
)


def _slack_webhook(m: re.Match[str]) -> tuple[str, str] | None:
    return "slack_webhook", f"{m['prefix']}{_mask('slack_webhook')}"


# Starts at the character after ``Authorization`` or ``Bearer`` and looks back for the word:
# those characters are far rarer than the letters a word-first scan would stop at.
_AUTH = re.compile(
    r"""
    (?P<prefix>["' \t:=](?<=[nr].)
        (?: (?<=authorization.)
            (?: (?<=["'])[ \t]*+[:=] | (?<=[ \t])[ \t]*+[:=] | (?<=[:=]) )
            [ \t]*+["']?
            (?:(?P<scheme>bearer|basic|token|bot)[ \t]++)?
          | (?<![a-z0-9_]bearer.)(?<=bearer[ \t])[ \t]*+(?P<bearer>)
        )
    )
    (?P<value>[^\s"'`]++)
    """,
    re.ASCII | re.IGNORECASE | re.VERBOSE,
)


def _authorization(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"].rstrip(",;)}")
    tail = m["value"][len(value) :]
    # A named scheme is strong context; without one the value must look like a credential
    # ("Authorization: required" and "Bearer tokens" are prose).
    min_len = 1 if m["scheme"] else 16 if m["bearer"] is not None else 8
    if len(value) < min_len or _PROSE_WORD.fullmatch(value) or _LEAVE_VALUE.fullmatch(value):
        return None
    return "authorization", f"{m['prefix']}{_mask('authorization')}{tail}"


# Starts at ``://``: the scheme and user are kept anyway, and the literal makes the scan fast.
_URL_PASSWORD = re.compile(
    r"(?P<prefix>://[^\s:/@?#]*+:)"
    # Up to the last @ before the host, so a raw @ inside the password is masked too.
    r"(?P<value>[^\s/?#]+)(?=@)",
    re.ASCII,
)


def _url_password(m: re.Match[str]) -> tuple[str, str] | None:
    if _LEAVE_VALUE.fullmatch(m["value"]):
        return None
    return "url_password", f"{m['prefix']}{_mask('url_password')}"


# Words that end a secret key (``DB_PASSWORD``, ``"apiKey"``, ``--client-secret``), spelled
# out because look-behinds need a fixed width. A key must end with one: ``max_tokens`` and
# ``tokenizer`` are not secret keys.
_KEY_ENDINGS = (
    "password",
    "passwd",
    "passphrase",
    "token",
    "secret",
    "credential",
    "credentials",
    *(
        f"{word}{joint}key"
        for word in (
            *("api", "access", "app", "client", "consumer", "license"),  # kind api_key
            *("private", "secret", "signing", "encryption", "master"),
        )
        for joint in ("[_-]", "")
    ),
)


def _key_end(after: str) -> str:
    """Look-behinds true when a key ending sits just before the consumed ``after`` character.

    Grouped by last letter so most candidates fail on one or two checks. ``pass`` and ``pwd``
    must be whole words: not ``bypass``, ``OLDPWD``.
    """
    by_last: dict[str, list[str]] = {
        "d": [rf"(?<![a-z]pwd{after})(?<=pwd{after})"],
        "s": [rf"(?<![a-z]pass{after})(?<=pass{after})"],
    }
    for ending in _KEY_ENDINGS:
        by_last.setdefault(ending[-1], []).append(f"(?<={ending}{after})")
    groups = "|".join(f"(?<={last}{after})(?:{'|'.join(c)})" for last, c in by_last.items())
    return f"(?<=[{''.join(by_last)}]{after})(?:{groups})"


def _key_kind(text: str, key_end: int) -> str | None:
    """The kind named by the key word ending at ``key_end``, or None if no key word ends there."""
    key = text[max(0, key_end - 24) : key_end].lower().replace("_", "").replace("-", "")
    if key.endswith("secretaccesskey"):
        return "aws_secret_access_key"
    if key.endswith("privatekey"):
        return "private_key"
    if key.endswith(("password", "passwd", "passphrase", "pass", "pwd")):
        return "password"
    if key.endswith("token"):
        return "token"
    if key.endswith(("apikey", "accesskey", "appkey", "clientkey", "consumerkey", "licensekey")):
        return "api_key"
    if key.endswith(("secret", "secretkey", "credential", "credentials", "signingkey")):
        return "secret"
    if key.endswith(("encryptionkey", "masterkey")):
        return "secret"
    return None


_OPERATOR = r"(?::=|=>|=(?![=~])|:(?!:))"
_VALUE = r"""
    (?: "(?P<dq>(?:[^"\\\r\n]|\\.)*+)"
      | '(?P<sq>[^'\r\n]*+)'
      | (?P<bare>[^\s"'`&]++)      # & ends a value in query strings: token=x&user=y
    )
"""
# Starts at the first character after the key (a closing quote, a blank or the operator) and
# looks back for the key word: separators are far rarer than letters, so this scans fast.
_KEYED = re.compile(
    rf"""
    (?P<sep>["' \t:=]{_key_end(".")}
        (?: (?<=["'])\]?[ \t]*+{_OPERATOR}
          | (?<=[ \t])[ \t]*+{_OPERATOR}
          | (?<=:)(?:=|(?!:))
          | (?<==)(?:>|(?![=~]))
        )[ \t]*+
    )
    {_VALUE}
    """,
    re.ASCII | re.IGNORECASE | re.VERBOSE,
)
# ``--db-password hunter2``; ``--password=x`` is already a key-value pair for _KEYED.
_FLAG_KEY_END = _key_end(r"[ \t]")
_FLAG = re.compile(
    rf"""
    -(?<![\w-]-)-[A-Za-z0-9_-]{{1,64}}+
    (?P<sep>[ \t]{_FLAG_KEY_END}[ \t]*+)(?!-)
    {_VALUE}
    """,
    re.ASCII | re.IGNORECASE | re.VERBOSE,
)


def _keyed(m: re.Match[str]) -> tuple[str, str] | None:
    text, sep = m.string, m["sep"]
    quoted = m["dq"] if m["dq"] is not None else m["sq"]
    if quoted is not None:
        if not quoted or _LEAVE_VALUE.fullmatch(quoted):
            return None
        quote = text[m.end() - 1]
        kind = _key_kind(text, m.start("sep")) or "secret"
        return kind, f"{text[m.start() : m.end('sep')]}{quote}{_mask(kind)}{quote}"
    bare = m["bare"]
    value = bare.rstrip(",;)}")
    tail = bare[len(value) :]
    if _leave_bare(value, tail, sep, text, m.end()):
        return None
    kind = _key_kind(text, m.start("sep")) or "secret"
    return kind, f"{text[m.start() : m.end('sep')]}{_mask(kind)}{tail}"


def _leave_bare(value: str, tail: str, sep: str, text: str, end: int) -> bool:
    if not value or _LEAVE_VALUE.fullmatch(value) or _CODE_VALUE.fullmatch(value):
        return True
    if _IDENTIFIER.fullmatch(value) and (
        tail.startswith((",", ")", "}")) or _key_kind(value, len(value))
    ):
        return True  # a variable: f(password=pw, token=tok), self.password = password
    colon = sep.strip(" \t\"']").startswith(":") and ":=" not in sep
    if colon and not sep.endswith((" ", "\t")) and "'" not in sep and '"' not in sep:
        return True  # "image: org/token:latest" is a tag, not a key-value pair
    # "token: the API token to use" is a docstring or prose, not a value.
    return colon and value.isalpha() and _NEXT_WORD.match(text, end) is not None


# Order matters: see the module docstring.
_RULES: tuple[tuple[re.Pattern[str], _Rule], ...] = (
    (_PRIVATE, _private_tag),
    (_PEM, lambda m: ("private_key", _mask("private_key"))),
    *(_token_rule(kind, literal, rest) for kind, literal, rest in _TOKEN_SHAPES),
    (_SLACK_WEBHOOK, _slack_webhook),
    (_AUTH, _authorization),
    (_URL_PASSWORD, _url_password),
    (_KEYED, _keyed),
    (_FLAG, _keyed),
)


def redact_secrets(text: str) -> Redaction:
    """Mask every secret this module recognises in ``text``; never raises on any ``str``."""
    if not isinstance(text, str):
        raise InvalidInputError(
            f"redact_secrets() takes text (str), not {type(text).__name__}; decode bytes first"
        )
    found: set[str] = set()

    def apply(rule: _Rule) -> Callable[[re.Match[str]], str]:
        def replace(m: re.Match[str]) -> str:
            result = rule(m)
            if result is None:
                return m[0]
            found.add(result[0])
            return result[1]

        return replace

    for pattern, rule in _RULES:
        text = pattern.sub(apply(rule), text)
    return Redaction(text=text, kinds=tuple(sorted(found)))
