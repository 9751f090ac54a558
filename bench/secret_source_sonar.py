"""A tuning corpus from SonarSource's secret rules, added for issue 32's thirteenth pass
(``bench.secret_sources``' CLI builds it: ``--sonar DIR``, into ``/tmp`` like semgrep's).

sonar-text (SonarSource, LGPL-3.0 at the revision read; a later one moved most providers out
of the public repository and changed the licence) writes each secret rule as YAML with its own
examples: a ``text`` (a line of code, a config file, a shell session, a URL) that
``containsSecret: true`` or false, and for a true one the ``match`` its rule must report. A
positive is such a text with its match as the secret; a match not found in its text as written
is left out. The derived file is not committed (the licence is copyleft): build it into
``/tmp/kindling-secret-corpora``, which ``bench.secret_heldout`` reads as well.

``SONAR_REVISION`` is the last revision that held all 86 providers (``c025cd9c``'s parent,
2024-11-05); ``--sonar-rev`` reads another.
"""

from __future__ import annotations

from bench.secret_sources import _git

SONAR_REVISION = "da21f3d7a51144c0a4a33ae6d7a74c5a26c344ad"
SONAR_FOLDER = "sonar-text-plugin/src/main/resources/org/sonar/plugins/secrets/configuration"


def sonar(repo: str, revision: str = SONAR_REVISION) -> list[dict[str, str]]:
    import yaml  # (a bench-only dependency, as in ``bench.secret_sources``)

    names = _git(repo, "ls-tree", "-r", "--name-only", revision, SONAR_FOLDER).splitlines()
    out = []
    for path in sorted(names):
        if not path.endswith((".yaml", ".yml")):
            continue
        spec = yaml.safe_load(_git(repo, "show", f"{revision}:{path}")) or {}
        provider = spec.get("provider") or {}
        for rule in provider.get("rules") or []:
            for example in rule.get("examples") or []:
                text, match = example.get("text"), example.get("match")
                if not example.get("containsSecret") or not isinstance(match, str):
                    continue
                if not isinstance(text, str) or match not in text:
                    continue
                out.append({"rule": f"sonar.{rule.get('id')}", "text": text, "secret": match})
    return out
