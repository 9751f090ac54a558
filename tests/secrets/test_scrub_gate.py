"""The scrubber's candidate gate and the shapes and syntaxes added with it (issue 18).

Rules that mask a value by its shape alone run only on texts that hold a token that could be a
generated credential (``scrub_gate.has_candidate``), and each checks its own value with the
same test; so the gate may skip them only where they would change nothing. The properties here
hold the gate to that, and the new shapes are masked with values hypothesis draws.
"""

from __future__ import annotations

import base64
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets import scrub
from kindling.secrets.scrub import scrub_secrets
from kindling.secrets.scrub_gate import has_candidate

ALNUM = string.ascii_letters + string.digits
URL = ALNUM + "_-"


def _random(alphabet: str, n: int) -> st.SearchStrategy[str]:
    # Drawn from a seed: every example looks as a generated credential does.
    def draw(seed: int) -> str:
        rng = random.Random(seed)
        return "".join(rng.choice(alphabet) for _ in range(n))

    return st.integers(0, 2**32).map(draw)


def _generated(alphabet: str, n: int) -> st.SearchStrategy[str]:
    # As issuers make them: at least one digit, both letter cases.
    return _random(alphabet, n).filter(
        lambda v: any(c.isdigit() for c in v) and v.lower() != v and v.upper() != v
    )


# ---------------------------------------------------------------- the gate


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.text(max_size=60), st.text(max_size=60))
def test_a_candidate_stays_a_candidate_inside_any_text(value: str, head: str, tail: str) -> None:
    # What lets a gated rule check only its value: the text around it never hides a run.
    if has_candidate(value):
        assert has_candidate(head + value + tail)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["token=", "key ", "secret: ", "s.", " ", "\n", "/", "+", "="])
        | _random(ALNUM + "+/=_-", 12)
        | st.text(max_size=8),
        max_size=8,
    ).map("".join)
)
def test_skipping_the_gated_rules_never_changes_a_result(text: str) -> None:
    every = scrub.run_rules(text, scrub.reference_woken(text))
    assert scrub.scrub_once(text) == every


@pytest.mark.parametrize(
    "text",
    [
        "let mut token = SessionAdapter::new();",
        "    let mut index = TokenFactory::new();\n    let mut secret = EventResolver::new();",
        "password: Option<String>,",
        "std::sync::atomic::Ordering::Relaxed",
        "internal/handlers/log_save.go:653: flag.token = BalanceValidator{}",
        "\tuser.token = UserClient{}\n\tmessage.stream = UserClient{}",
        "github.com/x/y v0.3.0 h1:g61tztE5qeGQ89tm6NTjjM9VPIm088od1l6aSorWRWg=",
        '"integrity": "sha512-Q2xpY2sgaGVyZSB0byBzZWUgdGhlIHdob2xlIGhhc2ggaW4gYmFzZTY0IQ=="',
        "see src/main/java/com/acme/billing/auth/Invoice.java:42 and ClientSerializer",
        "ENV PATH /usr/local/bin",
        "ARG NPM_TOKEN",
        "connect(host=h, password=password, token=token)",
        '<add name="x">plain</add>',
        'token = getToken("github-app-installation")',
        'findSecret("prod/db/password-rotation")',
        "password:\n  min_length: 8\n  required: true",
        "The user is identified by a token",
        "echo $TOKEN | docker login --password-stdin",
    ],
)
def test_code_digests_and_names_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# ---------------------------------------------------------------- shapes, random values


def _discord(seed: int) -> str:
    rng = random.Random(seed)
    bot_id = str(rng.randrange(10**17, 10**19)).encode()
    head = base64.urlsafe_b64encode(bot_id).decode().rstrip("=")
    stamp = "".join(rng.choice(URL) for _ in range(6))
    mac = "".join(rng.choice(URL) for _ in range(38))
    return f"{head}.{stamp}.{mac}"


def _bedrock(seed: int) -> str:
    rng = random.Random(seed)
    raw = b"BedrockAPIKey-" + bytes(rng.randrange(256) for _ in range(60))
    return "ABSK" + base64.b64encode(raw).decode()


def _basic(pair: tuple[str, str]) -> str:
    return base64.b64encode(f"{pair[0]}:{pair[1]}".encode()).decode()


def _mixed(value: str) -> bool:
    return (
        min(
            sum(c.isdigit() for c in value),
            sum(c.isupper() for c in value),
            sum(c.islower() for c in value),
        )
        >= 2
    )


SHAPES: dict[str, tuple[st.SearchStrategy[str], str]] = {
    "discord_bot_token": (st.integers(0, 2**32).map(_discord), "discord_bot_token"),
    "aws_bedrock_api_key": (st.integers(0, 2**32).map(_bedrock), "aws_bedrock_api_key"),
    "vault_token": (_generated(ALNUM, 24).map(lambda v: "s." + v), "vault_token"),
    "sourcegraph_token": (
        _generated("0123456789abcdefABCDEF", 40).map(lambda v: "sgp_" + v),
        "sourcegraph_token",
    ),
    "basic_credential": (
        st.tuples(_random(string.ascii_lowercase, 8), _generated(ALNUM + "!#%", 16)).map(_basic),
        "basic_credential",
    ),
    # The rule leaves a token with fewer than two digits, two capitals or two small letters (a
    # word-like run; scrub_rules): about 0.6% of real 32-byte keys. Drawn without those, or the
    # test fails on one seed in three.
    "base64 key": (
        _generated(ALNUM + "+/", 43)
        .filter(lambda v: "+" in v and _mixed(v))
        .map(lambda v: v + "="),
        "random_token",
    ),
    "mixed-case hex": (
        _generated("0123456789abcdefABCDEF", 40),
        "random_token",
    ),
}


# Derandomized: a rule that leaves low-entropy or word-like tokens misses a rare random value
# (about one 40-character mixed-case hex value in 150); CI must not turn on the seed.
@pytest.mark.parametrize("name", sorted(SHAPES))
@settings(max_examples=25, deadline=None, derandomize=True)
@given(data=st.data())
def test_each_new_shape_is_masked_bare_with_random_values(name: str, data: st.DataObject) -> None:
    strategy, kind = SHAPES[name]
    value = data.draw(strategy)
    result = scrub_secrets(f"the value {value} came back from the call")
    assert value not in result.text
    assert kind in result.kinds


@settings(max_examples=25, deadline=None)
@given(_generated(ALNUM + "!%", 14))
def test_secret_keys_in_more_syntaxes(value: str) -> None:
    texts = [
        f'<property name="dbPassword" value="{value}"/>',
        f"FROM python:3.12\nENV DB_PASSWORD {value}\nRUN make",
        f"curl --proxy-user admin:{value} --proxy https://proxy:8080 https://x",
        f"Set-Thing -SecretKey {value} -Force",
        f'<entry key="db.password">{value}</entry>',
        f"Server=db;Port=5432;User Id=app;Password={value};Database=shop;",
        f'ds.setPassword("{value}");',
        f"Client.builder().withApiKey('{value}').build()",
        f"db:\n  password:\n    {value}\n  user: app",
        f"mysql> CREATE USER 'app'@'%' IDENTIFIED BY '{value}';",
        f"net user deploy {value} /add",
        f"echo '{value}' | docker login -u me --password-stdin registry.example.com",
    ]
    for text in texts:
        assert value not in scrub_secrets(text).text, text


@settings(max_examples=25, deadline=None)
@given(_random("./" + ALNUM, 8), _generated("./" + ALNUM, 22))
def test_htpasswd_hashes_are_masked(salt: str, digest: str) -> None:
    for line in (f"admin:$apr1${salt}${digest}", f"admin:{{SHA}}{_basic(('', digest))[:27]}="):
        result = scrub_secrets(line)
        assert "password_hash" in result.kinds, line
