"""Credentials a URL hides from the key-value rules: its password, percent-encoded, or in
its path.

- The user of ``scheme://<token>@host`` when it is a token (drawn, or before OAuth's fixed
  password word), not a login's name before a password (moved from ``scrub_context``).
- The password of ``scheme://user:<password>@host`` (``url_password_rule``), also after a user
  masked first (a Sentry DSN's public key, a key id: issue 32, nineteenth pass); a template's
  variable (``$password``) and OAuth's fixed words after a token (``x-oauth-basic``) are left.
- A query string that is itself percent-encoded, as a URL carried in another URL's parameter
  (a redirect, a callback, a logged request) or a form body encoded whole holds it:
  ``%26token%3D<value>%26``, ``body=password%3D<value>%26...``. The key is
  read as the key-value rules read it (``key_kind``: a key ending in a secret word) or as the
  query rule reads it (``sig``, ``signature``, ``key``, ``code``, ``auth``); the value is
  judged decoded.
- Base64 percent-encoded, as a form or a query carries it (``+``, ``/`` and ``=`` written
  ``%2B``, ``%2F``, ``%3D``: an X bearer token, a signature): judged decoded, as a generated
  key of base64 is.
- A path segment after one that names a secret (``/token/<value>``, ``/api-keys/<value>``):
  the value when it is shaped like a generated credential (``credential_like``), not an id, a
  word or a version.
- A key given as the path right after the API's version, its last segment (``/v2/<key>``:
  a node provider's endpoint), when shaped like a generated credential (thirteenth pass).
- A segment of the path drawn whole as a generated key (thirteenth pass: a ping or build
  hook's, an RPC endpoint's), unless the segment before names what it identifies
  (``/d/<id>``, ``/channel/<id>``) or it is part of a password before ``@``.
- The password of Oracle's Easy Connect string, ``user/<password>@//host:port/service``
  (21st pass), unless a template's variable.
- A webhook's path (issue 32, eighth pass), after a host named for hooks or a ``/hooks`` or
  ``/webhook`` segment, when a segment of it is shaped like a generated credential.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``, ``secrets.scrub_gate``, ``secrets.scrub_keys``,
``secrets.scrub_context``, ``secrets.scrub_encoded``, ``secrets.scrub_ids`` and
``secrets.scrub_refs``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_context import (
    OAUTH_PLACEHOLDERS,
    QUERY_KEYS,
    credential_like,
    query_secret,
)
from kindling.secrets.scrub_encoded import drawn_whole, ssh_blob
from kindling.secrets.scrub_gate import gated, has_candidate
from kindling.secrets.scrub_ids import DATA_MAGIC
from kindling.secrets.scrub_keys import key_kind
from kindling.secrets.scrub_refs import template_userinfo
from kindling.secrets.scrub_values import (
    UUID,
    LazyPattern,
    LazyRe,
    P,
    entropy,
    is_name,
    leave_value,
    looks_generated,
    mask,
    random_enough,
    too_short,
    wordy,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# Starts at ``://``: the scheme and user are kept anyway, and the literal makes the scan fast.
_URL_PASSWORD_SRC = (
    # A user masked already (a token, a key id) does not leave its password: the mask is kept.
    # A user may be an email address, its @ raw (an SMTP URL's: ``smtp://ada@x.org:pw@host``);
    # then the password holds no @, / or ?. A shell's expansion is one piece of a user, its
    # default's ``:`` too (``${DB_USER:-app}:<password>@db``).
    r"(?P<prefix>://(?:\[REDACTED:[a-z_]++\]|(?:\$\{[^\s}/@?#]{0,128}+\}|[^\s:/@?#])*+"
    r"|(?P<email>[\w.+-]++@[\w-]++(?:\.[\w-]++)++)):)"
    r"(?P<value>(?(email)(?![0-9]{1,5}+@)[^\s/?@:]++(?=@[A-Za-z0-9])|(?:"
    # Up to the last @ before the host, so a raw @ inside the password is masked too.
    r"[^\s/?]+(?=@)"
    # A raw / or ? in it (base64's, a drawn password's, a raw @ after them too): then a port's
    # digits cannot start it, and a host must follow the @ (``https://host:8080/u/@me``).
    r"|(?!\d++(?:[/?]|$))[^\s/?@:]*+[/?][^\s:]{0,200}?"
    r"(?=@[A-Za-z0-9][A-Za-z0-9.-]*+(?::\d++)?(?:[/\s\"'`;,)]|$)))))"
)


def _variable(value: str) -> bool:
    """``$password``, ``$db_password``: a template's variable, named in words (``$Passw0rd1``
    and ``$ecRetT0F1nD`` are passwords)."""
    name = value[1:]
    if value[:1] != "$" or P.identifier.fullmatch(name) is None or any(map(str.isdigit, name)):
        return False
    return is_name(name) or wordy(name)


def _url_password(m: re.Match[str]) -> tuple[str, str] | None:
    user = m["prefix"][3:-1]  # a mask is a whole user, never a piece of one (``[REDACTED:``)
    inside = "[REDACTED" in user and not (user.startswith("[") and user.endswith("]"))
    value = m["value"]
    if leave_value(value) or inside or "[REDACTED:" in value or _variable(value):
        return None
    if value.lower() in OAUTH_PLACEHOLDERS:
        return None  # the token is the user (masked by ``url_token``); this is a fixed word
    if template_userinfo(m["prefix"], value):
        return None  # dialect+driver://username:password@host/db: the format's template
    return "url_password", f"{m['prefix']}{mask('url_password')}"


# Oracle's Easy Connect string, ``user/<password>@//host:port/service`` (no scheme: ``sqlplus``
# and ``cx_Oracle.connect`` are the command rules'; in a config or a DSN it stands alone).
_EZCONNECT_SRC = (
    r"(?<![\w$#/.:@%-])(?P<prefix>[A-Za-z_][\w$#]{0,127}+/)"
    r"(?P<value>\"[^\"\r\n]{1,128}+\"|[^\s/\"']{1,128}?)(?=@//[A-Za-z0-9\[])"
)


def _ezconnect(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if leave_value(value.strip('"')) or "[REDACTED:" in value or _variable(value):
        return None
    return "url_password", f"{m['prefix']}{mask('url_password')}"


def url_password_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    """A URL's password (``scheme://user:<password>@host``), placed by ``scrub_rules`` before
    the stand-alone token rules."""
    return ("://",), LazyPattern(_URL_PASSWORD_SRC, re.ASCII), _url_password


# ``%26`` (``&``), ``%3F`` (``?``), an encoded blank, ``;`` or ``,``, or a word's start (a
# form body encoded whole: ``body=password%3D<value>%26...``), a key, ``%3D`` (``=``), then
# the value up to the next encoded ``&``; a value's own escapes (``%2B``, ``%2F``, ``%3D``)
# are part of it.
_ENCODED_PAIR_SRC = (
    r"(?P<keep>(?:%26|%3[FfBb]|%2[0Cc]|[?&]|(?<![A-Za-z0-9_.%-]))"
    r"(?P<key>[A-Za-z0-9_.-]{1,64}+)%3[Dd])"
    r"(?P<value>(?:[A-Za-z0-9_.~-]|%(?!26)[0-9A-Fa-f]{2}){1,800}+)"
)
_ESCAPE = LazyRe(r"%([0-9A-Fa-f]{2})", re.ASCII)


def _unquote(value: str) -> str:
    return _ESCAPE.sub(lambda e: chr(int(e[1], 16)), value)


def _encoded_pair(m: re.Match[str]) -> tuple[str, str] | None:
    key, value = m["key"], _unquote(m["value"])
    kind = key_kind(key, len(key))
    if kind is None:  # judged as the plain query rule judges its keys
        if key.lower() not in QUERY_KEYS or not query_secret(key, value):
            return None
        return "url_secret", f"{m['keep']}{mask('url_secret')}"
    if "[REDACTED:" in value or leave_value(value):
        return None
    if kind == "password" and len(value) < 6:
        return None
    if kind != "password" and too_short(kind, value):
        return None
    if kind != "password" and not (credential_like(value) or random_enough(value)):
        return None  # judged as the plain key-value rule judges a generated value
    return kind, f"{m['keep']}{mask(kind)}"


# Base64 with its ``+``, ``/`` or ``=`` percent-encoded: at least one such escape, nothing
# else escaped, bounded as the base64 rule bounds a token. A sign may also stand raw beside
# an escaped one (``.../o3ovitrMok%3D``: a SAS signature whose padding alone was escaped).
_ENCODED_BASE64_SRC = (
    r"(?<![A-Za-z0-9_%.~+/-])(?:[A-Za-z0-9+/]|%(?:2[BbFf]|3[Dd])){24,1600}+"
    r"(?![A-Za-z0-9_%~-])"
)


@gated
def _encoded_base64(m: re.Match[str]) -> tuple[str, str] | None:
    if "%" not in m[0]:
        return None  # plain base64 is the base64 rule's
    body = _unquote(m[0]).rstrip("=")
    if len(body) < 24 or len(body) > 1200 or ssh_blob(body):
        return None
    if "/" in body and "+" not in body:
        parts = [p for p in body.split("/") if p]
        if all(p.isalpha() or is_name(p) or wordy(p) for p in parts):
            return None  # an encoded path (``path%2Fto%2FFile``): words between slashes
    before = m.string[max(0, m.start() - 30) : m.start()].lower()
    if "base64" in before or "b64" in before or body.startswith(DATA_MAGIC):
        return None  # an encoded data: URI (an image in a badge's link)
    if not has_candidate(m[0]):
        return None
    digits = sum(c.isdigit() for c in body)
    upper = sum(c.isupper() for c in body)
    lower = sum(c.islower() for c in body)
    if min(digits, upper, lower) < 2 or entropy(body) < 4.0:
        return None
    return "random_token", mask("random_token")


# A segment naming a secret, then the value: ``/token/<value>``, ``/v1/api-keys/<value>``.
_PATH_SRC = (
    r"(?P<keep>/(?i:tokens?|secrets?|api[_-]?keys?|access[_-]?tokens?|passwords?|keys?)/)"
    r"(?P<value>[A-Za-z0-9_~.+-]{16,400}+)(?=[/?#&\s\"'<>)\],;]|$)"
)


@gated
def _path_value(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if not has_candidate(value) or leave_value(value) or not credential_like(value):
        return None
    if UUID.fullmatch(value):
        return None  # a resource's id (``/keys/<uuid>``), not its value
    return "url_secret", f"{m['keep']}{mask('url_secret')}"


# A webhook's URL, whoever knows its path can post: Mattermost's ``/hooks/<id>``, Zapier's
# ``hooks.zapier.com/hooks/catch/<id>/<key>/``, Rocket.Chat's ``/hooks/<id>/<token>``. The
# path after a host named for hooks, or after a ``/hooks`` or ``/webhook(s)`` segment.
_HOOK_SRC = (
    r"(?P<keep>https?://(?:(?=[\w.-]*?hook)[\w.-]++(?::[0-9]++)?"
    r"|[\w.-]++(?::[0-9]++)?(?:/[\w.~-]++){0,6}?/(?i:hooks|webhooks?)(?=/)))"
    r"(?P<value>/[^\s\"'<>`{}?#]{16,400}+)"
)


@gated
def _hook_path(m: re.Match[str]) -> tuple[str, str] | None:
    """The path is masked when one of its segments is shaped like a generated credential
    (a GitHub API ``/repos/o/r/hooks/12345678`` names a hook by its number, and is left)."""
    value = m["value"]
    if "[REDACTED:" in value:
        return None
    segments = [p for p in value.split("/") if len(p) >= 16]
    if not any(has_candidate(p) and credential_like(p) and not UUID.fullmatch(p) for p in segments):
        return None
    return "webhook_url", f"{m['keep']}{mask('webhook_url')}"


# A key given as the path right after the API's version, the URL's last segment: a node
# provider's endpoint (``https://eth-mainnet.g.alchemy.com/v2/<key>``, Infura's ``/v3/<key>``).
_HEX = LazyRe(r"[0-9a-f]++|[0-9A-F]++", re.ASCII)
_VERSION_KEY_SRC = (
    r"(?P<keep>https?://[\w.-]++(?::[0-9]++)?(?:/[\w.~-]++){0,4}?/v[0-9]{1,2}/)"
    r"(?P<value>[A-Za-z0-9_-]{20,200}+)(?=/?(?:[?#\s\"'<>`)\],;]|$))"
)


@gated
def _version_key(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if len(value) in (40, 64) and _HEX.fullmatch(value):
        return None  # a commit or a content digest (a key is 32 hex digits or a draw)
    return _path_value(m)  # judged as a value after ``/token/`` is


# A segment of a URL's path drawn whole as a generated key is (base62 or base64url, both
# cases and digits: ``https://hc-ping.example/<key>/backup``, ``/build_hooks/<key>``,
# ``/inputs/<key>/tag``): a key in the path, whoever holds the URL can use it. Ids in paths
# are numbers, UUIDs, hex digests or slugs of words, none of which a draw is.
_SEGMENT_SRC = r"(?<=/)(?P<value>[A-Za-z0-9_-]{24,200}+)(?=[/?#\s\"'<>`)\],;|\\]|$)"
# Segments that name the kind of resource the next one identifies (``/document/d/<id>``,
# ``/channel/<id>``, asciinema's ``/a/<id>``): a public id drawn as a key is, not a key.
_ID_SEGMENTS = frozenset(
    (
        *("channel", "channels", "document", "documents", "file", "files", "folder", "folders"),
        *("forms", "spreadsheets", "presentation", "video", "videos", "watch", "embed", "track"),
        *("album", "artist", "playlist", "playlists", "episode", "show", "photo", "photos"),
        *("post", "posts", "status", "gist", "gists", "item", "items", "product", "products"),
        *("profile", "users", "user", "media", "image", "images", "asset", "assets", "attachments"),
    )
)
_URL_REST = LazyRe(r"[^\s\"'<>`]{0,400}+", re.ASCII)
_URL_BREAK = frozenset(" \t\r\n\"'<>`")


@gated
def _drawn_segment(m: re.Match[str]) -> tuple[str, str] | None:
    value, text = m["value"], m.string
    head = text[max(0, m.start() - 400) : m.start()]
    scheme = head.rfind("://")
    if scheme < 0 or not _URL_BREAK.isdisjoint(head[scheme:]):
        return None  # not in a URL (a file's path, a ratio)
    if len(named := head[:-1].rpartition("/")[2].lower()) <= 1 or named in _ID_SEGMENTS:
        return None  # a document's, a video's or a channel's id, named by the segment before
    rest = _URL_REST.match(text, m.end())
    if rest is not None and "@" in rest[0]:
        return None  # a password's part (``https://ada:x/y/z@host``): the userinfo rule's
    if len(value) < 32 and not any(map(str.isdigit, value)):
        return None  # letters alone (``/QhRwXbKpMzVtLcJy``): a name as often, under 32
    if not drawn_whole(value) or not has_candidate(value):
        return None
    return "url_secret", mask("url_secret")


# The user of a URL that is a token: ``https://<token>@host``, ``https://<token>:x-oauth-basic@``.
# Before a password, a user is a login's name (``gitlab+deploy-token-42:<token>@``: 29th pass),
# unless drawn as a key is or followed by OAuth's fixed word.
_URL_USER_SRC = r"(?P<keep>://)(?P<value>[A-Za-z0-9_.~+-]{16,200}+)(?=(?::[^\s/@?#]*+)?@)"


def _url_user(m: re.Match[str]) -> tuple[str, str] | None:
    if not credential_like(m["value"]):
        return None
    text, end = m.string, m.end("value")
    password = text[end + 1 : text.find("@", end)] if text.startswith(":", end) else None
    named = password is not None and password.lower() not in OAUTH_PLACEHOLDERS
    if named and not looks_generated(m["value"]):
        return None  # user:password@: a login's name (gitlab+deploy-token-42), not a token
    if password is None and _SENTRY_HOST.match(text, end + 1) and P.hex.fullmatch(m["value"]):
        return None  # a Sentry DSN's public key (its legacy secret key follows a ':')
    return "url_token", f"{m['keep']}{mask('url_token')}"


# A Sentry DSN's host: sentry.io's ingest hosts (o<org>.ingest[.<region>].sentry.io), or a
# self-hosted Sentry's whose project is the path (``https://<key>@sentry.example.com/42``).
_SENTRY_HOST = LazyRe(
    r"[\w.-]{0,120}?\bsentry\b[\w.-]{0,120}+(?::[0-9]{1,5}+)?/[0-9]++\b", re.ASCII
)


def url_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    a = re.ASCII
    return [
        (("://",), LazyPattern(_URL_USER_SRC, a), _url_user),
        (("%3d",), LazyPattern(_ENCODED_PAIR_SRC, a), _encoded_pair),
        (("%2b", "%2f", "%3d"), LazyPattern(_ENCODED_BASE64_SRC, a), _encoded_base64),
        (
            ("/token", "/secret", "/key", "/api", "/access", "/password"),
            LazyPattern(_PATH_SRC, a),
            _path_value,
        ),
        (("hook",), LazyPattern(_HOOK_SRC, a), _hook_path),
        (("/v",), LazyPattern(_VERSION_KEY_SRC, a), _version_key),
        (("://",), LazyPattern(_SEGMENT_SRC, a), _drawn_segment),
        (("@//",), LazyPattern(_EZCONNECT_SRC, a), _ezconnect),
    ]
