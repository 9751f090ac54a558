"""Issue 32, thirteenth pass: forms SonarSource's secret rules hold in their own examples
(sonar-text, a tuning corpus), left by the rules before this pass, and the look-alikes next to
them. Every value here is drawn for the test, none is copied from the rules' examples.

- a shell parameter's default after a secret's name (``${DB_PASSWORD:-<value>}``), in a
  compose file, a script or inside a URL;
- a dotted token whose part after the dot is a draw (``<id>.<43 of base64url>``), as an
  Azure Bot Framework secret is;
- a key given as the path right after an API's version (``/v2/<key>``);
- Django's development keys (``django-insecure-``), Shopify's Partners tokens, Zuplo's keys,
  Firebase Cloud Messaging's keys and tokens, Ubidots' keys and tokens;
- a Django key standing alone that holds four small letters in a row of common pairs;
- a password that starts with ``%`` and ends in ``d`` or ``s`` (no format's placeholder);
- and a host whose name holds a secret word, with its port and path: no key and value.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import HealthCheck, assume, given, settings

from kindling.secrets.scrub import scrub_secrets
from tests.support.drawn import ALNUM, drawn, mixed

# Derandomized: about 3 draws in 1,000 read as a name or a word in part, and CI must not turn
# on the seed (each property also assumes its value is masked alone).
FEW = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
URL_SAFE = ALNUM + "-_"
DJANGO = string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)"


def masked(text: str, value: str) -> bool:
    return value not in scrub_secrets(text).text


# -------------------------------------------------------------------- shell defaults


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        (
            "POSTGRES_PASSWORD=${{POSTGRES_PASSWORD:-{}}}",
            "${POSTGRES_PASSWORD:-[REDACTED:password]}",
        ),
        ("  MINIO_ROOT_PASSWORD: ${{MINIO_ROOT_PASSWORD:-{}}}", "[REDACTED:password]}"),
        ("echo ${{DB_PASS:-{}}}", "echo ${DB_PASS:-[REDACTED:password]}"),
        ("JWT_SECRET=${{JWT_SECRET-{}}}", "${JWT_SECRET-[REDACTED:secret]}"),
        ("API_TOKEN=${{API_TOKEN:={}}}", "${API_TOKEN:=[REDACTED:token]}"),
        (
            "DATABASE_URL: postgres://app:${{PG_PASSWORD:-{}}}@db:5432/app?sslmode=disable",
            "postgres://app:${PG_PASSWORD:-[REDACTED:password]}@db:5432/app",
        ),
    ],
)
@pytest.mark.parametrize("value", ["secretpgpassword", "hunter2hunter", "minio-Pw-2024"])
def test_a_shell_default_after_a_secrets_name_is_masked(
    template: str, expected: str, value: str
) -> None:
    # (on main before this pass, a default of words and one of 12 characters or fewer stayed)
    out = scrub_secrets(template.format(value)).text
    assert value not in out
    assert expected in out


@pytest.mark.parametrize(
    "text",
    [
        "TOKEN=${TOKEN:-$(cat /run/secrets/token)}",  # a command's output: read at run time
        "PASSWORD=${DB_PASSWORD:?the database password must be set}",  # an error message
        "AUTH=${TOKEN_TYPE:-bearer}",  # about a token, not one
        "image: ${REGISTRY:-docker.io}/library/postgres:16",
        "PGPASSWORD=${PGPASSWORD:-$POSTGRES_PASSWORD}",  # another variable
        "HOST=${DB_HOST:-localhost} PORT=${DB_PORT:-5432}",
    ],
)
def test_a_default_that_is_no_secret_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# -------------------------------------------------------------------- dotted draws


@FEW
@given(head=mixed(11), tail=drawn(URL_SAFE, 43))
def test_a_dotted_token_whose_part_is_a_draw_is_masked_bare(head: str, tail: str) -> None:
    reference = scrub_secrets(f"the value {tail} came back").text
    assume(reference == "the value [REDACTED:random_token] came back")  # the part alone
    token = f"{head}.{tail}"
    assert masked(f"the value {token} came back from the call", tail)
    assert masked(f"xhr.setRequestHeader('Authorization', 'BotConnector {token}');", tail)


@pytest.mark.parametrize(
    "text",
    [
        "see my-app-git-feature-branch-abc123xyz.vercel.app for the preview",
        "pkg numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl ok",
        "import org.springframework.boot.autoconfigure.SpringBootApplication;",
        "at com.example.billing.InvoiceRepositoryImplementation.findAll(Unknown Source)",
        "resolved d1a2b3c4d5e6f7.cloudfront.net to 13.224.1.20",
    ],
)
def test_dotted_names_and_hosts_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# -------------------------------------------------------------------- a key after the version


@FEW
@given(key=mixed(32, upper=True))
def test_a_key_right_after_the_apis_version_is_masked(key: str) -> None:
    assume(f"{key} came" not in scrub_secrets(f"the value {key} came back").text)
    for url in (
        f"https://eth-mainnet.g.alchemy.com/v2/{key}",
        f"https://polygon-mainnet.example-node.io/v3/{key}/",
    ):
        text = f"const NETWORKS = {{ '1': '{url}' }}"
        out = scrub_secrets(text).text
        assert key not in out
        assert "[REDACTED:url_secret]" in out


@pytest.mark.parametrize(
    "text",
    [
        "curl https://api.example.com/v1/users/12345",
        "GET https://api.example.com/v1/organizations_and_teams_listing",
        "https://github.com/astral-sh/uv/releases/download/v1/uv-x86_64-unknown-linux-gnu.tar.gz",
        "https://example.com/v2/9c1185a5c5e9fc54612808977ee8f548b2258d31",  # a commit
        "https://api.example.com/v1/3f2504e0-4f89-11d3-9a0c-0305e82c3301",  # an id
    ],
)
def test_a_version_path_without_a_key_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# -------------------------------------------------------------------- vendors' shapes


def _draw(alphabet: str, n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


HEX = "0123456789abcdef"


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda s: "django-insecure-" + _draw(DJANGO, 50, s), "django_secret_key"),
        (lambda s: "atkn_" + _draw(HEX, 64, s), "shopify_token"),
        (lambda s: "prtapi_" + _draw(HEX, 32, s), "shopify_token"),
        (lambda s: f"zpka_{_draw(HEX, 32, s)}_{_draw(HEX, 8, s + 9)}", "zuplo_api_key"),
        (lambda s: f"{_draw(URL_SAFE, 11, s)}:APA91b{_draw(URL_SAFE, 134, s)}", "fcm_key"),
        (lambda s: f"AAAA{_draw(URL_SAFE, 7, s)}:APA91b{_draw(URL_SAFE, 134, s)}", "fcm_key"),
        (lambda s: "BBFI-" + _draw(HEX, 35, s), "ubidots_token"),
        (lambda s: "BBUS-" + _draw(string.ascii_lowercase, 30, s), "ubidots_token"),
    ],
)
def test_vendor_shapes_are_masked_with_their_kind(make: object, kind: str, seed: int) -> None:
    assert callable(make)
    value = make(seed)
    for text in (
        f"the value {value} came back from the call",
        f"endpoint: 'https://fcm.googleapis.com/fcm/send/{value}'",
        f"KEY = '{value}'",
    ):
        result = scrub_secrets(text)
        assert value not in result.text
        assert f"[REDACTED:{kind}]" in result.text, text
        assert kind in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "BBQ-sauce-recipe-with-smoked-paprika-and-garlic",
        "the BBC-world-service feed",
        "django-insecure-setting-warning-is-documented-here",
        "see atkn_ and prtapi_ prefixes in the partner docs",
    ],
)
def test_vendor_look_alikes_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# -------------------------------------------------------------------- django draws, alone


@pytest.mark.parametrize(
    "value",
    [  # each holds a run of four small letters whose pairs are common (ntos, tion, ines)
        "s&lvybzry1*k+qq)=x-!=0yd5l5#1gxzk!82@ru25*ntos1_9^",
        "q8(^w=2k#tion!7z-m4@p_v+x3&c9*j0)b5$r6%f1hgd+u=y2!",
        "7!k#3ines@w9^m(2x&q5*z-v8)p+b4=c_j6$r1%f0d!g3h@y8s",
    ],
)
def test_a_django_key_alone_with_four_common_letters_is_masked(value: str) -> None:
    assert masked(f"the value {value} came back from the call", value)


def test_django_secret_keys_standing_alone_are_masked_nine_in_ten() -> None:
    # 300 draws of Django's alphabet from one seed: 86% before this pass, 91% with it (a run
    # of ten small letters, or a word of five, still leaves a draw: each test alone would flake)
    rng = random.Random(13)
    values = ["".join(rng.choice(DJANGO) for _ in range(50)) for _ in range(300)]
    share = sum(masked(f"the value {v} came back from the call", v) for v in values) / 300
    assert share >= 0.89


# -------------------------------------------------------------------- a host's port


@pytest.mark.parametrize(
    "text",
    [
        "curl 'https://secret-detection-app.azurewebsites.net:443/api/test-workflow/triggers/"
        "manual/invoke?api-version=2022-05-01'",
        "GET http://token-service.internal:8080/v1/health/liveness/probe",
    ],
)
def test_a_host_named_for_a_secret_keeps_its_port_and_path(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_a_vendors_host_after_a_user_and_password_keeps_its_port_and_path() -> None:
    # issue 32, twentieth pass: the password is masked, the port and database are not
    text = 'DATABASE_URL="postgresql://postgres:Xk9fj3lLq0pZa7Qw@db.xyz.supabase.co:5432/postgres"'
    out = scrub_secrets(text).text
    assert out == (
        'DATABASE_URL="postgresql://postgres:[REDACTED:url_password]@db.xyz.supabase.co'
        ':5432/postgres"'
    )


# -------------------------------------------------------------------- a format's placeholder


@pytest.mark.parametrize("value", ["%SzRFp0hHkAzwd", "%k9Lm2Qx7vRtd", "%Xy7Qe2Lm9vWs"])
def test_a_password_that_starts_with_a_percent_is_no_placeholder(value: str) -> None:
    # ``%...d`` and ``%...s`` read as ``%(name)s`` before this pass: its name is in brackets
    text = f'<property name="dbPassword" value="{value}"/>'
    assert scrub_secrets(text).text == '<property name="dbPassword" value="[REDACTED:password]"/>'


@pytest.mark.parametrize("text", ["password=%s", "password=%(password)s", "DB_PASSWORD=%d"])
def test_format_placeholders_after_a_password_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
