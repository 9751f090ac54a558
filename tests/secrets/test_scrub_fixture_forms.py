"""Issue 32, thirteenth pass: forms a second probe found, 184 small files of the kinds a
scanner's authors write as fixtures or a developer commits (written by a helper that had not
read the scrubber); values typed or drawn here, none copied.

- the password word abbreviated or in the language a key is named in (``Pswd``, ``PAROL``,
  ``senha``, ``DB_PASSWORT``);
- a triple-quoted string (Python's, TOML's) after a secret's key;
- Ruby's ``ENV.fetch("X_SECRET") { "default" }``; a Spring property's default
  (``${search.api-key:x}``); an Erlang or Elixir tuple (``{password, "x"}``);
- a ``.properties`` value continued on the next line (``key=\\``);
- a Terraform variable named for a secret, its ``default``;
- strongSwan's ``: PSK "x"``; a Go MySQL DSN whose password holds an ``@``.
"""

from __future__ import annotations

import pytest

from kindling.secrets.scrub import scrub_secrets

TYPED = ("Winterorange2024!", "correct-Horse-7", "Falcon.garden88", "pa$$W0rd-2019")


@pytest.mark.parametrize("value", TYPED)
@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("    Pswd = '{}'", "    Pswd = '[REDACTED:password]'"),
        ("PAROL='{}'\nmysql -h db -u app", "PAROL='[REDACTED:password]'\nmysql -h db -u app"),
        ('senha = "{}"', 'senha = "[REDACTED:password]"'),
        ("DB_PASSWORT={}", "DB_PASSWORT=[REDACTED:password]"),
        ("heslo: {}", "heslo: [REDACTED:password]"),
        ('password = """{}"""', 'password = """[REDACTED:password]"""'),
        ("DB_PASSWORD = '''{}'''", "DB_PASSWORD = '''[REDACTED:password]'''"),
        (
            'Pusher.secret = ENV.fetch("PUSHER_SECRET") {{ "{}" }}',
            'Pusher.secret = ENV.fetch("PUSHER_SECRET") { "[REDACTED:secret]" }',
        ),
        ('   {{password, "{}"}},', '   {password, "[REDACTED:password]"},'),
        ('   {{:password, "{}"}},', '   {:password, "[REDACTED:password]"},'),
        (
            "db.user=app\ndb.password=\\\n    {}\ndb.pool=8",
            "db.user=app\ndb.password=\\\n    [REDACTED:password]\ndb.pool=8",
        ),
        (
            'variable "db_master_password" {{\n  description = "Master password for RDS"\n'
            '  type        = string\n  default     = "{}"\n  sensitive   = true\n}}',
            '  default     = "[REDACTED:password]"',
        ),
        (
            '203.0.113.10 198.51.100.20 : PSK "{}"',
            '203.0.113.10 198.51.100.20 : PSK "[REDACTED:password]"',
        ),
        (
            'sql.Open("mysql", `migrator:{}@tcp(mysql.internal:3306)/app`)',
            'sql.Open("mysql", `migrator:[REDACTED:password]@tcp(mysql.internal:3306)/app`)',
        ),
        (
            '@Value("${{db.password:{}}}")\nprivate String password;',
            '@Value("${db.password:[REDACTED:password]}")',
        ),
    ],
)
def test_a_typed_password_in_these_forms_is_masked(
    template: str, expected: str, value: str
) -> None:
    out = scrub_secrets(template.format(value)).text
    assert value not in out
    assert expected in out


def test_a_go_dsn_password_holding_an_at_sign_is_masked_to_the_last_one() -> None:
    text = 'sql.Open("mysql", "app:s3cr@t-Pw!9@tcp(db:3306)/shop")'
    assert (
        scrub_secrets(text).text == 'sql.Open("mysql", "app:[REDACTED:password]@tcp(db:3306)/shop")'
    )


@pytest.mark.parametrize(
    "text",
    [
        'variable "db_name" {\n  type    = string\n  default = "orders"\n}',
        'variable "token_ttl" {\n  default = 3600\n}',
        "a parol was granted to the prisoner",
        "the senha field is required",
        ": RSA moonKey.pem",  # ipsec.secrets naming a key's file
        "echo ${TOKEN:0:8}",  # a substring of a variable
        "x = {password, token}",  # a set of two names
        'ENV.fetch("PUSHER_SECRET") { "" }',
        'summary = """A short description of the token endpoint."""',
        "compass=\\\n    north",
    ],
)
def test_look_alikes_of_these_forms_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
