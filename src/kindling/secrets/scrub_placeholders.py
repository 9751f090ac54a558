"""What a value that is no secret looks like where a secret would stand, as one pattern:
``scrub_values.leave_value`` fullmatches it, and every rule asks that before it masks.

A mask already there (``[REDACTED:kind]``); a reference to a secret kept elsewhere (``${VAR}``,
``$VAR``, ``{{ x }}``, ``!secret x``, an ARN, a vault's or a secret manager's address, a path
to a key's file); a template's field (``{token}``, ``%s``, ``:name``, ``%NAME%``, cmd's
``%1``); and a placeholder: a fill (``***``, ``xxxx``, ``YYYY``, a UUID's x's), a name that
says it is yours or goes here (``<your-token>``, ``sk_your_key``, ``API_KEY_HERE``,
``YourAuthToken``), and, since the 29th pass, a value shown elided (``sk_test_...``,
``eyJh...0M30``, ``xoxb-***``, ``AIzaXXXX``) or a recording's fill (``client_secret_removed``).

A leaf: must not import anything.
"""

# Compiled by ``scrub_values.compile_values`` (ASCII, verbose: blanks and ``#`` comments are
# the pattern's layout).
LEAVE_VALUE_SRC = r"""
      \[REDACTED:[a-z0-9_]+\]
    | \$\$?\{.* | \$\$?\(.* | \#\{.*  # ${VAR}, ${{ secrets.X }}, $(pass x), $${X}, Ruby's #{x}
    | \$[A-Z_][A-Z0-9_]* | \$_?ENV\b.*  # $VAR, Perl's $ENV{X}, PHP's $_ENV['X'] (not $lower)
    | \$[0-9@*#?] | \$(?=[a-z_])[a-z0-9_]{0,30}?(?:pass|pwd|token|secret|key|cred)[a-z0-9_]{0,30}+
      # $1, $@ (a script's arguments); $password, $db_token (a variable named for a secret)
    | \$\.?[A-Za-z_]++(?:\.[A-Za-z_]++)++  # a template's variable ($db.password); a file's name:
    | (?:~?(?:/[\w.-]++)*?/)?[A-Za-z_][\w-]*+(?:\.[\w-]++)??\.(?:ya?ml|json|toml|ini|conf
      |cfg|properties|xml|txt|pem|key|crt|jks|p12)  # its path (certs/x.pem.key)
    | (?:hmac-)?sha(?:1|256|512)[:=][0-9a-fA-F]{32,}+  # a digest
    | \{\{.*\}\} | ENC\[[^\]\s]++\] | !(?:secret|env_var)[ ]\S++  # {{ x }}, ENC[x], !secret x
    | \{\.?[\w.]*\} | (?:rsa|ecdsa|ed25519)-key-[0-9]{8}  # {token}, {.data.token}; PuTTYgen's
    | \[[a-z][A-Za-z]*\(.*\)\]       # [parameters('x')]: an ARM template's expression
    | (?:secret\|)?(?:(?:\w+=)?projects/[^/\s]+/secrets/\S+ | (?:arn:aws[\w-]*+|urn:\w++):.*)
      # names: a secret manager's, an ARN (Great Expectations' secret|arn:aws:...)
    | (?:op|sm|gcpsm|berglas|ref\+\w++)://\S+ | vault:[ ]?[\w-]++/\S+ | @Microsoft\.KeyVault\(.*
    | <<?[^<>]+>>? | \[[A-Z][A-Z0-9_ -]*+\]  # <your-token>, <<your_token>>, [PASSWORD]
    | <[^<>\s]++>(?:[:/@,._-]{1,3}+<[^<>\s]++>)++  # <secret-id>:<json-key>:<version-stage>
    | (?:\.{3}|…)[\w.-]{1,60}?(?:\.{3}|…)  # ...my_password... (a generated doc's placeholder)
    | \*{3,}[\w.-]{1,40}?\**  # a value masked but its end (****VZYKYJNMMEMK*****)
    | %(?:\(\w*\))?[sd] | (?:application|text|image|audio|video|font)/[\w.+-]++  # %s; a MIME type
    | %[A-Za-z_]\w*% | [?] | :[A-Za-z_]\w*  # %NUGET_PASSWORD%, SQL parameters
    | %~?[a-z]{0,6}[0-9*]%? | %%~?[a-z]{0,6}[A-Za-z]  # cmd's arguments (%1, %~dp0, %*), %%i
    | x{4,}(?:-x{4,})++ | X{4,}(?:-X{4,})++  # a UUID's fill (xxxxxxxx-xxxx-xxxx-...)
    | \*+ | x{3,} | X{3,} | \.{3,} | … | (?P<one>\w)(?P=one){7,} | (?P<up>[A-Z])(?P=up){3,}  # YYYY
    # A secret's word alone in capitals: a metavariable (-w TOKEN, -p PASSWORD, Bearer TOKEN);
    # constants' names joined (ACCESS_KEY_ID:SECRET_ACCESS_KEY); a reference to a credential
    # store (borgmatic's {credential keepassxc /etc/keys.kdbx borgmatic})
    | (?:API|ACCESS|SECRET|PRIVATE|AUTH|CLIENT|ADMIN|ROOT)?
      (?:PASSWORD|PASSWD|PASSPHRASE|PASS|PWD|TOKEN|SECRET|KEY|CREDENTIALS?)(?:ID)?
    | [A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++(?:[:,][A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++)++
    | \{credential[ ][a-z]++[ ][^{}]++\}
    | @(?:~|\.{1,2})?/[\w.+~/-]* | --[a-z][a-z0-9]*+(?:-[a-z0-9]++)*+  # @file's contents, --flag
    | (?:[A-Za-z0-9]{1,10}+[_-]){0,3}(?:(?i:your|insert|enter)[_ -].*|X{4,}|x{4,})  # sk_your_key,
    # A value elided, its middle or end cut out (29th pass): three stars or four x's after up
    # to 16 characters, up to 8 after (sk-D57rVxxxxx, gho_****, xoxb-***, AIzaXXXX,
    # ya29.c.c0Axxxx; a vendor's shape takes a fill of x's whole: scrub_rules); three dots or
    # an ellipsis in the middle (eyJh...0M30), or at the end after a prefix's separator
    # (sk_test_...: "hunter2..." is a password and a pause, and is masked).
    | (?=[A-Za-z0-9_.-]{1,16}?(?:xxxx|XXXX|\*\*\*|\.\.\.|…))  # (a mark in reach, first)
      [A-Za-z0-9_.-]{1,16}?(?:(?:x{4,}|X{4,}|[*.…]*?\*{3}[*.…]*+)[A-Za-z0-9]{0,8}={0,2}
      | (?<=[_.-])(?:\.{3}|…)[*.…]*+ | (?:\.{3}|…)[*.…]*+[A-Za-z0-9]{1,8}={0,2})
    # A name that says it is yours (YourLibSqlAuthToken, YOURDIGITALOCEANTOKEN); a recording's
    # fill (client_secret_removed); a name ending or going on after HERE (TOKEN_HERE_I_PROMISE).
    | (?:Your|YOUR)[A-Z][A-Za-z]*+
    # A secret's name in words (30th pass): a qualifier and a secret's word, in one case
    # (key_secret, secret-key, mock-secret, API_KEY_VALUE); an instruction (replace-with-x;
    # not change-me: scanners count changeme's forms as secrets, and Elasticsearch shipped it).
    | (?i:(?:(?:my[a-z]{0,30}+|your|the|some|mock|fake|dummy|sample|example)[_-])?
        (?:(?:api|client|access|app|secret|private|auth|signing|webhook|db|key)[_-])?
        (?<=[_-])(?:key|secret|token|password|passwd|pwd|passphrase)(?:[_-](?:key|secret|id|value))?
      | replace[_ -]\w.*)
    # A vendor's key elided at its end (sk_test_51ABC123...): a prefix, a separator, dots.
    | (?=[A-Za-z0-9]{1,8}+[_-])[A-Za-z0-9_-]{2,24}?(?:\.{3}|…)[*.…]*+
    | [\w-]{1,60}+(?<=[_-](?i:removed))|[\w-]{1,60}+(?<=[_-](?i:omitted))
    | [\w-]{1,60}+(?<=[_-](?i:redacted))|[\w-]{1,60}+(?<=[_-](?i:scrubbed))
    | [\w-]{1,60}+(?<=[_-](?i:placeholder))  # REGISTRATION_SHARED_SECRET_PLACEHOLDER
    | [A-Za-z0-9]\w{0,60}?_(?i:here)(?:_\w{0,60}+)?
    | (?i:[\w ]{0,40}?\b(?:goes|your|put|enter)\b[\w ]{,40}?\ here)  # put your phrase here
    """
