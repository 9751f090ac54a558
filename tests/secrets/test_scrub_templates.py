"""Issue 32, 28th pass: a format's template and code are left, a value quoted by its format is
masked (measured on vulnerable training apps, notebooks and connection strings)."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

LEFT = [
    # A URL's or a DSN's user and password that name their fields: the format's template.
    "user:password@tcp(db:3306)/app?parseTime=true",
    "dialect+driver://username:password@host:port/database",
    "url = 'postgres://USER:PASSWORD@HOST:PORT/DATABASE?pgbouncer=true'",
    # Pairs whose values are their keys in capitals: metavariables.
    "sqlserver://HOST[:PORT];database=DATABASE;user=USER;password=PASSWORD;encrypt=true",
    'password="PASSWORD"',
    # Code: a function expression, a tuple unpacked from a variable.
    "var isValidPassword = function (user, password) {",
    "    host, port, username, password = ftp_writable",
    "    a.user, a.password := creds",
    # Placeholders: a name ending in HERE, a fill of X's after a label, padded.
    '    api_key=\\"PINECONE_API_KEY_HERE\\",\\n',
    "SharedAccessKeyName=test;SharedAccessKey=THISISATESTKEYXXXXXXXXXXXXXXXXXXXXXXXXXXXX=",
    # An address by its format, after a key that names a token.
    "const BeeTokenAddress = '0x36435796Ca9be2bf150CE0dECc2D8Fab5C4d6E13'",
    # A format's field in braces, and a template's.
    'conn = f"Server=db;Password={password};"',
    "Server=db;Password={cfg.db_password};Encrypt=true",
    "Server=db;Password={0};",
    'print(f"password={password!r}")',
    'log.debug(f"Server=db;Password={self.password:>8};")',
    # A port after a user that is an email address is no password.
    "https://ada@example.com:8080@evil.com/",
    "app.use(cookieParser(process.env.COOKIE_SECRET))",
    # A phrase that says it is a placeholder (WordPress' sample config).
    "define( 'AUTH_KEY', 'put your unique phrase here' );",
    "the `password` field is `required`",
    # Look-alikes of configs and builds: a JVM option, a solution's GUIDs, a setting named by
    # its attribute ``key``, jasypt's ciphertext, Ruby's interpolation, constants, a label.
    "# org.gradle.jvmargs=-Xmx2048m -XX:MaxPermSize=512m -XX:+HeapDumpOnOutOfMemoryError",
    "\t\t{3789F337-2AD0-46D0-B21C-AA2CBF9B2336}.Debug|Any CPU.ActiveCfg = Debug|Any CPU",
    '<add key="ForUserIds" value="066d5a34-ccb8-46db-ab4d-ce716272a65e;9f43b9fa-39c9" />',
    "spring.datasource.password=ENC(+UVRlay47cQ8h4HDBhhlwrHcLi0xklHs4CFMRxJwtJE=)",
    "redis-cli -u 'redis://:#{Rails.configuration.redis[:password]}@#{host}' --rdb x",
    "rclone serve s3 --auth-key ACCESS_KEY_ID,SECRET_ACCESS_KEY remote:path",
    "auth.new_password = New password\nauth.forgot_password = Forgot password?",
    # A constant's name in capitals, given in code; a shell's variable spliced into braces.
    '        "weaviate_api_key = WEAVIATE_KEY\\n",',
    "efbundle --connection 'Data Source=db;User ID=ada;Password={;'$Credential;'here'}'",
]


@pytest.mark.parametrize("text", LEFT)
def test_templates_and_code_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


MASKED = [
    # A connection string's value in braces runs to its closing brace (``}}`` is one brace).
    ("Server=db;Password={ThisIsA:SecurePassword;};Encrypt=true", "SecurePassword"),
    ("jdbc:sqlserver://db;user=u;password={pasS}};word={qq};encrypt=true", "word={qq"),
    ("Server=db;Pwd={zaC4.FkTToK7h};", "zaC4.FkTToK7h"),
    # .pgpass with escaped colons, usql's password file with its scheme first.
    ("db.example.com:5432:app:ada:pw\\:with\\:colons\n", "with"),
    ("postgres:*:*:*:postgres:P4ssw0rd", "P4ssw0rd"),
    # The word as a URL's password, unless the user is its field's word too.
    ("DATABASE_URL=postgres://ada:password@localhost:5432/app", "password@"),
    ("redis://:password@localhost:6379/0", "password@"),
    # A URL whose user is an email address, its @ raw (an SMTP URL's).
    ("EMAIL_URL=smtp+tls://ada@example.com:Zq8kd2mWpR4tYx7N@smtp.example.com:587", "Zq8kd2mW"),
    # A README's code span after the password word; a JWT section's bare key.
    ("Every existing user has password `1234qwer`.", "1234qwer"),
    ('"JwtSettings": {\n  "Issuer": "api",\n  "Key": "iwanttokillamonkey69420"\n}', "monkey"),
    # Express signs its cookies with cookieParser's first argument, whatever it reads.
    ("  app.use(cookieParser('kekse'))", "kekse"),
    # A value that is not its key's word, beside the template's.
    ("user=USER;password=Tr0ub4dor3xq;", "Tr0ub4dor3xq"),
    # A constant's name is a literal in a .env line (no code there).
    ("API_KEY=WEAVIATE_KEY", "WEAVIATE_KEY"),
    # Names unpacked from literals: each takes the literal in its place (not the user's).
    ("user, password = 'ada', 'Tr0ub4dor3xq'", "Tr0ub4dor3xq"),
    ('    host, port, user, password = "db", "5432", "app", "Zq8kd2mWp"\n', "Zq8kd2mWp"),
    # A call's arguments on their own line are no tuple: the key's literal is its own.
    ('conn = connect(\n    host, port, password="hunter2x", timeout=3,\n)', "hunter2x"),
    # A setting named for a secret by its attribute ``key``; a passphrase with the word in it.
    ('<add key="ApiKey" value="066d5a34-ccb8-46db-ab4d-ce716272a65e" />', "066d5a34"),
    ("db.password = Hunter2 Zebra", "Hunter2"),
    # A private key is no address, though it starts with 0x.
    (
        "private_key = '0x" + "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'",
        "4c08",
    ),
]


@pytest.mark.parametrize(("text", "secret"), MASKED)
def test_values_quoted_by_their_format_are_masked(text: str, secret: str) -> None:
    out = scrub_secrets(text).text
    assert secret not in out, out
    assert "[REDACTED:" in out


_PASSWORD = st.text(
    st.sampled_from("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%&*+-.:;=?@^_~"),
    min_size=8,
    max_size=24,
).filter(lambda p: any(c.isdigit() for c in p) and len(set(p)) >= 4 and p[0] not in "{$%:")


@settings(max_examples=60, deadline=None)
@given(password=_PASSWORD)
def test_a_drawn_password_in_braces_is_masked(password: str) -> None:
    # ODBC, ADO.NET and SQL Server's JDBC quote a value holding ``;`` or ``}`` in braces.
    text = f"Driver={{ODBC Driver 18}};Server=db;Uid=app;Pwd={{{password}}};Encrypt=yes"
    out = scrub_secrets(text).text
    assert password not in out, out
    assert "Server=db;Uid=app;Pwd={" in out


def test_a_copy_is_never_masked_inside_a_mask() -> None:
    # ``password]`` masked first is a piece of ``[REDACTED:url_password]``: its copies are
    # masked, the mask's own words are not.
    text = "form `socks5h://[username[:password]@]host[:port]`, again password]"
    out = scrub_secrets(text).text
    assert out.count("[REDACTED:url_password]") == 2, out
    assert "url_[" not in out


# Values spelled from the words of masks (``password]``, ``url_``), in places that mask them,
# then copied: each copy is masked, and no mask is cut or nested.
_MASK_WORDS = st.lists(
    st.sampled_from(["password", "url_", "]", "token", "_", "x9"]),
    min_size=1,
    max_size=4,
).map("".join)
_SHAPES = st.sampled_from(
    ["://[user[:{}@]host", "://ada:{}@db", "password={} ", 'token: "{}"', "secret {}\n"]
)


@settings(max_examples=300, deadline=None)
@given(shape=_SHAPES, value=_MASK_WORDS, times=st.integers(1, 3))
@example(shape="://ada:{}@db", value="url_password]", times=1)
def test_every_mask_is_whole(shape: str, value: str, times: int) -> None:
    out = scrub_secrets(shape.format(value) + f" {value}" * times).text
    for at in [i for i in range(len(out)) if out.startswith("[REDACTED:", i)]:
        assert re.match(r"\[REDACTED:[a-z0-9_]+\]", out[at:]), out


@settings(max_examples=60, deadline=None)
@given(
    password=_PASSWORD, quote=st.sampled_from(["'", '"']), end=st.sampled_from(["\n", "\r\n", ""])
)
def test_each_unpacked_name_takes_its_own_literal(password: str, quote: str, end: str) -> None:
    # Alone, or a line of a function (not only the text's last line).
    line = f"    user, password = {quote}ada{quote}, {quote}{password}{quote}"
    text = f"def login():{end}{line}{end}    return connect(user, password){end}" if end else line
    out = scrub_secrets(text).text
    assert password not in out, out
    assert f"{quote}ada{quote}" in out
