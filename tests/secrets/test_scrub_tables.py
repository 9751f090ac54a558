"""Issue 32, eleventh pass: values a table's header names by column, a shell's or a config
file's assignment whose value reads as a name, and a token after a comma.

A CSV file, a tab-separated export, a Markdown table and a command's aligned listing name
their values by column, as an ``INSERT``'s column list does: no key stands next to the value.
Every row that reads as the header says has the value in a secret column masked, and the rest
of the table is kept. Values are drawn by hypothesis, never fixed fakes.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets
from tests.support.drawn import ALNUM, drawn, mixed

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# A typed password: a capitalised word, digits and a sign (no comma, pipe or blank).
TYPED = st.builds(
    lambda word, digits, sign: f"{word.capitalize()}{digits}{sign}",
    drawn(string.ascii_lowercase, 8),
    st.integers(10, 9999),
    st.sampled_from("!#%*+?"),
)

TABLES = {
    "CSV": "name,password,email\nada,{v},ada@example.com\nbob,{w},bob@example.com\n",
    "CSV, quoted": 'user,"api_token"\n"ada","{v}"\n"bob","{w}"',
    "CSV, header with blanks": "Name, Password, Notes\nGmail, {v}, personal\nBank, {w}, joint",
    "tab-separated": "user\tclient_secret\tcreated\nada\t{v}\t2024-01-01\nbob\t{w}\t2024-02-01",
    "Markdown": "| user | token |\n| --- | :---: |\n| ada | `{v}` |\n| bob | **{w}** |",
    "Markdown, a short rule": "| user | password |\n|---|---|\n| ada | {v} |\n| b | {w} |",
}


@pytest.mark.parametrize("name", sorted(TABLES))
@FEW
@given(value=TYPED, other=TYPED)
def test_a_value_in_a_secret_columns_place_is_masked(name: str, value: str, other: str) -> None:
    text = TABLES[name].format(v=value, w=other)
    out = scrub_secrets(text)
    assert value not in out.text, out.text
    assert other not in out.text, out.text
    assert out.kinds
    # The header and the other columns are kept.
    assert out.text.splitlines()[0] == text.splitlines()[0]
    first, second = (t.split("\n")[1] for t in (text, out.text))
    assert first[:3] == second[:3]  # the row's first cell


@FEW
@given(token=mixed(16))
def test_a_token_in_an_aligned_listing_is_masked(token: str) -> None:
    # kubeadm token list: the tokens under the TOKEN column, the columns padded to line up.
    first = f"{token[:6].lower()}.{token[6:].lower()}"
    text = (
        "TOKEN                     TTL   EXPIRES                USAGES\n"
        f"{first:<26}23h   2024-01-02T00:00:00Z   authentication,signing\n"
    )
    out = scrub_secrets(text)
    assert first not in out.text, out.text
    assert "23h   2024-01-02T00:00:00Z" in out.text


@pytest.mark.parametrize(
    "text",
    [
        "token,count\nthe,12\nunbelievable,3\n",  # a tokenizer's table lists words
        "key,value\nfoo,Xk29fLq8\n",  # "key" alone names no secret
        "password_hash,user\n$2b$12$abcdefghijklmnopqrstuv,ada\n",
        "name,password\nada,\nbob,$DB_PASSWORD\n",  # empty, a reference
        "user,password\nada,<password>\nbob,your_password_here\n",  # placeholders
        "name,password\nada,hidden\n",  # a status word
        "| user | password |\n| --- | --- |\n| ada | ******** |",
        "NAME    TYPE     DATA   AGE\ndb-pass Opaque   2      5d\n",  # no secret column
        "the password, the token and the key\nare, one, two",  # prose, not a header
        "if password and token:\n    check(a, b)",
        # code shaped as a header and its rows: indented, so no file's
        "        yield before, orig_token\n        yield from self.tokenize(var.base, VARIABLE)",
        "api_token,created\n1,2024-01-01,extra\n",  # a row that does not fit its header
    ],
)
def test_other_tables_and_placeholders_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_a_table_ends_where_its_rows_stop_reading_as_its_header() -> None:
    text = "user,password\nada,Summer2024!x\n\nnotes, more notes, and more\nkeep,Winter2024!y,z"
    out = scrub_secrets(text).text
    assert "Summer2024!x" not in out
    assert "notes, more notes, and more\nkeep,Winter2024!y,z" in out


# ------------------------------------------------------------------ an assignment's literal
# In a shell, a .env or a .properties file an unquoted value is a literal, even when it reads
# as a variable named for a secret (``SQLSpringPassword``); in code the same text is a variable.
NAMES = st.builds(
    lambda a, b: f"{a.capitalize()}{b.capitalize()}Password",
    drawn(string.ascii_lowercase, 5),
    drawn(string.ascii_lowercase, 6),
)
ASSIGNMENTS = {
    ".env": "DB_PASSWORD={}",
    "export": "export DB_PASSWORD={}",
    ".properties": "spring.datasource.password={}",
    "Dockerfile ENV": "ENV DB_PASSWORD={}",
    "compose environment list": "    environment:\n      - DB_PASSWORD={}",
}


@pytest.mark.parametrize("name", sorted(ASSIGNMENTS))
@FEW
@given(value=NAMES)
def test_a_name_like_literal_in_an_assignment_line_is_masked(name: str, value: str) -> None:
    out = scrub_secrets(ASSIGNMENTS[name].format(value))
    assert value not in out.text, out.text


@pytest.mark.parametrize(
    "text",
    [
        "f(password=adminPassword)",
        "    password=admin_password",  # a keyword argument on its own line
        "connect(user=user,\n        password=dbPassword)",
        "export TOKEN=GITHUB_TOKEN",  # a constant's name: a placeholder
        "PASSWORD=$DB_PASSWORD",
        "db.password = defaultPassword",
    ],
)
def test_a_variable_named_for_a_secret_in_code_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# ------------------------------------------------------------------ a token after a comma


@FEW
@given(token=drawn(ALNUM, 24).filter(lambda v: sum(c.isdigit() for c in v) >= 3))
def test_a_generated_token_after_a_comma_is_masked(token: str) -> None:
    # what a token alone in a sentence is judged, it is after a comma (2% of draws are not)
    assume(token not in scrub_secrets(f"the value {token} came back").text)
    for text in (f"ada,{token}", f"1,{token},2024-01-01", f"[ada,{token}]"):
        out = scrub_secrets(text)
        assert token not in out.text, out.text


@pytest.mark.parametrize(
    "text",
    [
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
        "a,manylinux_2_17_x86_64,b",
        "sha256,e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ],
)
def test_what_follows_a_comma_and_is_no_token_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text
