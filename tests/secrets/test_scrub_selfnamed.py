"""Tokens that name themselves a credential, and dummies typed in a key's place (issue 32,
sixteenth pass): a credential's name among a token's words with a fill a name never has
(``scrub_selfnamed.selfnamed_rule``), and a vendor's prefix before any body
(``scrub_selfnamed.prefixed_rule``). Each must be masked alone in a sentence, where no key
names it; names in code, constants, paths and ids must stay.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

SENTENCE = "the value {} came back from the call"


def _masked_alone(token: str) -> str:
    out = scrub_secrets(SENTENCE.format(token)).text
    assert token not in out, out
    return out


@pytest.mark.parametrize(
    "token",
    [
        # A credential's name and digits ending it, a run of one character, or a chunk typed
        # three times.
        "jiraApiTokenFake00000001",
        "mixpanel_token_0000000000000000",
        "hcloudTOKENtestTOKENtestTOKENtestTOKEN1234",
        "BINANCEtestnetKEYaaaaaaaaaaaaaaaaaaaaaaaa",
        "BSaccessKEYtest12345",
        "HoneycombTestKey123456",
        "ipinfo-token-abcdef123456",
        "gumroad_access_token_TEST_ONLY_123456",
        "customerio-app-api-key-FAKE-abcdefg",
        "GUSTO-DEMO-SECRET-abc123-def456",
        "MIXPANEL_TOKEN_0000000000000000",
        # A part drawn as a key is, beside the credential's name.
        "KUCOIN-KEY-x4F0a1b2C3d4e5f6",
        "jenkins-api-token-11aa22bb33cc44dd55gg",
        # A vendor's prefix, then a body its own shape does not take.
        "xkeysib-EXAMPLE0000000000000000000000000000-AbCdEfGhIjKlMnOp",
        "glpat-0000000000000000EXAMPLE",
        "dckr_pat_FAKE-dockerhub-12345",
        "sk_clearbit_test_ffffffffffffffff",
        # Hex after a key's prefix is its key, not a digest.
        "sk_bd2acaf60c678160f7dcc2f575157a27",
        # So is a UUID (Checkout.com's secret key; issue 32, 24th pass).
        "sk_0b9b5db6-fabc-49d0-b68f-13343bb4f708",
        "sk_test_0b9b5db6-fabc-49d0-b68f-13343bb4f708",
    ],
)
def test_a_token_that_names_itself_and_is_filled_is_masked_alone(token: str) -> None:
    _masked_alone(token)


@pytest.mark.parametrize(
    "text",
    [
        # Names in code: a class with a number in it, a dotted name, a constant, a test.
        "def generate(cls) -> Ed25519PrivateKey:",
        "MLKEM1024P384PublicKey = rust_openssl.hpke.MLKEM1024P384PublicKey",
        "assert isinstance(response, socksio.socks5.SOCKS5UsernamePasswordReply)",
        "failing_examples = getattr(item, FAILING_EXAMPLES_KEY, None)",
        "export CLAUDE_CODE_MAX_OUTPUT_TOKENS_4096=1",
        "MAX_OUTPUT_TOKENS_4096 = 4096",
        "tests/test_auth.py::test_token_refresh_1234 PASSED",
        "fixture 'fake_token_factory' not found",
        "test_secret_rotation_1234 PASSED",
        "@pytest.fixture\ndef fake_api_key_1234(): ...",
        # A call, an assignment's target, a key of YAML, a path, a file.
        "get_api_key_v1234(config)",
        "api_key_2024 = load()",
        "secret_name_0001: prod-db",
        "open('fixtures/token_1234/a.json')",
        "see docs/api_keys_2024.md",
        # A key that names what it is for: a cache's, an idempotency key.
        "cache_key_9f8e7d6c5b4a3210fedc",
        "idempotency-key-7c1e0a9b3d2f4e6a",
        # Hex beside the name: a hash or an id (a migration's).
        "Applying migration 89956ba5301a_add_token_index",
        "KUCOIN-KEY-64f0a1b2c3d4e5f6",
        # A UUID after a word that is no key's prefix: a request's, a task's id.
        "request-0b9b5db6-fabc-49d0-b68f-13343bb4f708 done",
        "task_0b9b5db6-fabc-49d0-b68f-13343bb4f708 queued",
        # Prose and names without a fill.
        "the access_token_expiry setting",
        "loops_api_key_for_local_dev_only",
        "npm_config_cache_1234 is set by npm",
    ],
)
def test_names_constants_paths_and_ids_stay(text: str) -> None:
    assert scrub_secrets(text).text == text


# (Not ``test``: ``test_token_0001000100`` in small letters reads as a test's name, and is left.)
_PARTS = ("stripe", "acme", "app", "prod", "live", "client", "api", "access")
_NAMES = ("token", "secret", "key", "apikey", "password", "Token", "Secret", "Key", "KEY")


@given(st.randoms(use_true_random=False))
def test_a_drawn_vendor_name_and_fill_is_masked(rng: random.Random) -> None:
    """A vendor's word, a credential's name and a fill (digits ending it, or a run of one
    character), in any order of case and separator: masked alone."""
    sep = rng.choice("_-")
    words = [rng.choice(_PARTS), rng.choice(_NAMES)]
    fill = rng.choice(
        ["".join(rng.choices(string.digits, k=rng.randint(10, 14))), rng.choice("0aZ") * 12]
    )
    _masked_alone(sep.join([*words, fill]))


@given(
    st.lists(st.sampled_from(("get", "refresh", "user", "api", "token", "secret", "store")))
    .filter(lambda w: len("_".join(w)) >= 16)
    .map("_".join)
)
def test_a_snake_case_name_of_words_stays(name: str) -> None:
    """A name of words alone, with a credential's name among them, is never a dummy."""
    text = f"call {name} here"
    assert scrub_secrets(text).text == text
