"""The shapes of credentials that name themselves: vendor prefixes and fixed formats.

Pure data for ``secrets.scrub``. Each token shape is ``(kind, literal, rest)``: the literal
the token starts with (it doubles as the keyword that lets the rule run at all, lowercased) and
a regular expression for the rest. Written from the public documentation of the vendors and
the rule sets of the gitleaks, trufflehog and detect-secrets scanners (read, not copied).

Shapes that do not start with a literal are ``(kind, keyword, pattern)`` in ``FREE_SHAPES``.
Families a scanner can only recognise by a nearby vendor name (a Heroku key is a UUID, a
Datadog key 40 hex digits) are in ``VENDOR_WORDS``: their values are masked when the vendor
names the key (``HEROKU_API_KEY=...``, ``datadog: ...``), never bare. Imports nothing.
"""

from __future__ import annotations

_B64 = "[A-Za-z0-9+/]"
_URL = "[A-Za-z0-9_-]"
_END = "(?![A-Za-z0-9_-])"
_UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_ONEPASSWORD_A3 = "[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}"
_MERCADO_PAGO = f"[0-9]{{8,20}}-[0-9]{{6}}-[0-9a-f]{{32}}-[0-9]{{4,14}}{_END}"  # app, date, user

TOKEN_SHAPES: tuple[tuple[str, str, str], ...] = (
    ("aws_access_key_id", "AKIA", "[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ("aws_access_key_id", "ASIA", "[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ("aws_access_key_id", "ABIA", "[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ("aws_access_key_id", "ACCA", "[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ("aws_access_key_id", "A3T", "[A-Z0-9]{17}(?![A-Za-z0-9])"),
    ("anthropic_api_key", "sk-ant-", f"{_URL}{{20,}}+"),
    # Requiring a digit keeps kebab-case words after ``sk-`` out; real keys always have one.
    ("openai_api_key", "sk-", f"(?={_URL}*?[0-9]){_URL}{{20,}}+"),
    ("github_token", "gh", "[pousr]_[A-Za-z0-9]{36,}+"),
    ("github_token", "github_pat_", "[A-Za-z0-9_]{22,}+"),
    *(
        ("gitlab_token", prefix, "[A-Za-z0-9_.-]{20,}+")
        for prefix in (
            *("glpat-", "gldt-", "glrt-", "glcbt-", "glffct-", "glft-", "glimt-"),
            *("glagent-", "gloas-", "glptt-", "glsoat-", "GR1348941"),
        )
    ),
    ("gitlab_token", "_gitlab_session=", "[0-9a-z]{32}"),
    ("slack_token", "xox", "[abposre]-[A-Za-z0-9-]{10,}+"),
    ("slack_token", "xapp-", "[A-Za-z0-9-]{10,}+"),
    ("stripe_secret_key", "sk_", "(?:live|test|prod)_[A-Za-z0-9]{10,}+"),
    ("stripe_secret_key", "rk_", "(?:live|test|prod)_[A-Za-z0-9]{10,}+"),
    ("google_api_key", "AIza", f"{_URL}{{35}}{_END}"),
    ("npm_token", "npm_", "[A-Za-z0-9]{36}(?![A-Za-z0-9])"),
    ("pypi_token", "pypi-AgE", f"{_URL}{{50,}}+"),
    ("grafana_token", "eyJrIjoi", "[A-Za-z0-9]{40,}+={0,3}"),
    ("grafana_token", "glc_", f"{_B64}{{32,}}+={{0,3}}"),
    ("grafana_token", "glsa_", "[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    # A JWT; an unsigned one (``alg: none``), which ends with its second dot; and one whose
    # signature was cut off or left out: a header and claims, both JSON (``eyJ`` is ``{"``).
    (
        "jwt",
        "eyJ",
        f"{_URL}{{8,}}+\\.(?:{_URL}{{8,}}+\\.{_URL}{{8,}}+|eyJ{_URL}{{5,}}+\\.?{_END})",
    ),
    ("sendgrid_api_key", "SG.", f"{_URL}{{20,}}+\\.{_URL}{{20,}}+"),
    ("digitalocean_token", "dop_v1_", "[a-f0-9]{64}"),
    ("digitalocean_token", "doo_v1_", "[a-f0-9]{64}"),
    ("digitalocean_token", "dor_v1_", "[a-f0-9]{64}"),
    ("vault_token", "hvs.", f"{_URL}{{24,}}+"),
    ("vault_token", "hvb.", f"{_URL}{{24,}}+"),
    # A legacy Vault service token: ``s.`` and 24 letters and digits, both cases and a digit.
    (
        "vault_token",
        "s.",
        "(?<![A-Za-z0-9_.-]s\\.)(?=[a-z0-9]*[A-Z])(?=[A-Z0-9]*[a-z])(?=[A-Za-z]*[0-9])"
        "[A-Za-z0-9]{24}(?![A-Za-z0-9_.-])",
    ),
    # Amazon Bedrock long-term API key: ``ABSK`` and base64 of ``BedrockAPIKey-...``.
    ("aws_bedrock_api_key", "ABSKQmVkcm9ja0FQSUtleS", f"{_B64}{{40,}}+={{0,2}}"),
    ("shopify_token", "shpat_", "[a-fA-F0-9]{32}"),
    ("shopify_token", "shpca_", "[a-fA-F0-9]{32}"),
    ("shopify_token", "shppa_", "[a-fA-F0-9]{32}"),
    ("shopify_token", "shpss_", "[a-fA-F0-9]{32}"),
    # Shopify's Partners tokens (its CLI's and its API's): a prefix and hex digits.
    ("shopify_token", "atkn_", f"[a-f0-9]{{64}}{_END}"),
    ("shopify_token", "prtapi_", f"[a-f0-9]{{32}}{_END}"),
    ("zuplo_api_key", "zpka_", f"[a-f0-9]{{32}}_[a-f0-9]{{8}}{_END}"),
    ("mailersend_token", "mlsn.", f"[a-f0-9]{{64}}{_END}"),
    # Axiom's API and personal tokens: a prefix and a UUID.
    *(("axiom_token", p, f"{_UUID}{_END}") for p in ("xaat-", "xapt-")),
    # Stytch's project secrets, Midtrans' server keys (``SB-`` before it in the sandbox).
    *(("stytch_secret", p, f"{_URL}{{24,}}+={{0,2}}") for p in ("secret-live-", "secret-test-")),
    *(("midtrans_server_key", p, f"{_URL}{{20,}}+") for p in ("Mid-server-", "SB-Mid-server-")),
    # Laravel's ``APP_KEY``: 32 random bytes, base64, after ``base64:``.
    ("laravel_app_key", "base64:", f"{_B64}{{43}}=(?![A-Za-z0-9+/=])"),
    # Django's startproject key (``get_random_secret_key``: 50 of its alphabet) for development.
    ("django_secret_key", "django-insecure-", "[a-z0-9!@#$%^&*(_=+)-]{50}"),
    ("linear_api_key", "lin_api_", "[A-Za-z0-9]{40}"),
    ("linear_api_key", "lin_oauth_", "[0-9a-f]{64}"),
    # Google's OAuth refresh tokens start ``1//0`` (then a digit or letter and base64url).
    ("google_oauth_token", "1//0", f"{_URL}{{40,}}+"),
    # Twitch's chat tokens are given as ``oauth:<30 lowercase letters and digits>``.
    ("twitch_token", "oauth:", f"[a-z0-9]{{30}}{_END}"),
    # A live or test key of the vendors that name the mode (Lob: ``live_`` and 35 hex digits).
    ("api_key", "live_", f"[0-9a-f]{{30,}}+{_END}"),
    ("api_key", "test_", f"[0-9a-f]{{30,}}+{_END}"),
    ("onepassword_token", "ops_eyJ", f"{_B64}{{100,}}+={{0,3}}"),
    ("onepassword_token", "A3-", _ONEPASSWORD_A3),
    ("mercadopago_token", "APP_USR-", _MERCADO_PAGO),  # (its public key: APP_USR-<UUID>)
    ("mercadopago_token", "TEST-", _MERCADO_PAGO),
    *(("woocommerce_key", p, f"[0-9a-f]{{40}}{_END}") for p in ("ck_", "cs_")),  # REST API's
    ("adobe_client_secret", "p8e-", "[A-Za-z0-9]{32}"),
    ("age_secret_key", "AGE-SECRET-KEY-1", "[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    ("alibaba_access_key_id", "LTAI", "[A-Za-z0-9]{20}(?![A-Za-z0-9])"),
    ("artifactory_token", "AKCp", "[A-Za-z0-9]{60,}+"),
    ("artifactory_token", "cmVmd", "[A-Za-z0-9]{59}(?![A-Za-z0-9])"),
    ("atlassian_token", "ATATT3", "[A-Za-z0-9_=-]{60,}+"),
    ("atlassian_token", "ATCTT3", "[A-Za-z0-9_=-]{60,}+"),  # a Bitbucket access token
    ("clojars_token", "CLOJARS_", "[A-Za-z0-9]{60}"),
    ("cloudflare_origin_ca_key", "v1.0-", "[a-f0-9]{24}-[a-f0-9]{146}"),
    ("databricks_token", "dapi", "[a-f0-9]{32}(?:-[0-9])?(?![A-Za-z0-9])"),
    (
        "doppler_token",
        "dp.",
        "(?:pt|st|sa|ct|scim|audit)\\.(?:[a-z0-9_-]{1,20}\\.)?[A-Za-z0-9]{40,}+",
    ),
    ("duffel_token", "duffel_", "(?:test|live)_[A-Za-z0-9_=-]{43}"),
    ("dynatrace_token", "dt0c01.", "[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}"),
    ("easypost_token", "EZAK", "[A-Za-z0-9]{54}"),
    ("easypost_token", "EZTK", "[A-Za-z0-9]{54}"),
    ("facebook_token", "EAA", "[MC][A-Za-z0-9]{100,}+"),
    ("square_token", "EAAA", f"{_URL}{{22,60}}+"),
    ("square_token", "sq0atp-", f"{_URL}{{22,}}+"),
    ("square_token", "sq0csp-", f"{_URL}{{40,}}+"),
    ("flutterwave_secret_key", "FLWSECK", "(?:_TEST)?-[A-Za-z0-9]{12,}+(?:-X)?"),
    ("flyio_token", "fo1_", f"{_URL}{{43}}"),
    ("flyio_token", "fm1", f"[ar]_{_B64}{{100,}}+={{0,3}}"),
    ("flyio_token", "fm2_", f"{_B64}{{100,}}+={{0,3}}"),
    ("frameio_token", "fio-u-", "[A-Za-z0-9_=-]{64}"),
    ("harness_token", "pat.", f"{_URL}{{22}}\\.[A-Za-z0-9]{{24}}\\.[A-Za-z0-9]{{20}}"),
    ("harness_token", "sat.", f"{_URL}{{22}}\\.[A-Za-z0-9]{{24}}\\.[A-Za-z0-9]{{20}}"),
    ("heroku_api_key", "HRKU-AA", f"{_URL}{{58}}"),
    # LaunchDarkly's server-side SDK key and mobile key: a UUID after ``sdk-`` or ``mob-``.
    ("launchdarkly_key", "sdk-", f"{_UUID}{_END}"),
    ("launchdarkly_key", "mob-", f"{_UUID}{_END}"),
    ("infracost_token", "ico-", "[A-Za-z0-9]{32}"),
    ("intra42_secret", "s-s4t2", "(?:ud|af)-[a-f0-9]{64}"),
    ("notion_token", "ntn_", "[0-9]{11}[A-Za-z0-9]{35}"),
    ("notion_token", "secret_", "(?=[A-Za-z]*[0-9])[A-Za-z0-9]{43}(?![A-Za-z0-9])"),
    ("newrelic_key", "NRAK-", "[A-Z0-9]{27}"),
    ("newrelic_key", "NRII-", "[A-Za-z0-9-]{32}"),
    ("newrelic_key", "NRJS-", "[a-f0-9]{19}"),
    ("octopus_api_key", "API-", "[A-Z0-9]{26}(?![A-Za-z0-9])"),
    ("openshift_token", "sha256~", f"{_URL}{{43}}"),
    ("perplexity_api_key", "pplx-", "[A-Za-z0-9]{48}"),
    ("planetscale_token", "pscale_", "(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}+"),
    ("postman_api_key", "PMAK-", "[a-f0-9]{24}-[a-f0-9]{34}"),
    ("prefect_token", "pnu_", "[A-Za-z0-9]{36}"),
    ("pulumi_token", "pul-", "[a-f0-9]{40}"),
    ("readme_token", "rdme_", "[a-z0-9]{70}"),
    ("rubygems_token", "rubygems_", "[a-f0-9]{48}"),
    ("scalingo_token", "tk-us-", f"{_URL}{{48}}"),
    ("sendinblue_api_key", "xkeysib-", "[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    ("sentry_token", "sntrys_", "eyJ[A-Za-z0-9+/=_]{50,}+"),
    ("sentry_token", "sntryu_", "[a-f0-9]{64}"),
    ("settlemint_token", "sm_", "(?:aat|pat|sat)_[A-Za-z0-9]{16}"),
    ("shippo_token", "shippo_", "(?:live|test)_[a-fA-F0-9]{40}"),
    # SonarQube: project, user and global analysis tokens (``sqp_``, ``squ_``, ``sqa_``).
    *(("sonarqube_token", p, "[a-f0-9]{40}(?![A-Za-z0-9])") for p in ("sqp_", "squ_", "sqa_")),
    # A Twitter (X) app-only bearer token: 22 ``A`` then the percent-encoded rest (gitleaks).
    ("twitter_bearer_token", "A" * 22, "[A-Za-z0-9%]{60,120}+(?![A-Za-z0-9%+/=])"),
    ("twilio_api_key", "SK", "[0-9a-fA-F]{32}(?![A-Za-z0-9])"),
    ("typeform_token", "tfp_", "[A-Za-z0-9_.=-]{59}"),
    ("yandex_api_key", "AQVN", f"{_URL}{{35,38}}+"),
    # Yandex Cloud's IAM token (``t1.``, two parts) and OAuth tokens (issue 32, 24th pass).
    ("yandex_token", "t1.", f"{_URL}++={{0,2}}\\.{_URL}{{86}}={{0,2}}(?![A-Za-z0-9_=-])"),
    *(("yandex_token", f"y{n}_", f"{_URL}{{55}}{_END}") for n in "0123"),
    ("sourcegraph_token", "sgp_", "(?:[a-fA-F0-9]{16}_)?(?:local_)?[a-fA-F0-9]{40}(?![A-Za-z0-9])"),
    ("mapbox_token", "sk.eyJ", f"{_URL}{{20,}}+\\.{_URL}{{20,}}+"),
    ("xai_api_key", "xai-", "[A-Za-z0-9]{70,}+"),
    # A JWT, base64-encoded once more (its header starts {"alg", {"typ", {"sub", {"iss", {"kid").
    (
        "jwt",
        "ZXlK",
        "(?:aGJHY2lPaU|MGVYQWlPaU|emRXSWlPaU|cGMzTWlPaU|cmFXUWlP)[A-Za-z0-9+/_-]{30,}+={0,2}",
    ),
    ("groq_api_key", "gsk_", "[A-Za-z0-9]{48,}+"),
    ("replicate_token", "r8_", "[A-Za-z0-9]{37}(?![A-Za-z0-9])"),
    ("langsmith_api_key", "lsv2_", "(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
    ("mailgun_api_key", "key-", "[a-f0-9]{32}(?![A-Za-z0-9])"),
    ("google_oauth_token", "ya29.", f"{_URL}{{20,}}+"),
    ("contentful_token", "CFPAT-", f"{_URL}{{43,}}+"),
    ("posthog_api_key", "phx_", f"{_URL}{{40,}}+"),
    # AWS temporary credentials' session token: base64 of a protobuf that names itself
    # (``\x15\n\x06aws``, ``!\n\torigin_ec``), hundreds of characters long.
    *(
        ("aws_session_token", prefix, f"{_B64}{{80,}}+={{0,2}}")
        for prefix in ("FQoGZXIvYXdz", "FwoGZXIvYXdz", "IQoJb3JpZ2luX2Vj", "IQoJb3JpZ2luX2V")
    ),
    (
        "amazon_mws_token",
        "amzn.mws.",
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    ),
    ("braintree_token", "access_token$", "(?:production|sandbox)\\$[0-9a-z]{16}\\$[0-9a-z]{32}"),
    ("onfido_token", "api_live", f"(?:_[a-z]{{2}})?\\.{_URL}{{11}}\\.{_URL}{{32}}{_END}"),
    ("onfido_token", "api_sandbox", f"(?:_[a-z]{{2}})?\\.{_URL}{{11}}\\.{_URL}{{32}}{_END}"),
    ("tailscale_key", "tskey-", "(?:api|auth|client|scim|webhook|secret)-[A-Za-z0-9-]{8,}+"),
    # Headscale's (a Tailscale control server's) API and pre-auth keys: a prefix, then the secret.
    ("tailscale_key", "hskey-", "(?:api|auth)-[A-Za-z0-9]{6,}+-[A-Za-z0-9]{16,}+"),
    ("buildkite_token", "bkua_", "[a-f0-9]{40}(?![A-Za-z0-9])"),
    # CircleCI's personal and project API tokens; Inngest's signing key (per environment).
    ("circleci_token", "CCIPAT_", "[A-Za-z0-9]{22}_[a-f0-9]{40}(?![A-Za-z0-9])"),
    ("circleci_token", "CCIPRJ_", "[A-Za-z0-9]{22}_[a-f0-9]{40}(?![A-Za-z0-9])"),
    # Issue 32, 23rd pass, from google/osv-scalibr's veles detectors (Apache-2.0): Elastic
    # Cloud's API key, Packagist's API key and secret and organisation and user tokens,
    # Supabase's personal access token and project secret key, a Google API key of Vertex
    # AI's express mode.
    (
        "elastic_api_key",
        "essu_",
        f"(?:{_B64}{{92}}|{_B64}{{91}}=|{_B64}{{90}}==)(?![A-Za-z0-9+/=])",
    ),
    (
        "packagist_token",
        "packagist_",
        "(?:ack_[0-9a-f]{28,32}|acs_[0-9a-f]{64,96}|(?:ort|out|uut)_[0-9a-f]{68})(?![0-9a-f])",
    ),
    ("supabase_token", "sbp_", "[a-f0-9]{40}(?![A-Za-z0-9])"),
    ("supabase_token", "sb_secret_", f"{_URL}{{31,36}}{_END}"),
    ("google_api_key", "AQ.Ab8R", f"{_URL}{{46}}{_END}"),
    ("inngest_signing_key", "signkey-", "(?:prod|test|branch)-[a-f0-9]{64}(?![A-Za-z0-9])"),
    ("sourcegraph_token", "slk_", "[a-f0-9]{64}(?![A-Za-z0-9])"),
    ("flexport_token", "shltm_", "[A-Za-z0-9_-]{40}(?![A-Za-z0-9_-])"),
    ("mongodb_atlas_key", "mdb_sa_sk_", f"{_URL}{{40}}{_END}"),
    ("voiceflow_token", "VF.", "(?:DM|WS)\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{16}(?![A-Za-z0-9])"),
    ("pagarme_key", "ak_", "(?:live|test)_[A-Za-z0-9]{30}(?![A-Za-z0-9])"),
    ("elevenlabs_api_key", "sk_", "[a-f0-9]{48}(?![A-Za-z0-9])"),
    ("zoho_token", "1000.", "[a-f0-9]{32}\\.[a-f0-9]{32}(?![A-Za-z0-9])"),
    ("pubnub_key", "pub-c-", "[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}"),
    ("nightfall_key", "NF-", "(?=[A-Za-z]*[0-9])[A-Za-z0-9]{32}(?![A-Za-z0-9])"),
    # Issue 32, prefixes named inside kingfisher's rules (``secrets/data/kingfisher_rules.json``
    # wakes them only beside the vendor's name): a Figma personal access token, Teamwork's
    # API tokens, Scrapfly's live and test keys.
    ("figma_token", "figd_", f"{_URL}{{40}}{_END}"),
    ("teamwork_token", "tkn.v1_", "[A-Za-z0-9]{71}="),
    ("scrapfly_key", "scp-", f"(?:live|test)-[a-z0-9]{{32}}{_END}"),
    # Alibaba Cloud's STS security token: base64 that starts ``CAIS`` (issue 32, 24th pass).
    ("alibaba_sts_token", "CAIS", f"(?<![+/=]CAIS)[A-Za-z0-9+/]{{40,}}+={{0,2}}{_END}"),
    # An Airtable personal access token: ``pat``, 14 characters, a dot, 64 hex digits.
    ("airtable_token", "pat", "[A-Za-z0-9]{14}\\.[a-f0-9]{64}(?![A-Za-z0-9])"),
)

# (kind, keyword, pattern): shapes whose distinctive part is not at the start.
FREE_SHAPES: tuple[tuple[str, str, str], ...] = (
    # Firebase Cloud Messaging: a server key (``AAAA<7>:APA91b...``) or a device's registration
    # token (``<11>:APA91b...``, in a push subscription's endpoint URL).
    ("fcm_key", ":apa91b", f"(?<![A-Za-z0-9_-]){_URL}{{7,11}}:APA91b{_URL}{{100,}}+"),
    # Ubidots: ``BB`` and two capitals, a dash, then hex (an API key) or a token's draw.
    ("ubidots_token", "bb", "(?<![A-Za-z0-9_-])BB[A-Z]{2}-(?:[a-f0-9]{35}|[A-Za-z0-9]{30,}+)\\b"),
    (
        "terraform_token",
        ".atlasv1.",
        "(?<![A-Za-z0-9])[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}+",
    ),
    ("maxmind_license_key", "_mmk", "(?<![A-Za-z0-9])[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\\b"),
    # DeepL's key for its free API: a UUID and ``:fx``.
    ("deepl_api_key", ":fx", f"(?<![A-Za-z0-9_-]){_UUID}:fx(?![A-Za-z0-9_-])"),
    ("mailchimp_api_key", "-us", "(?<![A-Za-z0-9])[a-f0-9]{32}-us[0-9]{1,2}(?![A-Za-z0-9])"),
    (
        "facebook_token",
        "|",
        "(?<![0-9])[0-9]{15,16}(?:\\||%7C)[0-9A-Za-z_-]{27,40}+(?![A-Za-z0-9_-])",
    ),
    (
        "sidekiq_secret",
        "contribsys",
        # Runs only in text that names contribsys: its credential is user:password in hex.
        "(?<![A-Za-z0-9])[a-f0-9]{8}:[a-f0-9]{8}(?![A-Za-z0-9])",
    ),
    (
        "password_hash",
        "$2",
        "(?<![A-Za-z0-9$])\\$2[abxy]?\\$[0-9]{2}\\$[./A-Za-z0-9]{53}(?![./A-Za-z0-9])",
    ),
    *(
        (
            "password_hash",
            f"${n}$",
            # (base64's ``+`` and padding too: Mosquitto's password file writes salt and hash
            # so, and a mask must take the hash whole: 29th pass)
            f"(?<![A-Za-z0-9$])\\${n}\\$(?:rounds=[0-9]+\\$)?[./A-Za-z0-9+]{{1,24}}={{0,2}}\\$"
            "[./A-Za-z0-9+]{22,88}={0,2}(?![./A-Za-z0-9+=])",
        )
        for n in ("1", "5", "6", "8", "apr1")
    ),
    # A Discord bot token: base64 of the bot's numeric id (every 4 characters of it start with
    # M, N or O, as base64 of ASCII digits does), a timestamp and an HMAC. Found inside a
    # longer run too (``AT<token>`` in a log line), as the other scanners find it.
    (
        "discord_bot_token",
        ".",
        # (The first letter first: the scan skips to an M, N or O.)
        "[MNO][A-Za-z0-9_-]{3}(?:[MNO][A-Za-z0-9_-]{3}){4,5}"
        "[A-Za-z0-9_-]{0,3}"
        "\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,}+",
    ),
    ("password_hash", "{sha}", "\\{SHA\\}[A-Za-z0-9+/]{27}="),
    # Mailgun's private API key since 2021: 32 hex, then two groups of 8 (its docs).
    (
        "mailgun_api_key",
        "-",
        "(?<![A-Za-z0-9-])[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}(?![A-Za-z0-9-])",
    ),
    # MySQL's native password hash (``mysql.user``, ``IDENTIFIED BY PASSWORD '*...'``): ``*``
    # and the SHA-1 of the SHA-1 of the password, 40 capitals of hex.
    ("password_hash", "*", "(?<![A-Za-z0-9*])\\*[0-9A-F]{40}(?![A-Za-z0-9])"),
    # An Asana personal access token: ``0/<32 hex>``, ``1/<user id>:<32 hex>``, or
    # ``2/<user id>/<app id>:<32 hex>`` (Asana's developer documentation).
    (
        "asana_token",
        "/",
        # (The digit first, then the look-behind: the scan skips to a 0, 1 or 2.)
        "[012](?<![A-Za-z0-9_/.:-][012])/(?:(?<=0/)[a-f0-9]{32}"
        "|(?<=[12]/)[0-9]{6,20}+(?:/[0-9]{6,20}+)?:[a-f0-9]{32})(?![A-Za-z0-9_/])",
    ),
    # Modern password hashes: yescrypt (today's /etc/shadow default), and the PHC strings of
    # argon2, scrypt and PBKDF2 (passlib's ``$pbkdf2-sha256$``, Django's ``pbkdf2_sha256$``).
    (
        "password_hash",
        "$y$",
        "(?<![A-Za-z0-9$])\\$y\\$[./A-Za-z0-9]{1,8}\\$[./A-Za-z0-9]{1,86}\\$[./A-Za-z0-9]{43}"
        "(?![./A-Za-z0-9])",
    ),
    # The other formats of crypt(5) (libxcrypt): gost-yescrypt, scrypt, SunMD5 and sha1crypt.
    (
        "password_hash",
        "$gy$",
        "\\$gy\\$[./A-Za-z0-9]{1,8}\\$[./A-Za-z0-9]{1,86}\\$[./A-Za-z0-9]{43}(?![./A-Za-z0-9])",
    ),
    (
        "password_hash",
        "$7$",
        "(?<![A-Za-z0-9$])\\$7\\$[./A-Za-z0-9]{11,97}\\$[./A-Za-z0-9]{43}(?![./A-Za-z0-9])",
    ),
    (
        "password_hash",
        "$md5",
        "\\$md5(?:,rounds=[0-9]{1,10})?\\$[./A-Za-z0-9]{1,8}\\$\\$?[./A-Za-z0-9]{22}"
        "(?![./A-Za-z0-9])",
    ),
    (
        "password_hash",
        "$sha1$",
        "\\$sha1\\$[0-9]{1,10}\\$[./A-Za-z0-9]{1,64}\\$[./A-Za-z0-9]{28}(?![./A-Za-z0-9])",
    ),
    (
        "password_hash",
        "$argon2",
        "\\$argon2(?:id|i|d)\\$v=[0-9]{1,3}\\$m=[0-9]{1,9},t=[0-9]{1,6},p=[0-9]{1,4}"
        "\\$[A-Za-z0-9+/]{8,88}\\$[A-Za-z0-9+/]{16,128}",
    ),
    (
        "password_hash",
        "$scrypt$",
        "\\$scrypt\\$ln=[0-9]{1,2},r=[0-9]{1,3},p=[0-9]{1,3}\\$[A-Za-z0-9+/.]{4,88}"
        "\\$[A-Za-z0-9+/.]{16,128}",
    ),
    (
        "password_hash",
        "pbkdf2",
        "(?<![A-Za-z0-9])\\$?pbkdf2(?:[-_]sha(?:1|256|512))?\\$[0-9]{3,7}\\$[./A-Za-z0-9+]{4,88}"
        "\\$[./A-Za-z0-9+]{16,128}={0,2}",
    ),
    # Kerberos AS-REP and TGS hashes (roastable: cracked offline to the account's password).
    (
        "password_hash",
        "$krb5",
        "\\$krb5(?:asrep|tgs|pa)\\$[0-9]{1,2}\\$[^\\s$]{0,300}+\\$?[^\\s]{40,}+",
    ),
    ("telegram_bot_token", ":aa", f"(?<![0-9])[0-9]{{8,10}}:AA{_URL}{{33}}{_END}"),
    (
        "azure_client_secret",
        "q~",
        "(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}+",
    ),
)

# Vendors whose keys have no shape of their own: a key naming one of them marks its value.
VENDOR_WORDS: tuple[str, ...] = (
    *("adafruit", "adobe", "airtable", "algolia", "alibaba", "asana", "atlassian", "beamer"),
    *("bitbucket", "bittrex", "cloudflare", "codecov", "cohere", "coinbase", "confluent"),
    *("contentful", "datadog", "discord", "droneci", "dropbox", "etsy", "facebook", "fastly"),
    *("finicity", "finnhub", "flickr", "freshbooks", "gitter", "gocardless", "heroku"),
    *("hubspot", "intercom", "jfrog", "jira", "kraken", "kucoin", "launchdarkly", "linkedin"),
    *("mailchimp", "mailgun", "mapbox", "mattermost", "meraki", "messagebird", "netlify"),
    *("newrelic", "nytimes", "okta", "plaid", "rapidapi", "sendbird", "sentry", "snyk"),
    *("sonar", "squarespace", "sumologic", "telegram", "travis", "twitch", "twitter"),
    *("typeform", "yandex", "zendesk", "pagerduty", "circleci", "vercel", "supabase"),
    *("bintray", "artifactory", "xray", "dnkey", "privateai", "private_ai", "private-ai"),
    *("new_relic", "new-relic", "linked_in", "linked-in", "message_bird", "message-bird"),
    *("sumo", "telegr", "confluence", "contribsys"),
)
