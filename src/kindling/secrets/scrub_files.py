"""Where credential files and source code keep a secret, for ``secrets.scrub_commands``.

``FILE_PLACES``: lines of credential files (``.netrc``, ``.pgpass``, ``.npmrc``'s ``_auth``,
``.yarnrc.yml``'s ``npmAuthIdent``, a PuTTY key's private lines, Kickstart's ``rootpw``,
unattend.xml's ``<Password><Value>``, strongSwan's ``: PSK "x"``, Bundler's
``BUNDLE_HOST__COM=``, a Dockerfile's ``ENV X_PASSWORD value`` (and ``setx X_PASSWORD value``),
a Terraform variable's ``default``) and calls of code given a user and a password as literals
(``smtp.login("u", X)``, ``new NetworkCredential("u", X)``, ``mysqli_connect("h", "u", X)``,
``DriverManager.getConnection(url, "u", X)``, a Go MySQL DSN ``"u:X@tcp(db)/app"``), and a
literal given to code as a key (``jwt.sign(payload, X)``, ``hmac.new(b X, ...)``, the default
of ``process.env.JWT_SECRET || X``).
``Place`` says where: a pattern with groups ``keep`` and ``value``, the keywords that wake it,
and whether the place holds nothing but a secret (``certain``). ``secrets.scrub_commands``
puts these before the command lines' places in ``PLACES`` and turns them into rules. Pure
data: must not import anything.
"""

from __future__ import annotations


class Place:
    """Where a command or file keeps a secret: a pattern with groups ``keep`` (left as it is)
    and ``value`` (masked), woken by any of ``words``. (A plain class: ``typing`` is not
    imported on a hook's path.)"""

    __slots__ = ("certain", "kind", "source", "words")

    def __init__(
        self, words: tuple[str, ...], source: str, certain: bool = False, kind: str = "password"
    ) -> None:
        self.words, self.source, self.certain, self.kind = words, source, certain, kind


# From a program's name to its flag: 300 characters of a line it runs on to (over up to 8
# whole lines that end with ``\``, PowerShell's backtick or cmd's ``^``) or of its own.
CONTINUED = r"(?:[^\r\n]{0,299}+(?<=[\\`^])\r?\n){0,8}?"
ON = rf"\b{CONTINUED}[^\r\n]{{0,300}}?"
ARG = r"""(?:"[^"\r\n]*+"|'[^'\r\n]*+'|[^\s"'`|;&]++)"""  # an argument: quoted, or to a blank
# The words that end a setting's name for a secret (``DB_PASSWORD``, ``Smtp:Password``).
_NAMED = r"(?i:password|passwd|pwd|token|secret|api_?key|access_?key|credentials?)"
_FIELD = r"(?:\\.|[^\s:\\])++"  # a field of .pgpass: a colon in it is escaped (``\:``)
# A string literal of code.
LIT = r"""(?:"[^"\r\n]*+"|'[^'\r\n]*+')"""
# A call's first argument before the key: a literal, a name (``user.id``, ``data[0]``,
# ``make(x)``), or an object literal of one level (``{ id: user.id }``).
_FIRST = (
    rf"(?:{LIT}|\{{[^{{}}\r\n]{{0,200}}+\}}"
    r"|[A-Za-z_$][\w.$\[\]\"']{0,80}+(?:\([^()\r\n]{0,80}+\))?)"
)
# A decoder of base64 or hex, as code calls it (``base64.b64decode``, Ruby's
# ``strict_decode64``, Java's ``Base64.getDecoder().decode`` and ``Hex.decodeHex``, Swift's
# ``Data(base64Encoded:``, ``bytes.fromhex``, PHP's ``hex2bin``, Rust's ``hex::decode``).
_DECODER = (
    r"(?:b64decode|strict_decode64|decode64|base64_decode|DecodeString|FromBase64String"
    r"|getDecoder\(\)\.decode|Data\(base64Encoded:|fromhex|unhexlify|hex2bin|decodeHex"
    r"|parseHexBinary|hex::decode)"
)
# What may wrap a literal key: bytes (``b"k"``), Go's ``[]byte("k")``, Node's
# ``Buffer.from("k")``, ``new TextEncoder().encode("k")``, a decoder (``bytes.fromhex("k")``).
_WRAP = (
    r"(?:b(?=[\"'])|\[\]byte\(|Buffer\.from\(|new[ \t]++TextEncoder\(\)\.encode\("
    rf"|Encoding\.UTF8\.GetBytes\(|&?(?:[A-Za-z_]\w{{0,24}}+\.)*+{_DECODER}\(?[ \t]*+b?)?"
)
# A byte written in code: hex, decimal or octal.
_BYTE = r"(?:0[xX][0-9A-Fa-f]{1,2}|[0-9]{1,3})"
# An environment variable's name that says it holds a secret.
_SECRET_NAME = (
    r"[A-Za-z_][\w]{0,60}?(?i:key|secret|token|password|passwd|pwd|pass|auth|credentials?)"
    r"(?![A-Za-z])\w{0,20}+"
)

FILE_PLACES: tuple[Place, ...] = (
    # ---------------------------------------------------------------- credential files
    # .netrc: machine x login y password z (over one line or several); between, only its own
    # tokens and their values ("the default location for the password file" is prose)
    Place(
        ("password",),
        r"(?P<keep>\b(?i:(?:machine|login)[ \t\r\n]++[^\s`]++|default)"
        r"(?:[ \t\r\n]++(?i:login|account|port|protocol)[ \t\r\n]++[^\s`]++){0,3}?[ \t\r\n]++"
        r"(?i:password)[ \t]++)(?P<value>(?![=:](?:\s|$))[^\s`]++)",
        certain=True,
    ),
    # .pgpass: host:port:database:user:password, one entry a line (a colon or a backslash in
    # a field is escaped), or a quoted string's (a tool's output JSON-encoded); usql's
    # .usqlpass has the scheme first. Exactly five fields (six), a port or ``*`` second
    # (third): no IPv6 address or MAC has that.
    Place(
        (":5432:", ":5433:", ":6432:", ":*:", "pgpass"),
        rf"(?<![^\n\"'])[ \t]*+(?P<keep>(?:[a-z][a-z0-9+]*+:)?(?:[A-Za-z0-9_.*-]|\\:)(?:{_FIELD})?"
        rf":(?:[0-9]{{1,5}}|\*):{_FIELD}:{_FIELD}:)(?<!\[REDACTED:)(?P<value>{_FIELD})[ \t]*+"
        r"(?=\r?$|\r?\n)",
        certain=True,
    ),
    # .npmrc's _auth (base64 of user:password), alone on its line or after a registry's
    # ``//host/:``; .yarnrc.yml's npmAuthIdent (user:password)
    Place(
        ("_auth", "npmauthident"),
        r"(?P<keep>(?:(?<![^\n])[ \t]*+|(?<=/:))(?:_auth|npmAuthIdent)[\"']?[ \t]*+[=:][ \t]*+)"
        rf"(?P<value>{ARG})",
        certain=True,
    ),
    # PuTTY's key file: the lines after Private-Lines hold the private key
    Place(
        ("private-lines",),
        r"(?P<keep>Private-Lines:[ \t]*+[0-9]++\r?\n)(?P<value>[A-Za-z0-9+/=]++(?=\r?\n|\Z)"
        r"(?:\r?\n[A-Za-z0-9+/=]++(?=\r?\n|\Z))*+)",
        certain=True,
    ),
    # Dockerfile ``ENV DB_PASSWORD hunter2`` (the old form: key, blank, value).
    Place(
        ("env ", "arg "),
        r"(?P<keep>(?<![^\n])[ \t]*+(?:ENV|ARG)[ \t]++[A-Za-z_][\w.-]{0,60}?"
        rf"{_NAMED}[ \t]++)(?P<value>(?![=\s]){ARG})",
    ),
    # ... and the commands that set a named value the same way: Windows' ``setx DB_PASSWORD x``,
    # ``dotnet user-secrets set "Db:Password" x``, ``travis env set DB_PASSWORD x``.
    Place(
        ("setx", "user-secrets", "env set"),
        r"(?P<keep>\b(?i:setx(?:\.exe)?|user-secrets[ \t]++set|travis[ \t]++env[ \t]++set)"
        rf"[ \t]++(?P<q>[\"']?)[\w.:-]{{0,60}}?{_NAMED}[\w.:-]{{0,30}}+(?P=q)[ \t]++)"
        rf"(?P<value>(?![=\s/-]){ARG})",
    ),
    # Bundler's credentials in its environment: BUNDLE_GEMS__EXAMPLE__COM=user:secret
    Place(
        ("bundle_",),
        rf"(?P<keep>\bBUNDLE_[A-Z0-9]++(?:_[A-Z0-9]++)*?__[A-Z0-9_]++=)(?P<value>{ARG})",
        certain=True,
    ),
    # Calls that take a user and a password as string literals: smtp.login("ada", "pw"),
    # new NetworkCredential("ada", "pw"), superagent's .auth("ada", "pw");
    # mysqli_connect("host", "ada", "pw")
    # (Java's ``new PasswordAuthentication("ada", "pw".toCharArray())``; Go's
    # ``req.SetBasicAuth("ada", "pw")``; OkHttp's ``Credentials.basic("ada", "pw")``; the AWS
    # SDKs' ``new BasicAWSCredentials("AKIA...", "secret")``, ``AwsBasicCredentials.create``;
    # python-ldap's ``simple_bind_s("cn=admin,...", "pw")``; the Rust AWS SDK's
    # ``Credentials::new("AKIA...", "secret", ...)``)
    Place(
        (
            *("login(", "credential(", "credentials(", "auth(", "pass_(", "bind_s("),
            *("simple_bind(", "basic(", "authentication(", "authenticationtoken("),
            *("credentials.create(", "credentials::new(", "plaincredentials("),
            *("x509certificate2(", "newstaticcredentials("),
        ),
        r"(?P<keep>\b(?:login|NetworkCredential|UsernamePasswordCredentials"
        r"|PasswordAuthentication|UsernamePasswordAuthenticationToken"
        r"|(?:HTTP)?(?:Basic|Digest|Proxy)Auth|[Ss]et(?:Basic|Proxy)Auth|setCredentials|auth"
        r"|pass_|Basic(?:AWS|Session)Credentials|AwsBasicCredentials\.create|Credentials::new"
        r"|Credentials\.basic|(?:simple_)?bind(?:_s)?|PlainCredentials|X509Certificate2"
        r"|NewStaticCredentials)"
        rf"\([ \t]*+{LIT}[ \t]*+,[ \t]*+)(?P<value>{LIT})"
        r"(?=[ \t]*+(?:[,)]|\.toCharArray\(\)))",
        certain=True,
    ),
    # A key written as bytes in code: ``unsigned char key[] = {0x35, ...}``, ``#define AESKEY
    # {0x35, ...}``, Go's ``Secret: []byte{...}``, Java's ``byte[] key = {...}``, Python's
    # ``key = bytes([...])``, Rust's ``const KEY: [u8; 16] = [...]``: 8+ byte literals, after
    # a name that ends in a secret word (``token_ids = [101, ...]`` is a tokenizer's output).
    Place(
        (
            *("[]byte{", "byte[]", "bytes([", "bytearray([", "uint8_t", "unsigned char"),
            *("#define", "[u8;", "uint8array("),
        ),
        r"(?P<keep>\b(?:[A-Za-z_]\w{0,40}?)?(?i:(?<!mon)(?<!tur)(?<!hoc)key|secret|passw(?:or)?d"
        r"|passphrase)"
        r"(?:_?(?i:bytes|data)|[0-9])?\b(?:\[\w{0,8}\])?[ \t]*+"
        r"(?::[ \t]*+\[u8;[ \t]*+[0-9]{1,4}\][ \t]*+)?(?:[:=]=?|(?<=[\w\]])[ \t])?[ \t]*+"
        r"(?:new[ \t]++)?(?:(?:\[\][ \t]*+)?(?:byte|bytes|bytearray|Uint8Array|uint8_t|char)"
        r"(?:\[[0-9]*\])?[ \t]*+)?[(\[{][ \t]*+\[?[ \t]*+)"
        rf"(?P<value>{_BYTE}(?:[ \t]*+,[ \t\\\r\n]*+{_BYTE}){{7,}}+)",
        certain=True,
        kind="secret",
    ),
    # A user and a password as a pair given to an auth argument: requests' and httpx's
    # ``auth=("ada", "pw")``, Elasticsearch's ``basic_auth=("elastic", "pw")``, ``http_auth``;
    # Guzzle's ``['auth' => ['ada', 'pw']]``.
    Place(
        ("auth=(", "auth = (", "auth=[", "auth = [", "auth' =>", 'auth" =>'),
        r"(?P<keep>\b(?:[A-Za-z]++_)?auth(?:[ \t]*+=|[\"'][ \t]*+=>)[ \t]*+[(\[][ \t]*+"
        rf"{LIT}[ \t]*+,[ \t]*+)(?P<value>{LIT})(?=[ \t]*+[,)\]])",
        certain=True,
    ),
    # A user and a password given in order after the first argument (a URL, a DSN or a host,
    # a literal or a name): JDBC's ``DriverManager.getConnection(url, "ada", "pw")``, PHP's
    # ``new PDO($dsn, "ada", "pw")`` and ``ldap_bind($conn, "cn=ada", "pw")``, Python's
    # ``pymysql.connect("host", "ada", "pw")`` and ``MySQLdb.connect(...)``, ``ftplib.FTP(...)``;
    # ``new Sequelize("db", "ada", "pw")``, ``new mysqli("host", "ada", "pw")``; Go's
    # ``smtp.PlainAuth("", "ada", "pw", host)``; Groovy's ``Sql.newInstance(url, "ada", "pw",
    # driver)``, MATLAB's ``database("db", "ada", "pw", ...)``.
    Place(
        (
            *("getconnection(", "pdo(", "ldap_bind(", "pymysql.connect(", "mysqldb.connect("),
            *("sequelize(", "mysqli(", "ftp(", "ftp_tls(", "plainauth(", "sql.newinstance("),
            *("database(", "dbi->connect(", "create_superuser(", "create_user("),
        ),
        r"(?P<keep>(?:\bgetConnection|\bnew[ \t]++(?:PDO|Sequelize|mysqli)|\bldap_bind"
        r"|\b(?:pymysql|MySQLdb)\.connect|\bftplib\.FTP(?:_TLS)?|\bsmtp\.PlainAuth"
        r"|\bSql\.newInstance|(?<![\w.])database|\bDBI->connect|\bcreate_(?:super)?user)"
        # (a formatter may put each argument on a line of its own)
        rf"\(\s*+(?:{LIT}|\$?[A-Za-z_][\w.]{{0,60}}+)\s*+,\s*+{LIT}\s*+,\s*+)"
        rf"(?P<value>{LIT})(?=\s*+[,)])",
        certain=True,
    ),
    # go-sql-driver/mysql's DSN, no scheme: ``"ada:pw@tcp(db:3306)/app"``, ``@unix(...)``; also
    # unquoted, as a log prints it (``DSN was: ada:pw@tcp(db:3306)/app``).
    Place(
        ("@tcp(", "@unix("),
        # (to the last ``@`` before the address, as the driver splits it: ``pw`` may hold one)
        r"""(?P<keep>(?:["'`=]|(?<!\S))[^"'`:@/\s]{1,64}+:)(?P<value>[^"'`\s]{1,128}?)"""
        r"(?=@(?:tcp|unix)\()",
        certain=True,
    ),
    Place(
        ("_connect(",),
        r"(?P<keep>\bmysql(?:i_|_)(?:real_)?connect\([ \t]*+(?:[A-Za-z_$][\w$]*+[ \t]*+,[ \t]*+)?"
        rf"{LIT}[ \t]*+,[ \t]*+{LIT}[ \t]*+,[ \t]*+)"
        rf"(?P<value>{LIT})",
        certain=True,
    ),
    # ---------------------------------------------------------------- keys given to code
    # A literal given as the key of a signing or encryption call: whatever it reads, it is
    # the key (``jwt.sign(payload, "secret")`` signs with "secret"). JWT libraries take it
    # second, after the payload or the token (PyJWT, jsonwebtoken, ruby-jwt, jose):
    Place(
        ("jwt.", "jsonwebtoken.", "jose.", "jwt::", "jwtcirce."),
        r"(?P<keep>\b(?:jwt|JWT|jsonwebtoken|jose|JwtCirce)(?:\.|::)(?:encode|decode|sign|verify)"
        rf"(?:\([ \t]*+|[ \t]++){_FIRST}[ \t]*+,[ \t]*+{_WRAP})(?P<value>{LIT})(?=\)?[ \t]*+[,)])",
        certain=True,
        kind="secret",
    ),
    # first: ``hmac.new(b"k", ...)``, PyCryptodome's ``AES.new(b"k", ...)``, ``Fernet(b"k")``,
    # java-jwt's ``Algorithm.HMAC256("k")``, jjwt's ``Keys.hmacShaKeyFor("k".getBytes())``,
    # golang-jwt's ``token.SignedString([]byte("k"))``, Go's ``aes.NewCipher([]byte("k"))``,
    # RustCrypto's ``Aes256Gcm::new_from_slice(b"k")``, ASP.NET's ``new
    # SymmetricSecurityKey(Encoding.UTF8.GetBytes("k"))``, gin's ``cookie.NewStore([]byte("k"))``,
    # Express's ``cookieParser("k")`` (the secret that signs its cookies)
    Place(
        (
            *("hmac.new(", ".new(b", "fernet(", "algorithm.hmac", "hmacshakeyfor("),
            *("signedstring(", "secretkeyspec(", "aes.newcipher(", "new_from_slice("),
            *("symmetricsecuritykey(", "cookie.newstore(", "newcookiestore(", "cookieparser("),
        ),
        r"(?P<keep>(?:\b(?:hmac|HMAC)\.new|\b(?:AES|DES3?|Blowfish|ARC4|CAST)\.new|\bFernet"
        r"|\bAlgorithm\.HMAC(?:256|384|512)|\bhmacShaKeyFor|\.SignedString"
        r"|\bnew[ \t]++SecretKeySpec|\baes\.NewCipher|::new_from_slice"
        r"|\bnew[ \t]++SymmetricSecurityKey|\bcookie\.NewStore|\bsessions\.NewCookieStore"
        r"|\bcookieParser)"
        rf"\([ \t]*+{_WRAP})(?P<value>{LIT})(?=\)?(?:[ \t]*+[,)]|\.(?:getBytes|encode)\())",
        certain=True,
        kind="secret",
    ),
    # second, after the algorithm: Go's ``hmac.New(sha256.New, []byte("k"))``, Node's
    # ``crypto.createHmac("sha256", "k")`` and ``createCipheriv(alg, "k", iv)``, Ruby's
    # ``OpenSSL::HMAC.hexdigest("SHA256", "k", data)``, jjwt's ``signWith(HS256, "k")``
    Place(
        (
            *("hmac.new(", "createhmac(", "createcipheriv(", "createdecipheriv("),
            *("hmac.hexdigest(", "hmac.digest(", "hmac.base64digest(", "signwith("),
        ),
        r"(?P<keep>(?:\bhmac\.New|\bcreate(?:Hmac|Cipheriv|Decipheriv)|\.signWith"
        r"|\bHMAC\.(?:hex|base64)?digest)"
        rf"\([ \t]*+(?:{LIT}|[A-Za-z_][\w.:]{{0,60}}+)[ \t]*+,[ \t]*+{_WRAP})"
        rf"(?P<value>{LIT})(?=\)?[ \t]*+[,)])",
        certain=True,
        kind="secret",
    ),
    # A default given to a secret's environment variable: ``process.env.JWT_SECRET || "x"``,
    # ``process.env["API_KEY"] ?? "x"``, Kotlin's ``System.getenv("JWT_SECRET") ?: "x"``,
    # PHP's ``getenv('DB_PASSWORD') ?: 'x'``, Python's ``os.getenv("X_TOKEN") or "x"``, C#'s
    # ``GetEnvironmentVariable("X_KEY") ?? "x"``, Rust's ``env::var("X").unwrap_or("x")``,
    # Ruby's ``ENV["API_KEY"] || "x"``, ``ENV.fetch("SECRET_KEY_BASE", "x")``, Terraform's
    # ``try(each.value.admin_password, "x")`` and ``coalesce`` (``os.getenv("X", "x")`` is keyed).
    Place(
        (
            *("process.env", "env[", "env.fetch(", "getenv(", "environ.get(", "variable("),
            *("env::var(", "try(", "coalesce("),
        ),
        rf"(?P<keep>\b(?:process\.env(?:\.{_SECRET_NAME}"
        rf"|\[[ \t]*+[\"'`]{_SECRET_NAME}[\"'`][ \t]*+\])"
        rf"|ENV\[[ \t]*+[\"']{_SECRET_NAME}[\"'][ \t]*+\]"
        rf"|(?:System\.|os\.|os\.environ\.)?(?:getenv|get|GetEnvironmentVariable)\("
        rf"[ \t]*+[\"']{_SECRET_NAME}[\"'][ \t]*+\))[ \t]*+(?:\|\||\?\?|\?:|or)[ \t]*+"
        rf"|\benv::var\([ \t]*+\"{_SECRET_NAME}\"[ \t]*+\)\.unwrap_or(?:_else)?\("
        r"(?:\|_\|[ \t]*+)?"
        rf"|\bENV\.fetch\([ \t]*+[\"']{_SECRET_NAME}[\"'][ \t]*+,[ \t]*+"
        rf"|\b(?:try|coalesce)\([ \t]*+(?:[A-Za-z_]\w*+\.)*+{_SECRET_NAME}[ \t]*+,[ \t]*+)"
        rf"(?P<value>{LIT})",
        certain=True,
        kind="secret",
    ),
    # Java takes a password as a char array: a literal made one and given to a call is that
    # password (``ks.load(in, "pw".toCharArray())``, ``kmf.init(ks, ...)``, ``new
    # PBEKeySpec(...)``); an alphabet assigned to a constant (``HEX = "0123...".toCharArray()``)
    # is no argument.
    Place(
        (".tochararray()",),
        r"(?P<keep>[(,][ \t]*+\")(?!0123|abcd|ABCD)(?P<value>[^\"\\\r\n]{4,200}+)"
        r"(?=\"\.toCharArray\(\))",
        certain=True,
    ),
    # Jenkins' Groovy: a literal made a secret (``Secret.fromString("x")``), the password of
    # ``new UsernamePasswordCredentialsImpl(scope, id, description, "ada", "x")``; sbt's
    # ``Credentials("realm", "host", "ada", "x")``.
    Place(
        ("secret.fromstring(", "usernamepasswordcredentialsimpl(", "credentials("),
        r"(?P<keep>\bSecret\.fromString\([ \t]*+"
        r"|\bUsernamePasswordCredentialsImpl\((?:[^,()\r\n]{1,120}+,){4}[ \t]*+"
        rf"|(?<![\w.])Credentials\((?:[ \t]*+{LIT}[ \t]*+,){{3}}[ \t]*+)"
        rf"(?P<value>{LIT})(?=[ \t]*+\))",
        certain=True,
    ),
    # A user and a password put into a pair by code: a template of two placeholders joined by a
    # colon, as userinfo or a Basic pair (Go's ``Sprintf("%s:%s@tcp(%s)/%s", "ada", "pw", ...)``,
    # ``"amqp://{}:{}@{}/".format("ada", "pw", host)``, PHP's ``sprintf('%s:%s', 'ada', 'pw')``,
    # PowerShell's ``"{0}:{1}" -f "ada", "pw"``); a URL cut around its password
    # (``"postgresql://ada:" + "pw" + "@db/app"``); a literal pair a Basic header encodes
    # (``btoa("ada:pw")``, ``b64encode(b"ada:pw")``, ``base64Encode(utf8.encode('ada:pw'))``).
    Place(
        ("%s:%s", "{}:{}", "{0}:{1}"),
        r"(?P<keep>[\"'`][^\"'`\r\n]{0,80}?(?:%s:%s|\{\}:\{\}|\{0\}:\{1\})"
        r"(?:@[^\"'`\r\n]{0,80}+)?[\"'`][ \t]*+(?:,|\)?\.format\(|-f)[ \t]*+"
        rf"(?:{LIT}|[A-Za-z_$][\w.$]{{0,40}}+)[ \t]*+,[ \t]*+)"
        # not a port (``"%s:%s", "db", "5432"``) nor a short word (``'%s:%s', 'foo', 'bar'``)
        rf"(?![\"'`](?:\d{{1,5}}+|[A-Za-z]{{1,7}}+)[\"'`])(?P<value>{LIT})",
        certain=True,
    ),
    Place(
        ('" + "', "' + '", '":" + "', "':' + '"),
        r"(?P<keep>://[^\s\"'`:/@]{1,64}+:[\"'][ \t]*+\+[ \t]*+)"
        rf"(?P<value>{LIT})(?=[ \t]*+\+[ \t]*+[\"']@)",
        certain=True,
    ),
    Place(
        ("encode(", "btoa(", "encode64("),
        r"(?P<keep>\b(?:b64encode|btoa|base64Encode|encode64|strict_encode64|base64_encode"
        r"|Base64\.encode|encodeToString)\([ \t]*+(?:(?:utf8\.encode|Buffer\.from|"
        r"str\.encode)\([ \t]*+|b(?=[\"']))?[\"'][\w.@+-]{1,64}+:)"
        r"(?P<value>[^\"'\s]{4,128}+)(?=[\"'])",
        certain=True,
    ),
    # A key decoded from a literal, the result named for a key: ``key = base64.b64decode("k")``,
    # ``byte[] keyBytes = Base64.getDecoder().decode("k")``, ``var key =
    # Convert.FromBase64String("k")``, ``$secret = base64_decode('k')``, ``key, _ :=
    # base64.StdEncoding.DecodeString("k")`` (a fixture decoded so is left, as any base64).
    Place(
        ("decode", "frombase64string(", "base64encoded:", "fromhex(", "unhexlify(", "hex2bin("),
        r"(?P<keep>\b[\w$]{0,30}?(?:(?<![A-Za-z])(?i:key|secret|token|passw(?:or)?d|credential)"
        r"|Key|Secret|Token|Password|Credential)\w{0,20}+"  # a word or a CamelCase part
        r"(?:[ \t]*+,[ \t]*+_)?[ \t]*+:?=[ \t]*+(?:new[ \t]++)?[\w.]{0,30}?[ \t(]*+"
        rf"{_DECODER}\(?[ \t]*+b?)"
        rf"(?P<value>{LIT})",
        certain=True,
        kind="secret",
    ),
    # The plaintext a password hash is made of: ``bcrypt.hash("pw", 10)``, ``Hash::make('pw')``,
    # ``make_password("pw")``, ``generate_password_hash("pw")``, ``passwordEncoder.encode("pw")``,
    # ``pwd_context.hash("pw")``; second after the user: ``hashPassword($user, 'pw')``,
    # Devise's ``Encryptor.digest(User, 'pw')``.
    Place(
        (
            *("hash(", "hashsync(", "hash::make(", "make_password(", "password_hash(", "encode("),
            *("hashpassword(", "encryptor.digest("),
        ),
        r"(?P<keep>(?:\bbcrypt\.hash(?:Sync)?|\bargon2\.hash|\bHash::make|\bmake_password"
        r"|\bpassword_hash|\bgenerate_password_hash|\b[Pp]asswordEncoder\.encode"
        r"|\bpwd_context\.hash|\bhash_password)\([ \t]*+"
        r"|(?:\bhashPassword|\bEncryptor\.digest)\([ \t]*+[^,()\r\n]{1,60}+,[ \t]*+)"
        rf"(?P<value>{LIT})(?=[ \t]*+[,)])",
        certain=True,
    ),
    # A Terraform variable named for a secret: its ``default`` is the secret (``variable
    # "db_password" { type = string, default = "x" }``); ``sensitive`` hides it from plans only.
    Place(
        ("variable",),
        r"(?P<keep>\bvariable[ \t]++\"[\w-]{0,60}?(?i:passw(?:or)?d|passphrase|secret|token"
        r"|api[_-]?key|access[_-]?key|private[_-]?key|pwd|pass|credentials?)\"[ \t]*+\{"
        r"[^{}]{0,600}?\bdefault[ \t]*+=[ \t]*+)"
        rf"(?P<value>{LIT})",
        certain=True,
    ),
    # strongSwan's ipsec.secrets: ``<ids> : PSK "x"`` (also 0x hex, 0s base64; EAP, XAUTH, NTLM).
    Place(
        ("psk", "eap", "xauth", "ntlm"),
        rf"(?P<keep>(?<![^\s]):[ \t]*+(?:PSK|EAP|XAUTH|NTLM)[ \t]++)(?P<value>{ARG})",
        certain=True,
    ),
    # An element named for a password whose ``Value`` child holds it (Windows' unattend.xml:
    # ``<Password>`` then ``<Value>x</Value>``, ``<AdministratorPassword>``, ``<AutoLogon>``'s)
    Place(
        ("<value>",),
        r"(?P<keep><(?:[\w.-]{1,40}+:)?[\w.-]{0,40}?(?i:password|passwd|secret)>\s*+<Value>)"
        r"(?P<value>[^<\r\n]{1,256}+)(?=</Value>)",
        certain=True,
    ),
    # Kickstart: rootpw [--plaintext|--iscrypted] PW
    Place(
        ("rootpw",),
        rf"(?P<keep>(?<![^\n])[ \t]*+rootpw(?:[ \t]++--[a-z-]++)*+[ \t]++)(?P<value>(?!-){ARG})",
        certain=True,
    ),
)
