"""Issue 18: a secret in a place a credential file or command keeps one (``PLACES``).

Passwords are drawn as people type them (letters, digits and a symbol, 8-20 characters), so
no random-token rule can be what masks them: the place does. Every entry of the table has an
example here, and the look-alikes next to the places are left byte for byte.
"""

from __future__ import annotations

import base64
import random
import string
import textwrap

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets
from kindling.secrets.scrub_commands import PLACES

# No blank, quote, backslash or the separators of the pairs a place splits (@ / : % ,).
SYMBOLS = "!#^*+-_.?~"


def _typed(seed: int) -> str:
    rng = random.Random(seed)
    n = rng.randint(8, 20)
    chars = [rng.choice(string.ascii_letters) for _ in range(n - 3)]
    chars += [rng.choice(string.digits), rng.choice(string.digits), rng.choice(SYMBOLS)]
    rng.shuffle(chars)
    # Starting with a letter: where a place may also hold code, ``*p`` and ``^1.2`` read as a
    # pointer and a version.
    return rng.choice(string.ascii_letters) + "".join(chars)


TYPED = st.integers(0, 2**32).map(_typed)

# Each place, as a user would meet it; {} is the password.
EXAMPLES: dict[str, str] = {
    ".netrc": "machine api.example.com login ada password {}",
    ".pgpass": "db.example.com:5432:app:admin:{}\nlocalhost:*:*:postgres:other",
    ".npmrc _auth": "//registry.example.com/:_auth={}",
    ".yarnrc npmAuthIdent": '  npmAuthIdent: "me:{}"',
    "aws configure set": "aws configure set aws_secret_access_key {}",
    "vault login": "vault login {}",
    "net user": "net user deploy {} /add",
    "net use": r"net use Z: \\fs01\share {} /user:CORP\ada",
    "net use, password after /user": r"net use \\fs01\share /user:CORP\ada {}",
    "nmcli": "nmcli dev wifi connect HomeNet password {}",
    "nmcli psk": "nmcli con modify HomeNet wifi-sec.psk {}",
    "wpa_passphrase": "wpa_passphrase HomeNet {}",
    "netsh keyMaterial": 'netsh wlan set profileparameter name=x keyMaterial="{}"',
    "SQL identified by": "ALTER USER app IDENTIFIED BY {};",
    "Dockerfile ENV": "ENV DB_PASSWORD {}",
    "cargo login": "cargo login {}",
    "poetry http-basic": "poetry config http-basic.private __token__ {}",
    "poetry pypi-token": "poetry config pypi-token.pypi {}",
    "composer http-basic": "composer config http-basic.repo.example.com ada {}",
    "npm config set": "npm config set //registry.example.com/:_authToken {}",
    "yarn config set": "yarn config set npmAuthToken {}",
    "bundle config": "bundle config set --global gems.example.com ada:{}",
    "bundler env": "BUNDLE_GEMS__EXAMPLE__COM=ada:{}",
    "secretsmanager": "aws secretsmanager create-secret --name db --secret-string {}",
    "ssm SecureString": "aws ssm put-parameter --name /db/pw --value {} --type SecureString",
    "az keyvault": "az keyvault secret set --vault-name v --name db --value {}",
    "gh secret set": "gh secret set API_KEY --body {}",
    "doppler": "doppler secrets set STRIPE_KEY {}",
    "echo | sudo -S": "ssh ops@host 'echo {} | sudo -S apt-get update'",
    "echo | chpasswd": "echo 'deploy:{}' | chpasswd",
    "echo | docker login": "echo {} | docker login -u ada --password-stdin ghcr.io",
    "echo | gcloud": "echo -n {} | gcloud secrets versions add db --data-file=-",
    "here-string": "gcloud secrets create db --data-file=- <<< {}",
    "curl -u": "curl -u ada:{} https://api.example.com/v1/me",
    "curl -H": "curl -H 'X-Api-Key: {}' https://api.example.com/v1/me",
    "HTTPie header": "http GET api.example.com/v1/me X-Api-Key:{}",
    "smbclient -U": "smbclient //10.0.0.5/c$ -U CORP/ada%{}",
    "sqlplus": "sqlplus scott/{}@orcl @report.sql",
    "Oracle JDBC thin URL": "url=jdbc:oracle:thin:scott/{}@db.example.com:1521:ORCL",
    "expdp userid": "expdp userid=system/{}@db schemas=hr directory=dumps",
    "impacket": "secretsdump.py corp.local/ada:{}@10.0.0.5",
    "skopeo --creds": "skopeo copy --src-creds ada:{} docker://a docker://b",
    "lftp -u": "lftp -u ada,{} ftp.example.com",
    "mysql -p": "mysqldump -uroot -p{} app > app.sql",
    "sshpass": "sshpass -p {} ssh ada@host",
    "docker login -p": "docker login -u ada -p {} registry.example.com",
    "redis-cli -a": "redis-cli -h cache -a {} ping",
    "openssl pass:": "openssl pkcs12 -export -passout pass:{} -out a.p12",
    "htpasswd -b": "htpasswd -b .htpasswd ada {}",
    "PsExec -p": r"PsExec.exe \\web01 -u CORP\ada -p {} cmd.exe",
    "plink -pw": "plink -ssh ada@host -pw {}",
    "sqlcmd -P": "sqlcmd -S db -U sa -P {} -Q x",
    "ldapsearch -w": "ldapsearch -x -D cn=admin -w {} -b dc=x",
    "zip -P": "zip -P {} a.zip f",
    "keytool -storepass": "keytool -list -keystore k.jks -storepass {}",
    "xfreerdp /p:": "xfreerdp /v:10.0.0.5 /u:ada /p:{}",
    "ConvertTo-SecureString": "ConvertTo-SecureString '{}' -AsPlainText -Force",
    "mongosh -p": "mongosh --host db -u ada -p {}",
    "ssh-keygen -N": "ssh-keygen -t ed25519 -N {} -f key",
    "ssh-keygen -P": "ssh-keygen -p -P {} -N other -f key",
    "usermod -p": "usermod -p {} ada",
    "twine -p": "twine upload -u __token__ -p {} dist/*",
    "nuget -p": "nuget sources add -Name x -Source https://x -UserName ada -p {}",
    "pentest -p": "nxc smb 10.0.0.5 -u ada -p {}",
    "-Password": "Connect-VIServer -Server vc01 -User ada -Password {}",
    "login call": 'smtp.login("ada@example.com", "{}")',
    "credential object": 'var c = new NetworkCredential("ada", "{}", "CORP");',
    "mysqli_connect": "$db = mysqli_connect('localhost', 'ada', '{}', 'app');",
    "kickstart rootpw": "rootpw --plaintext {}",
    # Issue 32, thirteenth pass.
    "ansible-vault encrypt_string": "ansible-vault encrypt_string '{}' --name 'db_password'",
    "Terraform variable": 'variable "db_password" {{\n  type = string\n  default = "{}"\n}}',
    "ipsec.secrets PSK": '10.0.0.1 10.0.0.2 : PSK "{}"',
    # Issue 32, fifteenth pass.
    "unattend.xml": "<AutoLogon>\n  <Password>\n    <Value>{}</Value>\n  </Password>",
    # Issue 32: APIs whose documented signature takes a password as a literal argument.
    "JDBC getConnection": 'Connection c = DriverManager.getConnection(url, "ada", "{}");',
    "PHP PDO": '$db = new PDO($dsn, "ada", "{}");',
    "PHP ldap_bind": 'ldap_bind($ds, "cn=ada,dc=example,dc=org", "{}");',
    "pymysql.connect": 'db = pymysql.connect("localhost", "ada", "{}", "app")',
    "Go MySQL DSN": 'db, err := sql.Open("mysql", "ada:{}@tcp(db:3306)/app")',
    "Go SetBasicAuth": 'req.SetBasicAuth("ada", "{}")',
    "Java PasswordAuthentication": 'return new PasswordAuthentication("ada", "{}".toCharArray());',
    "OkHttp Credentials.basic": 'String c = Credentials.basic("ada", "{}");',
    "AWS SDK BasicAWSCredentials": 'new BasicAWSCredentials("AKIAIOSFODNN7EXAMPLE", "{}")',
    "python-ldap simple_bind_s": 'conn.simple_bind_s("cn=ada,dc=example,dc=org", "{}")',
    "Rust AWS Credentials::new": 'Credentials::new("AKIAIOSFODNN7EXAMPLE", "{}", None, None, "x")',
    # Issue 32, sixth pass: a key given to code, and openssl enc's password.
    "JWT key": 'token = jwt.encode(payload, "{}", algorithm="HS256")',
    "HMAC key first": 'mac = hmac.new(b"{}", msg, hashlib.sha256)',
    "HMAC key second": 'const h = crypto.createHmac("sha256", "{}").update(body);',
    "env default": 'const secret = process.env.JWT_SECRET || "{}";',
    "openssl enc -k": "openssl enc -aes-256-cbc -k {} -in notes.txt",
    # Issue 32, seventh pass.
    "auth pair": 'r = requests.get(url, auth=("ada", "{}"))',
    "SQL PASSWORD literal": "ALTER USER ada WITH PASSWORD '{}';",
    "rabbitmqctl add_user": "rabbitmqctl add_user ada {}",
    "net.exe user": 'net.exe user u_svc "{}" /add /domain',
    "crowbar -c": "crowbar -b rdp -s 10.0.0.5/32 -U users.txt -c '{}'",
    "Postfix's sasl_passwd": "# sasl_passwd\n[smtp.example.com]:587 ada@example.com:{}",
    "john's cracked line": (
        "Press 'q' or Ctrl-C to abort, almost any other key for status\n{}    (sql_svc)\n"
        "1g 0:00:00:07 DONE (2023-03-14 15:22) 0.1404g/s"
    ),
    "john --show": "$ john --show hash.txt\n$krb5asrep$23$ada@CORP.LOCAL:{}\n\n"
    "1 password hash cracked, 0 left",
    "NetExec's login": "SMB  10.129.229.59  445  DC  [+] corp.local\\ada:{} (Pwn3d!)",
    "cmdkey /pass:": "cmdkey /add:fs01 /user:ada /pass:{}",
    # Issue 32, ninth pass.
    "ipmitool -P": "ipmitool -I lanplus -H 10.0.0.5 -U admin -P {} power status",
    "redis.conf requirepass": "bind 127.0.0.1\nrequirepass {}\n",
    "redis-server --masterauth": "redis-server --port 6380 --masterauth {}",
    "sentinel.conf auth-pass": "sentinel monitor c 10.0.0.5 6379 2\nsentinel auth-pass c {}",
    # Issue 32, 25th pass: Redis's own commands (DataDog's scrubber tests).
    "redis AUTH": "AUTH {}",
    "redis AUTH user": "AUTH james {}",
    "redis-cli prompt auth": "127.0.0.1:6379> auth default {}",
    "redis-cli AUTH command": "redis-cli -h cache.internal AUTH {} | grep OK",
    "redis HELLO AUTH": "HELLO 3 AUTH default {} SETNAME worker",
    "redis MIGRATE AUTH": 'MIGRATE 10.0.0.5 6379 "" 0 5000 AUTH {} KEYS a b',
    "redis MIGRATE AUTH2": 'MIGRATE 10.0.0.5 6379 "" 0 5000 AUTH2 james {} KEYS a b',
    "redis CONFIG SET requirepass": 'CONFIG SET requirepass "{}"',
    "redis ACL SETUSER": "ACL SETUSER alice on >{} ~cached:* +get",
    "redis ACL SETUSER removes": "acl setuser alice #4c4b3f0a2e2f <{}",
    # A network device's configuration (issue 32, 25th pass: Q&A pages' Cisco configs).
    "IOS enable secret": "Router1(config)#enable secret {}",
    "IOS enable password type 7": "enable password 7 {}",
    "IOS username secret": " username admin privilege 15 secret 0 {}",
    "IOS line password": "Switch(config-line)#password {}",
    "IOS tacacs key": "tacacs-server key 7 {}",
    "IOS radius host key": "radius-server host 10.1.1.1 key {}",
    "IOS isakmp key": "crypto isakmp key {} address 203.0.113.5",
    "IOS pre-shared-key": " pre-shared-key local 0 {}",
    "IOS ospf key": " ip ospf message-digest-key 1 md5 7 {}",
    "IOS key-string": " key-string 7 {}",
    "IOS BGP neighbor": " neighbor 10.0.0.2 password {}",
    "Junos $9$": 'secret "$9${}"; ## SECRET-DATA',
    "sqlplus, a password holding a slash": "sqlplus app/{}/x+y=@ORCLPDB1",
    "wpa_supplicant psk": 'network={{\n    ssid="home"\n    psk="{}"\n}}',
    "NetworkManager psk": "[wifi-security]\nkey-mgmt=wpa-psk\npsk={}\n",
    # Issue 32, tenth pass: more commands that read a secret on their standard input.
    "echo | gh auth login": "echo {} | gh auth login --with-token",
    "printf | wrangler": "printf '%s' '{}' | npx wrangler secret put API_TOKEN",
    "echo | vercel env add": 'echo -n "{}" | vercel env add DB_PASSWORD production',
    "echo | kubectl --from-file": (
        "echo -n {} | kubectl create secret generic db --from-file=password=/dev/stdin"
    ),
    "nuget setapikey": "nuget setapikey {} -Source https://api.nuget.org/v3/index.json",
    "slapd.conf rootpw": 'suffix "dc=example,dc=com"\nrootpw {}\n',
    "ldap.conf bindpw": "binddn cn=admin,dc=example,dc=com\nbindpw {}\n",
    "ROOTPW=": "LDAP_ROOTPW={}",
    "a passcode": '{{"passcode": "{}"}}',
    "GITHUB_PAT": "export GITHUB_PAT={}",
    "gitlab-pat": "gitlab-pat: {}",
    # Issue 32, eleventh pass.
    "macOS keychain -w": "security add-generic-password -a ada -s api -w {}",
    "mc alias set": "mc alias set local http://localhost:9000 minioadmin {}",
    "mc config host add": "mc config host add s3 https://s3.example.com AKIAEXAMPLE {}",
    "rclone config create": "rclone config create s3 s3 access_key_id AKIA secret_access_key {}",
    "process substitution": "restic -r s3:bucket init --password-file <(echo {})",
    "here-string to cryptsetup": "cryptsetup luksOpen /dev/sdb1 vault <<< {}",
    "here-string to --password-stdin": "docker login -u ada --password-stdin <<< {}",
    "-u user -p": "influx setup -u admin -p {} -o org -b bucket -f",
    "echo > a secret's file": "echo {} > ~/.config/app/token",
    "printf > a password file": "printf '%s' {} > secrets/db_password.txt",
    "cx_Oracle.connect": 'conn = cx_Oracle.connect("scott/{}@orcl")',
    "Sequelize": "const db = new Sequelize('app', 'ada', '{}', {{ dialect: 'mysql' }})",
    "ftplib.FTP": 'ftp = ftplib.FTP("ftp.example.com", "ada", "{}")',
    "new mysqli": '$db = new mysqli("localhost", "ada", "{}", "app");',
    "Go smtp.PlainAuth": 'auth := smtp.PlainAuth("", "ada@example.com", "{}", "smtp.example.com")',
    "pika PlainCredentials": "creds = pika.PlainCredentials('guest', '{}')",
    "SecretKeySpec": 'new SecretKeySpec("{}".getBytes(StandardCharsets.UTF_8), "HmacSHA256")',
    "hmac key .encode()": 'hmac.new("{}".encode(), msg, hashlib.sha256)',
    "jjwt signWith": 'Jwts.builder().signWith(SignatureAlgorithm.HS256, "{}").compact()',
    "Java KeyStore.load": 'ks.load(new FileInputStream("ks.jks"), "{}".toCharArray());',
    "Java KeyManagerFactory.init": 'kmf.init(ks, "{}".toCharArray());',
    ".NET X509Certificate2": 'var cert = new X509Certificate2("client.pfx", "{}");',
    "Guzzle auth": "$client = new Client(['auth' => ['ada', '{}']]);",
    "Redis ACL SETUSER": "redis-cli ACL SETUSER ada on >{} ~* +@all",
    "Redis users.acl": "user worker on >{} ~jobs:* +@list",
    "Jenkins Secret.fromString": "def s = Secret.fromString('{}')",
    "sbt Credentials": 'Credentials("Nexus", "repo.example.org", "ada", "{}")',
    "Perl DBI": 'my $dbh = DBI->connect("dbi:Pg:dbname=app", "ada", "{}", {{ RaiseError => 1 }});',
    "mysql_real_connect": 'mysql_real_connect(conn, "localhost", "ada", "{}", "app", 0, NULL, 0);',
    "userinfo template": 'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", "ada", "{}", addr, "app")',
    "URL cut around its password": 'url = "postgresql://ada:" + "{}" + "@db:5432/app"',
    "Basic pair encoded": 'auth = base64.b64encode(b"ada:{}")',
    "Python env fallback": 'token = os.getenv("SENTRY_TOKEN") or "{}"',
    "C# env fallback": 'var key = Environment.GetEnvironmentVariable("OPENAI_KEY") ?? "{}";',
    "Rust env fallback": 'let key = env::var("API_KEY").unwrap_or_else(|_| "{}".to_string());',
    "a key decoded from a literal": 'aesKey = base64.b64decode("{}")',
    "AWS SDK for Go": 'credentials.NewStaticCredentials("AKIAIOSFODNN7EXAMPLE", "{}", "")',
    "a password hash's plaintext": "'password' => Hash::make('{}'),",
    "FortiOS set psksecret": "    set psksecret {}",
    # Issue 32, 27th pass: SQL inside a command's string, a password-setting or hashing tool,
    # a named value set with a blank.
    "SQL identified by in mysql -e": "mysql -e \"CREATE USER 'app'@'%' IDENTIFIED BY '{}';\"",
    "SQL identified with plugin": "ALTER USER 'root' IDENTIFIED WITH caching_sha2_password BY '{}'",
    "SQL identified in code": "cur.execute(\"GRANT ALL ON app.* TO 'app' IDENTIFIED BY '{}'\")",
    "mysqladmin password": "mysqladmin -u root password '{}'",
    "mysqladmin -p password": "mysqladmin -u root -p'{0}x' password '{0}'",
    "openssl passwd": "openssl passwd -6 -salt Qx9 '{}'",
    "mkpasswd": "mkpasswd --method=sha-512 '{}'",
    "setx": 'setx DB_PASSWORD "{}" /M',
    "dotnet user-secrets": 'dotnet user-secrets set "Smtp:Password" "{}"',
    "ansible-vault encrypt_string, flags": "ansible-vault encrypt_string --vault-id dev@p '{}'",
    "GitHub Actions add-mask": 'echo "::add-mask::{}"',
    "Azure Pipelines secret variable": 'echo "##vso[task.setvariable variable=t;issecret=true]{}"',
    "RabbitMQ Erlang cookie": "  - RABBITMQ_ERLANG_COOKIE={}",
    "erl -setcookie": "erl -name a@b -setcookie '{}'",
    # Issue 32, 28th pass: a connection string's value in braces, usql's password file.
    "braced connection string value": "Server=db;User Id=app;Password={{{}}};Encrypt=true",
    "braced JDBC value": "jdbc:sqlserver://db;user=app;password={{{}}};encrypt=true",
    "usqlpass line": "postgres:db.example.com:5432:*:app:{}",
    "Express cookieParser": "app.use(cookieParser('{}'))",
    "JWT section's key, JSON": '"Jwt": {{\n  "Issuer": "api",\n  "Key": "{}"\n}}',
    "JWT section's key, YAML": "jwt:\n  issuer: api\n  key: {}\n",
    # Issue 32, 29th pass: a value Pulumi keeps encrypted.
    "pulumi config set --secret": "pulumi config set --secret app:dbPassword '{}'",
    "pulumi config set, switch after": "pulumi config set app:apiKey '{}' --secret",
    "dvc remote modify": "dvc remote modify --local myremote password '{}'",
    "OpenWrt wireless key": "config wifi-iface 'default_radio0'\n\toption key '{}'\n",
    "uci set wireless key": "uci set wireless.default_radio0.key='{}'",
    "JAAS login module's user": (
        "KafkaServer {{\n  org.apache.kafka.common.security.plain.PlainLoginModule required\n"
        '  username="admin"\n  user_alice="{}";\n}};'
    ),
    # Issue 32, 31st pass: network daemons' secrets (scrub_daemons).
    "pppd chap-secrets": (
        '# /etc/ppp/chap-secrets\n# client\tserver\tsecret\tIP addresses\nada\t*\t"{}"\t*'
    ),
    "Caddy's DNS provider token": "example.com {{\n\ttls {{\n\t\tdns cloudflare {}\n\t}}\n}}",
    "rsyncd.secrets": "# /etc/rsyncd.secrets\nada:{}",
    "OpenVPN management password": (
        '>PASSWORD:Need \'Auth\' username/password\npassword "Auth" "{}"'
    ),
    "ipa-server-install -a": "ipa-server-install -a {} -r EXAMPLE.TEST -U",
    "ipa-server-install -p": "ipa-server-install -p {} -r EXAMPLE.TEST -U",
    "strongSwan PSK, its 0x form": ": PSK 0x{}",
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(password=TYPED)
def test_a_typed_password_in_a_known_place_is_masked(name: str, password: str) -> None:
    out = scrub_secrets(EXAMPLES[name].format(password)).text
    assert password not in out, out
    assert "[REDACTED:" in out


@settings(max_examples=20, deadline=None)
@given(raw=st.binary(min_size=24, max_size=120))
def test_the_private_lines_of_a_putty_key_are_masked(raw: bytes) -> None:
    lines = textwrap.wrap(base64.b64encode(raw).decode(), 64)
    # A line of one character repeated (``AAAA...``: zero bytes) is a placeholder, left.
    assume(all(len(set(line.rstrip("="))) > 1 for line in lines))
    text = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 1\nAAAAC3Nz\n"
    text += f"Private-Lines: {len(lines)}\n" + "\n".join(lines) + "\nPrivate-MAC: 0a1b"
    out = scrub_secrets(text).text
    assert not any(line in out for line in lines)
    assert "AAAAC3Nz" in out
    assert "Private-MAC: 0a1b" in out


def test_every_place_has_an_example() -> None:
    texts = [t.format("Zq8!kd2mWp").lower() for t in EXAMPLES.values()]
    texts.append("private-lines:")
    texts.append("[]byte{")  # a key as bytes: tests/secrets/test_scrub_compared.py
    texts += ["mnemonic", "wallet("]  # a wallet's: tests/secrets/test_scrub_wallets.py
    texts.append("access_key")  # an access key id's shape: tests/secrets/test_scrub_literals.py
    texts.append("auth login")  # base64 lines: tests/secrets/test_scrub_mail_admin.py
    texts.append("nsupdate")  # a TSIG key (base64): tests/secrets/test_scrub_daemons.py
    bare = [p for p in PLACES if not any(any(w in t for w in p.words) for t in texts)]
    assert not bare, [p.source[:60] for p in bare]


# Next to each place, text that only looks like it.
LEFT = [
    "self._auth = self._build_auth(auth)",
    "sqlldr userid=scott/$PW control=loader/file.ctl",
    "sqlplus / as sysdba @scripts/setup.sql",
    "url=jdbc:oracle:thin:@//db.example.com:1521/service",
    "ip -6 addr add 2001:4860:4860:0:8888/64 dev eth0",
    "link/ether 00:1a:2b:3c:4d:5e brd ff:ff:ff:ff:ff:ff",
    "localhost:5432:app:admin:$PGPASSWORD",
    "docker pull nginx:1.25@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b",
    "hydra -l ada -P rockyou.txt ssh://10.0.0.5",
    "mysql -h db -P 3306 -u ada -p app",
    "echo hello | grep -c h",
    r"net use Z: \\fs01\share /persistent:yes",
    "curl -u ada:$API_TOKEN https://api.example.com",
    "curl -H 'X-Api-Key: $API_KEY' -H 'Idempotency-Key: k-2024-01' https://api.example.com",
    "curl -H 'Accept: application/json' -H 'X-Token-Expires: 3600' https://api.example.com",
    'ssh-keygen -t ed25519 -N "" -f key',
    "printf '%s\\n' 50% | sed s/%//",
    "npm config set registry https://registry.npmjs.org/",
    "bundle config set path vendor/bundle",
    "poetry config virtualenvs.in-project true",
    "shown when running `poetry config pypi-token.pypi` without a value",
    "smtp.login(user, password)",
    "DriverManager.getConnection(url, user, password)",
    "req.SetBasicAuth(user, pass)",
    '$("#b").bind("click", "handler")',
    'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, db)',
    "$db = new PDO($dsn, $user, $pass);",
    "String c = Credentials.basic(user, password);",
    "npw = 3",
    'pw_hash = "abc"',
    "auth=(user, password)",
    'auth=("ada", os.environ["PW"])',
    "ALTER USER ada WITH PASSWORD NULL;",
    "-- the password 'x' is checked",
    "rabbitmqctl add_user ada",
    "mysqladmin -u root -p password",
    "mysqladmin --user=root password",
    "mysqladmin -u root status",
    "openssl passwd -1 -stdin < passwords.txt",
    "openssl passwd -6 -in passwords.txt",
    "run openssl passwd to hash it",
    "mkpasswd -m help",
    "setx PATH C:\\tools",
    "setx DB_PASSWORD %OLD_PASSWORD%",
    "dotnet user-secrets set ConnectionStrings:Db $CONN",
    "dotnet user-secrets list",
    "create a user identified by their email",
    "CREATE USER app IDENTIFIED BY $APP_PASSWORD;",
    'mysql -e "CREATE USER app IDENTIFIED WITH auth_socket"',
    "rabbitmqctl list_users",
    '"Jwt": {"Issuer": "api", "Key": "${JWT_KEY}"}',
    '"JwtOptions": {"KeyId": "kid-1"}',
    "jwt:\n  key-id: kid-1\n",
    '"Cache": {"Key": "users"}',
    'conn = f"Server=db;Password={password};"',
    "Server=db;Password={0};Encrypt=true",
    "Server=db;Password={{ db_password }};",
    "user:password@tcp(db:3306)/app",
    "id:password@tcp(your-amazonaws-uri.com:3306)/dbname",
    "postgres:*:*:*:postgres:[REDACTED:password]",
    "cmdkey /pass:, a URL password",
    "the requirepass directive sets a password",
    "# requirepass foobared",
    "redis-server --requirepass $REDIS_PASSWORD",
    "sentinel monitor cache 10.0.0.5 6379 2",
    "AUTH LOGIN",
    "AUTH FAILED",
    "Auth failed for user bob",
    "auth is broken again",
    "The AUTH command takes a password",
    "AUTH $REDIS_PASSWORD",
    "127.0.0.1:6379> AUTH <password>",
    "migrate the auth module to v2",
    "HELLO 3",
    "MIGRATE 10.0.0.5 6379 key 0 5000 COPY",
    "CONFIG SET maxmemory 100mb",
    "ACL SETUSER alice on #4c4b3f0a2e2f ~cached:* +get",
    "enable password authentication for users",
    "You should enable password encryption",
    "username and password required",
    "username and password are required",
    "enable password",
    "password reset",
    "Router1#show running-config | include secret",
    "ip ospf authentication message-digest",
    "sqlplus -s /nolog @script.sql",
    "key-mgmt=wpa-psk",
    "psk=${WIFI_PSK}",
    "ipmitool -I lanplus -H 10.0.0.5 -U admin -E power status",
    "echo $GH_TOKEN | gh auth login --with-token",
    "printf '%s' \"$API_TOKEN\" | npx wrangler secret put API_TOKEN",
    "echo done | tee log.txt",
    "nuget setapikey $NUGET_KEY",
    "the bindpw option sets the password",
    're_pat = "^[a-z]+$"',
    "passcode_length = 6",
    "security add-generic-password -a ada -s api -w",
    "mc alias set local http://localhost:9000 $MINIO_USER $MINIO_PASSWORD",
    "rclone config create s3 s3 env_auth true",
    "diff <(echo a) <(echo b)",
    "docker run -u 1000 -p 8080:80 nginx",
    "docker run -u node -p 3000 app",
    "influx setup -u USER -p PASSWORD -o ORG",
    "sudo -u ada -p 'password for %u: ' ls",
    "ab -u put.json -p post.json http://localhost/",
    "pg_dump -U app -p 5432 app",
    "echo ok > /tmp/token_check",
    'echo "# Secrets" > secrets.md',
    "echo $TOKEN > ~/.config/app/token",
    "echo 'export PATH=$HOME/bin:$PATH' >> ~/.bashrc",
    "conn = cx_Oracle.connect(user, password, dsn)",
    "const db = new Sequelize(process.env.DB, user, pass)",
    'new SecretKeySpec(key, "AES")',
    'private static final char[] HEX = "0123456789abcdef".toCharArray();',
    'for (char c : "aeiou".toCharArray()) {',
    "new X509Certificate2(path, password)",
    "$client = new Client(['auth' => [$user, $pass]]);",
    'fmt.Sprintf("%s:%s", "localhost", "8080")',
    'x = "{}:{}".format(a, b)',
    'port = os.getenv("PORT") or "8080"',
    'url = "http://" + host + ":" + port',
    "btoa(username + ':' + password)",
    'monkey_data = base64.b64decode("aGVsbG8gd29ybGQ=")',
    "token_bytes = b64decode(data)",
    'FIXTURE = base64.b64decode("aRk0l4QKnRBXFiZJbgHYSOUwXMaXPAWRHvf0XFPc7XeSyb8Qd8B4")',
]


@pytest.mark.parametrize("text", LEFT)
def test_look_alikes_of_the_places_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text
