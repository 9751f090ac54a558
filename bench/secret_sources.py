"""Build secret corpora from more scanners' own test data: four held out, three for tuning.

    python -m bench.secret_sources --whispers DIR --ripsecrets DIR --semgrep DIR --trivy DIR
    python -m bench.secret_sources --credsweeper DIR
    python -m bench.secret_sources --leaktk DIR --fake-leaks DIR --leaky-repo DIR
    python -m bench.secret_sources --sonar DIR

Each DIR is a git clone (a bare git directory works: files are read with ``git show HEAD:``).
None of the four held-out sources (whispers, ripsecrets, semgrep, trivy) was looked at while
the scrubber was tuned; CredSweeper's is a tuning corpus. Their samples are written
the way ``scripts/build_secret_corpora.py`` writes its corpora (``{"rule", "text", "secret"}``)
so ``bench.secret_heldout`` scores them in the same harness.

- whispers (Skyscanner, Apache-2.0): ``tests/fixtures/*``, scanned with the ``whispers``
  package itself (``pip install whispers`` in a separate environment, ``--whispers-bin``);
  each secret it reports becomes the fixture's lines around it (its key is on the line or
  just above it in YAML, XML and JSON).
- ripsecrets (MIT): ``test/one_per_line/*``, one secret a line; the value is what follows the
  line's key and operator (quotes dropped), or the URL's password, or the whole line.
- semgrep-rules (Commons Clause + LGPL-2.1, so the derived file is not committed: build it
  into ``/tmp``): ``generic/secrets/security/*`` test files; a line after ``# ruleid: X`` is a
  positive, its secret what rule X's ``pattern-regex`` captures (its named group, else the
  match), run here with the ``regex`` module. The ``gitleaks/`` folder is left out: it is
  derived from gitleaks, a corpus that already exists.
- trivy (Aqua Security, Apache-2.0): ``pkg/fanal/secret/scanner_test.go`` and its
  ``testdata``; each finding the test expects from one of trivy's built-in rules (a custom
  rule of a test config is left out) names a file and a line, and its ``Match`` shows the
  line with the secret as asterisks: the secret is what the asterisks cover in the file's
  line. The text is that line and up to two lines before it.
- CredSweeper (Samsung, MIT, issue 32's fourth pass; a TUNING corpus, its misses read):
  ``tests/data/output.json``, CredSweeper's validated findings on its ``tests/samples/*``;
  a positive is the sample's line of a finding with up to two lines before it, its secret the
  finding's ``value`` (left out when the value is not in that line); a key's block is one
  positive. Built in ``bench/secret_source_credsweeper.py``, which documents the details; the
  file's ``notice`` holds the MIT licence text.
- LeakTK (MIT, issue 32's twelfth pass; a TUNING corpus, its misses read): what
  ``leaktk/patterns``' scanner must find in ``leaktk/fake-leaks``; built in
  ``bench/secret_source_fake_leaks.py``, which documents the details; and leaky-repo (MIT,
  the same pass; TUNING): a benchmark of leaky files, its values labelled in
  ``tests/data/secret_labels/leaky_repo.json``.
- sonar-text (SonarSource, LGPL-3.0 at the revision read, so the derived file is not
  committed: built into ``/tmp`` as semgrep's is; issue 32's thirteenth pass; TUNING): the
  examples its secret rules hold that ``containsSecret``, each with the ``match`` it must
  report; built in ``bench/secret_source_sonar.py``.

Needs ``regex`` and ``pyyaml`` (not Kindling dependencies).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "secret_corpora"

_MIT_TERMS = (
    "Permission is hereby granted, free of charge, to any person obtaining a copy of this "
    'software and associated documentation files (the "Software"), to deal in the Software '
    "without restriction, including without limitation the rights to use, copy, modify, merge, "
    "publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons "
    "to whom the Software is furnished to do so, subject to the following conditions: The above "
    "copyright notice and this permission notice shall be included in all copies or substantial "
    'portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, '
    "EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, "
    "FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR "
    "COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN "
    "ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE "
    "SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE."
)


def mit_notice(holder: str) -> str:
    """The MIT licence's notice, for a corpus file built from an MIT source (``holder``: its
    copyright line's year and name)."""
    return f"MIT License. Copyright (c) {holder}. {_MIT_TERMS}"


def _git(repo: str, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", repo, *args], check=True, capture_output=True, text=True
    ).stdout


def _head(repo: str) -> str:
    return _git(repo, "rev-parse", "HEAD").strip()


def _files(repo: str, prefix: str) -> list[str]:
    return _git(repo, "ls-tree", "-r", "--name-only", "HEAD", prefix).splitlines()


def _show(repo: str, path: str) -> str:
    return _git(repo, "show", f"HEAD:{path}")


def _write(
    name: str,
    source: str,
    licence: str,
    positives: list[dict[str, str]],
    out: Path,
    notice: str = "",
) -> None:
    seen: set[tuple[str, str]] = set()
    unique = []
    for p in positives:
        key = (p["text"], p["secret"])
        if key not in seen and len(p["secret"]) >= 8:
            seen.add(key)
            unique.append(p)
    data: dict[str, object] = {"source": source, "licence": licence}
    if notice:
        data["notice"] = notice
    data.update(positives=unique, negatives=[])
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"{name}: {len(unique)} positives", file=sys.stderr)


# ---------------------------------------------------------------- whispers


def whispers(repo: str, binary: str) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in _files(repo, "tests/fixtures"):
            try:
                text = _show(repo, path)
            except (subprocess.CalledProcessError, UnicodeDecodeError):
                continue
            # The file's own name matters to whispers (.npmrc, .htpasswd, Dockerfile...).
            local = Path(tmp) / path
            local.parent.mkdir(parents=True, exist_ok=True)
            local.write_text(text)
            run = subprocess.run([binary, str(local)], capture_output=True, text=True)
            try:
                found = json.loads(run.stdout or "[]")
            except ValueError:
                continue
            lines = text.splitlines()
            for item in found:
                value = str(item.get("value", ""))
                if not value or value not in text:
                    continue  # decoded or rebuilt by the scanner: not in the text as written
                at = int(item.get("line") or 0) - 1
                window = range(max(0, at - 2), min(len(lines), at + 2))
                hits = [i for i in window if value in lines[i]]
                hits = hits or [i for i, line in enumerate(lines) if value in line]
                if hits:
                    snippet = "\n".join(lines[max(0, hits[0] - 2) : hits[0] + 1])
                elif len(text) <= 4000:
                    snippet = text  # a value over several lines (a key block)
                else:
                    continue
                rule = f"{item.get('rule_id', '?')}:{path.rsplit('/', 1)[-1]}"
                out.append({"rule": rule, "text": snippet, "secret": value})
    return out


# ---------------------------------------------------------------- ripsecrets

_KEYED = re.compile(
    r"""^\s*(?:export\s+)?[\w.\[\]'"-]+['"\]]*\s*(?::=|=|:)\s*(?P<value>.+?)\s*[,;]?\s*$"""
)
_URL_PASSWORD = re.compile(r"://[^\s:/@]*:(?P<value>[^\s@/]+)@")


def ripsecrets(repo: str) -> list[dict[str, str]]:
    out = []
    for path in _files(repo, "test/one_per_line"):
        for line in _show(repo, path).splitlines():
            if not line.strip():
                continue
            m = _URL_PASSWORD.search(line) or _KEYED.match(line)
            value = m["value"] if m else line.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'`":
                value = value[1:-1]
            out.append({"rule": path.rsplit("/", 1)[-1], "text": line, "secret": value})
    return out


# ---------------------------------------------------------------- semgrep-rules


def _regexes(rule: dict[str, Any]) -> list[str]:
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "pattern-regex" and isinstance(value, str):
                    found.append(value)
                elif key not in ("pattern-not-regex", "pattern-not", "metadata"):
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(rule)
    return found


def semgrep(repo: str) -> list[dict[str, str]]:
    import regex
    import yaml

    folder = "generic/secrets/security"
    names = _files(repo, folder)
    rules: dict[str, list[Any]] = {}
    for path in names:
        if path.endswith(".yaml"):
            for rule in yaml.safe_load(_show(repo, path)).get("rules", []):
                compiled = []
                for src in _regexes(rule):
                    with contextlib.suppress(regex.error):
                        compiled.append(regex.compile(src))
                rules[rule["id"]] = compiled
    out = []
    for path in names:
        if path.endswith(".yaml"):
            continue
        lines = _show(repo, path).splitlines()
        for i, line in enumerate(lines):
            m = re.search(r"ruleid:\s*([\w.-]+)", line)
            if not m or m[1] not in rules:
                continue
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            # Multi-line positives (a key block) run to the next blank line.
            k = j
            while k < len(lines) and lines[k].strip() and "ruleid:" not in lines[k]:
                k += 1
            text = "\n".join(lines[j:k])
            value = None
            for pattern in rules[m[1]]:
                hit = pattern.search(text)
                if hit is None:
                    continue
                named = [g for g in hit.groupdict().values() if g]
                value = named[-1] if named else hit[0]
                break
            if value and value.strip():
                out.append({"rule": m[1], "text": text, "secret": value.strip()})
    return out


# ---------------------------------------------------------------- trivy

_TRIVY = "pkg/fanal/secret"
_GO_PART = re.compile(
    r'\s*(?:"((?:[^"\\\n]|\\.)*)"|`([^`]*)`|strings\.Repeat\("\*",\s*(\d+)\)|(\w+))\s*(\+|,|$)'
)


def _go_expr(expr: str, consts: dict[str, str]) -> str | None:
    """A Go string expression of literals, ``strings.Repeat("*", N)`` and known names."""
    out, at = "", 0
    while at < len(expr):
        m = _GO_PART.match(expr, at)
        if m is None:
            return None
        if m[1] is not None:
            out += m[1].encode().decode("unicode_escape")
        elif m[2] is not None:
            out += m[2]
        elif m[3] is not None:
            out += "*" * int(m[3])
        elif m[4] in consts:
            out += consts[m[4]]
        else:
            return None
        at = m.end()
        if m[5] != "+":
            break
    return out


def _trivy_findings(src: str) -> dict[str, tuple[str, int, int, str]]:
    """name -> (rule id, start line, end line, masked match) of each expected finding."""
    consts = {
        n: "*" * int(k) for n, k in re.findall(r'(\w+) := strings\.Repeat\("\*", (\d+)\)', src)
    }
    found = {}
    for m in re.finditer(r'(\w+) := openAIFinding\("([^"]+)",[^,]+,[^,]+,\s*(\d+)\)', src):
        found[m[1]] = (m[2], 1, 1, "*" * int(m[3]))
    for m in re.finditer(r"(\w+) := types\.SecretFinding\{", src):
        block = src[m.end() : src.find("Code:", m.end())]
        rule = re.search(r'RuleID:\s*"([^"]+)"', block)
        start = re.search(r"StartLine:\s*(\d+)", block)
        end = re.search(r"EndLine:\s*(\d+)", block)
        match = re.search(r"Match:\s*(.+)", block)
        value = _go_expr(match[1].rstrip(","), consts) if match else None
        if rule and start and end and value:
            found[m[1]] = (rule[1], int(start[1]), int(end[1]), value)
    return found


def trivy(repo: str) -> list[dict[str, str]]:
    src = _show(repo, f"{_TRIVY}/scanner_test.go")
    builtin = set(re.findall(r'ID:\s*"([^"]+)"', _show(repo, f"{_TRIVY}/builtin-rules.go")))
    findings = _trivy_findings(src)
    cases = re.split(r"\binputFilePath:", src)[1:]
    out = []
    for case in cases:
        path = re.match(
            r'\s*(?:filepath\.Join\("testdata",\s*"([^"]+)"\)|"testdata/([^"]+)")', case
        )
        listed = re.search(r"Findings:\s*\[\]types\.SecretFinding\{([^}]*)\}", case)
        if path is None or listed is None:
            continue
        try:
            lines = _show(repo, f"{_TRIVY}/testdata/{path[1] or path[2]}").split("\n")
        except (subprocess.CalledProcessError, UnicodeDecodeError):
            continue
        lines = [line.rstrip("\r") for line in lines]
        for name in re.findall(r"\w+", listed[1]):
            if name not in findings or findings[name][0] not in builtin:
                continue  # a custom rule of a test config, not one of trivy's own rules
            rule, start, end, masked = findings[name]
            if end != start or start > len(lines):
                continue
            parts = re.split(r"(\*+)", masked)
            pattern = "".join(
                f"(.{{{len(p)}}})" if p.startswith("*") else re.escape(p) for p in parts if p
            )
            hit = re.search(pattern, lines[start - 1])
            if hit is None:
                continue
            value = max(hit.groups(), key=len)
            text = "\n".join(lines[max(0, start - 3) : start])
            out.append({"rule": rule, "text": text, "secret": value})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--whispers", help="a Skyscanner/whispers clone")
    parser.add_argument("--whispers-bin", default="whispers", help="the whispers command")
    parser.add_argument("--ripsecrets", help="a sirwart/ripsecrets clone")
    parser.add_argument("--semgrep", help="a semgrep/semgrep-rules clone")
    parser.add_argument("--trivy", help="an aquasecurity/trivy clone")
    parser.add_argument("--credsweeper", help="a Samsung/CredSweeper clone")
    parser.add_argument("--leaktk", help="a leaktk/patterns clone (with --fake-leaks)")
    parser.add_argument("--fake-leaks", help="a leaktk/fake-leaks clone")
    parser.add_argument("--leaky-repo", help="a Plazmaz/leaky-repo clone")
    parser.add_argument("--sonar", help="a SonarSource/sonar-text clone (not committed)")
    parser.add_argument("--sonar-rev", help="the sonar-text revision to read")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--semgrep-out", type=Path, default=Path("/tmp/kindling-secret-corpora"))
    args = parser.parse_args()
    if args.whispers:
        source = f"Skyscanner/whispers@{_head(args.whispers)} tests/fixtures"
        _write(
            "whispers", source, "Apache-2.0", whispers(args.whispers, args.whispers_bin), args.out
        )
    if args.ripsecrets:
        source = f"sirwart/ripsecrets@{_head(args.ripsecrets)} test/one_per_line"
        _write("ripsecrets", source, "MIT", ripsecrets(args.ripsecrets), args.out)
    if args.semgrep:
        source = f"semgrep/semgrep-rules@{_head(args.semgrep)} generic/secrets/security"
        licence = "Commons Clause + LGPL-2.1 (not committed)"
        _write("semgrep", source, licence, semgrep(args.semgrep), args.semgrep_out)
    if args.trivy:
        source = f"aquasecurity/trivy@{_head(args.trivy)} {_TRIVY}/scanner_test.go + testdata"
        _write("trivy", source, "Apache-2.0", trivy(args.trivy), args.out)
    if args.credsweeper:
        from bench.secret_source_credsweeper import CREDSWEEPER_NOTICE, credsweeper

        source = f"Samsung/CredSweeper@{_head(args.credsweeper)} tests/data/output.json + samples"
        found = credsweeper(args.credsweeper)
        _write("credsweeper", source, "MIT", found, args.out, CREDSWEEPER_NOTICE)
    if args.leaktk and args.fake_leaks:
        from bench.secret_source_fake_leaks import LEAKTK_NOTICE, LEAKTK_RESULTS, leaktk

        source = (
            f"leaktk/patterns@{_head(args.leaktk)} {LEAKTK_RESULTS} on "
            f"leaktk/fake-leaks@{_head(args.fake_leaks)}"
        )
        found = leaktk(args.leaktk, args.fake_leaks)
        _write("leaktk", source, "MIT", found, args.out, LEAKTK_NOTICE)
    if args.leaky_repo:
        from bench.secret_source_fake_leaks import LEAKY_REPO_NOTICE, leaky_repo

        labels = "labelled in tests/data/secret_labels"
        source = f"Plazmaz/leaky-repo@{_head(args.leaky_repo)}, {labels}"
        found = leaky_repo(args.leaky_repo)
        _write("leaky_repo", source, "MIT", found, args.out, LEAKY_REPO_NOTICE)
    if args.sonar:
        from bench.secret_source_sonar import SONAR_FOLDER, SONAR_REVISION, sonar

        revision = _git(args.sonar, "rev-parse", args.sonar_rev or SONAR_REVISION).strip()
        source = f"SonarSource/sonar-text@{revision} {SONAR_FOLDER}/*.yaml examples"
        licence = "LGPL-3.0 (not committed)"
        _write("sonar", source, licence, sonar(args.sonar, revision), args.semgrep_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
