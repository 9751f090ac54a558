"""Masking of drawn values in a few forms: the tables of issue 32's eighth to twelfth passes.

    .venv/bin/python bench/secret_drawn.py [--draws N]

Each row draws ``N`` values (seed 1) from a generator's alphabet and writes each in the form,
then prints the share masked. To compare with another revision, run it with that revision's
``src`` first on ``PYTHONPATH``. Not a test: the tests pin the forms (``tests/secrets/``).
"""

from __future__ import annotations

import argparse
import base64
import random
import string
from collections.abc import Callable

from kindling.secrets.scrub import scrub_secrets

ALNUM = string.ascii_letters + string.digits
SIGNS = "!@#$%^&*"
# WordPress's generator (api.wordpress.org/secret-key) and Django's get_random_secret_key().
WORDPRESS = ALNUM + "!@#$%^&*()-_ []{}<>~`+=,.;:/?|"
DJANGO = string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)"
# Every printable sign but those a sentence cannot hold inside a token (quotes, backslash).
KEYBOARD = ALNUM + "".join(c for c in string.punctuation if c not in "\"'`\\")


def _manifest(secret: str) -> str:
    """A Kubernetes Secret's manifest holding ``secret`` (base64 in it), encoded whole."""
    inner = base64.b64encode(secret.encode()).decode()
    manifest = f"apiVersion: v1\nkind: Secret\ndata:\n  aws_secret_access_key: {inner}\n"
    return base64.b64encode(manifest.encode()).decode()


def _encoded(encode: Callable[[bytes], bytes], n: int) -> Callable[[random.Random], str]:
    """``encode`` (base64's, base32's) of ``n`` random bytes."""
    return lambda rng: encode(bytes(rng.randrange(256) for _ in range(n))).decode()


def _draw(alphabet: str, n: int) -> Callable[[random.Random], str]:
    return lambda rng: "".join(rng.choice(alphabet) for _ in range(n))


def _signed(n: int) -> Callable[[random.Random], str]:
    """A password drawn with one sign and one digit at least, starting with a letter."""

    def draw(rng: random.Random) -> str:
        chars = [rng.choice(SIGNS), rng.choice(string.digits)]
        chars += [rng.choice(ALNUM) for _ in range(n - 3)]
        rng.shuffle(chars)
        return rng.choice(string.ascii_letters) + "".join(chars)

    return draw


def _one_sign(n: int) -> Callable[[random.Random], str]:
    """A password drawn with one sign and two digits, starting with a letter."""

    def draw(rng: random.Random) -> str:
        chars = [rng.choice(SIGNS), *rng.choices(string.digits, k=2)]
        chars += [rng.choice(ALNUM) for _ in range(n - 4)]
        rng.shuffle(chars)
        return rng.choice(string.ascii_letters) + "".join(chars)

    return draw


def _with(signs: str, n: int) -> Callable[[random.Random], str]:
    """Letters and digits with each of ``signs`` once at least, starting with a letter."""

    def draw(rng: random.Random) -> str:
        chars = [*signs, *(rng.choice(ALNUM + signs) for _ in range(n - len(signs) - 1))]
        rng.shuffle(chars)
        return rng.choice(string.ascii_letters) + "".join(chars)

    return draw


def _letters_signed(n: int) -> Callable[[random.Random], str]:
    """Letters and base64url's ``-`` and ``_`` (one at least), no digit: a letters-only draw."""

    def draw(rng: random.Random) -> str:
        while True:
            value = "".join(rng.choice(string.ascii_letters + "-_") for _ in range(n))
            if value.strip("-_") == value and value.strip(string.ascii_letters):
                return value

    return draw


def _typed(rng: random.Random) -> str:
    """A password as people type one: a word's letters and two digits."""
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(7)) + str(
        rng.randrange(10, 99)
    )


SMALL = string.ascii_lowercase + string.digits
CAPITALS = string.ascii_uppercase + string.digits


def _groups(alphabet: str, count: int = 5) -> Callable[[random.Random], str]:
    """A product key: ``count`` groups of five joined by ``-``."""
    return lambda rng: "-".join(_draw(alphabet, 5)(rng) for _ in range(count))


ROWS: list[tuple[str, Callable[[random.Random], str], str]] = [
    ("40 letters and digits after `ACMECLOUD=`", _draw(ALNUM, 40), "ACMECLOUD={}"),
    ("40 base64 after `ACMECLOUD_KEY=`", _draw(ALNUM + "+/", 40), "ACMECLOUD_KEY={}"),
    ("24 base64, bare", _draw(ALNUM + "+/", 24), "the value {} came back"),
    ("20 hex in both cases, bare", _draw("0123456789abcdefABCDEF", 20), "the value {} came back"),
    (f"20 of letters, digits and `{SIGNS}`, bare", _draw(ALNUM + SIGNS, 20), "the value {} came"),
    (f"32 of letters, digits and `{SIGNS}`, bare", _draw(ALNUM + SIGNS, 32), "the value {} came"),
    # Issue 32's ninth pass.
    ("16 with one sign, after `token -> `", _signed(16), "token -> {}"),
    ("16 with one sign, in a Markdown table's password row", _signed(16), "| password | {} |"),
    ("40 base64, in `${AUTH:-...}`", _draw(ALNUM + "+", 40), "${{AUTH:-{}}}"),
    ("32 letters and digits after `密码=`", _draw(ALNUM, 32), "密码={}"),
    ("40 base64 after `session=`", _draw(ALNUM + "+", 40), "session={}"),
    ("typed, after `パスワードは`", _typed, "パスワードは {} です"),
    ("typed, after `Passwort: `", _typed, "Passwort: {}"),
    ("typed, at a sudo prompt", _typed, "[sudo] password for ada: {}"),
    ("typed, in redis.conf", _typed, "requirepass {}"),
    ("typed, printed by `op read`", _typed, "$ op read op://Private/db/password\n[completed]\n{}"),
    ("typed, printed by `echo $DB_PASSWORD`", _typed, "$ echo $DB_PASSWORD\n[completed]\n{}"),
    (
        "32 hex, printed by `openssl rand -hex 16`",
        _draw("0123456789abcdef", 32),
        "$ openssl rand -hex 16\n{}",
    ),
    (
        "typed, in a `vault kv get` table",
        _typed,
        "Key         Value\n---         -----\npassword    {}",
    ),
    (
        "typed, a Terraform output marked sensitive",
        _typed,
        '"db": {{"sensitive": true, "type": "string", "value": "{}"}}',
    ),
    # Issue 32's tenth pass.
    ("20 with one sign and two digits, bare", _one_sign(20), "the value {} came back"),
    ("24 with `+` and `-` among letters and digits, bare", _with("+-", 24), "the value {} came"),
    ("34 of the URL's unreserved signs with a `~`, bare", _with("~", 34), "the value {} came"),
    ('typed, in `Authorization: Token token="..."`', _typed, 'Authorization: Token token="{}"'),
    (
        "typed, wrapped onto the line after `String password =`",
        _typed,
        'String password =\n        "{}";',
    ),
    ("typed, an ARM template's parameter value", _typed, '"adminPassword": {{"value": "{}"}}'),
    (
        "typed, in an `<input>` after other attributes",
        _typed,
        '<input name="pw" type="x" value="{}">',
    ),
    ("typed, after `bindpw` in ldap.conf", _typed, "binddn cn=admin\nbindpw {}"),
    (
        "typed, piped into `gh auth login --with-token`",
        _typed,
        "echo {} | gh auth login --with-token",
    ),
    ("typed, in a form body encoded whole", _typed, "body=password%3D{}%26grant_type%3Dpassword"),
    (
        "typed with a sign, after `+password:` in a diff",
        lambda rng: _typed(rng) + "!",
        "@@ -1 +1,2 @@\n+password:\n+  {}",
    ),
    (
        "16 small letters in four groups, after `app password is`",
        lambda rng: " ".join(_draw(string.ascii_lowercase, 4)(rng) for _ in range(4)),
        "my app password is {}",
    ),
    (
        "typed, in an `INSERT`'s password column",
        _typed,
        "INSERT INTO users (name, password) VALUES ('ada', '{}');",
    ),
    ("typed with a sign, in `login: ada / ...`", lambda rng: _typed(rng) + "!", "login: ada / {}"),
    (
        "typed, echoed by Python's REPL for `settings.DB_PASSWORD`",
        _typed,
        ">>> settings.DB_PASSWORD\n'{}'",
    ),
    # Issue 32's eleventh pass.
    ("typed, in a CSV's password column", _typed, "name,password,email\nada,{},a@example.com"),
    (
        "typed, in a Markdown table's token column",
        _typed,
        "| user | token |\n| --- | --- |\n| ada | {} |",
    ),
    (
        "a name-like literal in an `.env` line",
        lambda rng: _draw(string.ascii_lowercase, 6)(rng).capitalize() + "Password",
        "DB_PASSWORD={}",
    ),
    ("24 letters and digits after a comma", _draw(ALNUM, 24), "ada,{},2024-01-01"),
    ("typed, after `influx setup -u admin -p`", _typed, "influx setup -u admin -p {} -o org"),
    (
        "typed, after `security add-generic-password ... -w`",
        _typed,
        "security add-generic-password -s api -w {}",
    ),
    ("typed, echoed into `~/.config/app/token`", _typed, "echo {} > ~/.config/app/token"),
    (
        "typed, `mc alias set`'s secret key",
        _typed,
        "mc alias set s3 https://s3.example.com AKIA {}",
    ),
    ('typed, Java\'s `"...".toCharArray()` argument', _typed, 'ks.load(in, "{}".toCharArray());'),
    ("typed, `new Sequelize(db, user, ...)`", _typed, "new Sequelize('app', 'ada', '{}', {{}})"),
    ('typed, `cx_Oracle.connect("user/...@db")`', _typed, 'cx_Oracle.connect("scott/{}@orcl")'),
    ("typed, after a dot leader (`password.....`)", _typed, "HikariConfig - password........{}"),
    (
        "typed, in psql's table",
        _typed,
        " id | client_secret\n----+---------------\n  3 | {}\n(1 row)",
    ),
    ("typed, after `Passwort für den Server ist`", _typed, "Mein Passwort für den Server ist {}"),
    (
        "24 letters and digits printed by `base64 -d`",
        _draw(ALNUM, 24),
        '$ echo "$ENCODED" | base64 -d\n{}',
    ),
    # Issue 32's twelfth pass.
    (
        "64 of WordPress's alphabet, `define('NONCE_KEY', ...)`",
        _draw(WORDPRESS.replace("'", ""), 64),
        "define('NONCE_KEY',        '{}');",
    ),
    (
        "64 of WordPress's alphabet, `define('AUTH_SALT', ...)`",
        _draw(WORDPRESS.replace("'", ""), 64),
        "define('AUTH_SALT',        '{}');",
    ),
    ("50 of Django's alphabet, alone", _draw(DJANGO, 50), "the value {} came back from the call"),
    (
        "a Kubernetes Secret's manifest holding 40 of base64, encoded whole",
        lambda rng: _manifest(_draw(ALNUM + "+/", 40)(rng)),
        "# encoded\n{}",
    ),
    # Issue 32's nineteenth pass: generators' outputs, bare.
    ("`openssl rand -base64 12`, bare", _encoded(base64.b64encode, 12), "the value {} came back"),
    ("base64 of 14 random bytes, bare", _encoded(base64.b64encode, 14), "the value {} came back"),
    ("a TOTP seed (base32 of 10 bytes), bare", _encoded(base64.b32encode, 10), "the value {} came"),
    ("16 of the whole keyboard (no quote or `\\`), bare", _draw(KEYBOARD, 16), "the value {} came"),
    ("20 of the whole keyboard (no quote or `\\`), bare", _draw(KEYBOARD, 20), "the value {} came"),
    ("24 of the whole keyboard (no quote or `\\`), bare", _draw(KEYBOARD, 24), "the value {} came"),
    # Issue 32's twentieth pass: draws of letters alone, bare.
    ("24 small letters, bare", _draw(string.ascii_lowercase, 24), "the value {} came back"),
    ("24 capitals, bare", _draw(string.ascii_uppercase, 24), "the value {} came back"),
    ("21 of letters, `-` and `_`, bare", _letters_signed(21), "the value {} came back"),
    ("32 of letters, `-` and `_`, bare", _letters_signed(32), "the value {} came back"),
    # Issue 32's 21st pass: short draws of one case, keys printed in groups, bare.
    ("16 small letters and digits, bare", _draw(SMALL, 16), "the value {} came back"),
    ("16 capitals and digits, bare", _draw(CAPITALS, 16), "the value {} came back"),
    ("18 small letters and digits, bare", _draw(SMALL, 18), "the value {} came back"),
    ("16 letters and digits, bare", _draw(ALNUM, 16), "the value {} came back"),
    ("five groups of five capitals and digits, bare", _groups(CAPITALS), "the value {} came"),
    ("four groups of five small letters and digits, bare", _groups(SMALL, 4), "the value {} came"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--draws", type=int, default=300)
    args = parser.parse_args()
    print("| drawn value, form | masked |\n| --- | ---: |")
    for name, draw, form in ROWS:
        rng = random.Random(1)
        values = [draw(rng) for _ in range(args.draws)]
        masked = sum(v not in scrub_secrets(form.format(v)).text for v in values)
        print(f"| {name} | {masked / len(values):.0%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
