"""Issue 32, eleventh pass: forms from seven probes written by helpers that had not read the
scrubber (1,767 snippets of where a developer meets a secret, with the value's place marked:
configs and tools, outputs and config formats, code, fixtures as scanners' authors write
them, messages to and from agents, data files and exports, docs and tickets), each left by
the rules before this pass, and the look-alikes next to them.

Values are drawn by hypothesis as people type passwords (a capitalised word, digits, a sign).
"""

from __future__ import annotations

import base64
import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets
from tests.support.drawn import ALNUM, drawn

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TYPED = st.builds(
    lambda word, digits, sign: f"{word.capitalize()}{digits}{sign}",
    drawn(string.ascii_lowercase, 8),
    st.integers(10, 9999),
    st.sampled_from("!#%*+"),  # (a "?" at a sentence's end is the sentence's)
)

FORMS = {
    "a dot leader": "DEBUG com.zaxxer.hikari.HikariConfig - password........................{}",
    "SSSD's bind password": "[domain/example.org]\nldap_default_authtok = {}",
    "Go's DSN in a log": "exit status 2\nDSN was: app:{}@tcp(db:3306)/app?parseTime=true",
    "kubectl with a namespace, then base64 -d": (
        "$ kubectl -n argocd get secret argocd-initial-admin-secret "
        '-o jsonpath="{{.data.password}}" | base64 -d\n{}'
    ),
    "Kotlin's elvis default": 'val jwtSecret = System.getenv("JWT_SECRET") ?: "{}"',
    "psql's table": (
        " id | provider | client_id    | client_secret\n"
        "----+----------+--------------+---------------\n"
        "  3 | okta     | 0oa1b2c3d4   | {}\n(1 row)"
    ),
    "a CSV row ending in an empty field": (
        "name,url,username,password,extra\nJira,https://example.atlassian.net,dana,{},"
    ),
    "German, words before ist": "Mein Passwort für den Testserver ist {} – bitte nicht committen.",
    "Spanish, words before es": "la contraseña del admin es {}, cámbiala después",
    "Russian, words before the colon": "Пароль от базы: {}",
    "log in with a pair": "try logging in with admin / {}",
    # the second probe: configuration formats, what tools print, other languages
    "Squid's login=user:password": "cache_peer parent.corp parent 3128 0 default login=squid:{}",
    "Redis ACL file": "user worker on >{} ~jobs:* &* +@list +@connection",
    "Redis ACL SETUSER": "redis-cli ACL SETUSER ada on >{} ~* +@all",
    "Jenkins Secret.fromString": "new StringCredentialsImpl(G, 'gh', 'x', Secret.fromString('{}'))",
    "Jenkins UsernamePasswordCredentialsImpl": (
        'new UsernamePasswordCredentialsImpl(CredentialsScope.GLOBAL, "hub", "Hub", "ci", "{}")'
    ),
    "sbt Credentials": 'credentials += Credentials("Nexus", "oss.example.org", "ci", "{}")',
    "Groovy Sql.newInstance": "Sql.newInstance('jdbc:postgresql://db/app', 'app', '{}', 'Driver')",
    "MATLAB database": "conn = database('warehouse', 'analyst', '{}', 'Vendor', 'PostgreSQL');",
    "T-SQL N'...'": "EXEC sp_addlinkedsrvlogin @rmtsrvname = N'LEGACY01', @rmtpassword = N'{}';",
    "PHP var_dump": 'array(1) {{\n  ["pass"]=>\n  string(9) "{}"\n}}',
    "a table drawn with boxes": "│ token          │ {}                     │",
    # the third probe: secrets in code's many positions
    "Rust raw string": 'let token = r#"{}"#;',
    "Go aes.NewCipher": 'block, err := aes.NewCipher([]byte("{}"))',
    "RustCrypto new_from_slice": 'let cipher = Aes256Gcm::new_from_slice(b"{}").unwrap();',
    "ASP.NET SymmetricSecurityKey": (
        'IssuerSigningKey = new SymmetricSecurityKey(Encoding.UTF8.GetBytes("{}")),'
    ),
    "gin cookie store": 'store := cookie.NewStore([]byte("{}"))',
    "PHP JWT::encode": "$jwt = JWT::encode($payload, '{}', 'HS256');",
    "Scala JwtCirce": 'val token = JwtCirce.encode(claim, "{}", JwtAlgorithm.HS256)',
    "PHP getenv ?:": "$pw = getenv('DB_PASSWORD') ?: '{}';",
    # the fourth probe: fixtures as scanners' authors write them
    "CloudFormation parameter's Default": (
        "Parameters:\n  DBPassword:\n    Type: String\n    NoEcho: true\n    Default: {}"
    ),
    "AWS SDK for Go static credentials": (
        'Credentials: credentials.NewStaticCredentials("AKID", "{}", ""),'
    ),
    "a table named for keys": "INSERT INTO api_keys (id, name, key) VALUES (1, 'prod', '{}');",
    # the fifth probe: messages to and from agents
    "German, lautet": "Das Passwort für die Staging-Datenbank lautet {}",
    "French, c'est": "le mot de passe de la base de prod c'est {}",
    "Polish, to": "hasło do bazy to {}",
    "Ukrainian, a dash": "пароль до бази даних — {}",
    "Russian, no separator": "пароль от базы {}",
    "German, no separator": "Benutzer admin, Kennwort {}",
    "Korean slang": "아이디 kim, 비번 {}",
    "Hindi, the copula after": "डेटाबेस का पासवर्ड {} है",
    "Vietnamese": "mật khẩu database là {}",
    "Indonesian": "username budi, kata sandi {}",
    "Arabic": "اسم المستخدم: admin كلمة السر: {}",
    "English, pw for ... =": "pw for staging db = {}",
    "a pair after words": "db creds are in 1password but fine here: postgres / {}",
    "basic auth's pair": "basic auth for the staging site: preview:{}",
    "a login pair after an arrow": "sftp login -> uploader / {}",
    # the seventh probe: docs, tickets and chat
    "a pair in a list, no word naming it": "Credentials:\n- prod: user admin / {}\n- dev: no auth",
    "a pair after a tool's name": "* Jenkins: ci-admin / {}\n* Nexus: deployment / see vault",
    "passwd for ... =, six words": "passwd for root on the old box = {}",
    # the sixth probe: data files and exports
    "KeePass XML": '<String><Key>Password</Key><Value ProtectInMemory="True">{}</Value></String>',
    "Laravel seeder": "    'password' => Hash::make('{}'),",
    "bcrypt in a Prisma seed": "create: {{ passwordHash: await bcrypt.hash('{}', 10) }}",
    "Symfony fixture": "$admin->setPassword($this->hasher->hashPassword($admin, '{}'));",
    "Devise fixture": "  encrypted_password: <%= Devise::Encryptor.digest(User, '{}') %>",
    "Django migration": 'User.objects.create_superuser("admin", "admin@corp.io", "{}")',
    "FortiOS psksecret": "config vpn ipsec phase1-interface\n    edit x\n        set psksecret {}",
    "Junos pre-shared-key": 'set security ike policy p1 pre-shared-key ascii-text "{}"',
    "SNMP community": "snmp-server community {} RO 10",
    "a spreadsheet with ; and a German header": "Dienst;Benutzer;Passwort;Bemerkung\nWLAN;;{};2.OG",
    "a Chinese header": "系统,账号,密码\n阿里云控制台,ops_admin,{}",
    "a Russian header": "Сервис;Логин;Пароль\n1С Бухгалтерия;buh;{}",
}


@pytest.mark.parametrize("name", sorted(FORMS))
@FEW
@given(value=TYPED)
def test_a_form_the_helper_met_is_masked(name: str, value: str) -> None:
    out = scrub_secrets(FORMS[name].format(value))
    assert value not in out.text, out.text
    # a password's last sign is the password's, not the sentence's: none of it is left
    assert f"]{value[-1]}" not in out.text, out.text


DECODE_CALLS = [
    'byte[] keyBytes = Base64.getDecoder().decode("{}");',
    'var key = Convert.FromBase64String("{}");',
    'key = Base64.strict_decode64("{}")',
    "$key = base64_decode('{}');",
    'let key = Data(base64Encoded: "{}")!',
    'key = base64.b64decode("{}")',
]


@pytest.mark.parametrize("call", DECODE_CALLS)
@FEW
@given(raw=st.binary(min_size=24, max_size=48))
def test_a_key_given_to_a_base64_decode_call_is_masked(call: str, raw: bytes) -> None:
    encoded = base64.b64encode(raw).decode()
    assume(encoded not in scrub_secrets(f"the value {encoded} came back").text)
    assert encoded not in scrub_secrets(call.format(encoded)).text


@FEW
@given(token=drawn(ALNUM, 24).filter(lambda v: sum(c.isdigit() for c in v) >= 3))
def test_what_base64_d_printed_is_masked_and_a_base64_label_still_leaves_a_token(
    token: str,
) -> None:
    # (a draw of 24 letters and digits reads as generated alone in most seeds, not in all)
    assume(token not in scrub_secrets(f"the value {token} came back from the call").text)
    assert token not in scrub_secrets(f"$ echo $X | base64 -d\n{token}").text
    assert token in scrub_secrets(f"fixture = b64 {token}").text


@pytest.mark.parametrize(
    "text",
    [
        "Loading........done",
        "token.......... ok",
        "See token... for details",
        "$ echo aGVsbG8= | base64 -d\nhello",
        'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, db)',
        'val port = System.getenv("PORT") ?: "8080"',
        "Das Passwort wird im Feld gespeichert: sicher",
        "Das Passwort muss mindestens: 12345678 Zeichen",
        "log in with your account / then continue",
        "Logging in as admin: done",
        # a pipeline shaped as a header has no rule under it
        "cat f | grep token | wc -l\nls | Secr3t!x | head",
        "user default on nopass ~* +@all",
        "if x > 3: user = y",
        "user ada on #e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 ~*",
        "Secret.fromString(System.getenv('TOKEN'))",
        "conn = database(dsn, user, password)",
        "login=$(whoami):$(hostname)",
        "│ name   │ value │",
        'expected_hash = b64decode("Xk29fLq8Zm3vPw7RtY5nAb==")',
        'icon = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"',
        "block, err := aes.NewCipher(key)",
        'password:\n  type: string\n  description: the password\n  default: ""',
        "INSERT INTO settings (name, value) VALUES ('theme', 'darkmode2024');",
        "INSERT INTO token_types (id, key) VALUES (1, 'refresh_token');",
        "пароль был изменён 2 раза",
        "Passwort vergessen? Hier klicken",
        "Das Passwort muss 8+ Zeichen haben",
        "login failed for user admin: error 401",
        "login page at https://x.com:8443/login",
        "login as of 10:30 / 11:45 today",
        # found in the widened false-positive set while this pass was built
        "self._secret_value: SecretType = secret_value",
        "private_key: PrivateKeyTypes = load_pem_private_key(",
        '--client-secret-value="client-secret" \\',
        "util.format('%s:%s', 'foo', 'bar', 'baz');",
        "│ protocol │  │ username │ password │          host          │",
        "--validation-shared-key='secret_version=projects/P/secrets/S/versions/V'",
        "read / write",
        "TCP / UDP",
        "ratio 3 / 4!",
        "see src / lib/x2!.py",
        "admin / ask in #qa",
        "        set password ENC SH2abcdef",
        "set -o pipefail",
        "bcrypt.hash(password, 10)",
        "Name;Wert\nfarbe;blau",
        "Passwort - bitte ändern",  # after a dash, a word is the sentence's
        "g2 = mu4 / mu2**2 - 3",  # the widened false-positive set: arithmetic is no pair
        "| |   | +-o Apple Internal Keyboard / Trackpad@80500000  <class AppleUSBDevice>",
    ],
)
def test_look_alikes_of_those_forms_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
