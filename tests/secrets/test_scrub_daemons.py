"""Issue 32, 31st pass: network daemons' secrets, and placeholders every rule now leaves.

What a coding agent reads around tunnels, name servers, backups, identity servers, mobile
builds, data pipelines, notebooks and Kubernetes operators: pppd's secrets files, a TSIG key
given to ``dig``, Caddy's DNS provider token, rsync's secrets file, OpenVPN's management
login, FreeIPA's installers, strongSwan's hex and base64 PSKs, Helm's ``--set`` lists, a
password encoded alone. And what only looks like a secret there: a metavariable in capitals
(``-w TOKEN``), constants' names joined, a credential store's or a secret manager's
reference, a shell's argument or a variable named for a secret, SOPS' ciphertext, a
SealedSecret's, a value shown masked but its end, a value that spells its key, a label's
string before code.

Each table pairs what is masked with its look-alike that is left. Passwords in the property
tests are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import base64
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets


def _drawn(seed: int, alphabet: str = string.ascii_letters + string.digits, n: int = 16) -> str:
    rng = random.Random(seed)
    while True:  # a digit, and a capital where the alphabet has them
        value = "".join(rng.choice(alphabet) for _ in range(n))
        capital = any(c.isupper() for c in value) or not any(c.isupper() for c in alphabet)
        if any(c.isdigit() for c in value) and capital:
            return value


PW = _drawn(1)
B64 = _drawn(2, string.ascii_letters + string.digits + "+/", 43) + "="

MASKED = [
    # pppd's chap-secrets and pap-secrets: client, server, secret, addresses.
    (f"# /etc/ppp/chap-secrets\n# client\tserver\tsecret\tIP addresses\nada\t*\t{PW}\t*", PW),
    (f'# chap-secrets\n"ada" pptpd "{PW} x" 192.168.1.10', f"{PW} x"),
    (f"# pap-secrets\nada * {PW} 10.0.0.0/24", PW),
    # A TSIG key on BIND's and Knot's command lines.
    (f"nsupdate -y hmac-sha256:ddns-key:{B64} update.txt", B64),
    (f"dig -y hmac-sha512:tsig-key:{B64} @ns1.example.com example.com AXFR", B64),
    (f"kdig -y ddns-key:{B64} example.com", B64),
    # Caddy's DNS challenge: a provider's token in a tls block, or the global acme_dns.
    (f"example.com {{\n\ttls {{\n\t\tdns cloudflare {PW}\n\t}}\n}}", PW),
    (f"{{\n\tacme_dns duckdns {PW}\n}}", PW),
    ("tls {\n    dns cloudflare hardcodedtokenfortesting\n}", "hardcodedtokenfortesting"),
    # rsync's daemon: the secrets file's user:password lines.
    (f"# /etc/rsyncd.secrets\nada:{PW}\n@backup:{PW}x", PW),
    # OpenVPN's management interface, and FreeIPA's installers (both of their passwords).
    (f'>PASSWORD:Need \'Auth\' username/password\npassword "Auth" "{PW}"', PW),
    (f"ipa-server-install -a {PW} -p Dm{PW} -r EXAMPLE.TEST -U", PW),
    (f"ipa-server-install -a {PW} -p Dm{PW} -r EXAMPLE.TEST -U", f"Dm{PW}"),
    (f"ipa-replica-install --admin-password={PW} --setup-ca", PW),
    # strongSwan's PSK in its hex and base64 forms, as in its quoted one.
    ("@moon : PSK 0x45a30759df97dc26a15b88ff", "0x45a30759df97dc26a15b88ff"),
    (f": PSK 0s{B64}", f"0s{B64}"),
    # A password piped to openconnect, which reads it on its standard input.
    (f'echo "{PW}" | openconnect --passwd-on-stdin -u ada vpn.example.com', PW),
    # Helm's --set list: every pair is a literal, not code's argument.
    ("helm install r --set auth.username=admin,auth.password=secretpassword,x=1", "secretpassword"),
    ("helm upgrade r --set-string 'db.password=hunterpass,db.user=ada'", "hunterpass"),
    # Headscale's API and pre-auth keys.
    ("api_key: hskey-api-2ef0f9475804-" + "3628c86154ac2f03f69b4d8ae02a5d79", "hskey-api-"),
    (f"tailscale up --login-server https://hs.example.com --authkey hskey-auth-a1b2c3-{PW}", PW),
    # A password word alone stays a (weak) password; only its capitals are a metavariable.
    ("ldapsearch -x -D cn=admin -w password -b dc=example,dc=com", "-w password"),
    ('password: "password"', '"password"'),
    # A value that spells a key it is not the key of is no placeholder.
    (f'keystorePassword: "{PW}"', PW),
    # ``.netrc`` as before, on one line or several.
    (f"machine api.example.com\n  login ada\n  password {PW}", PW),
    (f"default login anonymous password {PW}", PW),
]


@pytest.mark.parametrize(("text", "secret"), MASKED)
def test_masked(text: str, secret: str) -> None:
    out = scrub_secrets(text).text
    assert secret not in out, out


LEFT = [
    # Prose about the files, a block of settings, a reference to the environment.
    "The chap-secrets file holds the secrets pppd uses; see pppd(8).",
    "tls {\n    dns cloudflare {env.CF_API_TOKEN}\n}",
    "{\n  acme_dns route53 {\n    max_retries 10\n  }\n}",
    "# rsyncd.conf\nsecrets file = /etc/rsyncd.secrets\nlocalhost:873\nrsync://backup.example.com:873/m",
    "The default location for the s3fs password file can be created:",
    "dig -y hmac-sha256:ddns-key:$TSIG_SECRET example.com",
    # A metavariable in capitals, where a command or a header takes a secret.
    'ldapwhoami -H ldaps://idm.example.com -x -D "dn=token" -w "TOKEN"',
    "mysql -u root -pPASSWORD mydb",
    "sshpass -p PASSWORD ssh ada@host",
    'curl -H "Authorization: Bearer TOKEN" https://api.example.com',
    "echo -n 'SECRETKEY' > ./secret-access-key",
    "echo ACCESS_KEY_ID:SECRET_ACCESS_KEY > ${HOME}/.passwd-s3fs",
    # References: a credential store's, a secret manager's; a script's argument; a variable.
    'encryption_passphrase: "{credential keepassxc /etc/keys.kdbx borgmatic}"',
    "password: secret|arn:aws:secretsmanager:us-east-1:123456789012:secret:db-1zAyu6",
    "ray start --head --port=6379 --redis-password=$2",
    "argocd repo add https://github.com/org/repo --username ada --password $password",
    "    MATCH_PASSWORD: <secret-id>:<json-key>:<version-stage>:<version-id>",
    # Ciphertext: SOPS' and a SealedSecret's.
    "password: ENC[AES256_GCM,data:PyhZmNhy929JGQ==,iv:PBqPaJmSw21+kn4gIlg5VdjLNZyf613z5RU"
    "TCesBoVw=,tag:Hjc7DsuUrtsz7PYPdNkL3g==,type:str]",
    "kind: SealedSecret\nspec:\n  encryptedData:\n    api-token: AgAA7wqcddxtK6pUzgsQY1727+ZbQSJrj"
    "ZKFlU8HcYSgFD5VWpY2GnvvtMWepG+TuoAXu7Evoxl+FF8D1QXDaTNGetDI1Cdw1YnOF5qB0u32fscHnWw==",
    # A generated document's placeholder; a value shown masked but its end.
    '    password            = "...my_password..."',
    "  --from-literal=API_KEY=*****VZYKYJNMMEMK***** \\",
    # A value that is its key's own name; a name after "my" and a name.
    'keychain_password: "keychain_password"',
    "keyPassword: 'keyPassword',",
    '"android.injected.signing.store.password" => "myKeystoreFile_password",',
    # A label's string before code; an assignment's name after a placeholder.
    "echo $(grep 'Initial Root Token:' key.txt |awk '{print $NF}')",
    "B2_APPLICATION_KEY=<key> B2_APPLICATION_KEY_ID=<key-id> docker run --rm backblazeit/b2",
    # Base64 of a word given to a user's key: a name, not a password.
    "db_username: YmFja2VuZC1hZG1pbg==",
    # An address in a Secret's stringData, with no password in it.
    "kind: Secret\nstringData:\n  url: https://github.com/argoproj/argocd-example-apps\n"
    "  sshUrl: ssh://git@github.com/argoproj/argocd-example-apps",
]


@pytest.mark.parametrize("text", LEFT)
def test_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_a_secret_beside_what_is_left_is_still_masked() -> None:
    # The Secret's address is left, its password is not; a SealedSecret's template's plain
    # value is masked around the ciphertext.
    text = f"kind: Secret\nstringData:\n  url: https://git.example.com/r\n  password: {PW}\n"
    assert PW not in scrub_secrets(text).text
    sealed = (
        "kind: SealedSecret\nspec:\n  encryptedData:\n    pw: AgBy3i4OJSWK+PiTySYZZA9rO43cGDEq"
        f"Zq81kd2m\n  template:\n    data:\n      password: {PW}\n"
    )
    out = scrub_secrets(sealed).text
    assert PW not in out
    assert "AgBy3i4OJSWK+PiTySYZZA9rO43cGDEqZq81kd2m" in out
    # A URL with a password in a Secret: masked.
    url = f"kind: Secret\nstringData:\n  db: postgres://app:{PW}@db:5432/app\n"
    assert PW not in scrub_secrets(url).text


SEEDS = st.integers(0, 2**32)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, n=st.integers(12, 19))
def test_a_password_encoded_alone_is_masked(seed: int, n: int) -> None:
    # A Kubernetes Secret's value seen without its key: base64 of one word, padded as an
    # encoder pads it (``cGFzc3dvcmQxMjM=``). Base64 of a host, a path or a sentence is left.
    word = _drawn(seed, string.ascii_lowercase + string.digits + "_-", n)
    token = base64.b64encode(word.encode()).decode()
    if not token.endswith("="):
        token = base64.b64encode(f"{word}!".encode()).decode()
    if token.endswith("="):
        assert token not in scrub_secrets(f"the value {token} came back from the call").text
    for text in (b"db-primary.example.com", b"/var/lib/app/data.db", b"hello there, friend"):
        left = base64.b64encode(text).decode()
        assert scrub_secrets(f"the value {left} came back").text == f"the value {left} came back"


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, quoted=st.booleans(), address=st.sampled_from(["*", "-", "10.0.0.7", '""']))
def test_any_secret_of_a_pppd_line_is_masked(seed: int, quoted: bool, address: str) -> None:
    secret = _drawn(seed, string.ascii_letters + string.digits + "!%^&*+=?~", 12)
    field = f'"{secret}"' if quoted else secret
    out = scrub_secrets(f"# /etc/ppp/chap-secrets\nada\tpptpd\t{field}\t{address}\n").text
    assert secret not in out


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, tool=st.sampled_from(["dig", "nsupdate", "delv", "kdig", "knsupdate"]))
def test_any_tsig_secret_on_a_command_line_is_masked(seed: int, tool: str) -> None:
    secret = _drawn(seed, string.ascii_letters + string.digits + "+/", 44)
    out = scrub_secrets(f"{tool} -y hmac-sha256:key-{seed % 97}:{secret} example.com").text
    assert secret not in out


COMMANDS = [
    "ldapsearch -x -D cn=admin -w {} -b dc=example,dc=com",
    "sshpass -p {} ssh ada@host",
    "redis-cli -h cache -a {} ping",
    "mysql -u root -p{} app",
]


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, command=st.sampled_from(COMMANDS))
def test_a_metavariable_in_capitals_is_left_and_a_drawn_value_is_not(
    seed: int, command: str
) -> None:
    word = random.Random(seed).choice(["PASSWORD", "TOKEN", "SECRET", "PASS", "APIKEY"])
    text = command.format(word)
    assert scrub_secrets(text).text == text
    drawn = _drawn(seed, n=14)
    assert drawn not in scrub_secrets(command.format(drawn)).text
