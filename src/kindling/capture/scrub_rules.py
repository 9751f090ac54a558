"""The rules of ``capture.scrub``: pattern sources, their handlers, and compiling them.

Imported on the first call of ``scrub_secrets``, never at import time, so that importing the
scrubber stays cheap for the hooks. See ``capture.scrub`` for what each rule masks and why.

Must not import anything from Kindling except ``capture.secret_shapes`` (and ``capture.scrub``
for ``LazyPattern``).
"""

from __future__ import annotations

import itertools
import math
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from kindling.capture.scrub import LazyPattern

    # A rule looks at one match and returns (kind, replacement), or None to leave it as is.
    Rule = Callable[[re.Match[str]], tuple[str, str] | None]


def _mask(kind: str) -> str:
    return f"[REDACTED:{kind}]"


# --------------------------------------------------------------------------- value checks
# Pattern sources; ``_compile`` turns them into ``_P`` attributes on first use.

_LEAVE_VALUE_SRC = r"""
      \[REDACTED:[a-z0-9_]+\]
    | \$\{.*                       # ${VAR}, ${VAR:-default}, ${{ secrets.X }}
    | \$\(.*                       # $(pass show x)
    | \$[A-Z_][A-Z0-9_]*           # $VAR (lower case after $ could be a real password)
    | \{\{.*\}\}                   # {{ template }}
    | \{\w*\}                      # {} {0} {token}
    | <[^<>]+>                     # <your-token>
    | %\(?\w*\)?[sd]               # %s %(password)s
    | %[A-Za-z_]\w*%               # %NUGET_PASSWORD%
    | [?] | :[A-Za-z_]\w*          # SQL parameters
    | \*+ | x{3,} | X{3,} | \.{3,} | …
    | (?i:your|insert|enter)[_-].* # your_api_key_here
    """

# Unquoted values that are code, types or literals rather than secrets.
_CODE_VALUE_SRC = r"""
      [A-Za-z_$][\w$]*+(?:\.[A-Za-z_$][\w$]*+)*+[(\[].*  # call or subscript: os.environ[, f(
    | [A-Za-z_]++(?:\.[A-Za-z_]++)++                      # attribute chain, no digits: self.token
    | [{\[(\#].*                                       # structure opener or comment
    | (?i:none|null|nil|true|false|undefined|yes|no|on|off|str|string|bytes|int|integer
         |number|bool|boolean|any|unknown|object|secretstr)
    | (?:~|\.{1,2})?/[\w.@+~/-]*                      # POSIX path
    | [A-Za-z]:\\.*                                    # Windows path
    """

# Words a log or form prints after "password:" that are a status, not the password.
_STATUS_WORDS = frozenset(
    """incorrect invalid wrong required missing expired changed reset updated accepted rejected
    denied mismatch ok empty hidden masked redacted protected optional set unset failed
    failure success successful correct valid weak strong blank none incorrectly match
    matches mismatched saved stored rotated revoked generated verified unverified""".split()  # noqa: SIM905
)


class _P:
    """Compiled patterns, filled by ``_compile`` on the first call."""

    marker: re.Pattern[str]
    leave: re.Pattern[str]
    code: re.Pattern[str]
    identifier: re.Pattern[str]
    prose_word: re.Pattern[str]
    next_word: re.Pattern[str]
    loose_key: re.Pattern[str]
    loose_words: tuple[str, ...]
    vendor_words: tuple[str, ...]
    hex: re.Pattern[str]


def _leave_value(value: str) -> bool:
    return _P.leave.fullmatch(value) is not None


def _random_enough(value: str, min_len: int = 12) -> bool:
    """Looks like a generated credential: long, mixed character classes, not one repeated run."""
    if len(value) < min_len or len(set(value)) < min(10, len(value) // 2):
        return False
    classes = sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
        )
    )
    return (classes >= 2 and any(c.isdigit() for c in value)) or classes == 3


# --------------------------------------------------------------------------- rules


def _private_tag(m: re.Match[str]) -> tuple[str, str] | None:
    body = m["body"]
    if not body.strip() or _P.marker.fullmatch(body):
        return None
    return "private_tag", f"{m['open']}{_mask('private_tag')}{m['close']}"


_PRIVATE_SRC = r"(?P<open><private>)(?P<body>(?:[^<]++|<(?!/private>))*+)(?P<close></private>|\Z)"

_PEM_LABEL = r"(?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----"
_PEM_SRC = (
    rf"-----BEGIN {_PEM_LABEL}"
    # A whole block: a PEM body never contains five dashes, so the scan stops at the next
    # BEGIN or END instead of running to the end of the text for every unterminated header.
    rf"(?:[^-]*+(?:-(?!----)[^-]*+)*+-----END {_PEM_LABEL}"
    # A truncated block (``head id_rsa``): its base64 and ``Proc-Type:`` lines, in raw text or
    # in a JSON string with escaped newlines.
    r"|(?:(?:\r?\n|\\n)(?:[A-Za-z0-9+/=]++|[A-Za-z-]++:[^\r\n\\]*+)(?=\r?\n|\\n|\Z))*+)"
)


def _whole(kind: str) -> Rule:
    return lambda m: (kind, _mask(kind))


_PERCENT_TAIL = r"(?:%[0-9A-Fa-f]{2}[A-Za-z0-9_+/=.-]*+)*+"


def _huggingface(m: re.Match[str]) -> tuple[str, str] | None:
    # Real tokens are 34 random letters; ``hf_ReadRegisterFromDevice`` is a C identifier.
    body = m[0].split("_")[-1]
    upper = sum(c.isupper() for c in body)
    if upper < 7 or len(body) - upper < 7:
        return None
    return "huggingface_token", _mask("huggingface_token")


_SLACK_WEBHOOK_SRC = (
    r"(?P<prefix>hooks\.slack\.com(?:/|%2F)(?:services|workflows|triggers)(?:/|%2F))"
    r"[A-Za-z0-9]++(?:(?:/|%2F)\w++)*+"
)


def _slack_webhook(m: re.Match[str]) -> tuple[str, str] | None:
    return "slack_webhook", f"{m['prefix']}{_mask('slack_webhook')}"


# Starts at the character after ``Authorization`` or ``Bearer`` and looks back for the word:
# those characters are far rarer than the letters a word-first scan would stop at.
_AUTH_SRC = r"""
    (?P<prefix>["' \t:=](?<=[nr].)
        (?: (?<=authorization.)
            (?: (?<=["'])[ \t]*+[:=] | (?<=[ \t])[ \t]*+[:=] | (?<=[:=]) )
            [ \t]*+["']?
            (?:(?P<scheme>bearer|basic|token|bot|apikey|api-key|digest)[ \t]++)?
          | (?<![a-z0-9_]bearer.)(?<=bearer[ \t])[ \t]*+(?P<bearer>)
        )
    )
    (?P<value>[^\s"'`]++)
    """


def _authorization(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"].rstrip(",;)}")
    tail = m["value"][len(value) :]
    # A named scheme is strong context; without one the value must look like a credential
    # ("Authorization: required" and "Bearer tokens" are prose).
    min_len = 1 if m["scheme"] else 16 if m["bearer"] is not None else 8
    if len(value) < min_len or _P.prose_word.fullmatch(value) or _leave_value(value):
        return None
    return "authorization", f"{m['prefix']}{_mask('authorization')}{tail}"


# Starts at ``://``: the scheme and user are kept anyway, and the literal makes the scan fast.
_URL_PASSWORD_SRC = (
    r"(?P<prefix>://[^\s:/@?#]*+:)"
    # Up to the last @ before the host, so a raw @ inside the password is masked too.
    r"(?P<value>[^\s/?]+)(?=@)"
)


def _url_password(m: re.Match[str]) -> tuple[str, str] | None:
    if _leave_value(m["value"]):
        return None
    return "url_password", f"{m['prefix']}{_mask('url_password')}"


# --- command lines. Each starts at the program name and looks at most 300 characters ahead
# on the same line for the flag, so a line full of program names stays linear.
_ARG = r"""(?:"[^"\r\n]*+"|'[^'\r\n]*+'|[^\s"'`|;&]++)"""
_SHELL_SRC: tuple[tuple[tuple[str, ...], str], ...] = (
    # curl/wget -u user:pw, --user user:pw, --user=user:pw
    (
        ("curl", "wget"),
        r"""\b(?:curl|wget)\b[^\r\n]{0,300}?[ \t](?:-u|--user|--http-user)(?:=|[ \t]*+)
        (?P<keep>["']?[^\s:"']++:)(?P<value>'[^'\r\n]*+'|"[^"\r\n]*+"|[^\s"']++)""",
    ),
    # mysql -pPW (no blank: a blank after -p means "prompt for it")
    (
        ("mysql", "mariadb"),
        rf"\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb)\b[^\r\n]{{0,300}}?[ \t]"
        rf"(?P<keep>-p)(?P<value>{_ARG})",
    ),
    (("sshpass",), rf"\bsshpass(?P<keep>[ \t]++-p[ \t]*+)(?P<value>{_ARG})"),
    (
        ("login",),
        rf"\blogin\b[^\r\n]{{0,300}}?(?P<keep>[ \t]-p[ \t]++)(?P<value>{_ARG})",
    ),
    (
        ("redis-cli", "keydb-cli"),
        rf"\b(?:redis|keydb)-cli\b[^\r\n]{{0,300}}?(?P<keep>[ \t]-a[ \t]++)(?P<value>{_ARG})",
    ),
    (
        ("pass:",),
        r"(?P<keep>[ \t]-(?:pass|passin|passout|password|k)[ \t]++[\"']?pass:)"
        r"(?P<value>[^\s\"']++)",
    ),
    (
        ("htpasswd",),
        rf"\bhtpasswd(?P<keep>(?:[ \t]++-[A-Za-z]++)*?[ \t]++-[A-Za-z]*b[A-Za-z]*"
        rf"(?:[ \t]++-[A-Za-z]++)*(?:[ \t]++(?!-){_ARG}){{1,2}}?[ \t]++)(?P<value>{_ARG})"
        r"(?=[ \t]*+(?:$|[\r\n|;&)]))",
    ),
)


def _shell(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    inner = value[1:-1] if value[:1] in "\"'" and value[-1:] == value[:1] else value
    if not inner or _leave_value(inner):
        return None
    quote = value[0] if inner is not value else ""
    head = m.string[m.start() : m.start("value")]
    return "password", f"{head}{quote}{_mask('password')}{quote}"


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
            *("api", "access", "app", "client", "consumer", "license", "account"),
            *("private", "secret", "signing", "encryption", "master", "auth", "service"),
            "storage",
        )
        for joint in ("[_-]", "")
    ),
)
_KEY_WORDS = ("pass", "pwd", "token", "secret", "credential", "key")


def _key_end(after: str) -> str:
    """Look-behinds true when a key ending sits just before the consumed ``after`` character.

    Grouped by last letter so most candidates fail on one or two checks. ``pass`` and ``pwd``
    must be whole words: not ``bypass``, ``OLDPWD``.
    """
    by_last: dict[str, list[str]] = {
        "d": [rf"(?<=pwd{after})(?:(?<![a-z]pwd{after})|(?-i:(?<=[a-z]Pwd{after})))"],
        "s": [rf"(?<=pass{after})(?:(?<![a-z]pass{after})|(?-i:(?<=[a-z]Pass{after})))"],
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
    if key.endswith(("accountkey", "authkey", "servicekey", "storagekey")):
        return "api_key"
    if key.endswith(("secret", "secretkey", "credential", "credentials", "signingkey")):
        return "secret"
    if key.endswith(("encryptionkey", "masterkey")):
        return "secret"
    return None


_XML_SRC = (
    r"(?P<open><(?P<tag>[A-Za-z_][\w.:-]{0,64}+)(?:[ \t][^<>\r\n]{0,200}+)?>)"
    r"(?P<value>[^<]{1,1000}+)</(?P=tag)>"
)


def _xml(m: re.Match[str]) -> tuple[str, str] | None:
    kind = _key_kind(m["tag"], len(m["tag"]))
    value = m["value"].strip()
    if kind is None or not value or _leave_value(value):
        return None
    inner = m["value"]
    lead = inner[: len(inner) - len(inner.lstrip())]
    trail = inner[len(inner.rstrip()) :]
    return kind, f"{m['open']}{lead}{_mask(kind)}{trail}</{m['tag']}>"


_ADD_KEY_SRC = (
    r"""(?P<keep>\bkey[ \t]*+=[ \t]*+(?P<q>["'])(?P<key>[^"'<>\r\n]{1,100}+)(?P=q)"""
    r"""[ \t\r\n]++value[ \t]*+=[ \t]*+(?P<q2>["']))(?P<value>[^"'\r\n]*+)(?P=q2)"""
)


def _add_key(m: re.Match[str]) -> tuple[str, str] | None:
    kind = _key_kind(m["key"], len(m["key"]))
    value = m["value"]
    if kind is None or not value or _leave_value(value):
        return None
    return kind, f"{m['keep']}{_mask(kind)}{m['q2']}"


# Kubernetes and compose env lists: ``- name: DB_PASSWORD`` then ``value: x`` on the next line.
_NAME_VALUE_SRC = (
    r"(?P<keep>\bname:[ \t]*+(?P<q>[\"']?)(?P<key>[A-Za-z_][\w.-]{0,80}+)(?P=q)[ \t]*+\r?\n"
    r"[ \t]*+(?:-[ \t]++)?value:[ \t]*+)"
    r"(?:\"(?P<dq>[^\"\r\n]*+)\"|'(?P<sq>[^'\r\n]*+)'|(?P<bare>[^\s\"']++))"
)


def _name_value(m: re.Match[str]) -> tuple[str, str] | None:
    kind = _key_kind(m["key"], len(m["key"]))
    value = next(v for v in (m["dq"], m["sq"], m["bare"], "") if v is not None)
    if kind is None or not value or _leave_value(value) or _too_short(kind, value):
        return None
    quote = '"' if m["dq"] is not None else "'" if m["sq"] is not None else ""
    return kind, f"{m['keep']}{quote}{_mask(kind)}{quote}"


# A .env line whose unquoted value has blanks: the whole rest of the line is the value.
_ENV_LINE_SRC = (
    r"(?m)^(?P<keep>[ \t]*+(?:export[ \t]++)?(?P<key>[A-Za-z_][A-Za-z0-9_.-]{0,80}+)"
    r"(?:=|[ \t]*+(?:::=|:=|\?=|\+=)[ \t]*+))"
    r"(?P<value>[^\s\"'`$][^\r\n]*?[ \t][^\r\n]*?)[ \t]*+$"
)


def _env_line(m: re.Match[str]) -> tuple[str, str] | None:
    key = m["key"]
    kind = _key_kind(key, len(key))
    if kind is None:
        return None
    value = m["value"]
    first = value.split(None, 1)[0]
    if _leave_value(first) or _P.code.fullmatch(first) or _P.code.fullmatch(value):
        return None
    return kind, f"{m['keep']}{_mask(kind)}"


_OPERATOR = r"(?::{1,3}=|\?\??=|\+=|\.=|=>|=(?![=~])|:(?!:))"
_VALUE = r"""
    (?: "(?P<dq>(?:[^"\\\r\n]|\\.)*+)"
      | '(?P<sq>[^'\r\n]*+)'
      | `(?P<bq>[^`\r\n]*+)`
      | \\"(?P<eq>(?:[^"\\\r\n]|\\(?!")|\\(?=\\))*+)\\"   # inside a JSON string: \"value\"
      | (?P<bare>(?:(?!\[REDACTED:)[^\s"'`&;\\]|[&;](?![A-Za-z_][\w.-]*+=)(?=[^\s"'`]))++)
        # & and ; end a value only before the next key: token=x&user=y, Password=x;Server=y
    )
"""
_TYPES = r"(?:string|String|str|&str|\[\]byte|SecureString|char\s*\*)"


def _keyed_src() -> str:
    # Starts at the first character after the key (a closing quote, a blank or the operator)
    # and looks back for the key word: separators are far rarer than letters.
    return rf"""
    (?P<sep>["' \t:=?+.,\\]{_key_end(".")}
        (?: (?<=:)[ \t]*+[|>][-+]?[ \t]*+\r?\n[ \t]++       # YAML block: key: |
          | (?<=["'])\]?[ \t]*+{_OPERATOR}
          | (?<=\\)"[ \t]*+:                               # \"key\": \"value\" (escaped JSON)
          | (?<=,)(?=[^\s,])                              # csv: key,value,
          | (?<=["'])[ \t]*+,[ \t]*+(?=["'`])              # setProperty("KEY", "value")
          | (?<=[ \t])[ \t]*+{_OPERATOR}
          | (?<=[ \t])[ \t]*+{_TYPES}[ \t]++=(?![=~])      # Go: var token string = "x"
          | (?<=:)[ \t]*+{_TYPES}[ \t]*+=(?![=~>])         # TS: const token: string = "x"
          | (?<=:)(?::=|=|(?!:))
          | (?<==)(?:>|(?![=~]))
          | (?<=[?+.])=
        )[ \t]*+
    )
    {_VALUE}
    """


def _flag_src() -> str:
    # ``--db-password hunter2``; ``--password=x`` is already a key-value pair for the rule above.
    key_end = _key_end(r"[ \t]")
    return rf"""
    -(?<![\w-]-)-[A-Za-z0-9_-]{{1,64}}+
    (?P<sep>[ \t]{key_end}[ \t]*+)(?!-)
    {_VALUE}
    """


def _keyed(m: re.Match[str]) -> tuple[str, str] | None:
    text, sep = m.string, m["sep"]
    kind = _key_kind(text, m.start("sep")) or "secret"
    quoted = next((q for q in (m["dq"], m["sq"], m["bq"], m["eq"]) if q is not None), None)
    if quoted is not None:
        if not quoted or _leave_value(quoted) or _too_short(kind, quoted):
            return None
        quote = '\\"' if m["eq"] is not None else text[m.end() - 1]
        return kind, f"{text[m.start() : m.end('sep')]}{quote}{_mask(kind)}{quote}"
    bare = m["bare"]
    value = bare.rstrip(",)}")
    tail = bare[len(value) :]
    if sep == ",":  # "token, secret and key" lists words; key,value needs a generated value
        if not _random_enough(value) or _leave_value(value):
            return None
    elif _leave_bare(value, tail, sep, text, m.end()) or _too_short(kind, value):
        return None
    if kind == "password" and value.rstrip(".!").lower() in _STATUS_WORDS:
        return None
    if kind != "password" and value.isalpha() and value.islower():
        return None  # "Unexpected token: operator": a word, never a generated credential
    return kind, f"{text[m.start() : m.end('sep')]}{_mask(kind)}{tail}"


def _too_short(kind: str, value: str) -> bool:
    # A password can be short; a token, key or secret that short is a count, id or word.
    return kind != "password" and kind != "private_key" and len(value) < 8


def _leave_bare(value: str, tail: str, sep: str, text: str, end: int) -> bool:
    if not any(c.isalnum() for c in value) or _leave_value(value) or _P.code.fullmatch(value):
        return True  # "password=>=>" holds operators, not a value
    if _P.identifier.fullmatch(value) and (
        tail.startswith((",", ")", "}")) or _key_kind(value, len(value))
    ):
        return True  # a variable: f(password=pw, token=tok), self.password = password
    colon = sep.strip(" \t\"']").startswith(":") and ":=" not in sep
    if colon and not sep.endswith((" ", "\t")) and "'" not in sep and '"' not in sep:
        return True  # "image: org/token:latest" is a tag, not a key-value pair
    # "token: the API token to use" is a docstring or prose, not a value.
    return colon and value.isalpha() and _P.next_word.match(text, end) is not None


# A key holding a secret word or a vendor name anywhere (``SECRET_KEY_BASE``,
# ``datadog_app = ...``), with a value that looks generated.
_LOOSE_WORDS = ("secret", "token", "passw", "apikey", "api_key", "api-key", "credential")


# Starts at the operator (rarer than letters) and looks back for the key in the handler, so
# a long run of key-like words costs one short look-back per operator, not a scan per letter.
_LOOSE_SRC = (
    r"(?P<keep>[\"'`]?[ \t]*+(?::{1,3}=|\?=|=>|=|:)[ \t]*+[\"'`]?)"
    r"(?P<value>[A-Za-z0-9_+/.~@%|-]{12,300}+={0,3})"
)


def _loose(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"].rstrip(".")
    if _leave_value(value):
        return None
    start = m.start()
    key_match = _P.loose_key.search(m.string, max(0, start - 80), start)
    if key_match is None:
        return None
    key = key_match[0].lower()
    vendor = any(word in key for word in _P.vendor_words)
    if not vendor and not any(word in key for word in _LOOSE_WORDS):
        return None
    if any(w in key for w in ("public", "publishable", "pub_")):
        return None  # published on purpose: a publishable key is not a secret
    if not vendor and any(w in key for w in ("_id", "-id", "hash", "sha", "name")):
        return None  # secret_name, token_id, password_hash: about a secret, not one
    # A vendor's key can be a long number (a client id) as well as a random string.
    if not (_random_enough(value) or (vendor and value.isdigit() and len(value) >= 14)):
        return None
    return "secret", f"{m['keep']}{_mask('secret')}{m['value'][len(value) :]}"


# A stand-alone token that looks generated: what a vendor key without a prefix looks like in a
# sentence. Bounded by blanks or quotes (a URL path, a query value or a hash label before it
# makes it part of something else), 20-128 characters.
_RANDOM_SRC = (
    r"(?<![A-Za-z0-9_+/=.,:~%@$-])[A-Za-z0-9][A-Za-z0-9_-]{19,127}+(?![A-Za-z0-9_+/=~%@$-])"
)
_SEPARATORS = re.compile(r"[-_]")


def _random_token(m: re.Match[str]) -> tuple[str, str] | None:
    token = m[0]
    before = m.string[max(0, m.start() - 30) : m.start()].lower()
    if token.startswith("AAAA") or "base64" in before or "b64" in before:
        return None  # an SSH public key blob, a base64 fixture
    segments = _SEPARATORS.split(token)
    if max(map(len, segments)) < 16:
        return None  # snake_case or kebab-case: a name (manylinux_2_17_x86_64)
    if any(len(s) >= 16 and _P.hex.fullmatch(s) for s in segments):
        return None  # a git SHA, a digest, a cache key: hex is never told from a hash
    core = token.replace("_", "").replace("-", "")
    digits = sum(c.isdigit() for c in core)
    if digits < 3 or len(core) - digits < 3:
        return None
    if sum(a.isdigit() != b.isdigit() for a, b in itertools.pairwise(core)) < 5:
        return None  # words with a number or two (release2024build7)
    if _entropy(core) < 3.6 or _base64_text(token):
        return None  # repetitive, or base64 of readable text (a fixture, a GitHub node id)
    return "random_token", _mask("random_token")


def _entropy(text: str) -> float:
    counts: dict[str, int] = {}
    for c in text:
        counts[c] = counts.get(c, 0) + 1
    n = len(text)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


def _base64_text(token: str) -> bool:
    import base64
    import binascii

    padded = token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4)
    try:
        raw = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return False
    printable = sum(32 <= b < 127 or b in (9, 10, 13) for b in raw)
    return bool(raw) and printable >= 0.85 * len(raw)


# --------------------------------------------------------------------------- compiling


def compile_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    from kindling.capture.scrub import LazyPattern
    from kindling.capture.secret_shapes import FREE_SHAPES, TOKEN_SHAPES, VENDOR_WORDS

    a, ai, av = re.ASCII, re.ASCII | re.IGNORECASE, re.ASCII | re.IGNORECASE | re.VERBOSE
    _P.marker = re.compile(r"\[REDACTED:[a-z0-9_]+\]", a)
    _P.leave = re.compile(_LEAVE_VALUE_SRC, a | re.VERBOSE)
    _P.code = re.compile(_CODE_VALUE_SRC, a | re.VERBOSE)
    _P.identifier = re.compile(r"[A-Za-z_$][\w$]*", a)
    # A single word of prose ("authentication", "Required.", "token-based") is no credential.
    _P.prose_word = re.compile(r"[A-Za-z][a-z]*(?:[-'][a-z]+)*[.,;:!?]?", a)
    _P.next_word = re.compile(r"[ \t]++[A-Za-z]", a)
    _P.loose_key = re.compile(r"(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{1,80}+\Z", a)
    _P.loose_words = (*_LOOSE_WORDS, *VENDOR_WORDS)
    _P.vendor_words = VENDOR_WORDS
    _P.hex = re.compile(r"[0-9a-fA-F]+", a)

    rules: list[tuple[tuple[str, ...], LazyPattern, Rule]] = [
        (("<private",), LazyPattern(_PRIVATE_SRC, ai), _private_tag),
        (("private key",), LazyPattern(_PEM_SRC, a), _whole("private_key")),
    ]
    for kind, literal, rest in TOKEN_SHAPES:
        # The look-behind keeps a prefix from matching inside a longer word: ``task-list`` and
        # ``risk-free`` hold no ``sk-`` key.
        lit = re.escape(literal)
        # A token percent-encoded in a URL keeps going after its first %XX.
        pattern = LazyPattern(f"{lit}(?<![A-Za-z0-9_-]{lit}){rest}{_PERCENT_TAIL}", a)
        rules.append(((literal.lower(),), pattern, _whole(kind)))
    rules.append(
        (("hf_", "api_org_"), LazyPattern(r"\b(?:hf|api_org)_[A-Za-z]{34}\b", a), _huggingface)
    )
    for kind, keyword, source in FREE_SHAPES:
        rules.append(((keyword,), LazyPattern(source, a), _whole(kind)))
    rules += [
        (("hooks.slack.com",), LazyPattern(_SLACK_WEBHOOK_SRC, a), _slack_webhook),
        (("authorization", "bearer"), LazyPattern(_AUTH_SRC, av), _authorization),
        (("://",), LazyPattern(_URL_PASSWORD_SRC, a), _url_password),
        *((words, LazyPattern(src, av), _shell) for words, src in _SHELL_SRC),
        (("</",), LazyPattern(_XML_SRC, a), _xml),
        (("value",), LazyPattern(_ADD_KEY_SRC, ai), _add_key),
        (("value:",), LazyPattern(_NAME_VALUE_SRC, ai), _name_value),
        (_KEY_WORDS, LazyPattern(_ENV_LINE_SRC, ai), _env_line),
        (_KEY_WORDS, LazyPattern(_keyed_src(), av), _keyed),
        (("--",), LazyPattern(_flag_src(), av), _keyed),
        (_P.loose_words, LazyPattern(_LOOSE_SRC, a), _loose),
        (tuple("0123456789"), LazyPattern(_RANDOM_SRC, a), _random_token),
    ]
    return rules
