"""The CredSweeper tuning corpus (``bench.secret_sources``' CLI builds it: ``--credsweeper DIR``).

- CredSweeper (Samsung, MIT): ``tests/data/output.json``, CredSweeper's validated findings on
  its own ``tests/samples/*``. Each finding's ``line_data_list`` names a sample file, a line
  and the value found there. A positive is that file's line with up to two lines before it
  (as trivy's are), its secret the finding's ``value``; a finding whose value is not in that
  line (a value decoded, or in an archive or a document) is left out. A finding over three
  lines or more (a private key's block) becomes one positive: the block with up to two lines
  before it, its secret the longest value of the block (the last of them, a line of the key's
  body rather than its common opening). Duplicates by (text, secret) are dropped.
"""

from __future__ import annotations

import json
import subprocess

from bench.secret_sources import _show, mit_notice

CREDSWEEPER_PREFIX = "tests/samples"
CREDSWEEPER_NOTICE = mit_notice("2021 SAMSUNG")


def _sample_lines(repo: str, path: str, cache: dict[str, list[str] | None]) -> list[str] | None:
    if path not in cache:
        try:
            text = _show(repo, path)
        except (subprocess.CalledProcessError, UnicodeDecodeError):
            cache[path] = None
        else:
            cache[path] = [line.rstrip("\r") for line in text.split("\n")]
    return cache[path]


def credsweeper(repo: str) -> list[dict[str, str]]:
    findings = json.loads(_show(repo, "tests/data/output.json"))
    cache: dict[str, list[str] | None] = {}
    out = []
    for finding in findings:
        rule = str(finding.get("rule", "?"))
        entries = []
        for data in finding.get("line_data_list", []):
            path = str(data.get("path", "")).removeprefix("./")
            value = data.get("value") or ""
            at = int(data.get("line_num") or 0)
            lines = (
                _sample_lines(repo, path, cache) if path.startswith(CREDSWEEPER_PREFIX) else None
            )
            if lines is None or not 0 < at <= len(lines) or not value or value not in lines[at - 1]:
                continue
            entries.append((path, at, value, lines))
        if len(finding.get("line_data_list", [])) >= 3:
            if not entries or len({e[0] for e in entries}) != 1:
                continue
            first, last = min(e[1] for e in entries), max(e[1] for e in entries)
            longest = max(len(e[2]) for e in entries)
            value = [e[2] for e in sorted(entries, key=lambda e: e[1]) if len(e[2]) == longest][-1]
            lines = entries[0][3]
            text = "\n".join(lines[max(0, first - 3) : last])
            out.append({"rule": f"{rule}:{entries[0][0]}", "text": text, "secret": value})
            continue
        for path, at, value, lines in entries:
            text = "\n".join(lines[max(0, at - 3) : at])
            out.append({"rule": f"{rule}:{path}", "text": text, "secret": value})
    return out
