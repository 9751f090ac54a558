"""A value with blanks after a secret's key (issue 32, seventeenth pass:
``secrets/scrub_envline.py``). In a ``.env`` file or a config line the whole rest of the line
is the value (a passphrase); on a command line the first blank ends it, and the command that
follows is kept: masking it lost what was run (``PGPASSWORD=x psql -h db`` became
``PGPASSWORD=[REDACTED:password]``).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

DRAWN = "Xk9mQ2vLp7wZr4Tn"


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("PGPASSWORD={} psql -h db -U app", DRAWN),
        ("TF_VAR_db_password={} terraform plan", "hunter2"),
        ("DB_PASSWORD={} npm test", "hunter2"),
        ("export API_KEY={} && npm start", DRAWN),
        ("API_KEY={} ./run.sh --fast", DRAWN),
        ("API_KEY={} | tee out.txt", DRAWN),
        ("SENTRY_AUTH_TOKEN={} sentry-cli releases new v1", DRAWN),
        ("DB_PASSWORD={} python manage.py migrate", "s3cr3t-pw"),
    ],
)
def test_the_command_after_an_environment_prefix_is_kept(line: str, value: str) -> None:
    out = scrub_secrets(line.format(value)).text
    assert value not in out, out
    head, tail = line.split("{}")
    assert out.startswith(head), out
    assert out.endswith(tail), out  # the command, as it was


@pytest.mark.parametrize(
    "line",
    [
        "PASSWORD=correct horse battery staple",
        "SECRET_KEY=my secret phrase here",
        # A passphrase's word may be a program's name: after a first word, it is still the phrase.
        "PASSWORD=correct yarn battery staple",
        "SECRET_KEY=my make believe world",
        "passphrase = tr0ub4dor zebra kettle mosaic",
    ],
)
def test_a_passphrase_is_masked_to_the_lines_end(line: str) -> None:
    out = scrub_secrets(line).text
    key = line.split("=", 1)[0]
    assert out.startswith(f"{key}="), out
    masked = out[len(key) + 1 :].strip()
    assert masked.startswith("[REDACTED:"), out
    assert masked.endswith("]"), out  # nothing of the phrase after the mask


_WORDS = ("correct", "horse", "battery", "staple", "yarn", "helm", "poetry", "docker", "make")
_PROGRAMS = ("psql -h db", "npm test", "terraform plan", "docker compose up", "gh pr list")


@given(
    words=st.lists(st.sampled_from(_WORDS), min_size=3, max_size=6),
    key=st.sampled_from(("PASSWORD", "DB_PASSWORD", "SECRET_KEY", "API_TOKEN")),
)
def test_no_word_of_a_passphrase_is_left(words: list[str], key: str) -> None:
    out = scrub_secrets(f"{key}={' '.join(words)}").text
    assert out == f"{key}=[REDACTED:{out.split('[REDACTED:')[1]}", out


@given(
    value=st.text(
        alphabet="ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789",
        min_size=16,
        max_size=32,
    ).filter(lambda s: sum(c.isdigit() for c in s) >= 3),
    command=st.sampled_from(_PROGRAMS),
)
def test_a_drawn_value_before_a_command_is_masked_and_the_command_kept(
    value: str, command: str
) -> None:
    out = scrub_secrets(f"DB_PASSWORD={value} {command}").text
    assert value not in out, out
    assert out.endswith(f"] {command}"), out


@pytest.mark.parametrize(
    "text", ["token=key ", "PASSWORD=abc \t", "SECRET=x \nnext", "API_KEY=a  "]
)
def test_a_value_followed_by_blanks_alone_is_read_without_error(text: str) -> None:
    """A hypothesis case: the line's value held a blank and nothing after it."""
    out = scrub_secrets(text).text
    assert out == scrub_secrets(out).text
