"""Base64 of a short ``user:secret`` alone (issue 32, 24th pass).

``YWRtaW46YWRtaW4=`` is ``admin:admin``: an HTTP Basic or registry credential, as a docker
config or a curl command holds it. It was left alone in a sentence for two reasons: a
credential's secret had to be 6+ characters, and a stand-alone base64 token 16+ before its
padding. A secret of 4+ characters (a blank inside it, never at its ends) makes a credential
now, and a padded token of 12 to 15 characters is masked when it is one, and only then; base64
of a time, of a word or of a short sentence is left.
"""

from __future__ import annotations

import base64
import string

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

SENTENCE = "the value {} came back from the call"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "pair", ["admin:admin", "root:toor1", "deploy:pass", "Ghrdnhc:rqei englbf", "ci-bot:s3cr3t!"]
)
def test_a_basic_credential_alone_is_masked(pair: str) -> None:
    token = _b64(pair)
    assert scrub_secrets(SENTENCE.format(token)).text == SENTENCE.format(
        "[REDACTED:basic_credential]"
    )


@pytest.mark.parametrize(
    "plain", ["12:34:56", "a:b c", "hello world", "key:abc", "x: yz ", "abcdefghi", "2024-05-01"]
)
def test_base64_of_what_is_no_credential_is_left(plain: str) -> None:
    text = SENTENCE.format(_b64(plain))
    assert scrub_secrets(text).text == text


@given(
    user=st.text(alphabet=string.ascii_lowercase, min_size=3, max_size=8),
    secret=st.text(alphabet=string.ascii_letters + string.digits + "!#%&*", min_size=4, max_size=9),
)
def test_any_short_pair_encoded_is_masked_alone(user: str, secret: str) -> None:
    """Any such pair of 9+ bytes whose base64 is padded or 16+ long, and holds a digit (a token
    without one wakes no rule that judges a value alone: ``scrub_gate``), a secret not one
    character repeated (``0000``, a placeholder)."""
    token = _b64(f"{user}:{secret}")
    assume(len(set(secret)) > 1 and len(token.rstrip("=")) >= 12)
    assume("=" in token or len(token) >= 16)
    assume(any(c.isdigit() for c in token))
    assert token.rstrip("=") not in scrub_secrets(SENTENCE.format(token)).text
