"""Secrets in code's other spellings, and a key's file path (issue 32, twentieth pass).

Read on find-sec-bugs' hard-coded password samples and ruff's S105-S107 fixtures:

- a literal compared with a secret's variable, the literal first (``"x".equals(password)``,
  ``"x" == token``): the secret the code accepts, as ``password.equals("x")`` holds it;
- Kotlin's pair, ``mapOf("password" to "x")``: a key and its value, as ``"password": "x"``;
- a setter named in French (``setMotDePasse("x")``);
- a relative path after a private key's name (``addIdentity("keys/private_key",
  "keys/public.key", ...)``, ``private_key = "certs/server.key"``): where the key is kept, left.

Passwords and keys are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets


def _draw(seed: int, n: int = 18) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    ("template", "kind"),
    [
        ('if ("{v}".equals(password)) {{', "password"),
        ('if("{v}".equalsIgnoreCase(userPassword)) return true;', "password"),
        ('if ("{v}" == password) {{', "password"),
        ('return if ("{v}" == password) {{', "password"),
        ("if ('{v}' === this.apiToken && ok) {{", "token"),
        ('assert "{v}" != client_secret', "secret"),
        ('ok = "{v}" == self.api_key or fallback', "api_key"),
    ],
)
def test_a_literal_compared_first_is_masked(seed: int, template: str, kind: str) -> None:
    value = _draw(seed)
    out = scrub_secrets(template.format(v=value)).text
    assert value not in out, out
    assert f"[REDACTED:{kind}]" in out, out


@pytest.mark.parametrize(
    "line",
    [
        'if ("ArrowDown" == key) {',  # a key's name, not a secret's
        'if ("password" == field.name) {',
        'if ("bearer" == tokenType) {',
        'if ("hidden" == password) {',  # a status word
        'if ("" == password) {',
        'if ("abc" == password) {',  # shorter than any password compared
        'if ("a phrase" == password) {',  # a blank: a test's phrase
        'if ("${PASSWORD}" == password) {',  # a reference
        'if ("Bearer" == token.type) {',  # the operand goes on: no token compared
        'if ("password" === typeof secret) {',
        'if ("changeme" == token) {',  # a token must be as random as a generated one
    ],
)
def test_a_literal_compared_with_no_secret_is_left(line: str) -> None:
    assert scrub_secrets(line).text == line


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    ("template", "kind"),
    [
        ('val map = mapOf("password" to "{v}")', "password"),
        ('map.plus("database.password" to "{v}")', "password"),
        ('headers += "X-Api-Token" to "{v}"', "token"),
        ('v.setMotDePasse("{v}");', "password"),
        ('motDePasse: "{v}"', "password"),
    ],
)
def test_kotlin_pairs_and_a_french_setter_are_keyed(seed: int, template: str, kind: str) -> None:
    value = _draw(seed, 12)
    out = scrub_secrets(template.format(v=value)).text
    assert value not in out, out
    assert f"[REDACTED:{kind}]" in out, out


def test_a_word_after_to_in_prose_is_no_pair() -> None:
    # only a quoted key followed by ``to`` and a quoted value is a pair
    line = 'rename the "password" field to "passphrase" in the form'
    assert scrub_secrets(line).text == line


@pytest.mark.parametrize(
    "line",
    [
        'defaultJSch.addIdentity("some/private_key","some/public.key",password.getBytes());',
        'private_key = "certs/server.key"',
        "private_key: keys/server.pem",
        'ssl_private_key: "../config/ssl/private.key"',
        'api_key_file = "secrets/api_key.txt"',
        '"signing_key": "keys/Signing-Key.p8"',
    ],
)
def test_a_relative_path_to_a_key_file_is_left(line: str) -> None:
    assert scrub_secrets(line).text == line


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    "template",
    [
        'api_key = "{a}/{b}.key"',  # a draw joined by "/" is no file's name
        'private_key = "{a}{b}"',
        'token: "{a}/{b}"',
    ],
)
def test_a_draw_with_slashes_stays_masked(seed: int, template: str) -> None:
    a, b = _draw(seed, 14), _draw(seed + 100, 10)
    out = scrub_secrets(template.format(a=a, b=b)).text
    assert a not in out, out


def test_a_password_may_read_as_a_path() -> None:
    # a password is not judged by its shape: only keys, tokens and secrets are
    out = scrub_secrets('password = "conf/pass.txt"').text
    assert "conf/pass.txt" not in out


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=string.printable, max_size=60),
    st.sampled_from(["password", "token", "apiKey", "self.secret", "x"]),
    st.sampled_from(["==", "!=", "===", ".equals("]),
)
def test_comparisons_never_raise_and_scrub_once(value: str, key: str, op: str) -> None:
    text = f'if ("{value}" {op} {key}) {{'
    once = scrub_secrets(text).text
    assert scrub_secrets(once).text == once
