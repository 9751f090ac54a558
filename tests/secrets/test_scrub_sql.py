"""A value an ``INSERT``'s column list names by its place (issue 32, tenth pass).

``INSERT INTO users (email, password) VALUES ('ada@example.com', '<value>')``: the key rules
see ``password)`` and a list, and left the value. Every row is read; the quoted value in a
secret column's place is masked, also as a call's first argument (``crypt('<value>', ...)``),
and the rest of the statement is kept. Values are drawn by hypothesis, never fixed fakes.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets
from tests.support.drawn import drawn

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# A typed password: letters and digits, no quote (SQL would double it).
TYPED = st.builds(
    lambda word, digits: f"{word.capitalize()}{digits}",
    drawn(string.ascii_lowercase, 8),
    st.integers(10, 9999),
)

FORMS = {
    "one row": "INSERT INTO users (name, password) VALUES ('ada', '{v}');",
    "quoted names": "INSERT INTO `users` (`email`, `password`) VALUES ('a@b.example', '{v}');",
    "two rows": (
        "INSERT INTO api_keys (user_id, token, created_at) VALUES\n"
        "  (1, '{v}', now()),\n  (2, '{w}', now());"
    ),
    "a call hashes it": (
        "insert into users (name, password) values ('ada', crypt('{v}', gen_salt('bf')));"
    ),
    "MySQL's PASSWORD()": (
        "INSERT INTO mysql.user (User, Password) VALUES ('app', PASSWORD('{v}'));"
    ),
    # Issue 32, eleventh pass: SQLAlchemy's echo logs the parameters on the next line.
    "parameters logged after": (
        "INFO sqlalchemy.engine.Engine INSERT INTO users (name, password) VALUES (?, ?)\n"
        "INFO sqlalchemy.engine.Engine [generated in 0.00021s] ('ada', '{v}')"
    ),
}


@pytest.mark.parametrize("name", sorted(FORMS))
@FEW
@given(value=TYPED, other=TYPED)
def test_a_value_in_a_secret_columns_place_is_masked(name: str, value: str, other: str) -> None:
    text = FORMS[name].format(v=value, w=other)
    out = scrub_secrets(text)
    assert value not in out.text, out.text
    assert other not in out.text, out.text
    assert out.kinds
    # The statement is kept around the values: the columns, the other values, the calls.
    head = "VALUES" if "VALUES" in text else "values"
    assert out.text.split(head)[0] == text.split(head)[0]
    assert "ada" in out.text or "app" in out.text or "now()" in out.text or "@" in out.text


@pytest.mark.parametrize(
    "text",
    [
        "INSERT INTO users (email, password_hash) VALUES ('a@b.example', 'Summer2024x');",
        "INSERT INTO t (a, password) VALUES (1, NULL);",
        "INSERT INTO t (a, password) VALUES (1, :password);",
        "INSERT INTO t (password, b) VALUES ('%s', %s)",
        "INSERT INTO t (password, b) VALUES (?, ?)",
        "INSERT INTO t (a, password) VALUES (%s, %s)\n(1, None)",
        "INSERT INTO t (a, password_hash) VALUES (?, ?)\n[cached since 2s ago] (1, 'Summer2024x')",
        "INSERT INTO settings (name, value) VALUES ('token_ttl', '3600');",
        "INSERT INTO t (a, token) VALUES (1, 'x', 3);",  # a row that does not fit its columns
        "the insert into users (name, password) failed",
    ],
)
def test_other_columns_and_placeholders_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
