"""Issue 32, 29th pass: what a command prints and what a sample shows (measured on tool output
pasted in issues, client apps' configs, auth libraries' tests and infrastructure files).

A value shown elided, a header dump's structure, a URL's login name, an id and a switch are
left; a literal a command is given by name, and a Basic credential a command prints, are
masked."""

from __future__ import annotations

import base64
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

LEFT = [
    # Elided: a prefix and the elision (``...``, ``…``, ``***``, four X's), maybe a short tail.
    'client = StripeClient("sk_test_...")',
    '"api_key": "sk_test_...",',
    'headers = {"Authorization": "Bearer eyJh...0M30"}',
    "export SLACK_BOT_TOKEN=xoxb-***",
    "export SLACK_BOT_TOKEN=xoxp-...",
    "    GOOGLE_API_KEY: AIzaXXXX #CHANGE YOUR API KEY",
    'OPENAI_API_KEY="sk-zhj0s***\u2026CMuq"',
    # Placeholders: "Your..." in camel case or capitals, a recording's fill, a message.
    "EXPO_PUBLIC_LIBSQL_AUTH_TOKEN=YourLibSqlAuthToken",
    "$ pulumi config set --secret digitalocean:token YOURDIGITALOCEANTOKEN",
    '{"client_secret": "client_secret_removed", "code": "oauth_code_removed"}',
    "{'Authorization': 'token private_token_removed', 'User-Agent': 'PyGithub/Python'}",
    "$ export NPM_TOKEN=npm_REST_OF_THE_TOKEN_HERE_I_PROMISE_IT_IS_CORRECT",
    # A header dump's structure (Go's http.Header), nushell's expression, a variable's name.
    'Request Headers: http.Header{"Authorization":[]string{"Bearer THIS_IS_THE_TOKEN"}, '
    '"User-Agent":[]string{"hcloud-cli/1.0"}}',
    '-H $"Authorization: Bearer ($env.CLOUDFLARE_API_TOKEN)"',
    "Authorization: Bearer GITHUB_TOKEN",
    # A URL's login name before its password (GitLab's deploy token user), even when empty.
    "git clone https://gitlab+deploy-token-497024:$TOKEN@gitlab.com/group/project.git",
    "fatal: Authentication failed for 'https://gitlab+deploy-token-497024:@gitlab.com/g/p.git/'",
    # Ids: a UUID given to an id's key near a vendor's name, Terraform's resource id.
    "heroku[router]: at=info host=app.herokuapp.com "
    "request_id=6e9f7cc6-07e6-4c59-b1d4-56f6c071ac50 status=200",
    "wireguard_asymmetric_key.example: Creation complete after 0s "
    "[id=lYUkV8tfAL+n3RuEJ+BwZkVu/8gKQVPFHbTi0MbJLT0=]",
    # A name given to code where a token goes.
    'auth = Auth.Token("access_token")',
    # Syncthing's device id (a certificate's digest); a DVC remote's key file, a switch.
    '<device id="5SYI2FS-LW6YAXI-JJDYETS-NDBBPIO-256MWBO-XDPXWVG-24QPUM4-PDW4UQU" name="nas">',
    "dvc remote modify --local myremote keyfile /path/to/keyfile",
    "dvc remote modify myremote ask_password true",
    "dvc remote modify --local myremote secret_access_key $AWS_SECRET_ACCESS_KEY",
    # Keyword arguments named user_... in code, with no login module in the text.
    'connect(user_name="ada", user_role="admin")',
    '    user_name="ada"\n    user_id="12";',
]


def test_a_password_file_hash_is_masked_whole() -> None:
    # Mosquitto writes salt and hash in base64 (``+``, ``=``): no piece of it is left.
    text = (
        "roger:$6$clQ4Ocu312S0qWgl$Cv2wUxgEN73c6C6jlBkswqR4AkHsvDLWvtEXZZ8NpsBLgP1WAo/qA"
        "+WXcmEN/mjDNgdUwcxRAveqNMs2xUVQYA==\n"
        "sub_client:$6$U+qg0/32F0g2Fh+n$fBPSkq/rfNyEQ/TkEjRgwGTTVBpvNhKSyGShovH9KHewsvJ731tD5"
        "Zx26IHhR5RYCICt0L9qBW0/KK31UkCliw=="
    )
    assert scrub_secrets(text).text == (
        "roger:[REDACTED:password_hash]\nsub_client:[REDACTED:password_hash]"
    )


@pytest.mark.parametrize("text", LEFT)
def test_elided_values_structures_names_and_ids_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


MASKED = [
    # Still masked beside each rule above; a vendor's prefix before a fill of x's too (scanners
    # count it as the token, tests/secrets/test_scrub_self_identifying.py).
    ("export SLACK_BOT_TOKEN=xoxb-2347015xxxxxxHa7ShEi", "xoxb-2347015xxxxxxHa7ShEi"),
    ("the value ghp_" + "x" * 36 + " came back", "ghp_" + "x" * 36),
    # A password and a pause is no elision: only a prefix's separator before the dots is.
    ("DB_PASSWORD=hunter2...", "hunter2"),
    ("the password is Zebra7pass\u2026", "Zebra7pass"),
    ('client = StripeClient("sk_test_4eC39HqLyjWDarjtT1zdp7dc")', "4eC39HqLyjWDarjtT1zdp7dc"),
    ("export SLACK_BOT_TOKEN=xoxb-2347015882-Ha7ShEiQ9vR2mQ7tLpW4zN", "Ha7ShEiQ9vR2mQ7tLpW4zN"),
    ("Authorization: Bearer Xk9vR2mQ7tLpW4zNb8YcT3dF", "Xk9vR2mQ7tLpW4zNb8YcT3dF"),
    (
        'http.Header{"Authorization":[]string{"Bearer Xk9vR2mQ7tLpW4zNb8YcT3dF"}}',
        "Xk9vR2mQ7tLpW4zNb8YcT3dF",
    ),
    (
        "https://Xk9vR2mQ7tLpW4zNb8YcT3dFa1b2c3d4e5f6:x-oauth-basic@github.com/o/r",
        "Xk9vR2mQ7tLpW4zNb8YcT3dFa1b2c3d4e5f6",
    ),
    (
        "https://2b7e151628aed2a6abf7158809cf4f3c:@github.com/o/r",
        "2b7e151628aed2a6abf7158809cf4f3c",
    ),
    (
        "heroku config:set HEROKU_API_KEY=6e9f7cc6-07e6-4c59-b1d4-56f6c071ac50",
        "6e9f7cc6-07e6-4c59-b1d4-56f6c071ac50",
    ),
    (
        "aws_iam_access_key.ci: Creation complete after 1s [id=AKIAIOSFODNN7EXAMPLE]",
        "AKIAIOSFODNN7EXAMPLE",
    ),
    ('auth = Auth.Token("Xk9vR2mQ7tLpW4zNb8YcT3dF")', "Xk9vR2mQ7tLpW4zNb8YcT3dF"),
    # A literal a command is given by name: kubectl's --from-literal, Helm's --set-literal.
    ("kubectl create secret generic db --from-literal=password=hunter2pass", "hunter2pass"),
    ("kubectl create secret generic db --from-literal password=supersecret", "supersecret"),
    ("helm install app ./chart --set-literal db.password=hunter2pass", "hunter2pass"),
    # OpenWrt's Wi-Fi key, a DVC remote's password: words and digits, still the key.
    ("config wifi-iface 'default_radio0'\n\toption key 'bpx168xiang'", "bpx168xiang"),
    ("uci set wireless.default_radio0.key='12345678'", "12345678"),
    ("dvc remote modify --local myremote password mypassword", "mypassword"),
    # Kafka's JAAS users, each on its line (a properties file's, continued by \\).
    (
        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\\n"
        '    username="admin" \\\n    password="admin-secret" \\\n'
        '    user_admin="admin-secret" \\\n    user_alice="alice-Secret7";',
        "alice-Secret7",
    ),
    # SASL PLAIN, base64 of NUL user NUL password (SMTP's AUTH PLAIN), alone in a sentence.
    (
        "the value bm9yZXBseQBub3JlcGx5AEFuZ2xpbmcxLVdvbWIyLVdyZWNraW5nNi1SZXNlYWw3 came back",
        "bm9yZXBseQBub3JlcGx5AEFuZ2xpbmcx",
    ),
    # A Basic credential a command prints: base64's output, padded or not.
    ('$ echo -n "joeuser:secretpass" | base64\nam9ldXNlcjpzZWNyZXRwYXNz\n', "am9ldXNlcjpzZWNy"),
    # Pulumi's encrypted config: the value, not the key's name.
    ("pulumi config set --secret redisPassword S3cr37Password", "S3cr37Password"),
    ("pulumi config set --secret password Hunter2hunter2", "Hunter2hunter2"),
    ("pulumi config set dbPassword S3cr37Password", "S3cr37Password"),
    ("pulumi config set mysql:password 'hunter 22' --secret", "hunter 22"),
]


@pytest.mark.parametrize(("text", "secret"), MASKED)
def test_values_beside_those_rules_are_still_masked(text: str, secret: str) -> None:
    assert secret not in scrub_secrets(text).text


@pytest.mark.parametrize(
    "text",
    [
        "pulumi config set --secret digitalocean:token dop_v1_Xk9vR2mQ7tLpW4zNb8YcT3dF",
        "pulumi config set --secret redisPassword S3cr37Password",
    ],
)
def test_pulumi_keeps_the_config_keys_name(text: str) -> None:
    out = scrub_secrets(text).text
    key = text.split()[4]
    assert f"--secret {key} [REDACTED:" in out, out


def test_a_plain_config_value_is_left() -> None:
    for text in ("pulumi config set aws:region us-east-1", "pulumi config set --path a.b c"):
        assert scrub_secrets(text).text == text


_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
# A generator's draw: 28 characters picked at random (a seed drawn, not the characters, so
# each example is as random as a real key).
_DRAW = st.integers(0, 2**32).map(
    lambda seed: "".join(random.Random(seed).choices(_ALPHABET, k=28))
)


@settings(max_examples=60, deadline=None)
@given(user=st.sampled_from(["joeuser", "ci-bot", "admin"]), password=_DRAW)
@example(user="joeuser", password="secretpassXq9vR2mQ7tLpW4z")
def test_a_basic_credential_printed_by_base64_is_masked(user: str, password: str) -> None:
    encoded = base64.b64encode(f"{user}:{password}".encode()).decode().rstrip("=")
    text = f'$ echo -n "{user}:$PW" | base64\n{encoded}\n'
    assert encoded not in scrub_secrets(text).text


@settings(max_examples=60, deadline=None)
@given(token=_DRAW)
def test_a_drawn_token_is_masked_whatever_its_header_dump(token: str) -> None:
    for text in (
        f'http.Header{{"Authorization":[]string{{"Bearer {token}"}}}}',
        f"kubectl create secret generic x --from-literal=api-token={token}",
        f"pulumi config set --secret app:apiToken {token}",
    ):
        assert token not in scrub_secrets(text).text, text


@pytest.mark.parametrize(
    ("text", "masked", "kept"),
    [
        # Issue 32, 29th pass: a tuple's values may be expressions; each name takes its own.
        ("user, password = 'ada', os.environ['PW']", None, "'ada'"),
        ("user, password = os.environ['U'], 'Hunter2x'", "Hunter2x", "os.environ['U']"),
        ('host, port, password = "db", 5432, "Hunter2x"', "Hunter2x", '"db"'),
        ('user, token = cfg.get("user", "ada"), "Xk9vR2mQ7tLpW4zNb8YcT3dF"', "Xk9v", '"ada"'),
    ],
)
def test_names_unpacked_from_values_and_expressions(
    text: str, masked: str | None, kept: str
) -> None:
    out = scrub_secrets(text).text
    assert kept in out, out
    if masked is None:
        assert out == text
    else:
        assert masked not in out, out


@settings(max_examples=60, deadline=None)
@given(
    password=_DRAW, first=st.sampled_from(["os.environ['U']", "cfg.user", "get_user()", "'ada'"])
)
def test_a_drawn_password_beside_an_expression_is_masked(password: str, first: str) -> None:
    text = f"    user, password = {first}, '{password}'\n    connect(user, password)\n"
    out = scrub_secrets(text).text
    assert password not in out, out
    assert first in out, out
