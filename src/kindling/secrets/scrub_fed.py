"""The places of ``secrets.scrub_commands`` where a value is fed to a command that reads a
secret (issue 32, eleventh pass: moved out of ``scrub_commands`` when it passed 400 lines).

A value piped into a command that reads a secret on its standard input (``echo X | sudo -S``,
``| docker login --password-stdin``, ``| gh auth login --with-token``, ``| gh secret set X``),
fed to it as a here-string (``cryptsetup luksOpen dev name <<< X``), read by a secret's file
flag from a process substitution (``--password-file <(echo X)``), or written to a file named
for a secret (``echo X > ~/.config/app/token``); since the 27th pass also a value given to a
command that hashes it (``openssl passwd -6 X``, ``mkpasswd X``), piped to one that encrypts it
(``| ansible-vault encrypt_string``) or handed to a CI runner to mask (GitHub Actions'
``::add-mask::X``, Azure Pipelines' ``##vso[task.setvariable ...;issecret=true]X``); since the
29th pass a value Pulumi keeps encrypted (``pulumi config set --secret name X``) and a DVC
remote's secret option (``dvc remote modify --local r password X``). Each is *certain*
(what is fed there is the secret) but DVC's, whose value may be a path or a variable.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_files`` (``Place``, ``ARG``, ``ON``).
"""

from __future__ import annotations

from kindling.secrets.scrub_files import ARG, ON, Place

# printf's format before the value it prints: ``printf '%s' x``, ``printf "%s\n" x``.
_FORMAT = r"""(?:'%s(?:\\n)?+'|"%s(?:\\n)?+")"""

FED_PLACES: tuple[Place, ...] = (
    # A value a secret's file flag reads from a process substitution: --password-file <(echo X)
    Place(
        ("<(echo", "<(printf"),
        r"(?P<keep>[ \t]-{1,2}[\w-]*?(?i:pass|secret|token|key)[\w-]*+(?:=|[ \t]++)"
        rf"<\((?:echo|printf)[ \t]++(?:(?:-[neE]++|{_FORMAT})[ \t]++)*+)"
        r"(?P<value>(?!-)(?:\"[^\"\r\n]*+\"|'[^'\r\n]*+'|[^\s\"'`|;&)]++))(?=[ \t]*+\))",
        certain=True,
    ),
    # A value piped into a command that reads a secret on its standard input.
    Place(
        (
            *("password-stdin", "sudo -s", "chpasswd", "--stdin", "--data-file", "secret create"),
            *("secret put", "secret set", "with-token", "env add", "/dev/stdin", "encrypt_string"),
            "passwd-on-stdin",
        ),
        rf"(?P<keep>\b(?:echo|printf)[ \t]++(?:(?:-[neE]++|{_FORMAT})[ \t]++)*+)"
        rf"(?P<value>(?!-){ARG})"
        r"(?=[ \t]*+\|[^\r\n]{0,200}?(?:--password-stdin|--passwd-on-stdin"
        r"|\bsudo\b[^|\r\n]{0,80}?[ \t]-S\b"
        r"|\bchpasswd\b|\bpasswd\b[^|\r\n]{0,80}?--stdin|--data-file[= ]-(?![^\s])"
        r"|\bsecret[ \t]++(?:create|put|set)\b|--with-token\b|\bvercel[ \t]++env[ \t]++add\b"
        r"|--from-file[= ](?:[\w.-]++=)?/dev/stdin\b|\bencrypt_string\b))",
        certain=True,
    ),
    # ... or written to a file named for it: echo X > ~/.config/app/token, > .vault_pass
    Place(
        ("echo", "printf"),
        rf"(?P<keep>\b(?:echo|printf)[ \t]++(?:(?:-[neE]++|{_FORMAT})[ \t]++)*+)"
        r"(?P<value>(?!-)(?=[^\s]{8})(?:\"[^\"\s]++\"|'[^'\s]++'|[^\s\"'`|;&<>]++))"
        r"(?=[ \t]*+>>?[ \t]*+[^\s;|&]*?(?i:token|passw(?:or)?d|pass|secret|credential|api[_-]?key"
        r"|\.key\b)[^\s/;|&]*+(?:\s|$))",
        certain=True,
    ),
    # ... or fed to it as a here-string: gcloud secrets create db --data-file=- <<< X
    Place(
        ("<<<",),
        r"(?P<keep>(?:\b(?:secrets?[ \t]++(?:create|set)|secrets[ \t]++versions[ \t]++add"
        r"|chpasswd|sudo[ \t]++-S|cryptsetup|passwd[ \t]++--stdin)|--password-stdin"
        rf"|--with-token){ON}<<<[ \t]*+)(?P<value>{ARG})",
        certain=True,
    ),
    # ... or handed to a CI runner to keep secret: GitHub Actions' ::add-mask::X, Azure
    # Pipelines' ##vso[task.setvariable variable=v;issecret=true]X
    Place(
        ("::add-mask::", "issecret=true"),
        r"(?P<keep>::add-mask::|##vso\[task\.setvariable\b[^\]\r\n]*?;[ \t]*+issecret=true\b"
        r"[^\]\r\n]*+\])(?P<value>[^\s\"'`]++)",
        certain=True,
        kind="secret",
    ),
    # ... or given to Pulumi to keep encrypted: pulumi config set --secret <key> <value> (the
    # switch before the key or after the value; a key named for a secret needs none)
    Place(
        ("pulumi config set",),
        rf"(?P<keep>\bpulumi[ \t]++config[ \t]++set(?=[^\r\n]{{0,300}}?[ \t]--secret\b"
        r"|(?:[ \t]++-[\w-]++(?:=\S*+)?)*+[ \t]++[\w.:/-]*?(?i:passw|secret|token|api_?key))"
        r"(?:[ \t]++-[\w-]++(?:=\S*+)?)*+[ \t]++[\w.:/-]++[ \t]++)"
        rf"(?P<value>(?!-){ARG})",
        certain=True,
        kind="secret",
    ),
    # ... or given to DVC for a remote's secret option, kept in .dvc/config.local with --local:
    # dvc remote modify --local myremote password X (not keyfile, a path)
    Place(
        ("remote modify",),
        r"(?P<keep>\bdvc[ \t]++remote[ \t]++modify(?:[ \t]++-[\w-]++)*+[ \t]++[\w.-]++[ \t]++"
        r"(?!keyfile\b)[\w]*?(?:password|passphrase|secret|token|key(?!_?id\b))[\w]*+[ \t]++)"
        rf"(?P<value>(?!-){ARG})",
    ),
    # ... or given to a command that hashes it: openssl passwd -6 -salt S X, mkpasswd X
    Place(
        ("openssl passwd", "mkpasswd"),
        r"(?P<keep>\b(?:openssl[ \t]++passwd|mkpasswd)"
        r"(?:[ \t]++(?:-(?:salt|in|S|m|R)[ \t]++[^\s-]\S*+|-[\w-]++(?:=\S*+)?))*+[ \t]++)"
        rf"(?P<value>(?![-<>]){ARG})",
        certain=True,
    ),
)
