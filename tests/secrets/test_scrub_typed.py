"""Issue 32, masking line: a value given explicitly to a secret word is masked even when it
looks typed in sequence (``scrub_typed.typed_key``).

A memory tool is not a scanner: masking a dummy (``SECRET abcdefghijklmnopqrst``) costs the
user nothing, leaving a real value costs a lot. So after a secret word and a blank, ``=``,
``:`` or a quote, a run of 16+ letters and digits that is spelled from no words is masked,
random or not; names, phrases, digests, numbers and references are left, and so is a value
that other words separate from the secret word. The look-alikes below come from real text
(the virtualenv's site-packages, gcloud's and node's documentation, a JVM changelog).
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets import scrub
from kindling.secrets.scrub import scrub_secrets
from kindling.secrets.scrub_gate import (
    LETTER_RUN,
    NO_CANDIDATE,
    gate,
    is_gated,
    is_woken_by_typed_key,
)
from kindling.secrets.scrub_typed import typed_key

LOWER = string.ascii_lowercase


def _slice(start: int, n: int, upper: bool, backwards: bool) -> str:
    # Typed along the alphabet from any letter, wrapping: abcdef..., zyxwv..., QRSTUV...
    letters = LOWER[::-1] if backwards else LOWER
    run = "".join(letters[(start + i) % 26] for i in range(n))
    return run.upper() if upper else run


SEQUENCES = st.builds(_slice, st.integers(0, 25), st.integers(16, 40), st.booleans(), st.booleans())
# A short unit typed again and again, cut to 16-40 characters (not hex of one case: that is
# a digest's shape, left).
REPEATS = st.builds(
    lambda unit, n: (unit * 40)[:n],
    st.sampled_from(["xyz", "Asdf1234", "qwer", "wxyz12", "Zz9"]),
    st.integers(16, 40),
)


def _random_lower(n: int) -> st.SearchStrategy[str]:
    def draw(seed: int) -> str:
        rng = random.Random(seed)
        return "".join(rng.choice(LOWER) for _ in range(n))

    return st.integers(0, 2**32).map(draw)


# A secret word, then the value: a keyword and a blank, an assignment, a YAML key, a quote.
EXPLICIT = [
    "mailgun SECRET {}",
    "acme PRIVATE_KEY {}",
    "acmeTOKEN {}",
    "use the access token {} for the staging API",
    "acme PRIVATE KEY={}",
    "acme SECRET KEY {}",
    "STRIPE_KEY={}",
    "app.key: {}",
    "api_token: {}",
    "secret: {}",
    "token `{}`",
    'auth "{}"',
]


@pytest.mark.parametrize("template", EXPLICIT)
@settings(max_examples=20, deadline=None)
@given(value=st.one_of(SEQUENCES, REPEATS))
def test_a_dummy_given_to_a_secret_word_is_masked(template: str, value: str) -> None:
    result = scrub_secrets(template.format(value))
    assert value not in result.text
    assert result.kinds


# Derandomized: about 2 random draws of letters in 100 are spelled like words (``wordy``).
@pytest.mark.parametrize("template", EXPLICIT)
@settings(max_examples=10, deadline=None, derandomize=True)
@given(value=_random_lower(20))
def test_a_key_of_small_letters_only_given_to_a_secret_word_is_masked(
    template: str, value: str
) -> None:
    assert value not in scrub_secrets(template.format(value)).text


@pytest.mark.parametrize(
    "text",
    [
        # Names and references after a secret word: types, constants, identifiers.
        "def _generic_cache_get(key: PreloadingAttemptKey) -> type[BaseModel] | None:",
        "private_key: CertificateIssuerPrivateKeyTypes,",
        'INVALID_SIGNATURE = "InvalidSignature"',
        'LOCAL_NETWORK_ACCESS = "localNetworkAccess"',
        "* **util**: pass invalidSubtypeIndex instead of trimmedSubtype to error",
        "and returns the value of key `browserAttachTimeout`",
        "clientSecret = 'YOUR_CLIENT_SECRET_GOES_HERE_0123456789'",
        "token: ${ACME_TOKEN_FROM_THE_ENVIRONMENT}",
        # Words: a phrase is no key.
        "pass responsibilities to the caller",
        "access: internationalization",
        "const key = 'keykeykeykeykeykeykeykey';",
        # Digests and numbers (one-case hex) and a cache key.
        "signature 3f2a9c0d4e5b6a7f",
        "key 1234567890123456",
        "cache_key=abcdefghijklmnopqrstuvwx",
        # Other words between the secret word and the value: the sentence talks about it (a
        # value typed along the alphabet is masked even bare: test_scrub_compared.DUMMIES).
        "token for the app qzxkvjmwbrtnplhgfdcs",
        # Too short, and letters the ASCII key alphabet does not hold.
        "SECRET abcdefghijklmno",
        "SECRET ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑ",
        # Long names that now wake the gated rules, which leave them as before.
        "This command prints a list of Google Cloud user access bindings, `gcpUserAccessBindings`,",
        "parameter_name: vpcFlowLogsConfigsId",
        "+ 459542 AsyncMiddleManServlet race condition on first download content",
        "PydanticModelPrivateAttr = object()",
        "is_resident_credential=bool(json['isResidentCredential']),",
    ],
)
def test_names_words_digests_and_references_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("abcdefghijklmnopqrst", True),
        ("zyxwvutsrqponmlkjihg", True),
        ("Asdf1234asdf1234asdf1234", True),
        ("QWERTYUIOPASDFGHJKL", True),
        ("xyzxyzxyzxyzxyzxyz12", True),
        ("abcdefghijklmno", False),  # 15
        ("PreloadingAttemptKey", False),
        ("internationalization", False),
        ("AUTHENTICATIONREQUIRED", False),
        ("0123456789abcdef0123", False),
        ("0123456789ABCDEF0123", False),
        ("1234567890123456", False),
        ("abcd_efgh_ijkl_mnop", False),
        ("abcdefghijklmnopqrst.", False),
        ("", False),
    ],
)
def test_typed_key_tells_a_key_or_its_dummy_from_a_name(token: str, expected: bool) -> None:
    assert typed_key(token) is expected


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.text(max_size=60), st.text(max_size=60))
def test_what_a_value_wakes_it_wakes_inside_any_text(value: str, head: str, tail: str) -> None:
    # What lets near_key and the weak-key rule check only their value (the gate's property).
    if gate(value) != NO_CANDIDATE:
        assert gate(head + value + tail) >= gate(value)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["SECRET ", "key=", "token: ", "_KEY ", " ", "\n", "`", "="])
        | SEQUENCES
        | st.text(max_size=8),
        max_size=8,
    ).map("".join)
)
def test_skipping_the_gated_rules_never_changes_a_typed_key_result(text: str) -> None:
    every = scrub.run_rules(text, scrub.reference_woken(text))
    assert scrub.scrub_once(text) == every


@settings(max_examples=200, deadline=None)
@given(st.one_of(SEQUENCES, REPEATS, _random_lower(16), st.text(min_size=16, max_size=40)))
def test_every_typed_key_wakes_the_rules_that_mask_it(value: str) -> None:
    # With a digit it is a candidate; of letters only, a run of 16+ letters.
    if typed_key(value):
        assert gate(value) != NO_CANDIDATE


def test_a_long_name_wakes_only_the_rules_of_typed_keys() -> None:
    # A text with no candidate but a 16-letter run skips the other gated rules (their scan
    # of ~600 keywords; a long CamelCase name is in one short text in thirty).
    text = "private AsyncMiddleManServlet proxy; // race condition on first download"
    assert gate(text) == LETTER_RUN
    rules = scrub._compiled()
    for number in scrub._woken(text, text.lower()):
        rule = rules[number][2]
        assert not is_gated(rule) or is_woken_by_typed_key(rule)
    assert scrub.scrub_once(text).text == text
