"""Forget means every copy: which entities hold a text, and the report of a purge.

``Kindling.forget``, ``forget_matching`` and ``finish_forget`` (in ``engine``) use these. A
forgotten observation also clears the summaries derived from it: those whose evidence refs
name it, and the summary of each capsule that holds it when that summary names no evidence
(the hooks' session summaries are written from the transcript) and shares a distinctive word
(six or more letters or digits) with it.

A report is complete only when the old pages have left the database file and the WAL. When a
reader's snapshot keeps them there, the report says which processes have the database open
(Linux: from ``/proc``) and how to finish: close them, then ``kindling forget --finish``.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from kindling.engine.base import everything
from kindling.errors import InvalidInputError, NotFoundError
from kindling.model import Capsule, Observation, Pin, Summary, Visible
from kindling.model.reports import EXPORTS_KEEP as EXPORTS_KEEP  # the report is a value
from kindling.model.reports import ForgetReport as ForgetReport
from kindling.model.sanitize import require_id
from kindling.spool import clear_derived
from kindling.store.base import Store

MIN_MATCH_CHARS = 3  # "--match e" would forget nearly everything
# A distinctive part of a text finds it; SQLite refuses LIKE patterns over 50,000 bytes
MAX_MATCH_CHARS = 10_000


_WORD = re.compile(r"[^\W_]{6,}")


def distinctive_words(text: str) -> set[str]:
    """Words of six or more letters or digits, lowercased: what a quote would share."""
    return set(_WORD.findall(text.lower()))


def check_match_text(text: object) -> str:
    if not isinstance(text, str) or len(text.strip()) < MIN_MATCH_CHARS:
        raise InvalidInputError(
            f"the text to forget must be at least {MIN_MATCH_CHARS} characters"
            " (shorter text would match nearly everything)"
        )
    if len(text) > MAX_MATCH_CHARS:
        raise InvalidInputError(
            f"the text to forget must be at most {MAX_MATCH_CHARS} characters, got {len(text)}"
            " (a distinctive part of it finds every copy)"
        )
    return text


class ForgetVerbs:
    """The forgetting verbs of ``Kindling`` (kept here, beside their report)."""

    store: Store

    def forget(self, entity_id: str, *, dry_run: bool = False) -> ForgetReport:
        """Forget an observation, summary or pin by id, with every derived copy.

        An observation's content becomes ``[redacted]`` and its provenance ``{}`` (id, kind,
        time and scope stay, so capsules keep their shape), and the summaries derived from it
        are redacted too (``engine.forget``); a summary's text and structured fields
        become ``[redacted]``; a pin is deleted. The text leaves the index and, once the
        transaction commits, the database files: the report says whether that is complete.
        Inside ``batch()`` the files are purged when the batch commits.

        A view (``Kindling.view_for``) limits it to the entities its rule accepts: one it
        rejects is as unknown as a missing id, and a derived summary it rejects is neither
        changed nor named. ``dry_run`` changes nothing and reports what would go."""
        return self._forget(entity_id, dry_run, everything)

    def _forget(self, entity_id: str, dry_run: bool, visible: Visible) -> ForgetReport:
        """``forget`` among the entities ``visible`` accepts (a view's rule)."""
        eid = require_id(entity_id, "id")
        store = self.store
        if dry_run:
            return self._plan_one(eid, visible)

        def keep(entity: Observation | Summary | Pin | None) -> bool:
            return entity is not None and visible(entity)

        with store.transaction():
            if keep(store.get_observations([eid]).get(eid)):
                report = self._forget_observations(eid, [eid], keep)
            elif keep(store.get_summary(eid)):
                store.forget_summary(eid)
                report = ForgetReport(id=eid, summaries=(eid,))
            elif keep(store.get_pin(eid)):
                store.delete_pin_purged(eid)
                report = ForgetReport(id=eid, pins=(eid,))
            else:
                raise NotFoundError(f"no observation, summary or pin with id {eid!r}")
        return self._purge_state(report)

    def forget_matching(self, text: str, *, dry_run: bool = False) -> ForgetReport:
        """Forget every observation, summary, pin reason and capsule intent containing
        ``text`` (ASCII case-insensitive substring). ``dry_run`` only counts them, the same
        entities the purge would change (summaries derived from a forgotten observation
        included). A view (``Kindling.view_for``) limits both to the entities its rule
        accepts: the others are neither changed nor counted."""
        return self._forget_matching(text, dry_run, everything)

    def _forget_matching(self, text: str, dry_run: bool, visible: Visible) -> ForgetReport:
        """``forget_matching`` among the entities ``visible`` accepts (a view's rule)."""
        text = check_match_text(text)
        if dry_run:
            return self._plan(text, visible)
        store = self.store
        with store.transaction():  # what is found is what is purged: one transaction
            found = self._plan(text, visible)
            for obs_id in found.observations:
                store.forget_observation(obs_id)
            for summary_id in found.summaries:
                store.forget_summary(summary_id)
            for pin_id in found.pins:
                store.clear_pin_reason(pin_id)
            for capsule_id in found.capsules:
                store.forget_capsule_intent(capsule_id)
        return self._purge_state(replace(found, dry_run=False))

    def finish_forget(self, *, wait_ms: int = 2000) -> ForgetReport:
        """Empty the WAL now that the readers of old snapshots may have gone."""
        if isinstance(wait_ms, bool) or not isinstance(wait_ms, int) or wait_ms < 0:
            raise InvalidInputError("wait_ms must be a non-negative integer")
        self.store.finish_purge(wait_ms=wait_ms)
        return self._purge_state(ForgetReport(id=None))

    def _forget_observations(
        self, eid: str, obs_ids: list[str], keep: Callable[[Summary], bool]
    ) -> ForgetReport:
        summaries = self.store.get_summaries(list(self._derived(obs_ids)))
        derived = tuple(i for i in sorted(summaries) if keep(summaries[i]))
        for obs_id in obs_ids:
            self.store.forget_observation(obs_id)
        for summary_id in derived:
            self.store.forget_summary(summary_id)
        return ForgetReport(id=eid, observations=tuple(obs_ids), summaries=derived)

    def _derived(self, obs_ids: Sequence[str]) -> tuple[str, ...]:
        """The summaries that go with these observations (the module docstring's rule)."""
        derived = set(self.store.summaries_citing(obs_ids))
        contents = self.store.get_observations(obs_ids)
        for obs_id in obs_ids:
            words = distinctive_words(contents[obs_id].content) if obs_id in contents else set()
            for capsule_id in self.store.capsules_of(obs_id):
                summary = self.store.summary_for_capsule(capsule_id)
                # A session summary names no evidence (the hooks write it from the transcript):
                # it goes when it quotes the observation.
                if (
                    summary is not None
                    and not summary.evidence_refs
                    and words & distinctive_words(summary.content)
                ):
                    derived.add(summary.id)
        return tuple(sorted(derived))

    def _plan_one(self, eid: str, visible: Visible) -> ForgetReport:
        """What ``forget(eid)`` changes, changing nothing."""
        store = self.store

        def keep(entity: Observation | Summary | Pin | None) -> bool:
            return entity is not None and visible(entity)

        if keep(store.get_observations([eid]).get(eid)):
            summaries = store.get_summaries(list(self._derived([eid])))
            derived = tuple(i for i in sorted(summaries) if keep(summaries[i]))
            return ForgetReport(id=eid, observations=(eid,), summaries=derived, dry_run=True)
        if keep(store.get_summary(eid)):
            return ForgetReport(id=eid, summaries=(eid,), dry_run=True)
        if keep(store.get_pin(eid)):
            return ForgetReport(id=eid, pins=(eid,), dry_run=True)
        raise NotFoundError(f"no observation, summary or pin with id {eid!r}")

    def _plan(self, text: str, visible: Visible) -> ForgetReport:
        """What ``forget_matching`` changes: the matches ``visible`` accepts, with the
        summaries derived from the matching observations (those it accepts too)."""
        store = self.store
        found = store.find_text(text)

        def keep(entity: Observation | Capsule | Summary | Pin) -> bool:
            return visible(entity)

        observations = store.get_observations(found.observations)
        obs_ids = tuple(
            i for i in found.observations if i in observations and keep(observations[i])
        )
        summary_ids = {*found.summaries, *self._derived(obs_ids)}
        summaries = store.get_summaries(sorted(summary_ids))
        pins = [p for p in map(store.get_pin, found.pins) if p is not None and keep(p)]
        capsules = [c for c in map(store.get_capsule, found.capsules) if c is not None and keep(c)]
        return ForgetReport(
            id=None,
            observations=obs_ids,
            summaries=tuple(i for i in sorted(summaries) if keep(summaries[i])),
            pins=tuple(p.id for p in pins),
            capsules=tuple(c.id for c in capsules),
            dry_run=True,
        )

    def _purge_state(self, report: ForgetReport) -> ForgetReport:
        store = self.store
        path = store.capabilities.local_path
        if path is not None and not report.dry_run:
            clear_derived(path)  # the hooks' copies of texts (the next start-up context)
        report = replace(report, remains=store.capabilities.purge_remains)
        state = store.purge_state()
        if state.purged:
            return report
        return replace(report, complete=False, holders=state.holders)
