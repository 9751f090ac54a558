"""The words that name a secret, for the rules of ``secrets.scrub`` (issue 32, eleventh pass:
moved out of ``secrets.scrub_keyed``, which uses them with ``secrets.scrub_named``,
``scrub_password``, ``scrub_printed``, ``scrub_url``, ``scrub_sql`` and ``scrub_tables``).

``key_kind`` tells what a key names (``DB_PASSWORD``: a password; ``"apiKey"``: an API key;
``max_tokens``, ``tokenizer``: nothing), ``KEY_WORDS`` are the words that wake the key rules,
``key_end_src`` builds the look-behinds that find a key's end in a pattern, and ``STATUS_WORDS``
are what a log prints after "password:" that is a status, not the password; ``LOCAL_WORDS``
are the password word in the other languages people write to their agents.

Loaded with the other rules on the first call of ``scrub_secrets``. Imports nothing from
Kindling.
"""

from __future__ import annotations

# When Ansible's ``update_password`` sets a user's password, quoted or not: a policy.
POLICY_WORDS = frozenset(("always", "on_create"))
# Words a log or form prints after "password:" that are a status, not the password (and the
# policies).
STATUS_WORDS = POLICY_WORDS | frozenset(
    """incorrect invalid wrong required missing expired changed reset updated accepted rejected
    denied mismatch ok empty hidden masked redacted protected optional set unset failed
    failure success successful correct valid weak strong blank none incorrectly match
    matches mismatched saved stored rotated revoked generated verified unverified true false
    null""".split()  # noqa: SIM905
)
_FORGES = ("github", "gitlab", "gh", "gl", "ado", "azure", "devops", "bitbucket", "gitea", "hf")
_FORGE_PATS = tuple(f"{forge}pat" for forge in _FORGES)  # as ``key_kind`` reads a key
# Words that make a key name a secret wherever they stand in it (``SECRET_KEY_BASE``,
# ``DB_PASSWORD_2``); such a key names one loosely, so its value must look generated
# (``scrub_loose``'s key rule, and ``scrub_named``'s fields that name another's value).
ANYWHERE_WORDS = ("secret", "token", "passw", "apikey", "api_key", "api-key", "credential")
# Words that make such a key name something about a secret (``secret_name``, ``token_id``,
# ``password_hash``, a publishable key), not the secret.
ABOUT_WORDS = ("public", "publishable", "pub_", "_id", "-id", "hash", "sha", "name")


def loosely_named(key: str) -> bool:
    """``key`` holds a secret's word anywhere and no word about one (``DB_PASSWORD_2``,
    ``TEST_PASSWORD_LONG_1``; not ``secret_name``)."""
    key = key.lower()
    return any(w in key for w in ANYWHERE_WORDS) and not any(w in key for w in ABOUT_WORDS)


# The password word abbreviated (``Pswd``, ``pwrd``, ``MW_PASSW``; ``pword`` is
# ``_WHOLE_OR_CAMEL``'s) or in the languages keys are named in (``PAROL``, ``senha``,
# ``DB_PASSWORT``; ASCII spellings, as names are written).
_OTHER_PASSWORD_WORDS = (
    *("pswd", "pwrd", "passw", "passwrd", "passwort", "kennwort", "wachtwoord", "contrasena"),
    *("senha", "haslo"),
    *("losenord", "passord", "adgangskode", "salasana", "heslo", "jelszo", "sifre", "parol"),
    "motdepasse",  # French (``setMotDePasse("x")``; find-sec-bugs' samples)
)
# Words that end a secret key (``DB_PASSWORD``, ``"apiKey"``, ``--client-secret``), spelled
# out because look-behinds need a fixed width. A key must end with one: ``max_tokens`` and
# ``tokenizer`` are not secret keys.
_KEY_ENDINGS = (
    *("password", "passwd", "passphrase", "token", "secret", "credential", "credentials"),
    "userpwd",  # curl's CURLOPT_USERPWD, CURLOPT_PROXYUSERPWD: "user:password" (not OLDPWD)
    *("rootpw", "bindpw"),  # OpenLDAP's slapd.conf and ldap.conf (``pw`` glued to a word)
    "passcode",
    *_OTHER_PASSWORD_WORDS,
    "mot[_. -]de[_. -]passe",
    "authtok",  # SSSD's ldap_default_authtok: the bind password
    # A personal access token named by its forge: ``GITHUB_PAT``, ``gitlab-pat`` (``pat``
    # alone ends ``re_pat``, a pattern).
    *(f"{forge}{joint}pat" for forge in _FORGES for joint in ("_", "-", "")),
    "psk",  # a Wi-Fi network's pre-shared key (wpa_supplicant, NetworkManager, hostapd)
    *(
        f"{word}{joint}key"
        for word in (
            *("api", "access", "app", "client", "consumer", "license", "account"),
            *("private", "secret", "signing", "encryption", "master", "auth", "service"),
            *("storage", "jwt", "hmac", "aes", "cipher", "crypt", "crypto", "sas", "shared"),
            *("product", "serial", "activation"),
        )
        for joint in ("[_. -]", "")  # (a blank: a label, ``Secret Key: x``, ``API key: x``)
    ),
    # Rails' ``secret_key_base`` (and ``encryption_key_base``); ``secret_value``
    *(
        f"{word}{a}key{b}base"
        for word in ("secret", "encryption")
        for a in ("[_.-]", "")
        for b in ("[_.-]", "")
    ),
    *(f"secret{joint}value" for joint in ("[_.-]", "")),
)
KEY_WORDS: tuple[str, ...] = ("pass", "pwd", "pw", "psk", "token", "secret", "credential", "key")
KEY_WORDS += ("authtok", *_OTHER_PASSWORD_WORDS)
KEY_WORDS += tuple(f"{forge}{joint}pat" for forge in _FORGES for joint in ("_", "-", ""))


# Words that end in "pass" without naming a password.
_PASS_WORDS = tuple(
    """bypass compass overpass underpass trespass surpass renderpass subpass multipass
    singlepass firstpass secondpass onepass twopass""".split()  # noqa: SIM905
)


# Password words that end a key only as a whole word or a CamelCase part.
_WHOLE_OR_CAMEL = ("pwd", "pword", "pw")
# The endings of a key that names a password.
_PASSWORD_ENDINGS = (
    *("password", "passwd", "passphrase", "pass", *_WHOLE_OR_CAMEL, "psk", "passcode"),
    *("authtok", *_OTHER_PASSWORD_WORDS),
)


def key_end_src(after: str) -> str:
    """Look-behinds true when a key ending sits just before the consumed ``after`` character.

    Grouped by last letter so most candidates fail on one or two checks. ``pwd``, ``pw`` and
    ``pword`` must be a whole word or a CamelCase part (``DB_PW``, ``bindPw``, ``adminPword``;
    not ``OLDPWD``, ``stopword``); ``pass`` may end a longer key (``dbpass``, ``userpass``)
    unless the key is an English word ending in it (``bypass``, ``compass``) or a graphics
    pass (``renderPass``).
    """
    not_words = "".join(f"(?<!{word}{after})" for word in _PASS_WORDS)
    by_last: dict[str, list[str]] = {"s": [rf"(?<=pass{after}){not_words}"]}
    for word in _WHOLE_OR_CAMEL:  # pwd: not OLDPWD; Pwd after a small letter: bindPwd
        camel = word[0].upper() + word[1:]
        by_last.setdefault(word[-1], []).append(
            rf"(?<={word}{after})(?:(?<![a-z]{word}{after})|(?-i:(?<=[a-z]{camel}{after})))"
        )
    for ending in _KEY_ENDINGS:
        by_last.setdefault(ending[-1], []).append(f"(?<={ending}{after})")
    groups = "|".join(f"(?<={last}{after})(?:{'|'.join(c)})" for last, c in by_last.items())
    return f"(?<=[{''.join(by_last)}]{after})(?:{groups})"


_CRYPTO_KEYS = tuple(
    f"{w}key" for w in ("jwt", "hmac", "aes", "cipher", "crypt", "crypto", "sas", "shared")
)


def key_kind(text: str, key_end: int, plural: bool = False) -> str | None:
    """The kind named by the key word ending at ``key_end``, or None if no key word ends there
    (``plural``: the key may name several, ``passwords``, ``api_keys``, for a list)."""
    key = text[max(0, key_end - 24) : key_end].lower().replace("_", "").replace("-", "")
    key = key.replace(".", "").replace(" ", "")
    if plural and key.endswith("s") and not key.endswith(("pass", "credentials")):
        key = key[:-1]
    if key.endswith(_PASS_WORDS):
        return None
    if key.endswith("secretaccesskey"):
        return "aws_secret_access_key"
    if key.endswith("privatekey"):
        return "private_key"
    if key.endswith(_PASSWORD_ENDINGS):
        return "password"
    if key.endswith(("token", *_FORGE_PATS)):
        return "token"
    if key.endswith(("apikey", "accesskey", "appkey", "clientkey", "consumerkey", "licensekey")):
        return "api_key"
    if key.endswith(("accountkey", "authkey", "servicekey", "storagekey")):
        return "api_key"
    if key.endswith(("secret", "secretkey", "credential", "credentials", "signingkey")):
        return "secret"
    if key.endswith(("encryptionkey", "masterkey", "keybase", "secretvalue", *_CRYPTO_KEYS)):
        return "secret"
    if key.endswith(("productkey", "serialkey", "activationkey")):
        return "api_key"
    return None


# The password word in the languages people write to their agents (``parola``, Italian and
# Turkish for "word" as well, is left out; ``암호`` is "cipher" too, so it must not run on into
# a longer word: ``암호화``, encryption). Lowercase: the keywords a text wakes the rule with.
LOCAL_WORDS = (
    *("passwort", "kennwort", "mot de passe", "mot_de_passe", "motdepasse", "contraseña"),
    *("contrasena", "senha", "wachtwoord", "hasło", "haslo", "lösenord", "losenord", "passord"),
    *("adgangskode", "salasana", "heslo", "jelszó", "jelszo", "şifre", "sifre", "parolă"),
    *("пароль", "парола", "κωδικός", "密码", "密碼", "口令", "パスワード", "暗証番号", "비밀번호"),
    *("암호", "패스워드", "סיסמה", "पासवर्ड"),
    # Issue 32, eleventh pass: the words a probe of messages to agents used and this list missed
    *("mật khẩu", "mat khau", "kata sandi", "kata laluan", "كلمة المرور", "كلمة السر", "비번"),
    *("şifresi", "sifresi", "รหัสผ่าน"),
)
