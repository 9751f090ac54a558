"""Masking of the tuning corpora's secrets written in many forms: where a form loses what a
key's name would have masked (issue 32, 24th pass).

    .venv/bin/python -m bench.secret_forms [--values N] [--misses N]

Every signal-bearing secret of the tuning corpora (``bench.secret_heldout.TUNING``; one line,
no quote or blank in it, under 120 characters; a seeded sample of ``--values``) is written in
each of 35 forms: ``.env``, JSON, YAML, TOML, INI, properties, XML, code of eight languages
(a constant, a call's argument, a map), HTTP headers, command-line flags, a URL's query, a
Dockerfile, a Kubernetes manifest, Terraform, a log line, prose, Markdown, SQL. A form is a
place where people put a key; the figure per form shows which form the scrubber reads worse
than the others. The values are the tuning corpora's, so this tunes; it holds nothing out.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from kindling.secrets.scrub import scrub_secrets

FORMS = {
    "env": "API_KEY={}",
    "env-quoted": 'export SERVICE_TOKEN="{}"',
    "json": '{{"apiKey": "{}", "region": "us-east-1"}}',
    "yaml": "auth:\n  token: {}\n  user: bot",
    "yaml-quoted": "client_secret: '{}'",
    "toml": 'secret = "{}"',
    "ini": "[default]\naccess_token = {}",
    "properties": "app.auth.secret={}",
    "xml": "<apiKey>{}</apiKey>",
    "xml-attribute": '<add key="ApiKey" value="{}" />',
    "python": 'client = Client(api_key="{}")',
    "python-dict": 'HEADERS = {{"X-Api-Key": "{}"}}',
    "go-header": 'req.Header.Set("Authorization", "Bearer {}")',
    "go-const": 'const apiToken = "{}"',
    "js": 'const config = {{ secretKey: "{}" }};',
    "java": 'conn.setRequestProperty("X-Auth-Token", "{}");',
    "csharp": 'var credential = new ApiKeyCredential("{}");',
    "ruby": 'config.api_key = "{}"',
    "php": "define('AUTH_SECRET', '{}');",
    "curl-header": "curl -H 'X-API-Key: {}' https://api.example.com/v1/items",
    "curl-bearer": 'curl -H "Authorization: Bearer {}" https://api.example.com',
    "flag": "deploy --token {} --env prod",
    "flag-equals": "tool login --api-key={}",
    "url-query": "GET https://api.example.com/data?access_token={}&page=2",
    "dockerfile": "ENV SERVICE_API_KEY {}",
    "kubernetes": "env:\n  - name: API_TOKEN\n    value: {}",
    "terraform": 'variable "api_key" {{\n  default = "{}"\n}}',
    "hcl-map": 'secrets = {{\n  stripe = "{}"\n}}',
    "json-nested": '{{"credentials": {{"value": "{}"}}}}',
    "log": "2024-05-01 12:00:01 INFO using token {} for request",
    "prose": "here is my key: {} please keep it safe",
    "markdown": "Set `STRIPE_KEY` to `{}` in your shell.",
    "sql": "INSERT INTO credentials (name, secret) VALUES ('svc', '{}');",
    "argument": "./run.sh {}",
    "label": "Token: {}",
}


def values(count: int) -> list[str]:
    from bench.secret_heldout import TUNING, available, positives, signal_bearing

    found = {
        p["secret"]
        for name in TUNING
        if available(name)
        for p in positives(name)
        if signal_bearing(p["secret"]) and len(p["secret"]) < 120
    }
    plain = sorted(v for v in found if not any(c in v for c in "\n\"' "))
    random.Random(24).shuffle(plain)
    return plain[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--values", type=int, default=300)
    parser.add_argument("--misses", type=int, default=0, help="print N misses per form")
    args = parser.parse_args()
    sample = values(args.values)
    total = masked = 0
    for name, form in FORMS.items():
        left = [v for v in sample if v in scrub_secrets(form.format(v)).text]
        total += len(sample)
        masked += len(sample) - len(left)
        print(f"{name:15} {len(sample) - len(left):5} / {len(sample)}")
        for value in left[: args.misses]:
            print(f"    left: {value!r}")
    print(f"{'all':15} {masked:5} / {total}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
