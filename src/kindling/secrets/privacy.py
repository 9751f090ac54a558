"""Secret scrubbing of the values an entity is written with: observation content and
provenance strings, capsule intents, summary content and structured fields, pin reasons.

The engine's verbs are the one door of every write (CLI, bridge, hooks, MCP, HTTP, import all
call them), and each scrubs its values once with these, before building the value it returns
and before capping content, so that a cut cannot leave half a secret. The remote client
scrubs with them too, before a request leaves the machine.

An observation records the kinds masked in its provenance (``"redactedKinds": [...]``), never
the values. Dictionary keys are kept as they are; only string values are scrubbed.

Must not import anything from Kindling except ``model``, ``errors`` and ``secrets``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kindling.model import Capsule, Observation, Pin, Summary
from kindling.model.sanitize import check_depth
from kindling.secrets.scrub import scrub_secrets
from kindling.secrets.session_secrets import SessionSecrets

if TYPE_CHECKING:
    from kindling.model import SummaryDetails

REDACTED_KINDS_KEY = "redactedKinds"


class Scrub:
    """Collects the kinds masked while scrubbing the values of one entity."""

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.found: dict[str, str] = {}  # value -> kind, for ``secrets.session_secrets``

    def text(self, value: str) -> str:
        """``value`` scrubbed (the kinds and values masked are collected)."""
        found = scrub_secrets(value)
        self.kinds.update(found.kinds)
        self.found.update(found.found)
        return found.text

    def maybe(self, value: str | None) -> str | None:
        return None if value is None else self.text(value)

    def texts(self, values: Iterable[str]) -> tuple[str, ...]:
        return tuple(self.text(v) for v in values)

    def json(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            text = self.text  # strings directly: most provenance values are
            return {k: text(v) if type(v) is str else self.json(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.json(v) for v in value]
        return value


def scrub_content(
    content: str, provenance: dict[str, Any], found: dict[str, str] | None = None
) -> tuple[str, dict[str, Any]]:
    """Observation content and provenance, scrubbed; the kinds masked join ``redactedKinds``
    and the values masked (value -> kind) are added to ``found`` when it is given."""
    scrub = Scrub()
    text = scrub.text(content)
    check_depth(provenance, "provenance")  # Scrub.json recurses
    prov = scrub.json(provenance)
    if found is not None:
        found.update(scrub.found)
    if scrub.kinds:
        earlier = prov.get(REDACTED_KINDS_KEY)
        known = {k for k in earlier if isinstance(k, str)} if isinstance(earlier, list) else set()
        prov[REDACTED_KINDS_KEY] = sorted(known | scrub.kinds)
    return text, prov


def mask_remembered(
    memory: SessionSecrets, session: str | None, content: str, provenance: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """Content and provenance with the values ``memory`` holds for ``session`` masked."""
    if not memory.knows(session):
        return content, provenance
    masked, kinds = memory.mask_tree(session, {"c": content, "p": provenance})
    content, provenance = masked["c"], masked["p"]  # type: ignore[index]
    if kinds:
        earlier = provenance.get(REDACTED_KINDS_KEY)
        known = {k for k in earlier if isinstance(k, str)} if isinstance(earlier, list) else set()
        provenance[REDACTED_KINDS_KEY] = sorted(known | kinds)
    return content, provenance


def scrub_observation(obs: Observation) -> Observation:
    content, provenance = scrub_content(obs.content, obs.provenance)
    if content == obs.content and provenance == obs.provenance:
        return obs
    return replace(obs, content=content, provenance=provenance)


def scrub_text(text: str) -> str:
    return Scrub().text(text)


def scrub_capsule(capsule: Capsule) -> Capsule:
    return replace(capsule, intent=scrub_text(capsule.intent))


def scrub_summary(summary: Summary) -> Summary:
    return replace(summary, content=scrub_text(summary.content))


def scrub_pin(pin: Pin) -> Pin:
    return pin if pin.reason is None else replace(pin, reason=scrub_text(pin.reason))


def scrub_details(details: SummaryDetails) -> SummaryDetails:
    s = Scrub()
    return replace(
        details,
        topic=s.text(details.topic),
        context=s.maybe(details.context),
        decisions=s.texts(details.decisions),
        rationale=s.texts(details.rationale),
        open_questions=s.texts(details.open_questions),
        next_steps=s.texts(details.next_steps),
        references=s.texts(details.references),
    )
