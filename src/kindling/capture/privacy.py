"""Secret scrubbing on the write path, so that no entry point can skip it.

``ScrubbingStore`` wraps a ``Store`` and scrubs every value it is asked to write (observation
content and provenance strings, capsule intents, summary content and structured fields, pin
reasons) with ``capture.scrub.scrub_secrets`` before the wrapped store sees it. ``Kindling``
wraps its store in one unless opened with ``scrub_secrets=False``, so engine verbs, bundle
imports and anything else that writes through ``Kindling.store`` (CLI, bridge, hooks, MCP) are
covered. Engine verbs also scrub before building the value they return (and before capping
content, so that a cut cannot leave half a secret); the scrubber is idempotent, so the second
pass here changes nothing for them.

An observation records the kinds masked in its provenance (``"redactedKinds": [...]``), never
the values. Dictionary keys are kept as they are; only string values are scrubbed.

Must not import anything from Kindling except ``model``, ``errors``, ``store.base`` and
``capture``.
"""

from __future__ import annotations

import _thread
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kindling.capture.sanitize import check_depth
from kindling.capture.scrub import scrub_secrets
from kindling.capture.session_secrets import SessionSecrets
from kindling.model import Capsule, Observation, Pin, Summary

if TYPE_CHECKING:
    from kindling.model import SummaryDetails
    from kindling.store.base import Store

REDACTED_KINDS_KEY = "redactedKinds"


class _Recent:
    """Texts the scrubber returned lately. Scrubbing is idempotent, so one of them passes
    unchanged: engine verbs scrub first and the store wrapper does not pay for a second scan.
    Bounded in entries and characters; lookups of the same string object are O(1)."""

    def __init__(self, max_entries: int = 256, max_chars: int = 4 << 20) -> None:
        self._texts: dict[str, int] = {}
        self._chars = 0
        self._max_entries = max_entries
        self._max_chars = max_chars
        self._lock = _thread.allocate_lock()  # threading.Lock itself, minus threading's import

    def __contains__(self, text: str) -> bool:
        with self._lock:
            return text in self._texts

    def add(self, text: str) -> None:
        if len(text) > self._max_chars // 4:
            return
        with self._lock:
            if text in self._texts:
                return
            self._texts[text] = len(text)
            self._chars += len(text)
            while len(self._texts) > self._max_entries or self._chars > self._max_chars:
                oldest = next(iter(self._texts))
                self._chars -= self._texts.pop(oldest)


_RECENT = _Recent()


class Scrub:
    """Collects the kinds masked while scrubbing the values of one entity."""

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.found: dict[str, str] = {}  # value -> kind, for ``capture.session_secrets``

    def text(self, value: str) -> str:
        if value in _RECENT:
            return value
        found = self.once(value)
        _RECENT.add(found)
        return found

    def once(self, value: str) -> str:
        """``value`` scrubbed, for a text no other layer scrubs again: not remembered."""
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
            return {k: self.json(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.json(v) for v in value]
        return value


def scrub_content(
    content: str, provenance: dict[str, Any], found: dict[str, str] | None = None
) -> tuple[str, dict[str, Any]]:
    """Observation content and provenance, scrubbed; the kinds masked join ``redactedKinds``
    and the values masked (value -> kind) are added to ``found`` when it is given."""
    scrub = Scrub()
    # An observation's content is written once (the engine writes the scrubbed rows under the
    # guard), and remembering it would only push the short provenance strings, which come
    # back in every event, out of the recent texts.
    text = scrub.once(content)
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


class ScrubbingStore:
    """A ``Store`` whose writes are scrubbed of secrets; every other call goes straight through."""

    scrubs_secrets = True

    def __init__(self, inner: Store) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        if name == "inner":  # not set yet (copy, unpickle): no endless recursion
            raise AttributeError(name)
        return getattr(self.inner, name)

    def insert_observation(self, obs: Observation, capsule_id: str | None) -> None:
        self.inner.insert_observation(scrub_observation(obs), capsule_id)

    def insert_observations(self, items: Sequence[tuple[Observation, str | None]]) -> None:
        self.inner.insert_observations([(scrub_observation(o), c) for o, c in items])

    def insert_capsule(self, capsule: Capsule) -> None:
        self.inner.insert_capsule(replace(capsule, intent=scrub_text(capsule.intent)))

    def upsert_summary(self, summary: Summary) -> Summary:
        return self.inner.upsert_summary(replace(summary, content=scrub_text(summary.content)))

    def insert_summary_details(self, details: SummaryDetails) -> None:
        self.inner.insert_summary_details(scrub_details(details))

    def insert_pin(self, pin: Pin) -> None:
        reason = None if pin.reason is None else scrub_text(pin.reason)
        self.inner.insert_pin(replace(pin, reason=reason))


def guard_store(store: Store, scrub_secrets: bool) -> Store:
    """``store`` wrapped in a ``ScrubbingStore`` unless scrubbing is turned off (a bool, checked
    by ``engine.base.scrub_switch``)."""
    if scrub_secrets and not isinstance(store, ScrubbingStore):
        return ScrubbingStore(store)
    return store


def unguarded(store: Store) -> Store:
    """The store under a ``ScrubbingStore`` (``store`` itself otherwise), for rows their
    writer has scrubbed already: each text is scrubbed exactly once."""
    return store.inner if isinstance(store, ScrubbingStore) else store
