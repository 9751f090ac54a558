"""Two tuning corpora from repositories of fake leaks, added for issue 32's twelfth pass
(``bench.secret_sources``' CLI builds them: ``--leaktk PATTERNS --fake-leaks DIR``,
``--leaky-repo DIR``).

- LeakTK (Red Hat's Leak Tool Kit, MIT): ``leaktk/patterns``' ``testdata/
  leaktk-scanner-results.yaml`` lists what its scanner must find in ``leaktk/fake-leaks``, a
  repository of fake leaks written to look like real ones (configs, env files, CI files,
  code, k8s manifests, shadow lines, WordPress and Django settings). A positive is the file's
  line holding the finding's ``secret`` with up to two lines before it (as CredSweeper's and
  trivy's are); a secret not found in its file as written (one the scanner decoded first, or
  spanning lines) is left out. Two groups are left out as well: ``semgrep-rules-examples/``
  (copies of semgrep-rules' examples, a held-out corpus) and the rule "Controlled Unclassified
  Information" (banner markings such as ``CUI//SP-CTI``: not a credential).
- leaky-repo (Dylan Katz, MIT): ``Plazmaz/leaky-repo``, a benchmark of 60 files of the kinds
  that leak (shell profiles, docker and npm configs, FTP clients' settings, Firefox's
  logins, dumps, ``.env``, ``wp-config.php``). It counts lines of risk per file but names no
  value, so its values were labelled by a helper that had not read the scrubber, from the
  files and those counts, before any was scrubbed (``LEAKY_REPO_LABELS``: 83 labels; 79
  without the four Firefox encrypted user names). A positive is the first line holding the
  value, with up to two lines before it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from bench.secret_sources import _show, mit_notice

LEAKTK_RESULTS = "testdata/leaktk-scanner-results.yaml"
_LEFT_OUT_PATHS = ("semgrep-rules-examples/",)
_LEFT_OUT_RULES = ("Controlled Unclassified Information",)
LEAKTK_NOTICE = mit_notice("2022 LeakTK - Leak Tool Kit")


def _around(body: str, secret: str) -> str | None:
    """The line of ``body`` that holds ``secret`` first, with up to two lines before it."""
    at = body.find(secret)
    if at < 0:
        return None
    first = body.count("\n", 0, at) - 2
    last = body.count("\n", 0, at + len(secret))
    return "\n".join(body.split("\n")[max(0, first) : last + 1])


def leaktk(patterns: str, fake_leaks: str) -> list[dict[str, str]]:
    import yaml  # (a bench-only dependency, as in ``bench.secret_sources``)

    findings: list[dict[str, Any]] = yaml.safe_load(_show(patterns, LEAKTK_RESULTS))
    cache: dict[str, str | None] = {}
    out = []
    for finding in findings:
        path, secret = str(finding["location.path"]), str(finding["secret"])
        rule = str(finding["rule.description"])
        if path.startswith(_LEFT_OUT_PATHS) or rule in _LEFT_OUT_RULES:
            continue
        if path not in cache:
            try:
                cache[path] = _show(fake_leaks, path)
            except (subprocess.CalledProcessError, UnicodeDecodeError):
                cache[path] = None
        body = cache[path]
        text = None if body is None else _around(body, secret)
        if text is None:
            continue
        out.append({"rule": f"leaktk.{rule}:{path}", "text": text, "secret": secret})
    return out


LEAKY_REPO_LABELS = (
    Path(__file__).resolve().parent.parent / "tests" / "data" / "secret_labels" / "leaky_repo.json"
)
LEAKY_REPO_NOTICE = mit_notice("2019 Dylan Katz")


def leaky_repo(repo: str) -> list[dict[str, str]]:
    labels: list[dict[str, str]] = json.loads(LEAKY_REPO_LABELS.read_text("utf-8"))
    out = []
    for label in labels:
        text = _around(_show(repo, label["path"]), label["secret"])
        if text is not None:
            rule = f"leaky-repo.{label['what']}:{label['path']}"
            out.append({"rule": rule, "text": text, "secret": label["secret"]})
    return out
