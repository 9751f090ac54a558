"""Issue 32, 30th pass: mail's logins, a Windows admin's scripts, payment gateways' samples and
monitoring configs (measured on four probe sets of those, half of each held out).

Masked: SMTP's ``AUTH LOGIN`` password line, Postfix's client password map, base64 of SASL
PLAIN and of a Windows answer file's password alone in a sentence, Mercado Pago's access
token. Left: cmd's arguments, a UUID's fill of x's, a secret's name in words, an instruction,
a vendor's key elided at its end, a label's string before code, a value given to a host's
key, a shell expansion's default in a URL's user, and a Sentry DSN's public key."""

from __future__ import annotations

import base64
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

ALPHA = string.ascii_letters + string.digits + "!#%*+-_."


def _password(seed: int) -> str:
    rng = random.Random(seed)
    return rng.choice(string.ascii_letters) + "".join(rng.choices(ALPHA, k=rng.randint(7, 19)))


PASSWORDS = st.integers(0, 2**32).map(_password)


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _answer(password: str, name: str = "Password") -> str:
    """A Windows answer file's encoding: base64 of UTF-16LE of the password and its name."""
    return base64.b64encode((password + name).encode("utf-16-le")).decode()


SESSIONS = [
    # A client's lines alone: the user on AUTH LOGIN's line, or on the next one.
    "EHLO mail\nAUTH LOGIN {user}\n{password}\nMAIL FROM: ada@example.com",
    "AUTH LOGIN\n{user}\n{password}\n",
    # swaks' arrows; a log's C: and S:; telnet's bare lines.
    " -> AUTH LOGIN\n<-  334 VXNlcm5hbWU6\n -> {user}\n<-  334 UGFzc3dvcmQ6\n -> {password}\n"
    "<-  235 2.7.0 Authentication successful",
    "C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6\nC: {user}\nS: 334 UGFzc3dvcmQ6\nC: {password}\n",
    "334 VXNlcm5hbWU6\r\n{user}\r\n334 UGFzc3dvcmQ6\r\n{password}\r\n235 ok",
]


@pytest.mark.parametrize("session", SESSIONS)
@settings(max_examples=15, deadline=None)
@given(password=PASSWORDS)
def test_an_smtp_auth_login_password_line_is_masked(session: str, password: str) -> None:
    text = session.format(user=_b64("ada@example.com"), password=_b64(password))
    out = scrub_secrets(text).text
    assert _b64(password) not in out, out
    assert ("AUTH LOGIN" in text) == ("AUTH LOGIN" in out)  # (its name is no password)


@settings(max_examples=30, deadline=None)
@given(password=PASSWORDS, name=st.sampled_from(["Password", "AdministratorPassword"]))
def test_an_answer_files_encoded_password_is_masked_alone(password: str, name: str) -> None:
    value = _answer(password, name)
    out = scrub_secrets(f"the value {value} came back from the call").text
    assert value not in out
    assert "[REDACTED:password]" in out


@settings(max_examples=30, deadline=None)
@given(password=PASSWORDS)
def test_sasl_plain_is_masked_alone_padded_or_not(password: str) -> None:
    value = _b64(f"\0ada@example.com\0{password}")
    out = scrub_secrets(f"the value {value} came back from the call").text
    assert value.rstrip("=") not in out, out


@settings(max_examples=30, deadline=None)
@given(password=PASSWORDS)
def test_a_postfix_password_map_line_is_masked(password: str) -> None:
    text = (
        "# /etc/postfix/sasl_passwd\n"
        f"[smtp.example.com]:587 ada@example.com:{password}\n"
        f"smtp.isp.example    ada:{password}x\n"
    )
    out = scrub_secrets(text).text
    assert password not in out, out
    assert "[smtp.example.com]:587 ada@example.com:" in out


MASKED = [
    ("AUTH LOGIN\ndXNlcg==\nc2VjcmV0cGFzcw==", "c2VjcmV0cGFzcw=="),
    # Mercado Pago's access tokens, in production and in tests.
    (
        "MERCADOPAGO_ACCESS_TOKEN=APP_USR-8497664518687621-112020-b8d6314ad9be3f5f9b55182b157921c1"
        "-2995219181",
        "b8d6314ad9be3f5f9b55182b157921c1",
    ),
    (
        "the value TEST-7464800925234011-120223-7d02abc7c21fe1264a3b62e4b0f84d83-662820140 came",
        "7d02abc7c21fe1264a3b62e4b0f84d83",
    ),
    # ConvertTo-SecureString's string, before or after its switches.
    ('ConvertTo-SecureString -AsPlainText -Force "P@ssw0rd1"', "P@ssw0rd1"),
    ('ConvertTo-SecureString "P@ssw0rd1" -AsPlainText -Force', "P@ssw0rd1"),
    ("ConvertTo-SecureString -String hunter2pw -AsPlainText -Force", "hunter2pw"),
    # Beside each look-alike below: a real value is still masked.
    ('password: "super_secret_password"', "super_secret_password"),
    ("DB_PASSWORD=hunter2...", "hunter2"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA"),
    ('X="postgresql://${POSTGRES_USER}:hunter2pass@db:5432/x"', "hunter2pass"),
    ('X="postgresql://${POSTGRES_USER:-app}:hunter2pass@db:5432/x"', "hunter2pass"),
    # A YAML value after its anchor (the anchor alone was masked).
    ('MYSQL_PASSWORD: &db-password "Hunter2pass"', "Hunter2pass"),
    ("db:\n  password: &dbpw hunter2pass\n", "hunter2pass"),
    ("password: !!str hunter2pass", "hunter2pass"),  # (a standard tag, read past as an anchor)
    ("password: &pw !!str hunter2pass", "hunter2pass"),
    (
        "the webhook https://discord.com/api/webhooks/1234567890/Xk9vR2mQ7tLpW4zNb8YcT3dF",
        "Xk9vR2mQ",
    ),
    (
        "DSN=https://9c993af516b43e8b3a89cfcc34f2af33:1c993af516b43e8b3a89@sentry.example.com/4",
        "1c993af5",
    ),
    ("git clone https://9c993af516b43e8b3a89cfcc34f2af33@github.com/o/r", "9c993af516b43e8b"),
    ("the value yycth24pjkywh27qA1B2 came back", "yycth24pjkywh27qA1B2"),
    ("rabbitmqctl add_user ada Zq8kd2mWp7", "Zq8kd2mWp7"),
    ("password: changeme", "changeme"),  # (Elasticsearch shipped it as a real default)
    ("SECRET_KEY=change-me", "change-me"),  # (scanners count its forms as secrets)
    # What john, hashcat and NetExec print of the passwords they found.
    (
        "Press 'q' or Ctrl-C to abort, almost any other key for status\n"
        "REGGIE1234ronnie (sql_svc)\ntequieromucho    (?)\n1g 0:00:00:07 DONE (2023-03-14)",
        "REGGIE1234ronnie",
    ),
    (
        "Press 'q' or Ctrl-C to abort, almost any other key for status\n"
        "REGGIE1234ronnie (sql_svc)\ntequieromucho    (?)\n1g 0:00:00:07 DONE (2023-03-14)",
        "tequieromucho",
    ),
    (
        "$ john --show hash.txt\n$krb5asrep$23$d.klay@absolute.htb@ABSOLUTE.HTB:Darkmoon248\n\n"
        "1 password hash cracked, 0 left",
        "Darkmoon248",
    ),
    ("hashcat -m 1000 hash.txt\n8846f7eaee8fb117ad06bdd830b7586c:Password123!", "Password123"),
    (
        "SMB  10.129.229.59  445  DC  [-] absolute.htb\\d.klay:Darkmoon248 STATUS_LOGON_FAILURE",
        "Darkmoon248",
    ),
    ('net.exe user u_kerberoast "P@ssw0rd" /add /domain', "P@ssw0rd"),
]


@pytest.mark.parametrize(("text", "secret"), MASKED)
def test_mail_logins_tokens_and_literals_are_masked(text: str, secret: str) -> None:
    out = scrub_secrets(text).text
    assert secret not in out, out


LEFT = [
    # AUTH LOGIN's name and user; a mechanism alone; prose about it.
    "AUTH LOGIN\n334 VXNlcm5hbWU6",
    "Use AUTH LOGIN to log in, then send your user name.",
    # Postfix's transport map: a transport's name and a next hop, no login.
    "# postfix transport\nexample.com  smtp:[relay.example.com]:587\n"
    "example.org  relay:mail.example.org\n.example.net lmtp:unix:private/dovecot-lmtp",
    # Base64 of UTF-16 "Password" alone: an answer file's empty password.
    "<Value>UABhAHMAcwB3AG8AcgBkAA==</Value>",
    # cmd's arguments and loop variables; a UUID's fill of x's.
    "set sPass=%3%\nset sPass=%~1\nfor %%i in (*) do set password=%%i",
    'postmark_api_token: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"',
    # ConvertTo-SecureString reading its string from the pipe.
    "$cred = ($clientSecret | ConvertTo-SecureString -AsPlainText -Force)",
    # A secret's name in words, an instruction; a value spelling its key and "Value".
    "razorpay.Client(auth=('key_id', 'key_secret'))",
    "$options->setSecretKey('secret-key');",
    '"client_secret": "mock-secret",',
    "smtpObj.login('bob@example.com', 'MY_SECRET_PASSWORD')",
    'password: "replace-with-a-long-random-secret"',
    "$headers = @{\n    'token' = 'TokenValue'\n}",
    # A vendor's key elided at its end after its prefix.
    "ADYEN_API_KEY=sk_test_51ABC123...",
    # Basic's credentials named, not given (no base64 holds "_").
    "Authorization: Basic AUTH_STRING",
    # A label's string before code.
    "console.log('DB_PASS:', process.env.DB_PASS ? 'SET' : 'NOT SET');",
    # A host given to its key; a number a vendor's rule matched (a Discord channel's id).
    'DiscordConsoleChannelId: "719008289261748295"',
    "CalThreadId=0*TopLevelTxnStartTime=1579e71daf8*Host=slcsbamqunphttpdeliveryd3001",
    # A shell expansion's default in a URL's user; its password a variable.
    'DATA_SOURCE_NAME="postgresql://${POSTGRES_USER:-orl}:$password@db:5432/orl"',
    # Sentry DSNs' public keys, on sentry.io and self-hosted.
    'dsn = "https://2ee2ecc719182a02f66fcca56bec72b7@o4506084321984512.ingest.sentry.io/45060892"',
    "SENTRY_DSN=https://9c993af516b43e8b3a89cfcc34f2af33@sentry.example.com/42",
    # Words that start with a vendor's prefix (pygments' COBOL lexer).
    "r'SUM|TAN|TEST-DATE-YYYYMMDD|TEST-DAY-YYYYDDD|TRIM|'",
    # Mercado Pago's public key.
    "NEXT_PUBLIC_MERCADOPAGO_PUBLIC_KEY=APP_USR-f5589935-8dea-4963-af32-b0f57a9ad7fb",
    # Another tool's "Ctrl-C to abort" and its progress; john's and NetExec's lines that print
    # no password; a hash alone.
    "Press Ctrl-C to abort\nDownloading (1/3)\nInstalling (2/3)",
    "Press 'q' or Ctrl-C to abort, almost any other key for status\n"
    "0g 0:00:00:05 DONE (2024-03-05 22:22) 0g/s 167.5p/s\nSession completed",
    "Loaded 1 password hash (bcrypt [Blowfish 32/64 X3])\nNo password hashes left to crack",
    "SMB  10.129.229.59  445  DC  [*] Windows 10.0 Build 17763 x64 (name:DC) (domain:corp)",
]


@pytest.mark.parametrize("text", LEFT)
def test_names_ids_hosts_and_public_keys_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
