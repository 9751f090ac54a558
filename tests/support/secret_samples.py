# ruff: noqa: E501
"""A labelled corpus of secrets and look-alikes, generated from a fixed seed.

Our own generator (no scanner's files are copied): the families are the credential formats
that the public rule sets of gitleaks (config/gitleaks.toml), trufflehog (pkg/detectors) and
detect-secrets (detect_secrets/plugins) know, each value built from the vendor's documented
shape with random characters. Every value is fake. Each family appears:

- ``bare`` (alone on a line) and ``sentence`` (inside prose), for families whose value names
  itself (a prefix or a fixed format): only those can be recognised without a key;
- ``context``: in key/value syntaxes of many languages, in shell commands and in log lines.

``non_secret_samples`` holds text that looks like credentials and is not: git SHAs, UUIDs,
lockfile integrity hashes, base64 fixtures, log lines such as ``password: incorrect``.

``masked(original_secret, output)`` is the test: no stretch of 12 characters of the secret (or
the whole secret, if shorter) survives.
"""

from __future__ import annotations

import base64
import random
import string
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass

SEED = 20261122
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = LOWER + UPPER + DIGITS
HEX = DIGITS + "abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "_-"
CROCKFORD = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


class Rand:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def s(self, n: int, alphabet: str = ALNUM) -> str:
        out = "".join(self.r.choice(alphabet) for _ in range(n))
        # A generated credential has a digit and mixed case, as real ones do.
        if alphabet in (ALNUM, URLSAFE, B64) and n >= 8:
            out = self.r.choice(UPPER) + self.r.choice(DIGITS) + out[2:]
            out = out[:-1] + self.r.choice(LOWER)
        return out

    def choice(self, items: list[str] | tuple[str, ...]) -> str:
        return self.r.choice(items)

    def uuid(self, upper: bool = False) -> str:
        h = self.s(32, HEX)
        u = f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"
        return u.upper() if upper else u

    def b64(self, nbytes: int) -> str:
        return base64.b64encode(self.r.randbytes(nbytes)).decode()

    def jwt(self, signed: bool = True) -> str:
        head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
        if not signed:
            head = base64.urlsafe_b64encode(b'{"alg":"none"}').decode().rstrip("=")
        body = f'{{"sub":"{self.s(10)}","iat":{self.r.randint(10**9, 2 * 10**9)}}}'
        claims = base64.urlsafe_b64encode(body.encode()).decode().rstrip("=")
        return f"{head}.{claims}." + (self.s(43, URLSAFE) if signed else "")


Gen = Callable[[Rand], str]


@dataclass(frozen=True)
class Family:
    name: str
    value: Gen
    keys: tuple[str, ...]  # snake_case key names this value is stored under
    named: bool  # the value names itself (prefix or format): expected masked bare


def _f(name: str, value: Gen, *keys: str, named: bool = True) -> Family:
    return Family(name, value, keys or (f"{name}_token",), named)


FAMILIES: tuple[Family, ...] = (
    _f(
        "aws_access_key_id",
        lambda r: r.choice(["AKIA", "ASIA", "ABIA", "ACCA"]) + r.s(16, UPPER + "234567"),
        "aws_access_key_id",
    ),
    _f("github_pat", lambda r: "ghp_" + r.s(36), "github_token", "gh_token"),
    _f("github_oauth", lambda r: "gho_" + r.s(36), "github_oauth_token"),
    _f("github_app", lambda r: r.choice(["ghu_", "ghs_"]) + r.s(36), "github_app_token"),
    _f("github_refresh", lambda r: "ghr_" + r.s(36), "github_refresh_token"),
    _f(
        "github_fine_grained",
        lambda r: "github_pat_11" + r.s(20, UPPER + DIGITS) + "_" + r.s(59),
        "github_token",
    ),
    _f("gitlab_pat", lambda r: "glpat-" + r.s(20, URLSAFE), "gitlab_token"),
    _f("gitlab_runner", lambda r: "glrt-" + r.s(20, URLSAFE), "runner_token"),
    _f("gitlab_deploy", lambda r: "gldt-" + r.s(20, URLSAFE), "deploy_token"),
    _f("gitlab_feed", lambda r: "glft-" + r.s(20, URLSAFE), "feed_token"),
    _f("gitlab_trigger", lambda r: "glptt-" + r.s(40, HEX), "trigger_token"),
    _f("gitlab_agent", lambda r: "glagent-" + r.s(50, URLSAFE), "agent_token"),
    _f("gitlab_registration", lambda r: "GR1348941" + r.s(20, URLSAFE), "registration_token"),
    _f(
        "slack_bot",
        lambda r: f"xoxb-{r.s(12, DIGITS)}-{r.s(13, DIGITS)}-{r.s(24)}",
        "slack_bot_token",
    ),
    _f(
        "slack_user",
        lambda r: f"xoxp-{r.s(12, DIGITS)}-{r.s(12, DIGITS)}-{r.s(13, DIGITS)}-{r.s(32, HEX)}",
        "slack_token",
    ),
    _f(
        "slack_app",
        lambda r: f"xapp-1-A{r.s(10, UPPER + DIGITS)}-{r.s(13, DIGITS)}-{r.s(64, HEX)}",
        "slack_app_token",
    ),
    _f(
        "slack_webhook",
        lambda r: (
            f"https://hooks.slack.com/services/T{r.s(8, UPPER + DIGITS)}/B{r.s(10, UPPER + DIGITS)}/{r.s(24)}"
        ),
        "slack_webhook_url",
    ),
    _f("openai", lambda r: "sk-" + r.s(20) + "T3BlbkFJ" + r.s(20), "openai_api_key"),
    _f(
        "openai_project",
        lambda r: "sk-proj-" + r.s(74, URLSAFE) + "T3BlbkFJ" + r.s(74, URLSAFE),
        "openai_api_key",
    ),
    _f("anthropic", lambda r: "sk-ant-api03-" + r.s(93, URLSAFE) + "AA", "anthropic_api_key"),
    _f(
        "anthropic_admin",
        lambda r: "sk-ant-admin01-" + r.s(93, URLSAFE) + "AA",
        "anthropic_admin_key",
    ),
    _f(
        "stripe_secret",
        lambda r: r.choice(["sk_live_", "sk_test_", "sk_prod_"]) + r.s(24),
        "stripe_secret_key",
    ),
    _f(
        "stripe_restricted",
        lambda r: r.choice(["rk_live_", "rk_test_"]) + r.s(24),
        "stripe_restricted_key",
    ),
    _f("google_api_key", lambda r: "AIza" + r.s(35, URLSAFE), "google_api_key", "maps_api_key"),
    _f("npm", lambda r: "npm_" + r.s(36), "npm_token"),
    _f("pypi", lambda r: "pypi-AgEIcHlwaS5vcmc" + r.s(70, URLSAFE), "pypi_token", "twine_password"),
    _f("huggingface", lambda r: "hf_" + r.s(34, LOWER + UPPER), "hf_token", "huggingface_token"),
    _f("huggingface_org", lambda r: "api_org_" + r.s(34, LOWER + UPPER), "hf_org_token"),
    _f("jwt", lambda r: r.jwt(), "id_token", "jwt_secret_token"),
    _f("jwt_unsigned", lambda r: r.jwt(signed=False), "id_token"),
    _f("sendgrid", lambda r: "SG." + r.s(22, URLSAFE) + "." + r.s(43, URLSAFE), "sendgrid_api_key"),
    _f("digitalocean_pat", lambda r: "dop_v1_" + r.s(64, HEX), "digitalocean_token", "do_token"),
    _f(
        "digitalocean_oauth",
        lambda r: r.choice(["doo_v1_", "dor_v1_"]) + r.s(64, HEX),
        "do_oauth_token",
    ),
    _f("vault_service", lambda r: "hvs." + r.s(95, URLSAFE), "vault_token"),
    _f("vault_batch", lambda r: "hvb." + r.s(140, URLSAFE), "vault_token"),
    _f(
        "shopify",
        lambda r: r.choice(["shpat_", "shpca_", "shppa_", "shpss_"]) + r.s(32, HEX),
        "shopify_access_token",
    ),
    _f("linear", lambda r: "lin_api_" + r.s(40), "linear_api_key"),
    _f("linear_oauth", lambda r: "lin_oauth_" + r.s(64, HEX), "linear_api_key"),
    _f(
        "google_refresh", lambda r: "1//0" + r.s(1, DIGITS) + r.s(96, URLSAFE), "google_oauth_token"
    ),
    _f("twitch", lambda r: "oauth:" + r.s(30, LOWER + DIGITS), "twitch_token"),
    _f("lob_live", lambda r: "live_" + r.s(35, HEX), "api_key"),
    _f("onepassword_service", lambda r: "ops_eyJ" + r.s(260, B64), "op_service_account_token"),
    _f(
        "onepassword_secret_key",
        lambda r: (
            f"A3-{r.s(6, UPPER + DIGITS)}-{r.s(11, UPPER + DIGITS)}-{r.s(5, UPPER + DIGITS)}-{r.s(5, UPPER + DIGITS)}-{r.s(5, UPPER + DIGITS)}"
        ),
        "op_secret_key",
    ),
    _f("adobe_secret", lambda r: "p8e-" + r.s(32), "adobe_client_secret"),
    _f("age", lambda r: "AGE-SECRET-KEY-1" + r.s(58, CROCKFORD), "age_secret_key"),
    _f("alibaba", lambda r: "LTAI" + r.s(20), "alibaba_access_key_id"),
    _f("artifactory", lambda r: "AKCp" + r.s(69), "artifactory_api_key"),
    _f(
        "atlassian",
        lambda r: "ATATT3" + r.s(186, URLSAFE + "="),
        "atlassian_api_token",
        "jira_api_token",
    ),
    _f("clojars", lambda r: "CLOJARS_" + r.s(60, LOWER + DIGITS), "clojars_token"),
    _f(
        "cloudflare_origin",
        lambda r: f"v1.0-{r.s(24, HEX)}-{r.s(146, HEX)}",
        "origin_ca_key",
        "cf_origin_ca_key",
    ),
    _f("databricks", lambda r: "dapi" + r.s(32, HEX), "databricks_token"),
    _f("doppler", lambda r: "dp.pt." + r.s(43), "doppler_token"),
    _f(
        "duffel",
        lambda r: r.choice(["duffel_test_", "duffel_live_"]) + r.s(43, URLSAFE),
        "duffel_token",
    ),
    _f(
        "dynatrace",
        lambda r: f"dt0c01.{r.s(24, UPPER + DIGITS)}.{r.s(64, UPPER + DIGITS)}",
        "dt_api_token",
    ),
    _f("easypost", lambda r: r.choice(["EZAK", "EZTK"]) + r.s(54), "easypost_api_key"),
    _f("facebook_page", lambda r: "EAAC" + r.s(120), "fb_page_access_token"),
    _f("square", lambda r: r.choice(["sq0atp-", "EAAA"]) + r.s(40, URLSAFE), "square_access_token"),
    _f("flutterwave", lambda r: "FLWSECK_TEST-" + r.s(32, HEX) + "-X", "flw_secret_key"),
    _f("flyio", lambda r: "fo1_" + r.s(43, URLSAFE), "fly_api_token"),
    _f("frameio", lambda r: "fio-u-" + r.s(64, URLSAFE), "frameio_token"),
    _f("harness", lambda r: f"pat.{r.s(22, URLSAFE)}.{r.s(24)}.{r.s(20)}", "harness_api_key"),
    _f(
        "terraform_cloud",
        lambda r: f"{r.s(14, LOWER + DIGITS)}.atlasv1.{r.s(67, URLSAFE)}",
        "tfe_token",
    ),
    _f("heroku_v2", lambda r: "HRKU-AA" + r.s(58, URLSAFE), "heroku_api_key"),
    _f("infracost", lambda r: "ico-" + r.s(32), "infracost_api_key"),
    _f("maxmind", lambda r: f"{r.s(6)}_{r.s(29)}_mmk", "maxmind_license_key"),
    _f("launchdarkly", lambda r: r.choice(["sdk-", "mob-"]) + r.uuid(), "launchdarkly_sdk_key"),
    _f("deepl", lambda r: r.uuid() + ":fx", "deepl_auth_key"),
    _f("circleci", lambda r: f"CCIPAT_{r.s(22)}_{r.s(40, HEX)}", "circleci_token"),
    _f(
        "inngest",
        lambda r: f"signkey-{r.choice(['prod', 'test', 'branch'])}-{r.s(64, HEX)}",
        "inngest_signing_key",
    ),
    _f("notion", lambda r: "ntn_" + r.s(11, DIGITS) + r.s(35), "notion_token"),
    _f(
        "mercadopago",
        lambda r: (
            f"{r.choice(['APP_USR-', 'TEST-'])}{r.s(16, DIGITS)}-{r.s(6, DIGITS)}"
            f"-{r.s(32, HEX)}-{r.s(9, DIGITS)}"
        ),
        "mercadopago_token",
    ),
    _f("woocommerce", lambda r: r.choice(["ck_", "cs_"]) + r.s(40, HEX), "woocommerce_key"),
    _f("newrelic_user", lambda r: "NRAK-" + r.s(27, UPPER + DIGITS), "new_relic_api_key"),
    _f(
        "newrelic_insert",
        lambda r: "NRII-" + r.s(32, URLSAFE.replace("_", "")),
        "new_relic_insert_key",
    ),
    _f("octopus", lambda r: "API-" + r.s(26, UPPER + DIGITS), "octopus_api_key"),
    _f("openshift", lambda r: "sha256~" + r.s(43, URLSAFE), "openshift_token"),
    _f("perplexity", lambda r: "pplx-" + r.s(48), "pplx_api_key"),
    _f(
        "planetscale",
        lambda r: r.choice(["pscale_tkn_", "pscale_pw_", "pscale_oauth_"]) + r.s(43, URLSAFE),
        "planetscale_token",
    ),
    _f("postman", lambda r: f"PMAK-{r.s(24, HEX)}-{r.s(34, HEX)}", "postman_api_key"),
    _f("prefect", lambda r: "pnu_" + r.s(36), "prefect_api_key"),
    _f("pulumi", lambda r: "pul-" + r.s(40, HEX), "pulumi_access_token"),
    _f("readme", lambda r: "rdme_" + r.s(70, LOWER + DIGITS), "readme_api_key"),
    _f("rubygems", lambda r: "rubygems_" + r.s(48, HEX), "gem_host_api_key"),
    _f("scalingo", lambda r: "tk-us-" + r.s(48, URLSAFE), "scalingo_api_token"),
    _f("sendinblue", lambda r: f"xkeysib-{r.s(64, HEX)}-{r.s(16)}", "brevo_api_key"),
    _f("sentry_user", lambda r: "sntryu_" + r.s(64, HEX), "sentry_auth_token"),
    _f("sonarqube", lambda r: r.choice(["sqp_", "squ_", "sqa_"]) + r.s(40, HEX), "sonar_token"),
    _f(
        "twitter_bearer",
        lambda r: "A" * 22 + r.s(30) + "%2B" + r.s(50) + "%3D",
        "twitter_bearer_token",
    ),
    _f(
        "settlemint",
        lambda r: r.choice(["sm_aat_", "sm_pat_", "sm_sat_"]) + r.s(16),
        "settlemint_token",
    ),
    _f(
        "shippo",
        lambda r: r.choice(["shippo_live_", "shippo_test_"]) + r.s(40, HEX),
        "shippo_api_token",
    ),
    _f("twilio_api_key", lambda r: "SK" + r.s(32, HEX), "twilio_api_key"),
    _f("typeform", lambda r: "tfp_" + r.s(59, URLSAFE), "typeform_token"),
    _f("yandex", lambda r: "AQVN" + r.s(36, URLSAFE), "yandex_api_key"),
    _f("sourcegraph", lambda r: "sgp_" + r.s(16, HEX) + "_" + r.s(40, HEX), "src_access_token"),
    _f(
        "mapbox_secret",
        lambda r: "sk.eyJ" + r.s(60, URLSAFE) + "." + r.s(22, URLSAFE),
        "mapbox_secret_token",
    ),
    _f("mailchimp", lambda r: r.s(32, HEX) + "-us" + str(r.r.randint(1, 21)), "mailchimp_api_key"),
    _f("telegram", lambda r: f"{r.s(9, DIGITS)}:AA{r.s(33, URLSAFE)}", "telegram_bot_token"),
    _f(
        "azure_ad_secret",
        lambda r: f"{r.s(3)}{r.s(1, DIGITS)}Q~{r.s(34, ALNUM + '_~.-')}",
        "azure_client_secret",
    ),
    _f(
        "intra42",
        lambda r: r.choice(["s-s4t2ud-", "s-s4t2af-"]) + r.s(64, HEX),
        "intra_client_secret",
    ),
    _f(
        "langsmith",
        lambda r: f"lsv2_{r.choice(['pt', 'sk'])}_{r.s(32, HEX)}_{r.s(10, HEX)}",
        "langsmith_api_key",
    ),
    _f("xai", lambda r: "xai-" + r.s(80), "xai_api_key"),
    _f("groq", lambda r: "gsk_" + r.s(52), "groq_api_key"),
    _f("replicate", lambda r: "r8_" + r.s(37), "replicate_api_token"),
    _f("grafana_cloud", lambda r: "glc_" + r.s(80, B64), "grafana_cloud_token"),
    _f("grafana_sa", lambda r: f"glsa_{r.s(32)}_{r.s(8, HEX)}", "grafana_sa_token"),
    _f("jwt_base64", lambda r: base64.b64encode(r.jwt().encode()).decode(), "encoded_token"),
    _f(
        "facebook_app_token",
        lambda r: f"{r.s(15, DIGITS)}|{r.s(32, LOWER + DIGITS + '_-')}",
        "fb_access_token",
    ),
    _f(
        "private_key",
        lambda r: (
            "-----BEGIN RSA PRIVATE KEY-----\\n"
            + "\\n".join(r.s(64, B64) for _ in range(4))
            + "\\n-----END RSA PRIVATE KEY-----"
        ),
        "private_key",
    ),
    # --- recognisable only by their key (named=False): values without a shape of their own
    _f(
        "password",
        lambda r: (
            r.choice(["Tr0ub4dor&3", "hunter2!", "P@ssw0rd-2024", "s3cr3t#Pa55", "Zx9!kLm#2qR"])
            + r.s(4)
        ),
        "password",
        "db_password",
        "mysql_root_password",
        "admin_pass",
        "smtp_passwd",
        named=False,
    ),
    _f(
        "passphrase",
        lambda r: " ".join(
            r.choice(
                [
                    "correct",
                    "horse",
                    "battery",
                    "staple",
                    "orange",
                    "window",
                    "river",
                    "maple",
                    "quartz",
                    "violet",
                ]
            )
            for _ in range(4)
        ),
        "password",
        "db_password",
        "gpg_passphrase",
        named=False,
    ),
    _f(
        "generic_api_key", lambda r: r.s(32), "api_key", "service_api_key", "x_api_key", named=False
    ),
    _f(
        "generic_token",
        lambda r: r.s(40, URLSAFE),
        "access_token",
        "auth_token",
        "refresh_token",
        "session_token",
        named=False,
    ),
    _f(
        "generic_secret",
        lambda r: r.s(8) + r.s(40, ALNUM + "!@#%^*-_=+"),
        "client_secret",
        "app_secret",
        "jwt_secret",
        "webhook_secret",
        named=False,
    ),
    _f("aws_secret_access_key", lambda r: r.s(40, B64), "aws_secret_access_key", named=False),
    _f("azure_storage_key", lambda r: r.b64(64), "account_key", "azure_storage_key", named=False),
    _f(
        "django_secret_key",
        lambda r: "django-insecure-" + r.s(50, LOWER + DIGITS + "!@#%^&*(-_=+)"),
        "secret_key",
        named=False,
    ),
    _f("heroku_uuid", lambda r: r.uuid(), "heroku_api_key", named=False),
    _f(
        "datadog",
        lambda r: r.s(32, HEX),
        "datadog_api_key",
        "dd_api_key",
        "datadog_app_key",
        named=False,
    ),
    _f("twilio_auth", lambda r: r.s(32, HEX), "twilio_auth_token", named=False),
    _f("mailgun", lambda r: "key-" + r.s(32, HEX), "mailgun_api_key", named=False),
    _f(
        "cloudflare_key",
        lambda r: r.s(40, URLSAFE),
        "cloudflare_api_token",
        "cloudflare_api_key",
        named=False,
    ),
    _f("hubspot", lambda r: r.uuid(upper=True), "hubspot_api_key", named=False),
    _f("bitbucket", lambda r: r.s(32, LOWER + DIGITS), "bitbucket_client_secret", named=False),
    _f("confluent", lambda r: r.s(64, LOWER + DIGITS), "confluent_secret_key", named=False),
    _f("sentry_old", lambda r: r.s(64, HEX), "sentry_auth_token", named=False),
    _f(
        "hex_signing",
        lambda r: r.s(64, HEX),
        "signing_key",
        "encryption_key",
        "master_key",
        named=False,
    ),
    _f(
        "sidekiq",
        lambda r: f"{r.s(8, HEX)}:{r.s(8, HEX)}",
        "bundle_enterprise__contribsys__com",
        "bundle_gems__contribsys__com",
        named=False,
    ),
    _f(
        "vendor_only_key",
        lambda r: r.s(40),
        "datadog",
        "twitter_consumer",
        "zendesk_api",
        "intercom",
        named=False,
    ),
)


def _camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(p.capitalize() for p in rest)


def _pascal(snake: str) -> str:
    return "".join(p.capitalize() for p in snake.split("_"))


def _shell_quote(value: str) -> str:
    if all(c in ALNUM + "_-.:/@+=%^,~" for c in value):
        return value
    return "'" + value + "'"


# Key/value syntaxes: (name, template). {K} UPPER_SNAKE, {k} snake, {c} camel, {P} Pascal,
# {kebab} kebab-case, {V} the value, {Q} the value quoted for a shell.
SYNTAXES: tuple[tuple[str, str], ...] = (
    ("env", "{K}={V}"),
    ("env_export", "export {K}={Q}"),
    ("env_quoted", '{K}="{V}"'),
    ("yaml", "  {k}: {V}"),
    ("yaml_quoted", '{k}: "{V}"'),
    ("json", '{{"{c}": "{V}", "region": "eu-west-1"}}'),
    ("python", '{k} = "{V}"'),
    ("python_kwarg", 'client = Client(host="db", {k}="{V}")'),
    ("python_dict", "settings = {{'{k}': '{V}', 'debug': False}}"),
    ("go_var", 'var {c} string = "{V}"'),
    ("go_short", '{c} := "{V}"'),
    ("typescript", 'const {c}: string = "{V}";'),
    ("backticks", "const {c} = `{V}`;"),
    ("makefile_simple", "{K} ::= {V}"),
    ("makefile_cond", "{K} ?= {V}"),
    ("xml_element", "<{c}>{V}</{c}>"),
    ("set_property", 'System.setProperty("{K}", "{V}");'),
    ("nuget_add", '<add key="{P}" value="{V}" />'),
    ("php_array", "'{k}' => '{V}',"),
    ("ruby_hash", "{k}: '{V}',"),
    ("properties", "app.datasource.{kebab}={V}"),
    ("toml", '{k} = "{V}"'),
    ("kubernetes_env", '- name: {K}\n  value: "{V}"'),
    ("docker_env", "docker run -e {K}={Q} app:latest"),
    ("cli_flag", "deploy --{kebab} {Q} --verbose"),
    ("cli_flag_eq", "deploy --{kebab}={Q}"),
    ("log_line", "2024-05-01T12:00:03Z INFO loaded config {k}={Q} user=alice"),
    ("url_query", "GET https://api.example.com/v1/items?{k}={U}&page=2"),
    ("csharp", 'private const string {P} = "{V}";'),
    ("ini_camel", "{c}={V}"),
    ("json_escaped", '"{{\\n  \\"{k}\\": \\"{V}\\"\\n}}"'),
    ("xml_multiline", "<{c}>\n    {V}\n</{c}>"),
    ("yaml_literal", "{k}: |\n  {V}"),
    ("yaml_folded", "{k}: >\n  {V}"),
    ("csv", "{c},{V},"),
    ("logstash", '  "{c}" => "{V}"'),
    ("php_concat", '${c} .= "{V}";'),
    ("make_append", '{K} += "{V}"'),
    ("make_eval", '{K} :::= "{V}"'),
    ("kotlin", 'val {c}: String = "{V}"'),
)

# Shell commands that carry a credential as an argument.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("curl_u", "curl -u admin:{Q} https://api.example.com/v1/status"),
    ("curl_user", "curl -sS --user deploy:{Q} -X POST https://ci.example.com/job"),
    ("curl_user_eq", "curl --user=ci:{Q} https://example.com"),
    ("wget_password", "wget --user=ci --password={Q} https://example.com/a.tgz"),
    ("mysql_p", "mysql -h db.internal -u root -p{Q} app_production"),
    ("mysqldump_p", "mysqldump -u backup -p{Q} --all-databases > dump.sql"),
    ("sshpass", "sshpass -p {Q} ssh deploy@10.0.0.12 uptime"),
    ("docker_login", "docker login -u ci-bot -p {Q} registry.example.com"),
    ("redis_cli", "redis-cli -h cache.internal -a {Q} ping"),
    ("openssl_pass", "openssl enc -aes-256-cbc -in secrets.tar -out secrets.enc -pass pass:{Q}"),
    ("openssl_passin", "openssl rsa -in key.pem -passin pass:{Q} -out plain.pem"),
    ("htpasswd_b", "htpasswd -b /etc/nginx/.htpasswd admin {Q}"),
    ("htpasswd_nb", "htpasswd -nbB admin {Q}"),
    ("psql_url", "psql postgresql://app:{U}@db.internal:5432/app"),
    ("git_clone", "git clone https://oauth2:{U}@gitlab.example.com/group/repo.git"),
    ("auth_header", 'curl -H "Authorization: Bearer {V}" https://api.example.com'),
)

SENTENCES = (
    "I pasted {V} into the chat by mistake, please rotate it.",
    "The failing request used {V} as its credential.",
    "Found {V} in the old config, is it still valid?",
)


@dataclass(frozen=True)
class Sample:
    family: str
    setting: str  # bare, sentence, or a syntax / command name
    text: str
    secret: str


def _fill(template: str, key: str, value: str) -> str:
    return template.format(
        K=key.upper(),
        k=key,
        c=_camel(key),
        P=_pascal(key),
        kebab=key.replace("_", "-"),
        V=value,
        Q=_shell_quote(value),
        U=urllib.parse.quote(value, safe=""),
    )


def _part(value: str, template: str) -> str:
    """The part of ``value`` that must not survive, as it appears in ``template``."""
    if "/services/" in value:  # a Slack webhook: the ids and the secret after the path
        value = value.split("/services/", 1)[1]
    return urllib.parse.quote(value, safe="") if "{U}" in template else value


def secret_samples(seed: int = SEED) -> list[Sample]:
    r = Rand(seed)
    out: list[Sample] = []
    for fam in FAMILIES:
        for _ in range(2):  # two values of each family
            value = fam.value(r)
            sentence = r.choice(SENTENCES)
            if fam.named:
                out.append(Sample(fam.name, "bare", value, _part(value, "")))
                out.append(Sample(fam.name, "sentence", sentence.format(V=value), _part(value, "")))
            else:  # only its key names it: reported apart (hex, UUIDs, words cannot be told)
                text = sentence.format(V=value)
                out.append(Sample(fam.name, "sentence_unnamed", text, _part(value, "")))
            for name, template in SYNTAXES:
                key = r.choice(fam.keys)
                if fam.name == "private_key" and name not in ("json", "env_quoted", "yaml_quoted"):
                    continue  # a PEM block only travels in a string with escaped newlines
                out.append(
                    Sample(fam.name, name, _fill(template, key, value), _part(value, template))
                )
            if fam.name in ("private_key", "slack_webhook"):
                continue
            for name, template in COMMANDS:
                text = _fill(template, "password", value)
                out.append(Sample(fam.name, name, text, _part(value, template)))
    return out


# --- non-secrets ---------------------------------------------------------------------------

NonSecret = Callable[[Rand], str]

NON_SECRET_TEMPLATES: tuple[tuple[str, NonSecret], ...] = (
    ("git_log", lambda r: f"commit {r.s(40, HEX)}\nAuthor: Dev <dev@example.com>"),
    ("git_checkout", lambda r: f"git checkout {r.s(40, HEX)} -- src/app.py"),
    ("git_short", lambda r: f"[main {r.s(7, HEX)}] fix: handle empty token list"),
    ("git_merge", lambda r: f"Merge: {r.s(7, HEX)} {r.s(7, HEX)}"),
    ("uuid_request", lambda r: f"request_id={r.uuid()} status=200 duration_ms=41"),
    ("uuid_url", lambda r: f"GET /api/v1/sessions/{r.uuid()}/events 404"),
    ("uuid_json", lambda r: f'{{"id": "{r.uuid()}", "kind": "observation"}}'),
    ("npm_integrity", lambda r: f'"integrity": "sha512-{r.b64(64)}",'),
    ("yarn_integrity", lambda r: f"  integrity sha1-{r.b64(20)}"),
    ("pip_hash", lambda r: f"requests==2.32.3 --hash=sha256:{r.s(64, HEX)}"),
    ("go_sum", lambda r: f"golang.org/x/net v0.25.0 h1:{r.b64(32)}"),
    ("sha256sum", lambda r: f"{r.s(64, HEX)}  dist/kindling-0.3.0.tar.gz"),
    ("docker_digest", lambda r: f"FROM python:3.11-slim@sha256:{r.s(64, HEX)}"),
    ("base64_fixture", lambda r: f'FIXTURE = base64.b64decode("{r.b64(48)}")'),
    ("data_uri", lambda r: f'<img src="data:image/png;base64,{r.b64(60)}">'),
    ("etag", lambda r: f'ETag: W/"{r.s(32, HEX)}"'),
    ("password_incorrect", lambda r: f"{r.choice(['auth', 'login', 'ssh'])}: password: incorrect"),
    (
        "password_status",
        lambda r: (
            f"password: {r.choice(['required', 'invalid', 'expired', 'changed', 'mismatch'])}"
        ),
    ),
    (
        "unexpected_token",
        lambda r: (
            f"SyntaxError: Unexpected token: {r.choice(['punc', 'name', 'eof', 'operator'])} ({r.r.randint(1, 99)}:{r.r.randint(1, 80)})"
        ),
    ),
    ("page_token", lambda r: f"GET /v1/items?page_token={r.r.randint(1, 9)}&limit=50"),
    ("next_page_token", lambda r: f'"next_page_token": "{r.r.randint(10, 999)}"'),
    (
        "hf_identifier",
        lambda r: (
            f"static int hf_{r.choice(['Read', 'Write', 'Reset'])}{r.choice(['Register', 'Buffer', 'Device'])}{r.choice(['Value', 'State', 'Status'])}{r.choice(['FromController', 'ForDisplayPanel', 'OnInterruptLine'])}(void);"
        ),
    ),
    (
        "hf_snake",
        lambda r: (
            f"hf_{r.choice(['read', 'write'])}_{r.choice(['register', 'buffer'])}_value_from_device(dev);"
        ),
    ),
    (
        "max_tokens",
        lambda r: f"max_tokens={r.r.randint(256, 8192)}, temperature=0.{r.r.randint(0, 9)}",
    ),
    ("token_count", lambda r: f"prompt used {r.r.randint(100, 9000)} tokens; token budget 8000"),
    (
        "docker_user",
        lambda r: f"docker run -u {r.r.randint(1000, 1999)}:{r.r.randint(1000, 1999)} app",
    ),
    ("git_push_u", lambda r: f"git push -u origin feature/{r.s(6, LOWER)}"),
    ("curl_u_vars", lambda r: "curl -u $API_USER:$API_PASS https://example.com"),
    ("mysql_prompt", lambda r: f"mysql -u root -p {r.choice(['app', 'shop', 'crm'])}"),
    (
        "semver",
        lambda r: f'version = "{r.r.randint(0, 9)}.{r.r.randint(0, 40)}.{r.r.randint(0, 99)}"',
    ),
    ("css_color", lambda r: f"color: #{r.s(6, HEX)}; background: #{r.s(6, HEX)};"),
    ("ssh_pubkey", lambda r: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{r.b64(32)[:43]} dev@laptop"),
    ("public_key_var", lambda r: f"STRIPE_PUBLISHABLE_KEY=pk_live_{r.s(24)}"),
    ("tokenizer", lambda r: "tokenizer = AutoTokenizer.from_pretrained('gpt2')"),
    ("type_hint", lambda r: "def login(user: str, password: str) -> Token:"),
    ("env_reference", lambda r: "API_TOKEN=${API_TOKEN:-}"),
    (
        "k8s_secret_ref",
        lambda r: "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db, key: password}",
    ),
    ("cache_key", lambda r: f"cache-key: {r.choice(['Linux', 'macOS'])}-pip-{r.s(64, HEX)}"),
    ("trace_id", lambda r: f"trace_id={r.s(32, HEX)} span_id={r.s(16, HEX)}"),
    ("aws_arn", lambda r: f"arn:aws:iam::{r.s(12, DIGITS)}:role/deploy"),
    (
        "timestamp_log",
        lambda r: (
            f"2024-05-0{r.r.randint(1, 9)}T12:00:00Z WARN token refresh scheduled in {r.r.randint(1, 60)}s"
        ),
    ),
    ("test_name", lambda r: "test_password_reset_token_expires_after_one_hour PASSED"),
    ("sk_learn", lambda r: "pip install scikit-learn; import sklearn; task-list risk-free"),
    ("auth_missing", lambda r: "401 Unauthorized: Authorization header missing"),
    ("b64_png_var", lambda r: f'ICON = "{r.b64(90)}"'),
    ("hex_key_id", lambda r: f"gpg: key {r.s(16, HEX).upper()} marked as ultimately trusted"),
    ("migration_id", lambda r: f"Applying migration {r.s(12, HEX)}_add_token_index"),
)


def non_secret_samples(seed: int = SEED, per_template: int = 25) -> list[tuple[str, str]]:
    r = Rand(seed + 1)
    return [(name, make(r)) for name, make in NON_SECRET_TEMPLATES for _ in range(per_template)]


def masked(secret: str, output: str) -> bool:
    """True when no stretch of 12 characters of ``secret`` (all of it if shorter) survives."""
    width = min(12, len(secret))
    return not any(secret[i : i + width] in output for i in range(len(secret) - width + 1))
