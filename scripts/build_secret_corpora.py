"""Build the public scanner corpora of ``tests/data/secret_corpora/`` from the scanners' own
test data (run by hand, offline from local clones; tests never need it or the network).

    python scripts/build_secret_corpora.py --kingfisher DIR --gitleaks DIR --detect-secrets DIR \
        [--gitleaks-rules DIR] [--microsoft DIR] [--credsweeper DIR] [--betterleaks DIR]

It also writes the rules the scrubber loads as data (``secrets.scrub_data``) into
``src/kindling/secrets/data/``: kingfisher's (Apache-2.0, patterns unchanged), gitleaks'
(``--gitleaks-rules``, MIT), Microsoft's identifiable keys (``--microsoft``, a
microsoft/security-utilities clone, MIT), CredSweeper's (``--credsweeper``, MIT) and the rules
of betterleaks that gitleaks' file lacks (``--betterleaks``, MIT; read after gitleaks').

Each DIR is a git clone (a bare git directory works: files are read with ``git show HEAD:``).
Needs ``pyyaml``, ``regex`` and ``detect-secrets`` (not Kindling dependencies). A positive
example becomes ``{"rule", "text", "secret"}``: the example as the scanner's authors wrote it,
and the secret value the scanner itself reports in it (its own rule, run here). Negative
examples become ``{"rule", "text"}``.

Sources and licences (the derived files name them too):
- kingfisher (MongoDB, Apache-2.0): ``data/rules/*.yml`` ``examples`` / ``negative_examples``;
  the value is the rule pattern's first capture group. Tuning corpus.
- gitleaks (MIT): string literals of ``tps``/``fps`` in ``cmd/generate/config/rules/*.go``;
  the value is the ``secretGroup`` (else first group) of the rule in ``config/gitleaks.toml``.
  Held out until its rules were loaded as data (issue 18's fourth pass); tuning since.
- detect-secrets (Yelp, Apache-2.0): the string cases of ``tests/plugins/*_test.py``
  parametrisations with a boolean verdict; the value is what the plugin reports on that line
  (``scan_line``). Held out.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
import tomllib
import uuid
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "secret_corpora"


def _git(repo: str, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", repo, *args], check=True, capture_output=True, text=True
    ).stdout


def _files(repo: str, prefix: str, suffix: str) -> list[str]:
    names = _git(repo, "ls-tree", "-r", "--name-only", "HEAD", prefix).splitlines()
    return [n for n in names if n.endswith(suffix)]


def _show(repo: str, path: str) -> str:
    return _git(repo, "show", f"HEAD:{path}")


def _compile(pattern: str) -> Any:
    import regex

    pattern = pattern.replace("(?-i:", "(?-i:")
    try:
        return regex.compile(pattern, regex.VERSION1)
    except regex.error:
        try:
            return regex.compile(pattern)
        except regex.error:
            return None


def _value(compiled: Any, text: str, group: int | None = None) -> str | None:
    m = compiled.search(text)
    if m is None:
        return None
    if group is not None and group <= (compiled.groups or 0):
        return m.group(group)
    # The last group: where a rule captures two (an account and its key), the key comes last.
    for g in range((compiled.groups or 0), 0, -1):
        if m.group(g):
            return str(m.group(g))
    return str(m.group(0))


def kingfisher(repo: str) -> dict[str, Any]:
    import yaml

    pos, neg = [], []
    for path in _files(repo, "data/rules", ".yml"):
        doc = yaml.safe_load(_show(repo, path)) or {}
        for rule in doc.get("rules") or []:
            compiled = _compile(rule.get("pattern", ""))
            if _NOT_SECRET.search(rule.get("name", "")):
                continue  # a domain, an id, a user name: what the rule reports with a key
            for ex in rule.get("examples") or []:
                value = _value(compiled, ex) if compiled is not None else None
                if value and len(value) >= 6:
                    pos.append({"rule": rule["id"], "text": ex.rstrip("\n"), "secret": value})
            neg += [
                {"rule": rule["id"], "text": str(ex)} for ex in rule.get("negative_examples") or []
            ]
    return _corpus(
        "kingfisher", "https://github.com/mongodb/kingfisher", "Apache-2.0", repo, pos, neg
    )


# Rules that report an identifier rather than a credential (kept out of the positives).
_NOT_SECRET = re.compile(
    r"(?i)\b(?:id|ids|identifier|domain|host|hostname|url|uri|endpoint|user ?name|user|"
    r"account ?name|org|organization|tenant|region|email|client id|app id|project)\b"
    r"(?!.*\b(?:key|secret|token|password)\b)"
)
_GO_STRING = re.compile(r'`([^`]*)`|"((?:[^"\\\n]|\\.)*)"')


def _go_literals(block: str) -> list[str]:
    out = []
    for m in _GO_STRING.finditer(block):
        if m[1] is not None:
            out.append(m[1])
        else:
            out.append(m[2].encode().decode("unicode_escape", "ignore"))
    return out


_SKIP = re.compile(r'`[^`]*`|"(?:[^"\\\n]|\\.)*"|//[^\n]*')


def _blocks(src: str, name: str) -> list[tuple[str, str]]:
    """(function name, literal-list source) for each ``name := []string{...}`` or append."""
    found = []
    for m in re.finditer(rf"\b{name}\s*(?::?=)\s*(?:\[\]string\{{|append\({name},)", src):
        depth, i = 1, m.end()
        while i < len(src) and depth:
            skip = _SKIP.match(src, i)  # brackets inside strings and comments do not count
            if skip:
                i = skip.end()
                continue
            depth += {"{": 1, "(": 1, "}": -1, ")": -1}.get(src[i], 0)
            i += 1
        func = re.findall(r"^func (\w+)", src[: m.start()], re.M)
        body = src[m.end() : i - 1]
        # Literals only: generated samples (utils.GenerateSampleSecrets, secrets.NewSecret)
        # are skipped with the whole line they are on.
        lines = [ln for ln in body.splitlines() if "utils." not in ln and "secrets." not in ln]
        found.append((func[-1] if func else "", "\n".join(lines)))
    return found


def gitleaks(repo: str) -> dict[str, Any]:
    config = tomllib.loads(_show(repo, "config/gitleaks.toml"))
    rules = {r["id"]: r for r in config["rules"]}
    pos, neg = [], []
    for path in _files(repo, "cmd/generate/config/rules", ".go"):
        src = _show(repo, path)
        ids = dict(re.findall(r"^func (\w+)\(\)[^{]*\{.*?RuleID:\s*\"([^\"]+)\"", src, re.M | re.S))
        for func, block in _blocks(src, "tps"):
            rule = rules.get(ids.get(func, ""))
            if rule is None or _NOT_SECRET.search(rule["id"].replace("-", " ")):
                continue
            compiled = _compile(rule["regex"]) if rule and "regex" in rule else None
            for ex in _go_literals(block):
                value = _value(compiled, ex, rule.get("secretGroup")) if compiled else None
                if value and len(value) >= 6:
                    pos.append({"rule": rule["id"], "text": ex, "secret": value})  # type: ignore[index]
        for func, block in _blocks(src, "fps"):
            neg += [{"rule": ids.get(func, func), "text": ex} for ex in _go_literals(block)]
    return _corpus("gitleaks", "https://github.com/gitleaks/gitleaks", "MIT", repo, pos, neg)


def detect_secrets(repo: str) -> dict[str, Any]:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings

    pos, neg = [], []
    with default_settings():
        for path in _files(repo, "tests/plugins", "_test.py"):
            tree = ast.parse(_show(repo, path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Tuple) or len(node.elts) < 2:
                    continue
                first, verdict = node.elts[0], node.elts[-1]
                if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                    continue
                if not (isinstance(verdict, ast.Constant) and isinstance(verdict.value, bool)):
                    continue
                text, rule = first.value, Path(path).stem
                if not verdict.value:
                    neg.append({"rule": rule, "text": text})
                    continue
                values = [
                    s.secret_value for line in text.splitlines() or [text] for s in scan_line(line)
                ]
                # Not secrets: words and names the plugin's test reports (``{secret}``,
                # ``//username``), IP addresses, and ``xxxx`` placeholders.
                values = [
                    v
                    for v in values
                    if v
                    and len(v) >= 8
                    and re.search(r"[0-9]", v)
                    and "xxxxx" not in v
                    and not re.fullmatch(r"[0-9.:]+", v)
                ]
                if values:
                    pos.append({"rule": rule, "text": text, "secret": max(values, key=len)})
    return _corpus(
        "detect-secrets", "https://github.com/Yelp/detect-secrets", "Apache-2.0", repo, pos, neg
    )


def _corpus(
    name: str, url: str, licence: str, repo: str, pos: list[Any], neg: list[Any]
) -> dict[str, Any]:
    seen: set[tuple[str, str]] = set()
    unique = []
    for p in pos:
        if (p["text"], p["secret"]) not in seen:
            seen.add((p["text"], p["secret"]))
            unique.append(p)
    return {
        "source": name,
        "url": url,
        "licence": licence,
        "commit": _git(repo, "rev-parse", "HEAD").strip(),
        "positives": unique,
        "negatives": neg,
    }


# Literals too common to wake a rule (every URL, every sentence): a rule that starts with
# one would run on most tool output, and Kindling has its own rules for URLs and GitHub.
_COMMON = frozenset(
    {"the", "line", "less", "flat", "box", "lob", "tly", "http", "https", "github", "postg"}
    | {"http://", "https://", "https://hooks.", "postgres"}
)
# Keys that are public by design (a Stripe publishable key is in every page that takes a
# payment): a rule that reports one is left out, its secret siblings have rules of their own.
_PUBLIC = ("pk_live_D8TY4jEw8Ym9hYe3cXaSMr0v", "pk_test_D8TY4jEw8Ym9hYe3cXaSMr0v")
_PUBLIC_ID = re.compile(r"public-key|publishable")
RULES_OUT = OUT.parent.parent.parent / "src" / "kindling" / "secrets" / "data"


# ``(?:.|[\n\r])``, kingfisher's "any character": both ways match a ``\r`` (and, under
# ``(?s)``, a ``\n``), so Python's backtracking engine tries 2^n ways through a run of n of
# them (kingfisher's Rust engine does not backtrack). ``[\s\S]`` is the same set, one way.
_ANY_CHARACTER = re.compile(r"\(\?:\s*\.\s*\|\s*\[\\n\\r\]\s*\)")
# The upper bound of a gap of any characters (``.{0,1000}?``, ``[\s\S]{0,32}?``).
_GAP = re.compile(r"(?:\.|\[\\s\\S\])\{\d*,(\d+)\}")
# What a pattern meets after its keyword in a hostile text: 40 of one of these.
_PROBE_FILLS = (" ", "\r", "\n", "\t", "\r\n", "a", "A", "0", "-", "_", ".", "=", ":", "/", "+")
_PROBE_FILLS += ('"', "'", "a ", "a-", "a.", "a=", "a\n", "a\r", "aB3")


def backtracks(pattern: str, keywords: list[str], budget_s: float = 1.0) -> bool:
    """Whether Python's engine takes more than ``budget_s`` to scan one of ``keywords``
    followed by 40 of a ``_PROBE_FILLS`` and a token, or a thousand times by 16 of them: a
    linear pattern takes microseconds (milliseconds for the thousand), one that backtracks
    doubles with each character. Such a rule is left out (it would let one
    text stall the write path). Uses ``SIGALRM``: run on the main thread."""
    import signal

    class Slow(Exception):
        pass

    def stop(*_: object) -> None:
        raise Slow

    compiled = re.compile(pattern, re.ASCII)
    before = signal.signal(signal.SIGALRM, stop)
    try:
        for word in keywords:
            for fill in _PROBE_FILLS:
                text = f"{word}{fill * 40} A1b2C3d4e5F6g7H8q9"
                signal.setitimer(signal.ITIMER_REAL, budget_s)
                try:
                    compiled.sub("", text)
                    compiled.sub("", text.upper())
                    compiled.sub("", f"{word}{fill * 16} " * 1000)  # 2^16 ways, a thousand times
                except Slow:
                    return True
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
        return False
    finally:
        signal.signal(signal.SIGALRM, before)


def kingfisher_rules(repo: str) -> dict[str, Any]:
    """The kingfisher rules the scrubber loads as data (``secrets.scrub_data``): those whose
    pattern starts with literals of 3+ characters (the keywords that wake the rule) and
    compiles with Python's ``re``, minus rules that report an identifier, not a credential,
    and the generic ones and the list of weak passwords (Kindling's key-value rules do that
    job).
    Each is ``[id, keyword, pattern, min_entropy]`` (``keyword`` a list when any of several
    texts can start the rule: ``_leading_words``); the pattern is the rule's own text, its
    "any character" written ``[\\s\\S]`` (``_ANY_CHARACTER``); a rule that still
    ``backtracks``, or that scans over 256 characters past its keyword, is left out."""
    import re as std_re
    import warnings

    import yaml

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import sre_constants as sc
        import sre_parse

    rules = []
    for path in _files(repo, "data/rules", ".yml"):
        doc = yaml.safe_load(_show(repo, path)) or {}
        for rule in doc.get("rules") or []:
            pattern = rule.get("pattern", "")
            if _NOT_SECRET.search(rule.get("name", "")) or ".generic." in rule["id"]:
                continue  # identifiers; and generic key=value rules, which Kindling has its own of
            if ".weak_password." in rule["id"]:
                continue  # dictionary passwords (``password1``): words of samples and prose
            try:
                std_re.compile(pattern, std_re.ASCII)
                parsed = sre_parse.parse(pattern)
            except (std_re.error, ValueError):
                continue
            if any(std_re.search(pattern, value, std_re.ASCII) for value in _PUBLIC):
                continue  # it also reports a key that is public by design
            words = _leading_words(parsed, sc)
            if words and all(w.isascii() and w not in _COMMON for w in words):
                pattern = _ANY_CHARACTER.sub(r"[\\s\\S]", pattern)
                if any(int(n) > 256 for n in _GAP.findall(pattern)):
                    continue  # ``.{0,1000}?``: each keyword costs a scan of that many characters
                if backtracks(pattern, words):
                    print(f"left out, it backtracks: {rule['id']}", file=sys.stderr)
                    continue
                entropy = float(rule.get("min_entropy") or 0)
                keyword: str | list[str] = words[0] if len(words) == 1 else words
                rules.append([rule["id"], keyword, pattern, entropy])
    return {
        "source": "kingfisher",
        "url": "https://github.com/mongodb/kingfisher",
        "licence": "Apache-2.0",
        "notice": "Rule patterns from MongoDB kingfisher data/rules (Apache License 2.0), "
        "used as data, their (?:.|[\\n\\r]) written [\\s\\S]; selection by "
        "scripts/build_secret_corpora.py.",
        "commit": _git(repo, "rev-parse", "HEAD").strip(),
        "rules": sorted(rules),
    }


def _leading_words(parsed: Any, sc: Any, limit: int = 16) -> list[str]:
    """The literal texts a parsed pattern can start with, lowercased, when each has 3+
    characters: a literal, a group of literals, or a choice between them (``(?:telegram|
    tgram://)``, ``(r8_``, ``(?:sk|pk)_live_``), read up to the first part that is not literal.
    Any of them wakes the rule; a text that holds another is left out. Empty when the pattern
    starts with anything else, or can start with more than ``limit`` texts."""

    def starts(items: Any) -> tuple[set[str], bool]:
        out = {""}
        for op, arg in items:
            if op == sc.AT:
                continue
            if op == sc.LITERAL:
                nexts, done = {chr(arg)}, True
            elif op == sc.SUBPATTERN:
                nexts, done = starts(arg[-1])
            elif op == sc.BRANCH:
                ends = [starts(alt) for alt in arg[1]]
                nexts = set().union(*(e for e, _ in ends))
                done = all(d for _, d in ends)
            elif op == sc.IN and all(o == sc.LITERAL for o, _ in arg) and len(arg) <= 4:
                nexts, done = {chr(a) for _, a in arg}, True
            else:
                return out, False
            if len(out) * len(nexts) > limit:
                return out, False
            out = {a + b for a in out for b in nexts}
            if not done:
                return out, False
        return out, True

    found, _ = starts(parsed)
    words = {w.lower() for w in found}
    if not words or min(map(len, words)) < 3:
        return []
    return sorted(w for w in words if not any(o != w and o in w for o in words))


def _one_group(pattern: str, keep: int = 0) -> str:
    """``pattern`` (.NET's or Go's syntax) with one capturing group, the secret, so the
    scrubber masks that group and keeps the boundary characters around it: a named secret
    group (Microsoft's ``(?<refine>``, ``(?P<secret>``) in Python's syntax, or the plain group
    number ``keep`` (1-based; gitleaks' ``secretGroup``); every other plain group is made
    non-capturing."""
    named = ("(?<refine>", "(?P<refine>", "(?<secret>", "(?P<secret>")
    out, i, in_class, number = [], 0, False, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            name = next((n for n in named if pattern.startswith(n, i)), None)
            if name is not None:
                out.append("(?P<secret>")
                i += len(name)
                continue
            if pattern[i + 1 : i + 2] != "?":
                number += 1
                out.append("(" if number == keep else "(?:")
                i += 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


# gitleaks starts most patterns with ``[\w.-]{0,50}?`` so that its report shows the key's
# name. For a mask it is only cost: at every position of a text the scan tries 51 lengths of it
# before looking for the keyword (1 MiB of dotted words took minutes once a keyword woke a few
# such rules). Without it a rule finds the same secrets: the lazy lead takes the fewest
# characters, so each match's secret group is the one found from the keyword itself.
_LEAD = "[\\w.-]{0,50}?"
_FLAGS = re.compile(r"\(\?[aiLmsux]+[:)]")  # (?i) or the opening of (?i:...)


def without_lead(pattern: str) -> str:
    """``pattern`` without gitleaks' leading ``[\\w.-]{0,50}?`` (after its inline flags, if any)."""
    head = ""
    while True:  # a few rules have it twice: ``[\\w.-]{0,50}?(?i:[\\w.-]{0,50}?...``
        flags = _FLAGS.match(pattern)
        if flags is not None:
            head, pattern = head + flags[0], pattern[flags.end() :]
        elif pattern.startswith(_LEAD):
            pattern = pattern[len(_LEAD) :]
        else:
            return head + pattern


def _masks_bare_hex(pattern: re.Pattern[str], keywords: list[str]) -> bool:
    """True when ``pattern`` matches a bare hex digest or UUID on the line after one of its
    keywords (a commit id in a git log that mentions the vendor): Kindling never tells hex
    from a hash by the value alone, nor by a vendor name somewhere near it."""
    digests = ("0123456789abcdef" * 4)[:40], "9f86d081884c7d659a2feaa0c55ad015"
    digests += (str(uuid.UUID(int=7)),)
    return any(
        pattern.search(f"{word}\ncommit {digest}\n") is not None
        for word in keywords
        for digest in digests
    )


_INLINE_FLAGS = re.compile(r"\(\?([a-zA-Z]+)\)")


def scoped_flags(pattern: str) -> str | None:
    """``pattern`` with each inline flag group after its start (Go's ``ab(?i)cd``, which holds
    to the end of the enclosing group) rewritten as Python's scoped ``ab(?i:cd)``; None when
    a ``|`` follows the flag in that group (the scope would change what it chooses between).
    Escapes and character classes are read as such, so their brackets do not count."""
    out: list[str] = []
    closes = [0]  # per open group: how many scoped groups to close with it
    flagged = [False]  # per open group: whether a flag was scoped in it
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "[":
            j = i + 1
            if j < len(pattern) and pattern[j] == "^":
                j += 1
            if j < len(pattern) and pattern[j] == "]":
                j += 1
            while j < len(pattern) and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            out.append(pattern[i : j + 1])
            i = j + 1
            continue
        m = _INLINE_FLAGS.match(pattern, i)
        if m and "".join(out).strip():
            out.append(f"(?{m[1]}:")
            closes[-1] += 1
            flagged[-1] = True
            i = m.end()
            continue
        if c == "(":
            closes.append(0)
            flagged.append(False)
        elif c == "|" and flagged[-1]:
            return None
        elif c == ")":
            out.append(")" * closes.pop())
            flagged.pop()
        out.append(c)
        i += 1
    out.append(")" * closes.pop())
    return "".join(out)


def gitleaks_rules(repo: str) -> dict[str, Any]:
    """gitleaks' rules (MIT) the scrubber loads as data: each rule of ``config/gitleaks.toml``
    that compiles with Python's ``re`` (``\\z`` read as ``\\Z``), woken by its own keywords
    (rules with a keyword under 3 characters or a common word, and the generic rules, are left
    out: Kindling's key-value rules do that job), its ``secretGroup`` (else its first group)
    the one capturing group. Each is ``[id, [keywords], pattern, min_entropy]``."""
    rules = _gitleaks_format_rules(repo, "config/gitleaks.toml", "gitleaks", frozenset())
    return _gitleaks_format_file(repo, "gitleaks", "config/gitleaks.toml", "2019", rules)


# A betterleaks rule that reports what names a secret's owner or home (a client id, a tenant,
# an account name, a host, a URL, an address) rather than the secret.
_NAMES_A_PLACE = re.compile(r"-(?:id|ids|url|host|name|address|domain)(?:\.\d+)?$")
# Keywords every config file holds: a rule they wake repeats Kindling's own key-value rules
# (``aws-secret-access-key`` is woken by ``key``), and would run on nearly every text.
_WORDS_OF_EVERY_CONFIG = frozenset({"key", "secret", "token", "access", "client", "storage"})
_WORDS_OF_EVERY_CONFIG |= {"poly"}  # polymarket's rules: polyfill, polygon
# Rules whose whole match is a document (a service account's JSON, a JWT of any kind): Kindling's
# own rules mask the secrets inside and leave what is public.
_WHOLE_DOCUMENT = frozenset(
    {"gcp-service-account", "gcp-application-default-credentials", "jwt", "jwt-base64"}
)


def betterleaks_rules(repo: str) -> dict[str, Any]:
    """betterleaks' rules (MIT; gitleaks' successor by its author) that gitleaks' data file
    lacks: read from ``config/betterleaks.toml`` as gitleaks' are, less the rules that report an
    id, a host or a URL, those woken by a word of every config file, and those that mask a whole
    document. Issue 32, 24th pass."""
    gitleaks_ids = {
        item[0].split(".", 1)[1]
        for item in json.loads((RULES_OUT / "gitleaks_rules.json").read_text("ascii"))["rules"]
    }
    skip = frozenset(gitleaks_ids | _WHOLE_DOCUMENT)
    rules = [
        item
        for item in _gitleaks_format_rules(repo, "config/betterleaks.toml", "betterleaks", skip)
        if not _NAMES_A_PLACE.search(item[0]) and not _WORDS_OF_EVERY_CONFIG.intersection(item[1])
    ]
    return _gitleaks_format_file(repo, "betterleaks", "config/betterleaks.toml", "2026", rules)


def _gitleaks_format_file(
    repo: str, source: str, toml: str, year: str, rules: list[list[Any]]
) -> dict[str, Any]:
    """The data file of a gitleaks-format rule set (both are Zachary Rice's, MIT)."""
    return {
        "source": source,
        "url": f"https://github.com/{source}/{source}",
        "licence": "MIT",
        "notice": f"Rule patterns from {source} {toml} (MIT License, Copyright (c) {year} "
        "Zachary Rice); groups other than the secret's made non-capturing and the leading "
        "[\\w.-]{0,50}? dropped by scripts/build_secret_corpora.py.",
        "commit": _git(repo, "rev-parse", "HEAD").strip(),
        "rules": sorted(rules),
    }


def _gitleaks_format_rules(
    repo: str, toml: str, prefix: str, skip: frozenset[str]
) -> list[list[Any]]:
    """The rules of a gitleaks-format ``toml`` as ``[prefix.id, [keywords], pattern, entropy]``
    (ids in ``skip`` left out), by the filters of ``gitleaks_rules``."""
    import warnings

    rules = []
    for rule in tomllib.loads(_show(repo, toml))["rules"]:
        keywords = [k.lower() for k in rule.get("keywords") or []]
        if rule["id"].startswith("generic") or not keywords or rule["id"] in skip:
            continue
        if _PUBLIC_ID.search(rule["id"]):
            continue  # a key public by design (Flutterwave's public key)
        if any(len(k) < 3 or k in _COMMON for k in keywords):
            continue
        pattern = scoped_flags(rule["regex"].replace("\\z", "\\Z"))
        if pattern is None:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # a FutureWarning would print in every hook
                groups = re.compile(pattern, re.ASCII).groups
        except (re.error, FutureWarning):
            continue
        keep = int(rule.get("secretGroup") or (1 if groups else 0))
        pattern = without_lead(_one_group(pattern, keep))
        compiled = re.compile(pattern, re.ASCII)
        if compiled.groups > 1 or _masks_bare_hex(compiled, keywords):
            continue  # named groups in the way; or hex is masked that a digest could be
        if backtracks(pattern, keywords):
            print(f"left out, it backtracks: {rule['id']}", file=sys.stderr)
            continue
        rules.append([f"{prefix}.{rule['id']}", keywords, pattern, float(rule.get("entropy") or 0)])
    return rules


def _secret_literal(pattern: str) -> str:
    """The longest literal of 3+ characters inside the secret group (``AzFu``, ``+ACR``,
    ``oy2``): the keyword that wakes a rule without a signature of its own."""
    start = pattern.find("(?P<secret>")
    body, runs, run, i, depth = pattern[start + 11 :], [], "", 0, 0
    while i < len(body) and depth >= 0:
        c = body[i]
        if c == "\\" and i + 1 < len(body) and not body[i + 1].isalnum():
            run += body[i + 1]
            i += 2
            continue
        if c.isalnum() or c in "~":
            run += c
        else:
            runs.append(run)
            run = ""
            if c == "[":
                i = body.index("]", i + 2) if "]" in body[i + 2 :] else len(body)
            elif c == "{":
                i = body.index("}", i)
            depth += {"(": 1, ")": -1}.get(c, 0)
        i += 1
    runs.append(run)
    best = max(runs, key=len)
    return best if len(best) >= 3 else ""


def microsoft_rules(repo: str) -> dict[str, Any]:
    """Microsoft's precisely classified security keys (microsoft/security-utilities, MIT),
    which the scrubber loads as data beside kingfisher's: each pattern in Python's syntax
    (``_one_group``), woken by its signature (``Signature``, ``SniffLiterals``, or the
    longest literal in its secret). Patterns that do not compile with ``re`` or have no
    literal are left out. Each is ``[id, keyword, pattern, min_entropy]``, the floor 0: every
    one of these keys names itself (a signature at a fixed place in a fixed length, or a
    prefix), so its body needs no randomness, as a vendor prefix's dummy needs none
    (``aaaa...AzFu...==``, Microsoft's own placeholder keys, is masked as ``ghp_xxxx...`` is)."""
    import re as std_re

    rules = []
    models = json.loads(_show(repo, "GeneratedRegexPatterns/PreciselyClassifiedSecurityKeys.json"))
    for model in models:
        pattern = _one_group(model["Pattern"])
        try:
            std_re.compile(pattern, std_re.ASCII)
        except std_re.error:
            continue
        if "(?P<secret>" not in pattern:
            continue
        literals = [model.get("Signature"), *(model.get("SniffLiterals") or [])]
        keyword = next((w for w in literals if w), "") or _secret_literal(pattern)
        if len(keyword) < 3 or keyword.lower() in _COMMON | {"npm"}:
            continue  # (npm_ tokens have a shape of Kindling's own)
        name = f"microsoft.{model['Id']}.{model['Name']}"
        rules.append([name, keyword.lower(), pattern, 0.0])
    return {
        "source": "microsoft/security-utilities",
        "url": "https://github.com/microsoft/security-utilities",
        "licence": "MIT",
        "notice": "Patterns from Microsoft security-utilities "
        "GeneratedRegexPatterns/PreciselyClassifiedSecurityKeys.json (MIT License, "
        "Copyright (c) Microsoft Corporation); groups rewritten to Python's syntax by "
        "scripts/build_secret_corpora.py.",
        "commit": _git(repo, "rev-parse", "HEAD").strip(),
        "rules": sorted(rules),
    }


# CredSweeper's named groups other than its ``value`` (the secret) are made non-capturing,
# unless a back-reference or a conditional reads them (that rule is left out).
_NAMED = re.compile(r"\(\?P<(\w+)>")
# CredSweeper rules left out: a bucket's name is no secret; ``MII...`` is also how every
# certificate's base64 starts (Kindling reads private keys by their PEM or DER framing); two
# are woken by a run of one letter (``aaaaaaaaaa``: every run of ``A`` in base64 would scan
# the text again); and "basic" / "bearer" are words of prose (Kindling's own rules read an
# Authorization header).
_CREDSWEEPER_LEFT = frozenset({"AWS S3 Bucket", "BASE64 Private Key"})
_ONE_LETTER_RUN = re.compile(r"(.)\1{5,}")
_CREDSWEEPER_COMMON = frozenset({"basic", "bearer", "ntlm"})
# CredSweeper's left boundary, a choice tried at every character of a text: where the secret
# starts with a literal (``sk-``, ``ghp_``), it is checked after that literal instead, by
# look-behinds over it, so the engine skips to the literal (the same boundaries, less a
# terminal colour code: ``secrets.scrub_readings`` reads the text again without them).
_CREDSWEEPER_LEAD = (
    "(?:^|/|[^\\\\0-9A-Za-z+_-]|\\\\[0abfnrtv]|(?:%|\\\\x)[0-9A-Fa-f]{2}|\\\\[0-7]{3}"
    "|\\\\[Uu][0-9A-Fa-f]{4}|\\x1B\\[[0-9;]{0,80}m)"
)
_LITERAL_START = re.compile(r"\(\?P<secret>((?:[A-Za-z0-9_]|\\[-.$/])+)")


def _boundary_after_literal(pattern: str) -> str:
    if not pattern.startswith(_CREDSWEEPER_LEAD):
        return pattern
    rest = pattern[len(_CREDSWEEPER_LEAD) :]
    m = _LITERAL_START.match(rest)
    if m is None or len(m[1]) < 2:
        return pattern
    lit = m[1]
    before = ("\\\\[0abfnrtv]", "[%][0-9A-Fa-f]{2}", "\\\\x[0-9A-Fa-f]{2}", "\\\\[0-7]{3}")
    before += ("\\\\[Uu][0-9A-Fa-f]{4}",)
    check = "|".join((f"(?<![\\\\0-9A-Za-z+_-]{lit})", *(f"(?<={b}{lit})" for b in before)))
    return f"{m[0]}(?:{check}){rest[m.end() :]}"


def credsweeper_rules(repo: str) -> dict[str, Any]:
    """CredSweeper's rules (Samsung, MIT) the scrubber loads as data: each pattern rule of
    ``credsweeper/rules/config.yaml`` that needs no ML model (``use_ml`` unset), reports a
    credential (not an id, a domain or a bucket: ``_NOT_SECRET``) and is woken by substrings
    of 3+ characters that are not common words; its ``value`` group the one capturing group.
    Rules that read another group by name, mask a bare digest (``_masks_bare_hex``) or
    backtrack are left out. Each is ``[id, [keywords], pattern, 3.0]``: CredSweeper's own
    filters (``ValuePatternCheck``, ``ValueMorphemesCheck``) are not carried over, the
    scrubber's placeholder test and an entropy floor of 3 bits stand for them."""
    import yaml

    rules = []
    for rule in yaml.safe_load(_show(repo, "credsweeper/rules/config.yaml")):
        if rule.get("type") != "pattern" or rule.get("use_ml") or _NOT_SECRET.search(rule["name"]):
            continue
        if rule["name"] in _CREDSWEEPER_LEFT:
            continue
        keywords = sorted({k.lower() for k in rule.get("required_substrings") or []})
        common = _COMMON | _CREDSWEEPER_COMMON
        if not keywords or any(
            len(k) < 3 or k in common or _ONE_LETTER_RUN.fullmatch(k) for k in keywords
        ):
            continue
        for n, value in enumerate(rule.get("values") or []):
            pattern = _boundary_after_literal(value.replace("(?P<value>", "(?P<secret>"))
            names = set(_NAMED.findall(pattern)) - {"secret"}
            if "(?P<secret>" not in pattern or any(
                f"(?P={name})" in pattern or f"(?({name})" in pattern for name in names
            ):
                continue
            pattern = _one_group(_NAMED.sub(_plain_unless_secret, pattern))
            try:
                compiled = re.compile(pattern, re.ASCII)
            except re.error:
                continue
            if compiled.groups != 1 or _masks_bare_hex(compiled, keywords):
                continue
            if any(compiled.search(value) for value in _PUBLIC):
                continue  # it also reports a key that is public by design (pk_live_)
            if backtracks(pattern, keywords):
                print(f"left out, it backtracks: {rule['name']}", file=sys.stderr)
                continue
            name = f"credsweeper.{rule['name']}" + (f".{n + 1}" if n else "")
            rules.append([name, keywords, pattern, 3.0])
    return {
        "source": "Samsung/CredSweeper",
        "url": "https://github.com/Samsung/CredSweeper",
        "licence": "MIT",
        "notice": "Rule patterns from Samsung CredSweeper credsweeper/rules/config.yaml (MIT "
        "License, Copyright (c) 2021 SAMSUNG); groups other than the value's made "
        "non-capturing by scripts/build_secret_corpora.py.",
        "commit": _git(repo, "rev-parse", "HEAD").strip(),
        "rules": sorted(rules),
    }


def _plain_unless_secret(m: re.Match[str]) -> str:
    return m[0] if m[1] == "secret" else "(?:"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kingfisher")
    parser.add_argument("--microsoft", help="a microsoft/security-utilities clone")
    parser.add_argument("--gitleaks-rules", help="a gitleaks clone whose rules to load as data")
    parser.add_argument("--credsweeper", help="a Samsung/CredSweeper clone")
    parser.add_argument("--betterleaks", help="a betterleaks clone (after --gitleaks-rules)")
    parser.add_argument("--gitleaks")
    parser.add_argument("--detect-secrets", dest="detect_secrets")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for repo, build, name in (
        (args.kingfisher, kingfisher_rules, "kingfisher"),
        (args.gitleaks_rules, gitleaks_rules, "gitleaks"),
        (args.microsoft, microsoft_rules, "microsoft"),
        (args.credsweeper, credsweeper_rules, "credsweeper"),
        (args.betterleaks, betterleaks_rules, "betterleaks"),
    ):
        if repo:
            RULES_OUT.mkdir(parents=True, exist_ok=True)
            data = build(repo)
            text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
            (RULES_OUT / f"{name}_rules.json").write_text(text + "\n", encoding="ascii")
            print(f"{name} rules: {len(data['rules'])}", file=sys.stderr)
    for name, build in (
        ("kingfisher", kingfisher),
        ("gitleaks", gitleaks),
        ("detect_secrets", detect_secrets),
    ):
        repo = getattr(args, name)
        if repo:
            corpus = build(repo)
            text = json.dumps(corpus, ensure_ascii=False, indent=0, sort_keys=True)
            (OUT / f"{name}.json").write_text(text + "\n", encoding="utf-8")
            print(
                f"{name}: {len(corpus['positives'])} positives, "
                f"{len(corpus['negatives'])} negatives",
                file=sys.stderr,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
