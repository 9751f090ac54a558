"""What a command prints that is a secret (issue 32, ninth pass).

An agent runs ``gcloud secrets versions access``, ``op read``, ``openssl rand -base64 32`` or
``echo $GITHUB_TOKEN``, and the hook keeps the command with what it printed. The value had no
look of a key (a password kept in a vault is typed by a person), so it reached the store.
The first line such a command prints is masked now when it is one token; an error, an empty
answer, a public key, a line of settings and prose that names a command are left.

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import os
import random
import string
from pathlib import Path

import pytest

from kindling import Kindling
from kindling.secrets.scrub import scrub_secrets
from kindling.spool import spool_dir
from tests.support.hooks import payload, run_hook

COMMANDS = [
    "gcloud secrets versions access latest --secret=db-password",
    "gcloud auth print-access-token",
    "aws secretsmanager get-secret-value --secret-id prod/db --query SecretString --output text",
    "aws ssm get-parameter --name /prod/db --with-decryption --query Parameter.Value --output text",
    "aws ecr get-login-password --region eu-west-1",
    "az keyvault secret show --vault-name v --name db --query value -o tsv",
    "op read op://Private/db/password",
    "pass show work/db",
    "pass email/work",
    "bw get password db",
    "lpass show --password work/db",
    "security find-generic-password -s db -w",
    "secret-tool lookup service db",
    "vault kv get -field=password secret/db",
    "vault print token",
    "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d",
    "kubectl create token deployer",
    "gh auth token",
    "heroku auth:token",
    "doppler secrets get DB_PASSWORD --plain",
    "terraform output -raw db_password",
    "kubeadm token create",
    "keyring get system ada",
    "gopass show db/prod",
    "aws configure get aws_secret_access_key",
    "git config --get github.token",
    "npm config get //registry.npmjs.org/:_authToken",
    "netlify env:get API_KEY",
    "openssl rand -base64 32",
    "openssl rand -hex 32",
    "wg genkey",
    "bin/rails secret",
    "php artisan key:generate --show",
    'python3 -c "import secrets; print(secrets.token_urlsafe(32))"',
    "head -c 32 /dev/urandom | base64",
    "echo $GITHUB_TOKEN",
    'echo "${DB_PASSWORD}"',
    "printenv OPENAI_API_KEY",
    "echo $env:AZURE_CLIENT_SECRET",
    "cat /run/secrets/db_password",
    "cat ~/.vault-token",
    "cat config/master.key",
    "sudo cat /etc/app/api_token",
]


def _typed(seed: str) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(8)) + str(rng.randrange(100))


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("status", ["[completed]\n", "[completed]\n[stdout]\n", ""])
def test_what_a_secret_printing_command_printed_is_masked(command: str, status: str) -> None:
    value = _typed(command + status)
    for prompt in ("$ ", "PS C:\\> "):
        text = f"{prompt}{command}\n{status}{value}\nmore: lines after it"
        out = scrub_secrets(text).text
        assert value not in out, out
        assert f"{prompt}{command.split()[0]} " in out  # the command is kept (a flag named
        # for a secret, ``--secret=NAME``, is masked as before)
        assert "more: lines after it" in out


@pytest.mark.parametrize(
    "text",
    [
        "$ echo $HOME\n[completed]\n/home/ada",
        "$ cat secrets.env\nHOST=db",
        "$ cat README.md\n# Title",
        "$ wg genkey | tee private.key | wg pubkey\npeerkey42",  # the public key is printed
        "$ gcloud secrets versions access latest --secret=x\n[completed]\nERROR: NOT_FOUND x",
        "$ aws secretsmanager get-secret-value --secret-id x --output json\n{",
        "$ echo $GITHUB_TOKEN\n[completed]",
        "$ pass ls\nPassword Store",
        "$ vault kv get -field=password secret/db\nnull",
        "$ aws configure get region\neu-west-1",
        "$ git config --get user.name\nada1234",
        "$ heroku config:get DATABASE_HOST\ndb.internal1",
        "gcloud secrets versions access prints the secret\nthen123",  # prose: no prompt
        "$ op read op://v/i/p\n[REDACTED:secret]",
    ],
)
def test_look_alikes_of_printed_secrets_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


ECHOES = [
    ">>> settings.DB_PASSWORD\n'{}'",
    "In [3]: os.environ[\"ACME_TOKEN\"]\nOut[3]: '{}'",
    'irb(main):001> ENV["ACME_TOKEN"]\n=> "{}"',
    "> process.env.ACME_TOKEN\n'{}'",
    "(Pdb) p password\n'{}'",
    ">>> os.getenv('STRIPE_SECRET')\n'{}'\n>>> exit()",
]


@pytest.mark.parametrize("form", ECHOES)
def test_what_a_repl_echoed_for_a_secrets_name_is_masked(form: str) -> None:
    """Issue 32, tenth pass: the expression names the secret, the next line is its value."""
    value = _typed(form)
    out = scrub_secrets(form.format(value)).text
    assert value not in out, out
    assert out.split("\n")[0] == form.split("\n")[0]  # the expression is kept


@pytest.mark.parametrize(
    "text",
    [
        ">>> settings.DEBUG\n'True'",
        ">>> user.email\n'ada@example.com'",
        ">>> settings.DB_PASSWORD\n''",
        ">>> token.upper()\n'ABC123XYZ'",
        ">>> print('password')\npassword",
    ],
)
def test_what_a_repl_echoed_for_other_names_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    "form",
    [
        '{{"db_password": {{"sensitive": true, "type": "string", "value": "{}"}}}}',
        '"admin": {{\n  "sensitive": true,\n  "type": ["object", {{}}],\n  "value": "{}"\n}}',
        '{{"Parameter": {{"Name": "/prod/db", "Type": "SecureString", "Value": "{}"}}}}',
        "Key         Value\n---         -----\npassword    {}\nusername    ada",
        "api_key            {}",
        "Your new API token:\n{}",
        "Password:\n\n{}",
    ],
)
def test_a_value_its_tool_marks_secret_or_a_table_names_is_masked(form: str) -> None:
    value = _typed(form)
    out = scrub_secrets(form.format(value)).text
    assert value not in out, out


@pytest.mark.parametrize(
    "text",
    [
        '{"db_host": {"sensitive": false, "type": "string", "value": "db.internal"}}',
        '{"Parameter": {"Name": "/prod/db", "Type": "String", "Value": "eu-west-1"}}',
        "  password      Password for the user",
        "  token     TOKEN",
        "password    required",
        "secret      Opaque",
        "access_token   <none>",
        "username    ada",
        "password:\n  required",
        "def password(self):\n    return self._password",
        "    password:\n    pass",
        "Password:\nConfirm:",
        "token:\n  type: string",
        "Token:\n```",
        "token:\n\tgo build ./...",
        'class AuthCredentials:\n    """AuthCredentials."""',
        "class ApiToken:\n    expires_at2",
    ],
)
def test_look_alikes_of_marked_values_and_tables_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_the_hook_keeps_no_printed_secret(tmp_path: Path) -> None:
    """End to end: a PostToolUse hook process, its spool, and the store after the drain."""
    db = Path(os.environ["KINDLING_DB"])
    value = _typed("hook")
    data = payload("post_tool_use_bash", tmp_path)
    data["tool_input"] = {"command": "op read op://Private/db/password"}
    data["tool_response"] = {"stdout": f"{value}\n", "stderr": "", "interrupted": False}
    proc = run_hook("PostToolUse", data)
    assert proc.returncode == 0, proc.stderr
    spooled = b"".join(p.read_bytes() for p in Path(spool_dir(str(db))).glob("*.json"))
    assert b"op read" in spooled
    assert value.encode() not in spooled
    with Kindling.open(db) as kd:  # the drain
        texts = [o.content for o in kd.list_observations(limit=10)]
    assert any("op read" in t and "[REDACTED:secret]" in t for t in texts)
    stored = b"".join(p.read_bytes() for p in db.parent.rglob("*") if p.is_file())
    assert value.encode() not in stored
