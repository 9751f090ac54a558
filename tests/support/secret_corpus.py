"""Planted secrets of every kind the issue lists, and non-secrets that must survive.

Values are generated from a fixed seed (no real credential is in this repository); each entry
is ``name: (value, template)`` where the template shows the value in a realistic context.
"""

from __future__ import annotations

import base64
import random
import string

_rng = random.Random(7)
_ALNUM = string.ascii_letters + string.digits
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "_-"


def _r(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


_UPPER = string.ascii_uppercase + string.digits
_BASIC = base64.b64encode(f"user:{_r(12)}".encode()).decode()
_JWT_BODY = base64.urlsafe_b64encode(b'{"sub":"' + _r(12).encode() + b'"}').decode().rstrip("=")

SECRETS: dict[str, tuple[str, str]] = {
    "aws_access_key_id": ("AKIA" + _r(16, _UPPER), "aws_access_key_id = {}"),
    "aws_secret_access_key": (_r(40, _B64), "aws_secret_access_key={}"),
    "github_ghp": ("ghp_" + _r(36), "export GITHUB_TOKEN={}"),
    "github_gho": ("gho_" + _r(36), "oauth {} granted"),
    "github_ghs": ("ghs_" + _r(36), "server token {}"),
    "github_ghu": ("ghu_" + _r(36), "user-to-server {}"),
    "github_pat": ("github_pat_" + _r(22) + "_" + _r(59), "token used: {}"),
    "slack": (f"xoxb-{_r(12, string.digits)}-{_r(13, string.digits)}-{_r(24)}", "SLACK_BOT={}"),
    "openai": ("sk-" + _r(48), "OPENAI_API_KEY={}"),
    "openai_project": ("sk-proj-" + _r(64, _URLSAFE), "key {} in config"),
    "anthropic": ("sk-ant-api03-" + _r(80, _URLSAFE) + "AA", "ANTHROPIC_API_KEY={}"),
    "google": ("AIza" + _r(35, _URLSAFE), "maps key {}"),
    "stripe_live": ("sk_live_" + _r(24), "stripe {}"),
    "jwt": (f"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.{_JWT_BODY}.{_r(43, _URLSAFE)}", "session={}"),
    "pem_private_key": (
        "MIIEow" + _r(58, _B64),
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n" + _r(64, _B64) + "\n-----END RSA PRIVATE KEY-----",
    ),
    "url_password": ("Pw" + _r(14), "DATABASE_URL=postgres://app:{}@db.internal:5432/app"),
    "password_kv": ("hunter" + _r(10), "password = {}"),
    "passwd_kv": ("pw" + _r(12), "passwd: {}"),
    "secret_kv": ("sec" + _r(16), 'client_secret="{}"'),
    "token_kv": ("tok" + _r(20), "auth_token={}"),
    "api_key_kv": ("ak" + _r(24), '{{"api_key": "{}"}}'),
    "authorization_bearer": ("br" + _r(30), "Authorization: Bearer {}"),
    "authorization_basic": (_BASIC, "Authorization: Basic {}"),
    "private_tag": ("private note " + _r(10), "before <private>{}</private> after"),
}  # fmt: skip

NON_SECRETS: dict[str, str] = {
    "git_sha": "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed it",
    "uuid": "request 123e4567-e89b-12d3-a456-426614174000 done",
    "lockfile_hash": '"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+5kg=="',
    "base64_fixture": 'FIXTURE = "SGVsbG8gV29ybGQgdGhpcyBpcyBhIHRlc3QgZml4dHVyZQ=="',
    "basic_in_prose": "Basic auth is configured in the proxy; see docs",
    "token_counts": "max_tokens=4096 tokenizer = cl100k",
    "type_annotation": "def login(password: str) -> bool",
}


def planted(name: str) -> str:
    value, template = SECRETS[name]
    return template.format(value)
