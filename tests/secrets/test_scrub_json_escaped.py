"""Issue 32, thirteenth pass: text JSON-encoded, as coding agents' transcripts, hook payloads
and logs hold it (a probe of 147 excerpts of Claude Code, Codex, Gemini CLI, OpenCode, Cursor
and MCP payloads, written by a helper that had not read the scrubber; values typed or drawn
here). A JSON string's escapes (``\\"``, ``\\n``, ``\\/``, ``\\uXXXX``) hide a key's quotes and
a line's end from every rule: the text is also read decoded, once and, for JSON inside a
JSON string, twice, and each value found there is masked as the text holds it.
Also: the password of a Samba ``-U 'DOMAIN\\\\user%x'`` whose backslash a shell doubled, the
plaintext given to ``ansible-vault encrypt_string``, and a ``.pgpass`` line a tool printed
into a quoted string.
"""

from __future__ import annotations

import json

import pytest

from kindling.secrets.scrub import scrub_secrets

TYPED = ("Winterorange2024!", "correct-Horse-7", "pa$$W0rd-2019")
DRAWN = ("Xk9mPq2Lr7aZbQ3vNc8wYt5uJhG4sB6d", "q7Hw2ZpL9xKc4VbN8mRt3YsD6fGj1AeU")


def encoded(text: str, times: int = 1) -> str:
    """``text`` as a JSON string holds it (without the outer quotes), ``times`` deep."""
    for _ in range(times):
        text = json.dumps(text)[1:-1]
    return text


PASSWORDS = (
    'cat > config/local.json <<EOF\n{\n  "db": {"user": "app", "password": "{}"}\n}\nEOF',
    "APP_ENV=staging\nQUEUE=sqs\nDB_PASSWORD={}\n",
    'export PGPASSWORD="{}" && pg_dump -h localhost shop',
)
KEYS = (
    'SERPAPI_KEY = os.environ.get("SERPAPI_KEY", "{}")\n',
    '{\n  "Jwt": {\n    "Issuer": "https://auth.example.com",\n    "SigningKey": "{}"\n  }\n}',
    'setx OPENAI_API_KEY "{}"',
    'export GITLAB_TOKEN="{}" && glab mr list',
)
CASES = [(f, v) for f in PASSWORDS for v in TYPED] + [(f, v) for f in KEYS for v in DRAWN]


@pytest.mark.parametrize("times", [1, 2])
@pytest.mark.parametrize(("file", "value"), CASES)
def test_a_secret_in_json_encoded_text_is_masked(file: str, value: str, times: int) -> None:
    plain = file.replace("{}", value)
    assert value not in scrub_secrets(plain).text  # (the form itself is read when plain)
    written = encoded(plain, times)
    line = f'{{"type":"tool_use","name":"Bash","input":{{"command":"{written}"}}}}'
    out = scrub_secrets(line).text
    assert encoded(value, times) not in out
    assert "[REDACTED:" in out


def test_a_value_holding_a_quote_is_masked_as_the_text_escapes_it() -> None:
    line = encoded('{"db": {"user": "app", "password": "say\\"cheese\\"42"}}', 1)
    assert "cheese" not in scrub_secrets(line).text


def test_what_is_left_of_an_encoded_text_is_the_text_as_written() -> None:
    line = encoded('{"db": {"user": "app", "password": "Winterorange2024!"}}', 2)
    assert scrub_secrets(line).text == line.replace("Winterorange2024!", "[REDACTED:password]")


@pytest.mark.parametrize(
    "text",
    [
        '{"command":"cat ~/.pgpass","output":"localhost:5432:*:postgres:Winterorange2024!\\n"}',
        "smbclient //fs01.example.com/finance -U 'ACME\\\\svc_backup%Winterorange2024!' -c ls",
        "smbclient //fs01/finance -U ACME\\\\svc%Winterorange2024! -c ls",
        "ansible-vault encrypt_string 'Winterorange2024!' --name 'db_pass'",
        '{"type":"text","text":"deploy key for the VPS:\\nXk9mPq2Lr7aZbQ3vNc8wYt5uJhG4sB6d"}',
    ],
)
def test_places_met_in_payloads_are_masked(text: str) -> None:
    out = scrub_secrets(text).text
    assert "Winterorange2024!" not in out
    assert "Xk9mPq2Lr7aZbQ3vNc8wYt5uJhG4sB6d" not in out


@pytest.mark.parametrize(
    "text",
    [
        encoded('{"name": "kindling", "version": "1.4.2", "private": true}', 2),
        'print("Hello,\\nworld")  # one line of code',
        "copy C:\\new\\notes.txt D:\\backup\\notes.txt",
        '{"command":"ls -la","output":"total 8\\ndrwxr-xr-x 2 ada ada 4096 .\\n"}',
        '{"url":"https:\\/\\/example.com\\/docs\\/index.html","title":"Caf\\u00e9"}',
    ],
)
def test_encoded_text_without_a_secret_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# A tool's coloured output as a transcript stores it: its escape codes JSON-escaped
# (``\u001b[33m``), so the code's last letter touches the value (``m`` before ``sk-``) until
# the text is read decoded and without its colours (issue 32, fourteenth pass). Each colour is
# kept as the text holds it.
HEX_KEY = "615ef152bf865a131f88b23571dc4ee6"
COLOURED = [
    (f">>>\x1b[93msk-{HEX_KEY}\x1b[0m<<<", f"sk-{HEX_KEY}", "\\u001b[93m"),
    (
        "\x1b[32mAPI_TOKEN\x1b[0m=\x1b[33mFa4kE0x9Zq8Lm2Np7Rt5\x1b[0m",
        "Fa4kE0x9Zq8Lm2Np7Rt5",
        "\\u001b[33m",
    ),
    (f"\x1b[1mpassword:\x1b[0m {HEX_KEY}", HEX_KEY, "\\u001b[1m"),
]


@pytest.mark.parametrize(("plain", "secret", "colour"), COLOURED)
def test_a_key_in_coloured_output_json_encoded_is_masked(
    plain: str, secret: str, colour: str
) -> None:
    text = json.dumps({"type": "tool_result", "content": plain})
    out = scrub_secrets(text).text
    assert secret not in out, out
    assert colour in out, out


def test_coloured_output_without_a_secret_is_left() -> None:
    text = json.dumps({"content": "\x1b[32mPASSED\x1b[0m tests/test_app.py::test_login_flow_2024"})
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize("value", ["correct-Horse-7", "Winterorange2024!", "hunter2hunter2"])
def test_a_typed_password_found_in_a_decoded_reading_is_masked_as_written(value: str) -> None:
    # A value that reads as a name is not copied elsewhere (it is likelier a word there), but
    # one a rule masked in the decoded reading is masked where the text holds it, escaped.
    plain = f"\x1b[32mpassword\x1b[0m: \x1b[33m{value}\x1b[0m"
    text = json.dumps({"type": "tool_result", "content": plain})
    out = scrub_secrets(text).text
    assert value not in out, out
    assert "\\u001b[33m[REDACTED:password]\\u001b[0m" in out


@pytest.mark.parametrize(
    "text",
    [
        # (a docstring of requests' ``utils.py``: the escaped quote asks for the JSON reading)
        "    >>> parse_list_header('token, \"quoted value\"')\n"
        "    ['token', 'quoted value']\n"
        '        return params["charset"].strip("\'\\"")',
    ],
)
def test_a_name_a_decoded_reading_masks_is_not_copied(text: str) -> None:
    # A decoding moves quotes: a rule may then read a name or words as a value. Letters alone
    # are not copied back from a reading (the text's copies are the name again).
    out = scrub_secrets(text).text
    assert "parse_list_header('token, \"quoted value\"')" in out, out


@pytest.mark.parametrize(
    "text",
    [
        # (hypothesis, ``test_idempotent``: the key was masked only by a second scrub, once the
        # private block's lines were one mask and the text read as JSON)
        "<PRIVATE>\nline one\nline two\n</PRIVATE>\\nAKIAIOSFODNN7EXAMPLE",
        'starting\nlog: {\\"level\\": \\"info\\"}\\nAKIAIOSFODNN7EXAMPLE\ndone',
        'x = 1\nmsg = "header\\nAKIAIOSFODNN7EXAMPLE"\ny = 2',
    ],
)
def test_a_token_after_an_escaped_newline_in_a_text_of_many_lines_is_masked(text: str) -> None:
    """A line that reads as a JSON string's inside is decoded even among plain lines: after
    ``\\n`` the token starts a word."""
    out = scrub_secrets(text).text
    assert "AKIAIOSFODNN7EXAMPLE" not in out, out
    assert scrub_secrets(out).text == out
