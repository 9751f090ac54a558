"""Base64 of a JWT, commands continued over lines, a CloudFormation parameter's default, and the
references and placeholders that infrastructure code writes where a secret goes (issue 32,
22nd pass: found reading KICS' and 2ms' test data).

- Base64 of a JWT (a token stored encoded, as a Kubernetes Secret or a config holds it) was
  left: its decoded text is one token with dots, which neither the key judges nor the
  document reading took. The decoded text is scrubbed now as a document's is.
- ``curl ... \\`` then ``-u user:password`` on the next line: the command's rules read one line.
  A ``\\`` (PowerShell's backtick, cmd's ``^``) at a line's end runs the command on.
- A CloudFormation template in JSON gives a parameter's ``"Default"`` under its name, as ARM's
  ``"defaultValue"``; YAML's was read, JSON's was not.
- Left: Ansible's ``update_password: on_create`` (a policy), CloudFormation's dynamic reference
  ``{{resolve:secretsmanager:123456}}``, ``[PASSWORD]`` and ``<user:password>`` placeholders,
  and a vendor's prefix glued by ``.`` to a file's name (``video_box.ico-<hex>.png``).
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

SENTENCE = "the value {} came back from the call"
URL_SAFE = string.ascii_letters + string.digits + "-_"


def _b64url(data: Mapping[str, object]) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _jwt(rng: random.Random) -> str:
    # A header in any order (``{"typ": "JWT", "alg": ...}``, ``{"kid": ..., "alg": ...}``):
    # an encoded JWT is not told by its first characters.
    first = rng.choice(["typ", "kid", "zip", "cty", "jku", "x5t"])
    header = {first: "".join(rng.choice(URL_SAFE) for _ in range(8)), "alg": "HS256"}
    claims = {"sub": str(rng.randrange(10**6)), "iat": 1_700_000_000 + rng.randrange(10**6)}
    signature = "".join(rng.choice(URL_SAFE) for _ in range(43))
    return f"{_b64url(header)}.{_b64url(claims)}.{signature}"


def _encoded(seed: int, pad: bool = True) -> str:
    token = base64.b64encode(_jwt(random.Random(seed)).encode()).decode()
    return token if pad else token.rstrip("=")


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("pad", [True, False])
def test_base64_of_a_jwt_is_masked_bare_and_in_a_config(seed: int, pad: bool) -> None:
    token = _encoded(seed, pad)
    for text in (
        SENTENCE.format(token),
        f"jwt_encoded: {token}",
        f'  "session": "{token}",',
        f"{token}\n",
    ):
        assert token not in scrub_secrets(text).text


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_base64_of_a_jwt_scrubs_to_a_fixed_point(seed: int) -> None:
    text = f"token: {_encoded(seed)} and more"
    once = scrub_secrets(text).text
    assert _encoded(seed) not in once
    assert scrub_secrets(once).text == once


@pytest.mark.parametrize(
    "prose",
    [
        "Hello world. This is a note about the deploy, nothing else here.",
        "release 1.2.3 of the package, built on 2024.05.06 at noon",
        "see docs.example.com/guide.html for the steps",
    ],
)
def test_base64_of_prose_with_dots_is_left(prose: str) -> None:
    token = base64.b64encode(prose.encode()).decode()
    text = SENTENCE.format(token)
    assert scrub_secrets(text).text == text


CONTINUED = [
    "curl -k -X POST https://cache.internal:11222/rest/v2/caches/x \\\n"
    "  -H 'Content-type: text/plain' \\\n  -d 'world' \\\n  -u developer:yqDVtkqPECriaLRi",
    "curl -X POST https://x.test/hello \\\r\n  -u developer:yqDVtkqPECriaLRi",
    "Invoke-RestMethod -Uri https://x.test `\n  -Password yqDVtkqPECriaLRi",
    "mysql -h db.internal \\\n  -u root -pyqDVtkqPECriaLRi app",
]


@pytest.mark.parametrize("text", CONTINUED)
def test_a_command_continued_over_lines_keeps_its_password_masked(text: str) -> None:
    assert "yqDVtkqPECriaLRi" not in scrub_secrets(text).text


def test_a_new_line_without_a_continuation_ends_the_command() -> None:
    text = "curl https://x.test/a\n-u is a flag that reads a:b from the next word"
    assert scrub_secrets(text).text == text


CFN_JSON = """{
  "Parameters": {
    "MasterMongoDBPassword": {
      "Description": "Password",
      "Type": "String",
      "NoEcho": true,
      "Default": "as@3djdkDjskjs73!!"
    }
  }
}"""


def test_a_cloudformation_json_parameters_default_is_masked() -> None:
    out = scrub_secrets(CFN_JSON).text
    assert "as@3djdkDjskjs73!!" not in out
    assert '"MasterMongoDBPassword": {' in out
    assert '"Type": "String"' in out


def test_a_cloudformation_json_default_under_another_name_is_left() -> None:
    text = CFN_JSON.replace("MasterMongoDBPassword", "InstanceType").replace(
        "as@3djdkDjskjs73!!", "t3.micro"
    )
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    "text",
    [
        "  update_password: on_create",
        '  update_password: "on_create"',
        "    update_password: always",
        '        ClientSecret: "{{resolve:secretsmanager:123456}}"',
        '  "ClientSecret": "{{resolve:secretsmanager:123456}}",',
        "x {{resolve:secretsmanager:MyRDSSecret:SecretString:password}} y",
        "curl -u <user:password> https://test.example/endpoint",
        "curl --user neo4j:[PASSWORD] http://[IP]:7474/db/data/",
        "password = [DB_PASSWORD]",
        "http://assets.example.com/media/video_box.ico-7a388b69018576d24b59331fd60aab0c.png",
    ],
)
def test_references_policies_and_placeholders_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("  update_password: always\n  password: hunter2-Xq9", "hunter2-Xq9"),
        ('  update_password: "on_create"\n  password: "Rk3#vLq9"', "Rk3#vLq9"),
        ("curl -u ada:[s3cret]x https://x.test", "[s3cret]x"),
        ("curl --user neo4j:Zp4kQw9rT2 http://db:7474/", "Zp4kQw9rT2"),
        ("the key ico-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z is live", "ico-Ab3dEf6hIj9kLm2nOp5qRs8t"),
        ("mytoken:jiraApiTokenFake00000001", "jiraApiTokenFake00000001"),
    ],
)
def test_the_secret_beside_them_is_still_masked(text: str, secret: str) -> None:
    assert secret not in scrub_secrets(text).text
