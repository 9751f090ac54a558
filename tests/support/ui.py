"""A seeded store for the memory browser's tests (HTTP and browser)."""

from __future__ import annotations

from kindling import Kindling, Scope
from kindling.model import ObservationKind

REPO = "/work/shop"
OTHER_REPO = "/work/secret-team"
SESSION = "sess-checkout"
HOSTILE = (
    '<script>alert("xss-script")</script> <img src="/x" onerror="alert(\'xss-img\')">'
    " <a href=\"javascript:alert('xss-link')\">click me</a>"
)
DIFF = "--- a/cart.py\n+++ b/cart.py\n@@ -1,2 +1,2 @@\n-total = sum(p)\n+total = sum(p) * rate\n"


def seed(kd: Kindling, *, beacon: str = "") -> dict[str, str]:
    """Two repositories: a checkout session (prompt, command, error, edit, summary) and a
    hostile observation; ``beacon`` is an address a rendered ``<img>`` would request."""
    scope = Scope(session_id=SESSION, repo_id=REPO, user_id="alice")
    cap = kd.open_capsule(intent="fix the checkout rounding bug", scope=scope)
    ids = {"capsule": cap.id}
    steps: list[tuple[ObservationKind, str, dict[str, object]]] = [
        ("message", "The checkout total is off by a cent; fix the rounding", {"role": "user"}),
        ("command", "$ pytest tests/test_cart.py\nFAILED test_rounding", {"exitCode": 1}),
        ("error", "AssertionError: 10.01 != 10.00 in test_rounding", {}),
        ("file_diff", DIFF, {"path": "cart.py"}),
        ("message", HOSTILE + beacon, {"role": "assistant"}),
    ]
    for n, (kind, content, prov) in enumerate(steps):
        obs = kd.append_observation(
            kind=kind,
            content=content,
            provenance=prov,
            capsule_id=cap.id,
            ts=1_700_000_000_000 + n * 1000,
        )
        ids[f"o{n}"] = obs.id
    summary = kd.close_capsule(
        cap.id, summary="Rounding fixed in cart.py: multiply by the rate", evidence_refs=[ids["o3"]]
    )
    ids["summary"] = summary.summary_id or ""
    other = kd.append_observation(
        kind="message",
        content="the other team's rounding plan",
        scope=Scope(session_id="sess-other", repo_id=OTHER_REPO, user_id="bob"),
        ts=1_700_000_100_000,
    )
    ids["other"] = other.id
    return ids
