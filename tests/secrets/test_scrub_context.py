"""Trust v3 (issue 18): secrets found by what surrounds them, with random values each run.

Every shape the issue lists as reaching disk is masked here with values hypothesis draws
(no fixed fake can be special-cased), and the false positives it lists are left intact.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets
from kindling.secrets.scrub_context import credential_like
from tests.support.drawn import ALNUM, drawn, mixed

HEX = "0123456789abcdef"
UUID = st.uuids().map(str)

SHAPES: dict[str, tuple[st.SearchStrategy[str], str]] = {
    "aws configure set": (
        drawn(ALNUM + "+/", 40),
        "$ aws configure set aws_secret_access_key {} --profile dev",
    ),
    "docker config auth": (
        mixed(24).map(lambda v: base64.b64encode(f"me:{v}".encode()).decode()),
        '{{"auths": {{"https://index.docker.io/v1/": {{"auth": "{}"}}}}}}',
    ),
    ".netrc": (drawn(HEX, 40), "machine api.example.com\n  login ada\n  password {}\n"),
    ".netrc one line": (drawn(HEX, 32), "machine x login y password {}"),
    "PsExec -p": (mixed(14), r"PsExec.exe \\web01 -u CORP\admin -p {} cmd.exe"),
    "Connect-VIServer -Password": (
        mixed(14),
        "Connect-VIServer -Server vc01 -User admin -Password {}",
    ),
    "vault operator unseal": (drawn(ALNUM + "+/", 44), "vault operator unseal {}"),
    # base64 keys end in padding: a value is not cut at "=" there
    "vault operator unseal, padded": (
        drawn(ALNUM + "+/", 43).map(lambda v: v + "="),
        "vault operator unseal {}",
    ),
    "vault login, padded": (
        drawn(ALNUM + "+/", 42).map(lambda v: v + "=="),
        "vault login -no-print {}\n",
    ),
    "mailgun key-": (drawn(HEX, 32), "using key-{} for mail"),
    "azure SAS sig": (
        mixed(43),
        "https://acct.blob.core.windows.net/c/f.txt?sv=2021-08-06&ss=b&srt=o&sp=r"
        "&se=2026-01-01T00:00:00Z&sig={}%3D",
    ),
    "discord webhook": (
        drawn(ALNUM + "_-", 68),
        "curl -X POST https://discord.com/api/webhooks/112233445566778899/{} -d @m.json",
    ),
    "token as URL user": (
        drawn(HEX, 40),
        "git clone https://{}:x-oauth-basic@github.com/acme/app.git",
    ),
    "heroku key, then its copy": (
        UUID,
        "HEROKU_API_KEY={0}\nheroku: using key {0}",
    ),
    "ssh-less flag --token": (mixed(30), "deploy --token {} --env prod"),
    "query ?code=": (mixed(32), "GET /callback?state=x&code={} HTTP/1.1"),
    "near a key word": (mixed(32), "stripe secret key is {} (rotate monthly)"),
}


# A value whose secret name is given by a sibling field, a list under a secret key, a key
# with another separator or suffix, a value inside markup: the syntaxes, not the samples.
SYNTAXES: dict[str, str] = {
    "JSON key/value pair": '{{"key": "db.password", "value": "{}", "info": "x"}}',
    "CloudFormation parameter": '{{"ParameterKey": "DbPassword", "ParameterValue": "{}"}}',
    "HCL name/value": '{{ name = "API_TOKEN", value = "{}" }}',
    "YAML key/value": "secrets:\n  - key: pro_password\n    value: {}\n",
    "Hadoop property": "<property>\n  <name>fs.s3a.secret.key</name>\n  <value>{}</value>",
    "XML key/value siblings": "<entry>\n  <key>PASS</key>\n  <value>{}</value>\n</entry>",
    "YAML list under passwords": 'passwords:\n  - "{0}"\n  - other{0}\n',
    "JSON list under api_keys": '{{"api_keys": ["{0}", "second-{0}"]}}',
    "XML plural element": "<db_passwords>{}</db_passwords>",
    "dotted key": "api.key={}",
    "pass ending a key": "dbpass: {}",
    "query parameter userpass": "jdbc:mysql://db/app?user=admin&amp;userpass={}",
    "env line inside markup": "<inlist>DB_PASSWORD={}</inlist>",
    "Terraform variable default": 'variable "db_password" {{\n  default = "{}"\n}}',
    "Gradle argument": "credentials {{\n    username 'ci'\n    password '{}'\n}}",
    "Gradle argument, blocks on one line": 'signingConfigs {{ release {{ storePassword "{}" }} }}',
    "property list": "<dict>\n\t<key>APIKey</key>\n\t<string>{}</string>\n</dict>",
    "webhook key": "teams-webhook: https://example.webhook.office.com/webhookb2/{}",
}


@pytest.mark.parametrize("name", sorted(SYNTAXES))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=mixed(16))
def test_a_secret_named_in_any_syntax_is_masked(name: str, value: str) -> None:
    out = scrub_secrets(SYNTAXES[name].format(value)).text
    assert value not in out
    assert "[REDACTED:" in out


@pytest.mark.parametrize("password", ["Summer2024Secure!", "CorrectHorseBattery9", "hunter2 x"])
def test_a_dsl_argument_inside_blocks_opened_on_its_line_is_masked(password: str) -> None:
    """Gradle's one-line ``release { storePassword "x" } }``: a password made of words is
    masked by its place, not by its look (issue 32, eighth pass)."""
    for text in (
        f'signingConfigs {{ release {{ storePassword "{password}" }} }}',
        f"release {{ keyPassword '{password}' }}\n",
    ):
        out = scrub_secrets(text).text
        assert password not in out
        assert "Password" in out  # the key is kept
    code = f'if (ok) {{ password "{password}" + suffix }}'  # an expression, not an argument
    assert scrub_secrets(code).text == code


@pytest.mark.parametrize("password", ["Summer2024Secure!", "CorrectHorseBattery9"])
@pytest.mark.parametrize(
    "template",
    [
        '#define WIFI_PASSWORD "{}"',  # an Arduino sketch
        '#  define API_KEY "{}"',
        '#define kApiKey @"{}"',  # Objective-C
        'NSString *const kApiKey = @"{}";',
        'var password = @"{}";',  # C#'s verbatim string
        "<dict>\n  <key>Password</key>\n  <string>{}</string>\n</dict>",  # a property list
    ],
)
def test_a_password_in_c_objective_c_and_plist_syntax_is_masked(
    template: str, password: str
) -> None:
    """Issue 32, eighth pass: found by probing with passwords made of words; the value has no
    look of its own, only its place says it is a secret."""
    out = scrub_secrets(template.format(password)).text
    assert password not in out
    assert "[REDACTED:" in out


@pytest.mark.parametrize(
    "text",
    [
        '#define PASSWORD_PROMPT "Enter password"',
        '#define TOKEN_SEP "-"',
        "#define MAX_TOKEN 12",
        "<key>CFBundleName</key>\n<string>Kindling</string>",
        "<key>NSCameraUsageDescription</key><string>token scan</string>",
        'email = @"ada@example.com"',
    ],
)
def test_macros_and_plist_entries_that_are_no_secret_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@settings(max_examples=25, deadline=None)
@given(user=st.sampled_from(["me", "AWS", "ci-bot"]), password=mixed(14))
def test_base64_of_user_and_password_is_masked_bare(user: str, password: str) -> None:
    token = base64.b64encode(f"{user}:{password}\n".encode()).decode()
    # The random-token rules wake on a digit or a base64 sign; letters alone wake nothing.
    assume(any(c.isdigit() or c in "+/=" for c in token))
    out = scrub_secrets(f"the value {token} came back from the call").text
    assert token not in out


@settings(max_examples=25, deadline=None)
@given(body=drawn(ALNUM + "+/", 64))
def test_a_key_block_that_is_not_public_is_masked(body: str) -> None:
    for label in ("RSA KEY", "SSH2 ENCRYPTED KEY", "EC PRIVATE KEY"):
        out = scrub_secrets(f'"key": "-----BEGIN {label}-----{body}-----END {label}-----"').text
        assert body not in out
    public = f"-----BEGIN RSA PUBLIC KEY-----\n{body}\n-----END RSA PUBLIC KEY-----"
    assert scrub_secrets(public).text == public


@pytest.mark.parametrize("name", sorted(SHAPES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_listed_shape_is_masked_with_random_values(name: str, data: st.DataObject) -> None:
    strategy, template = SHAPES[name]
    value = data.draw(strategy)
    out = scrub_secrets(template.format(value)).text
    assert value not in out
    assert "[REDACTED:" in out


@settings(max_examples=50, deadline=None)
@given(drawn(HEX, 40))
def test_the_token_is_masked_in_userinfo_not_the_oauth_word(token: str) -> None:
    out = scrub_secrets(f"https://{token}:x-oauth-basic@github.com/o/r").text
    assert out == "https://[REDACTED:url_token]:x-oauth-basic@github.com/o/r"


@settings(max_examples=50, deadline=None)
@given(mixed(32), st.integers(2, 5))
def test_every_copy_of_a_masked_value_in_one_text_is_masked(value: str, copies: int) -> None:
    text = f"API_TOKEN={value}\n" + "".join(f"echo {value} > /tmp/t{i}\n" for i in range(copies))
    out = scrub_secrets(text).text
    assert value not in out
    assert out.count("[REDACTED:") == copies + 1


@pytest.mark.parametrize(
    "text",
    [
        '    "@inquirer/password": "^5.0.12",',
        '        "node_modules/@inquirer/password": {\n          "version": "5.0.12",',
        "\tToken: *githubScanToken,",
        "\tclient := New(Config{Token: *githubScanToken, Secret: &cfg.secret})",
        "gpg: key 3327FA703D84ADAA marked as ultimately trusted",
        "cache-key: Linux-pip-b43223a60d8d8e038da7b6dd6e1512d8cce74f9af1087e2105870c88c2415ea2",
        "class KeySerializationEncryption(metaclass=abc.ABCMeta):",
        "private_key = ed25519.Ed25519PrivateKey.from_private_bytes(secret)",
        "golang.org/x/oauth2 v0.0.0-20180821212333-d2e6202438be/go.mod"
        " h1:N/0e6XlmueqKjAGxoOufVs8QHGRruUQn6yWY3a++T0U=",
        "https://user:x-oauth-basic@github.com/o/r",
        '"minipass": "^5.0.0 || ^6.0.2 || ^7.0.0"',
        'userpass = b":".join((to_bytes(username), to_bytes(password)))',
        'userpass = username + b":" + password',
        "bypass: true\ncompass = north12\nrenderPass = device.createRenderPass(info)",
        '{"key": "timeout", "value": "30s"}\n<name>fs.defaultFS</name><value>hdfs://nn</value>',
        "tokens:\n  - IDENT\n  - NUMBER\n",
        '"api_keys": ["${API_KEY}", "<your-key>"]',
    ],
)
def test_the_known_false_positives_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_every_public_certificate_is_left_and_a_private_key_beside_it_is_masked() -> None:
    import certifi

    bundle = Path(certifi.where()).read_text("ascii")
    assert bundle.count("BEGIN CERTIFICATE") > 100
    assert scrub_secrets(bundle).text == bundle
    first = bundle[bundle.index("-----BEGIN CERTIFICATE-----") :]
    cert = first[: first.index("-----END CERTIFICATE-----") + 25]
    key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"
    out = scrub_secrets(f"{cert}\n{key}\npassword=Sup3rS3cret!").text
    assert cert in out
    assert "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" not in out
    assert "Sup3rS3cret!" not in out


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("KeySerializationEncryption", False),
        ("sha256_digest_value", False),
        ("rust_openssl.dh.DHPrivateNumbers", False),
        ("3327FA703D84ADAA", False),
        ("1.2.3-rc.4+build.5", False),
        ("src/kindling/capture", False),
        ("832d2129-a846-4e27-99f4-7004b6ad53ef", True),
        ("9f2c41d87be05a63c1e4f9b2d7a80c35e6f14b92", True),
        ("B2nM4vWcRxKp9ZjH7tLyAqY5fDg8sU3wE6PmNkTuSaV", True),
    ],
)
def test_credential_like_tells_generated_values_from_names(value: str, expected: bool) -> None:
    assert credential_like(value) is expected


@pytest.mark.parametrize("key", ["api.key", "app.key", "STRIPE_KEY", "x-api-key"])
def test_a_short_generated_value_after_a_key_ending_in_key_is_masked(key: str) -> None:
    # 16 characters: judged as a draw (short_generated), as a bare token of that length is.
    out = scrub_secrets(f"{key}=UORY2CPzIo1PL2Pw").text
    assert "UORY2CPzIo1PL2Pw" not in out


@pytest.mark.parametrize("value", ["manylinux2014x86", "SortKeyForRows12"])
@pytest.mark.parametrize("key", ["build.key", "config.key"])
def test_a_named_value_after_a_key_ending_in_key_is_kept(key: str, value: str) -> None:
    assert scrub_secrets(f"{key}={value}").text == f"{key}={value}"


def test_a_drawn_value_after_a_key_of_another_kind_is_kept() -> None:
    assert "UORY2CPzIo1PL2Pw" in scrub_secrets("cache.key=UORY2CPzIo1PL2Pw").text
