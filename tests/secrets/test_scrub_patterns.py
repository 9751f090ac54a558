"""Issue 32, 26th pass: what a scanner, a validator or a template holds in a secret's place is
left (``secrets.scrub_patterns``, ``scrub_values``' references), and a password a program
prints for its user, a key given to an encoder and a password glued to a Chinese word are
masked."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

ALNUM = string.ascii_letters + string.digits


def _draw(seed: int, n: int = 32) -> str:
    rng = random.Random(seed)
    while True:
        value = "".join(rng.choice(ALNUM) for _ in range(n))
        if sum(map(str.isdigit, value)) >= 3 and not value.isalpha():
            return value


# ------------------------------------------------------------------ patterns are left

PATTERNS = [
    '"Stripe Live Key": "sk_live_[0-9a-zA-Z]{24}",',
    '"GitHub Token": "ghp_[A-Za-z0-9]{36}"',
    "slack_token: 'xox[baprs]-[0-9]{10,13}-[0-9]{10,13}-[a-zA-Z0-9]{24}'",
    'TWILIO_KEY_PATTERN = r"SK[0-9a-fA-F]{32}"',
    '"Generic Secret": "(?i)secret[\\\\s[[:punct:]]]{1,4}[0-9a-zA-Z-_]{16,64}",',
    '"Google OAuth Token": "ya29\\\\.[0-9A-Za-z\\\\-_]+",',
    'api_key_regex = "(?i)api[_-]?key"',
    '  webhook: "https://hooks.slack.com/services/T[A-Z0-9]{8}/B[A-Z0-9]{8}/[a-zA-Z0-9]{24}"',
    '"Mailgun Key": "key-[0-9a-z]{32}"',
    "password_rule = '^\\d{6}$'",
    '"RSA private key": "-----BEGIN RSA PRIVATE KEY-----",',
    "    body = body.replace('-----BEGIN PRIVATE KEY-----', '')",
    'key = pem.replace("-----BEGIN EC PRIVATE KEY-----", "").replace("\\n", "")',
]


@pytest.mark.parametrize("text", PATTERNS)
def test_a_scanners_pattern_or_signature_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_a_list_of_signatures_is_left_whole() -> None:
    text = "\n".join(
        f'\t"{name}": "-----BEGIN {label}-----",'
        for name, label in (("RSA key", "RSA PRIVATE KEY"), ("PGP key", "PGP PRIVATE KEY BLOCK"))
    )
    text += '\n\t"AWS key id": "AKIA[0-9A-Z]{16}"'
    assert scrub_secrets(text).text == text


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), pattern=st.sampled_from(PATTERNS[:9]))
def test_a_secret_beside_a_pattern_is_still_masked(seed: int, pattern: str) -> None:
    secret = _draw(seed)
    for text in (
        f'{pattern}\n"api_key": "{secret}"',
        f'"api_key": "{secret}"\n{pattern}',
        f"{pattern} token={secret}",
    ):
        out = scrub_secrets(text).text
        assert secret not in out, text
        assert "[REDACTED:" in out


@settings(max_examples=60, deadline=None)
@given(
    value=st.text(
        alphabet=string.ascii_letters + string.digits + "!#$%&*+-=?@^_~", min_size=12, max_size=40
    ),
    form=st.sampled_from(['password = "{}"', "API_KEY={}", "token: {}", "the value {} came back"]),
)
def test_the_pattern_check_changes_nothing_without_a_patterns_marks(value: str, form: str) -> None:
    # No class, count, flag or escape in the value: the same output as with the check off.
    import kindling.secrets.scrub as scrub
    import kindling.secrets.scrub_patterns as patterns

    text = form.format(value)
    scrub._CLEAN.clear()
    with_check = scrub_secrets(text)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(patterns, "a_pattern", lambda *_: False)
        scrub._CLEAN.clear()
        without = scrub_secrets(text)
    scrub._CLEAN.clear()
    assert with_check.text == without.text


@pytest.mark.parametrize(
    "text",
    [
        # A key's header with its body after it, as joined strings or lines: a key.
        'const k = "-----BEGIN RSA PRIVATE KEY-----" +\n'
        '  "MIIEpAIBAAKCAQEAx7v0w9gYb3Hq2cL8dJmR5nT1u"',
        '"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ"',
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB",
        # A header alone, outside a string (``head -1 id_rsa``): scanners count it.
        "-----BEGIN RSA PRIVATE KEY-----",
        # A whole block whose body is a name of letters: still a key's block.
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx7v0w9gYb3Hq2cL8dJmR5nT1u\n"
        "-----END RSA PRIVATE KEY-----",
    ],
)
def test_a_private_key_is_still_masked(text: str) -> None:
    assert "[REDACTED:private_key]" in scrub_secrets(text).text


def test_a_block_around_code_is_left() -> None:
    text = (
        'privateKeyContent = privateKeyContent.replace("-----BEGIN PRIVATE KEY-----", "");\n'
        'privateKeyContent = privateKeyContent.replace("-----END PRIVATE KEY-----", "");'
    )
    assert scrub_secrets(text).text == text


# ------------------------------------------------------------ references and placeholders


@pytest.mark.parametrize(
    "text",
    [
        'matchValue: "PASSWORD : $db.password"',
        "password: $.Values.postgresql.password",
        'modules = {"password-secret": "password-secret.yaml"}',
        "api_key: credentials.json",
        "  password: <<your_old_wifi_password>>",
        '--openai_key "sk-D57rVxxxxx"',
        '@Value("${GOOGLE_DRIVE_DOCUMENT_ID:1PlZkwEd7GouyY4cdOxBuczm6XumQeuZN31LR2BXRgPs}")',
        'echo -n "${PARTKEY1}9${SECONDKEYPART2}6" > key.txt',
        'errors.New("missing token: provide -token or set GITHUB_TOKEN")',
        'invalid_token: "Sajnáljuk, nem tudtuk használni ezt a tokent, kérjük, próbálja újra."',
    ],
)
def test_a_reference_a_name_or_a_message_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    ("template", "kind"),
    [
        ('password: "$Passw0rd1{}"', "password"),
        ('@Value("${{API_KEY:{}}}")', "secret"),
        ("-token {}", "password"),
        ('"api_token": "{}"', "token"),
        ("api_key: {}.json", "api_key"),
    ],
)
def test_the_same_places_with_a_secret_are_masked(template: str, kind: str) -> None:
    secret = _draw(11, 24)
    out = scrub_secrets(template.format(secret)).text
    assert secret not in out
    assert "[REDACTED:" in out


# ------------------------------------------------------------------ masked now


@pytest.mark.parametrize(
    "text",
    [
        # A password a program prints for its user.
        "A temporary password is generated for root@localhost: {}",
        "The WebUI administrator password was not set. "
        "A temporary password is provided for this session: {}",
        "Your new password is: {}",
        "Using generated security password: {}",
        # A password glued to a Chinese word after Latin letters (no blank between scripts).
        "用户名：admin@example.org密码：{}显示错误",
    ],
)
def test_a_password_printed_for_its_user_is_masked(text: str) -> None:
    for secret in ("m44Uh7j53k", "Xk#9pL2q;wEr", _draw(5, 35)):
        out = scrub_secrets(text.format(secret)).text
        assert secret not in out, text.format(secret)


@pytest.mark.parametrize(
    "text",
    [
        'public static final String JWT_PASSWORD = TextCodec.BASE64.encode("{}");',
        'api_key = base64.b64encode(b"{}").decode()',
        'token = Base64.getEncoder().encodeToString("{}".getBytes());',
    ],
)
def test_a_key_given_to_an_encoder_is_its_input_not_base64(text: str) -> None:
    secret = _draw(5, 35)
    assert secret not in scrub_secrets(text.format(secret)).text


@pytest.mark.parametrize(
    "text",
    [
        "The password is required for user: admin",
        "password was changed: yes",
        "Password is stored in: /etc/app/secret.txt",
        'img = base64.b64encode(b"aGVsbG8gd29ybGQgdGhpcyBpcyBh")',
    ],
)
def test_prose_about_a_password_and_an_encoded_fixture_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# ------------------------------------------------- a secret's passphrase, a named dummy


@pytest.mark.parametrize(
    "text",
    [
        'SECRET_KEY = "correct-horse-battery-staple"',  # a secret may be a passphrase
        'app.use(session({ secret: "keyboard-cat-lantern-river" }))',
        'private static final String HARDCODED_KEY = "SuperSecretKey12";',
        'ENCRYPTION_KEY = "MyTokenPassword2024"',
    ],
)
def test_a_secrets_passphrase_and_a_dummy_that_names_itself_are_masked(text: str) -> None:
    assert "[REDACTED:secret]" in scrub_secrets(text).text


@pytest.mark.parametrize(
    "text",
    [
        'creation_token = "my-efs-filesystem"',  # a token's words: a resource's name
        'client_secret="my-client-secret",',  # the key's own words after "my": a placeholder
        'api_key: "your-api-key"',
        'CACHE_KEY = "SessionTokenCache12"',  # a key of another kind
        '@Value("${SA_KEY:if_you_see_this_configure_the_service_account}")',  # a message
    ],
)
def test_a_name_or_a_placeholder_in_a_secrets_place_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_a_salt_whose_first_part_reads_as_a_password_is_masked_whole() -> None:
    # (hypothesis found it: ``_signed`` masked the part before ``<`` first)
    value = "ZBOefo4Uj9-jF*zT3.ytG^PmJU<g<)iLRp!~+~ )ODE(uKbk<jBkEMKg)}VOR=$h"
    text = f"define('SECURE_AUTH_SALT',  '{value}');"
    assert scrub_secrets(text).text == "define('SECURE_AUTH_SALT',  '[REDACTED:secret]');"


# ------------------------------------------------------ a command's environment, printed


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "docker run --name pg -e POSTGRES_PASSWORD=mysecretpassword -d postgres",
            "mysecretpassword",
        ),
        ("docker build --build-arg NPM_TOKEN=npmTokenValue .", "npmTokenValue"),
        ("java -Dspring.datasource.password=SQLSpringPassword -jar app.jar", "SQLSpringPassword"),
        ("$ PASSWORD=adminPassword ./code-server --auth password", "adminPassword"),
        ("A temporary password is provided for this session: **uIGreJYRK**", "uIGreJYRK"),
    ],
)
def test_a_name_like_literal_in_a_commands_environment_or_printed_is_masked(
    text: str, value: str
) -> None:
    # (as a value alone, ``mysecretpassword`` reads as a variable named for a password)
    assert value not in scrub_secrets(text).text


@pytest.mark.parametrize(
    "text",
    [
        "docker run -e DB_PASSWORD=$db_password app",
        "docker run -e DB_PASSWORD=${DB_PASSWORD} app",
        "    connect(password=db_password, user=user)",
        "DEFAULT_LAST_PASS: Final = 2  # Pass numbers start at 0",  # an annotation, no ``=``
    ],
)
def test_a_variable_in_a_commands_environment_or_in_code_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text
