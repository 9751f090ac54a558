"""Issue 32, thirteenth pass: credentials in URLs, as a probe written by a helper that had not
read the scrubber found them (159 excerpts: RPC endpoints, webhooks, ping and ingestion URLs,
signed links, connection strings, in configs, logs, code and chat); values drawn here.

- a segment of a URL's path drawn whole as a generated key (base62 or base64url: both cases
  and digits): ``https://hc-ping.example/<key>/nightly``, ``/build_hooks/<key>``; the ids a
  path names are left (a document's after ``/d/``, a channel's, a track's; hex digests,
  UUIDs, slugs of words, versions);
- a URL whose slashes JSON escaped (``https:\\/\\/hooks.slack.com\\/services\\/...``), as PHP's
  ``json_encode`` writes it: read as the URL it is.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings

from kindling.secrets.scrub import scrub_secrets
from tests.support.drawn import ALNUM, drawn, mixed

# Derandomized (CI must not turn on the seed); each property assumes its value alone is masked.
FEW = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
URL_SAFE = ALNUM + "-_"

IN_PATHS = (
    "curl -fsS -m 10 --retry 5 -o /dev/null https://hc-ping.example.com/{}/pg-backup-nightly",
    "        run: curl -X POST -d '{{}}' https://api.netlify.example/build_hooks/{}",
    "curl -d 'Hello' http://logs-01.loggly.example/inputs/{}/tag/http/",
    'curl -fsS "https://status.acme.io/api/push/{}?status=up&msg=OK&ping="',
    "$ geth attach https://nd-812-334-901.p2pify.example/{}",
    'mainnet = "https://rpc.ankr.example/eth/{}"',
    "add a custom network with RPC URL https://go.getblock.example/{}/ and chain id 97",
    "$ curl https://frequent-wild-sunset.solana-mainnet.quiknode.example/{}/ -X POST",
    "Download the export: [export.csv](https://exports.acme.io/dl/{}/export-2024-03.csv)",
    'FORECAST_URL = "https://api.darksky.example/forecast/{}/37.8267,-122.4233?units=si"',
)


@pytest.mark.parametrize("template", IN_PATHS)
@FEW
@given(key=mixed(32, upper=True))
def test_a_generated_key_in_a_urls_path_is_masked(template: str, key: str) -> None:
    assume(f"{key} came" not in scrub_secrets(f"the value {key} came back").text)
    out = scrub_secrets(template.format(key)).text
    assert key not in out
    assert "[REDACTED:url_secret]" in out


@pytest.mark.parametrize("template", IN_PATHS[:4])
@FEW
@given(key=drawn(URL_SAFE, 43))
def test_a_base64url_key_in_a_urls_path_is_masked(template: str, key: str) -> None:
    assume(f"{key} came" not in scrub_secrets(f"the value {key} came back").text)
    assert key not in scrub_secrets(template.format(key)).text


@pytest.mark.parametrize(
    "text",
    [
        "See https://docs.google.com/document/d/12HVmFxYj5Jc-eJr5OmWsa2bqTJsbgGLKI6ZIyx0_wpA/edit",
        "[channel](https://www.youtube.com/channel/UCQPYJluYC_sn_Qz_XE-YbTQ/videos)",
        "(https://asciinema.org/a/ePQx0GfCYQGdnQTzwlnSIyxbN)",
        "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC",
        "https://github.com/astral-sh/uv/blob/9c1185a5c5e9fc54612808977ee8f548b2258d31/README.md",
        "https://api.example.com/v1/orders/3f2504e0-4f89-11d3-9a0c-0305e82c3301/items",
        "https://blog.example.com/posts/how-to-rotate-your-database-credentials-safely/",
        "https://files.pythonhosted.org/packages/ab/cd/0123456789abcdef0123456789abcdef/x.whl",
        "https://example.com/releases/download/v2024.11.28-rc1/kindling-2024.11.28.tar.gz",
        "/home/ada/projects/Xk9mPq2Lr7aZbQ3vNc8wYt5uJhG4/notes.md",  # a path, no URL
    ],
)
def test_ids_and_words_in_a_urls_path_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@FEW
@given(token=mixed(24, upper=True))
def test_a_url_with_json_escaped_slashes_is_read_as_written_unescaped(token: str) -> None:
    assume(f"{token} came" not in scrub_secrets(f"the value {token} came back").text)
    escaped = (
        '{"channel":"#alerts","webhook":"https:\\/\\/hooks.slack.com\\/services\\/T024BE7LD'
        f'\\/B04AB9CDE1F\\/{token}","enabled":true}}'
    )
    out = scrub_secrets(escaped).text
    assert token not in out
    assert out.startswith('{"channel":"#alerts","webhook":"https:\\/\\/hooks.slack.com\\/')
    userinfo = f'{{"url":"postgres:\\/\\/app:{token}@db.example.com:5432\\/shop"}}'
    assert token not in scrub_secrets(userinfo).text


def test_json_escaped_urls_without_a_secret_are_left() -> None:
    text = '{"home":"https:\\/\\/example.com\\/docs\\/index.html","next":"https:\\/\\/a.io\\/b"}'
    assert scrub_secrets(text).text == text
