"""A drawn password near a word that means secret, in any syntax (issue 32, ninth pass).

After ``password=`` or ``secret:`` the key-value rules mask any value. In the syntaxes they do
not read (``password -> <value>``, a Markdown table's ``| token | <value> |``, XML's CDATA,
``password.set("<value>")``, ``dotnet user-secrets set "password" "<value>"``), the near-key
rule masked only a value of a generated key's characters: a sign split a drawn password into
pieces too short for it. Such a value is masked now when it holds a sign and a digit among 12
to 64 characters and reads as no name, address, version or reference. A shell default
(``${TOKEN:-<value>}``) gives its value to the key as ``=`` does.

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import random
import string

import pytest

from kindling.secrets.scrub import scrub_secrets

ALNUM = string.ascii_letters + string.digits
SIGNS = "!@#$%&*"
FORMS = [
    "{k} -> {v}",
    "| {k} | {v} |",
    "<{k}><![CDATA[{v}]]></{k}>",
    "{k}?: string = '{v}'",
    '{k}.set("{v}")',
    '(def {k} "{v}")',
    'dotnet user-secrets set "{k}" "{v}"',
    "{k}\t{v}",
    "setx {k} {v}",
    "${{{k}:-{v}}}",
    '@Value("${{{k}:{v}}}")',
    "INFO using {k} {v}",
]
KEYS = ["password", "api_key", "secret", "token", "client_secret", "DB_PASSWORD", "passphrase"]


def _drawn(rng: random.Random, n: int) -> str:
    """A password as a generator draws it with one sign and one digit at least."""
    chars = [rng.choice(SIGNS), rng.choice(string.digits)]
    chars += [rng.choice(ALNUM) for _ in range(n - 2)]
    rng.shuffle(chars)
    value = "".join(chars)
    # A sign first would read as a reference (``$NAME``, ``@decorator``, ``#comment``).
    return value if value[0].isalnum() else _drawn(rng, n)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("key", KEYS)
def test_a_drawn_password_near_a_secret_word_is_masked(form: str, key: str) -> None:
    rng = random.Random(f"{form}{key}")
    for n in (12, 16, 24):
        value = _drawn(rng, n)
        text = form.format(k=key, v=value)
        out = scrub_secrets(text).text
        assert value not in out, out
        assert "[REDACTED:" in out


@pytest.mark.parametrize("key", ["auth", "signing_key", "encryption_key", "passphrase"])
def test_a_base64_shell_default_is_masked(key: str) -> None:
    rng = random.Random(key)
    for _ in range(20):
        # (A slash between a word's letters would read as a path: ``a/Users/b``.)
        value = rng.choice(ALNUM) + "".join(rng.choice(ALNUM + "+") for _ in range(39))
        out = scrub_secrets(f"${{{key}:-{value}}}").text
        assert value not in out, out


@pytest.mark.parametrize(
    "text",
    [
        'f"{PROTOCOL_VERSION_META_KEY!r} and {CLIENT_CAPABILITIES_META_KEY!r} envelope keys",',
        "send the token to bot42@example.com today",
        "password: ${DB_PASSWORD} and token $GITHUB_TOKEN",
        "the api key moved in v2.3.1@latest",
        "token #1234 fixed by commit 9f3e2a1",
        "secret -> see issue#4242 for details",
        "token_id: abc!def12345xyz",
        "password | changeme! |",  # (not a table's row: ``| password | x |`` is keyed)
        "auth user1@server-01 ok",
        "password -> P@ss!",  # too short to be drawn
        "token -> src/main/java/com/AcmeApp/Token2Controller.java",
        "secret -> Hello World 2024!",
        "${TOKEN:-default}",
    ],
)
def test_look_alikes_near_a_secret_word_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
