"""Issue 32, 27th pass: where a value is a literal even when it reads as a name (a YAML
mapping's line, a list of pairs, a command's ``--flag``), and what only looks like a secret in
deployment files and CLI output (a Helm chart's ``existingSecret``, a container's
``--secret``, CloudFormation's ``{{resolve:...}}``, a switch, an absolute path, a digest,
PuTTYgen's key comment, a Secret's user name, a placeholder cut by a blank)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

# ------------------------------------------------------------- literals that read as names

MASKED = [
    # A YAML mapping's line: YAML has no variables (a compose file, a chart's values).
    ("  JOOMLA_DB_PASSWORD: examplepass\n", "examplepass"),
    ("environment:\n  MYSQL_PASSWORD: exampleuserpass\n  MYSQL_DATABASE: app\n", "exampleuserpass"),
    ("auth:\n  username: admin\n  password: secretpass  # change me\n", "secretpass"),
    ("environment:\n  - MYSQL_PASSWORD: dbpassword\n", "dbpassword"),
    # Pairs on one line, no comma: an inventory's, a log's, make's.
    (
        "web1 ansible_host=10.0.0.1 ansible_user=admin ansible_ssh_pass=secretpassword",
        "secretpassword",
    ),
    ("lb1 ansible_user=admin ansible_become_pass=becomepassword\n", "becomepassword"),
    ("make deploy USER=ada PASSWORD=mypassword", "mypassword"),
    ("level=info user=ada password=dbpassword", "dbpassword"),
    # A command's environment, also quoted, after a prompt, or in a compose file's list.
    ('docker run -e "PLATFORM_PASSWORD=pfsecret" bonita', "pfsecret"),
    ("\t$ export PGPASSWORD=newbonitapass\n", "newbonitapass"),
    ("    environment:\n      - MINIO_SECRET_KEY=miniosecret\n", "miniosecret"),
    # A command's flag and a blank, on its line or a continued one.
    ("$ mytool --db-password dbPassword --verbose", "dbPassword"),
    ("aws kms create-custom-key-store \\\n    --key-store-password kmsPswd \\\n", "kmsPswd"),
    # A line read only 1,000 characters each way (minified text): a flag past that is a command's.
    ("run " + "--verbose " * 120 + "--db-password dbPassword", "dbPassword"),
    # Past 1,000 characters back, a line reads as no table's row and no statement of code: the
    # value is masked (``secrets.scrub_lines``; reading the whole line per key is quadratic).
    ("k=v " * 300 + "| password | s3cr3tV4lue |", "s3cr3tV4lue"),
    ("k=v " * 300 + "uri.Password = s3cr3tV4lue;", "s3cr3tV4lue"),
]


@pytest.mark.parametrize(("text", "secret"), MASKED)
def test_a_literal_that_reads_as_a_name_is_masked(text: str, secret: str) -> None:
    out = scrub_secrets(text).text
    assert secret not in out, out
    assert "[REDACTED:" in out


LEFT_AS_NAMES = [
    # Code's objects: members follow a ``{`` or a ``,``.
    "const c = {\n  user: user,\n  pass: password\n}",
    "opts = {\n    password: dbpassword\n}",
    # A type annotation names a type.
    "class Cfg:\n    token: Token",
    "class Cfg:\n    password: str\n    private_key: bytes",
    # A keyword argument list has commas; prose has more words after the value.
    "f(user=ada, password=password)",
    "token: the API token to use",
    "Unexpected token: operator",
    # A help text's line starts with its flag; a metavar is in capitals or a type.
    "  -p, --password string   the password to use",
    "  --token TOKEN   the token",
    "mysql --password $DB_PASSWORD",
]


@pytest.mark.parametrize("text", LEFT_AS_NAMES)
def test_names_in_code_and_help_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# Names as people give them: a word, then the key's word (``dbpassword``, ``examplepass``).
_NAME = st.builds(
    "".join,
    st.tuples(
        st.sampled_from(["db", "admin", "root", "smtp", "my", "example", "app", "mail", "redis"]),
        st.sampled_from(["pass", "password", "secret", "pw", "passwd"]),
    ),
)


@settings(max_examples=40, deadline=None)
@given(name=_NAME, key=st.sampled_from(["password", "DB_PASSWORD", "admin_password"]))
def test_a_name_like_value_is_masked_in_yaml_and_left_in_code(name: str, key: str) -> None:
    yaml = f"config:\n  {key}: {name}\n  port: 5432\n"
    assert name not in scrub_secrets(yaml).text
    code = f"const c = {{\n  user: user,\n  {key}: {name}\n}}"
    assert scrub_secrets(code).text == code


# ------------------------------------------------------------- what only looks like one

LEFT = [
    # A Helm chart's reference to a Kubernetes Secret, by name.
    "  existingSecret: mariadb-credentials",
    '      "existingSecret": "mariadb-creds",',
    "  ## existingErlangSecret: name-of-existing-secret",
    '  existingSecretPasswordKey: "password"',
    # Docker's and Podman's --secret name a secret or give its spec.
    'docker service create --name="minio" --secret="access_key" --secret="secret_key" img',
    "docker service create --secret source=my-erlang-cookie,target=/var/lib/rabbitmq/c img",
    "docker build --secret id=npmrc,src=$HOME/.npmrc .",
    "podman run --secret db_password,type=env,target=DB_PASSWORD app",
    # CloudFormation's dynamic reference, a template's tail.
    "      MasterUserPassword: '{{resolve:secretsmanager:prod/db:SecretString:password:n1:v}}'",
    # Switches, not passwords.
    "      MYSQL_RANDOM_ROOT_PASSWORD: '1'",
    '      MYSQL_ALLOW_EMPTY_PASSWORD: "yes"',
    '  echo "##vso[task.setvariable variable=normal_variable;issecret=false]something"',
    # An absolute path to a key's file, a digest, PuTTYgen's default comment.
    '      "tls_client_key": "/certs/notary-server.key"',
    '"client_token": "hmac-sha256:883d7702eb6b48067dc6482a32af1e049a301dd0722fe6d95d19d4534a360"',
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINep99gZZki9YMVfqvYGy4CCg ed25519-key-20190618",
    'Comment: "rsa-key-20190618"',
    # A token already masked, a fill, compose's escaped command substitution.
    "  - Token: gho_************************************",
    "--set galera.mariabackup.password=YYYY \\",
    "test: ['CMD-SHELL', 'mysqladmin ping --password=\"$$(cat /run/secrets/db-password)\"']",
    # A command's placeholder cut by a blank, an aside, a template.
    "./vault login <root token>",
    "./vault operator unseal (3 times)",
    "$ vault login -method=userpass username=me\nPassword (will be hidden):\nSuccess!",
    "  rabbitmq-erlang-cookie: {{ print $erlangCookie }}",
    # A resource's name as an idempotency token.
    'creation_token                  = "my-product"',
    # Placeholders that say so, a key shown with its middle x'd out.
    "define( 'DB_PASSWORD', 'password_here' );",
    "SESSION_SECRET=Your Session Secret goes here",
    "HERE_API_KEY=9bxxxxxxxxxxxxxxxxJFHg",
    # A CI's ciphertext (Travis', AppVeyor's), a media type, a certificate cut off.
    "  api_key:\n    secure: P/UHxq2DEs0GI1SoDXDesHjRVsSVgdywz5vmsnhFQQY5aJgO3kP+QfhwfhXz19Rw\n",
    'env:\n  - secure: "P/UHxq2DEs0GI1SoDXDesHjRVsSVgdywz5vmsnhFQQY5aJgO3kP+QfhwfhXz19Rw="\n',
    'curl -u "me:${{ secrets.GH_TOKEN }}" -H "Accept: application/vnd.github.v3+json" x',
    "  cert.pem: |\n    -----BEGIN CERTIFICATE-----\n"
    "    MIIEmjCCAoICCQDQejieQSZTxzANBgkqhkiG9w0BAQsFADAPMQ0wCwYDVQQDDAR0\n"
    "    ZXN0MB4XDTIyMDQyNTEzNDc0MloXDTMyMDQyMjEzNDc0MlowDzENMAsGA1UEAwwE\n",
]


@pytest.mark.parametrize("text", LEFT)
def test_what_only_looks_like_a_secret_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_a_secret_beside_a_reference_is_still_masked() -> None:
    text = "auth:\n  existingSecret: db-creds\n  password: Zq8!kd2mWp\n"
    out = scrub_secrets(text).text
    assert "db-creds" in out
    assert "Zq8!kd2mWp" not in out


# ------------------------------------------------------------- masked in new places

PLACED = [
    ('  "AccessKeyId": "Q31CVS1PSCJ4OTK2YVEM",', "Q31CVS1PSCJ4OTK2YVEM"),
    ("access_key_id = USWUXHGYZQYFYFFIT3RE", "USWUXHGYZQYFYFFIT3RE"),
    ("      - RABBITMQ_ERL_COOKIE=s3cr3tc00ki3", "s3cr3tc00ki3"),
    ('RABBITMQ_ERLANG_COOKIE: "abcSecretCookie"', "abcSecretCookie"),
    ("erl -setcookie brumbrum -name a@b", "brumbrum"),
    ("echo 'deploy' | ansible-vault encrypt_string --stdin-name db_password", "deploy"),
    (
        '      echo "##vso[task.setvariable variable=s;issecret=true]super-secret"',
        "super-secret",
    ),
    ("set TOKEN: echo ::add-mask::abc123Secret9", "abc123Secret9"),
    ("Assume I did `travis env set FASTLANE_PASSWORD abc123`.", "abc123"),
    # A URL's query holds literals, even one that reads as a name.
    ("curl -k 'http://10.0.0.7:2323/?cmd=restartApp&password=SecretPassWord'", "SecretPassWord"),
    # A ciphertext's key is only ``secure:``; a certificate's tail cut off with text after it
    # is read as the rest of the text is.
    ("insecure: P/UHxq2DEs0GI1SoDXDesHjRVsSVgdywz5vmsnhFQQY5aJgO3kP+QfhwfhXz19Rw", "P/UHxq2D"),
]


@pytest.mark.parametrize(("text", "secret"), PLACED)
def test_a_value_in_a_new_place_is_masked(text: str, secret: str) -> None:
    out = scrub_secrets(text).text
    assert secret not in out, out


def test_an_access_key_id_placeholder_typed_along_the_alphabet_stays_masked_as_a_draw() -> None:
    # (ABCDEFGHIJ0123456789 is masked as the random-token rule masks typed placeholders.)
    assert "ABCDEFGHIJ0123456789" not in scrub_secrets("access_key_id = ABCDEFGHIJ0123456789").text


def test_references_in_new_places_are_left() -> None:
    for text in (
        'echo "::add-mask::$TOKEN"',
        'echo "::add-mask::${{ steps.x.outputs.token }}"',
        'echo "##vso[task.setvariable variable=x;issecret=true]$(token)"',
        "RABBITMQ_ERLANG_COOKIE=${COOKIE}",
        "  erlangCookie: ''",
        "ansible-vault encrypt_string '<secret>'",
        "MINIO_ACCESS_KEY=$ACCESS",
    ):
        assert scrub_secrets(text).text == text, text
