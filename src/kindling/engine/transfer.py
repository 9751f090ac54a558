"""Export and import of bundles (``model.bundle``): ``Kindling.export_bundle`` and
``Kindling.import_bundle``.

Import parses the whole bundle into typed values before writing anything, then adds what is
missing in one transaction: importing a bundle twice adds nothing, and a failed import writes
nothing. Every text is scrubbed once, here, as the capture verbs scrub theirs.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import replace

from kindling.engine.base import everything
from kindling.engine.reads import ReadVerbs
from kindling.errors import ConflictError, InvalidInputError
from kindling.model import JsonObject, Scope, Visible
from kindling.model.bundle import ENTITY_TYPES, MISSING_CAPSULE, Bundle, document
from kindling.model.reports import ImportReport
from kindling.model.sanitize import wall_clock_ms
from kindling.secrets.privacy import scrub_capsule, scrub_observation, scrub_pin, scrub_summary

Progress = Callable[[int], None]
IMPORT_CHUNK = 1000  # observations per insert statement batch (and per progress step)


def _no_progress(_: int) -> None:
    return None


class TransferVerbs(ReadVerbs):
    """``export_bundle`` and ``import_bundle``."""

    def export_bundle(
        self,
        *,
        scope: Scope | None = None,
        include_redacted: bool = False,
        exported_at: int | None = None,
        progress: Progress = _no_progress,
    ) -> JsonObject:
        """The bundle of everything in ``scope`` (redacted observations only if asked)."""
        where = scope or Scope()
        data = self.store.export_entities(where, include_redacted=include_redacted)
        when = exported_at if exported_at is not None else wall_clock_ms()
        lists: dict[str, list[JsonObject]] = {}
        for name, items in (
            ("observations", data.observations),
            ("capsules", data.capsules),
            ("summaries", data.summaries),
            ("pins", data.pins),
        ):
            out = []
            for item in items:
                out.append(item.to_dict())
                progress(1)
            lists[name] = out
        return document(when, where, lists)

    def import_bundle(
        self,
        bundle: Bundle,
        *,
        dry_run: bool = False,
        progress: Progress = _no_progress,
    ) -> ImportReport:
        """Add the bundle's entities that this store lacks, in one transaction.

        Entities are matched by id; an existing one is left as it is (never overwritten). A
        capsule's observations are linked in the bundle's order; links to observations neither in
        the bundle nor in the store are skipped and reported. With ``dry_run`` nothing is written.
        Through a view (``Kindling.view_for``), a store observation its rule rejects is never
        linked.
        """
        return self._import_bundle(bundle, dry_run, progress, everything)

    def _import_bundle(
        self, bundle: Bundle, dry_run: bool, progress: Progress, known: Visible
    ) -> ImportReport:
        """``import_bundle``, linking only the store observations ``known`` accepts."""
        if self.scrubs_secrets:  # the one scrub of an import's texts
            bundle = replace(
                bundle,
                observations=tuple(scrub_observation(o) for o in bundle.observations),
                capsules=tuple(scrub_capsule(c) for c in bundle.capsules),
                summaries=tuple(scrub_summary(s) for s in bundle.summaries),
                pins=tuple(scrub_pin(p) for p in bundle.pins),
            )
        store = self.store
        added = dict.fromkeys(ENTITY_TYPES, 0)
        existing = dict.fromkeys(ENTITY_TYPES, 0)
        skipped: list[str] = []
        links = 0
        have_obs = set(store.get_observations([o.id for o in bundle.observations]))
        have_caps = {c.id for c in bundle.capsules if store.get_capsule(c.id) is not None}
        have_sums = set(store.get_summaries([s.id for s in bundle.summaries]))
        have_pins = {p.id for p in bundle.pins if store.get_pin(p.id) is not None}
        bundle_obs = {o.id for o in bundle.observations}
        bundle_caps = {c.id for c in bundle.capsules}
        outside = store.get_observations(  # every capsule's links outside the bundle, one read
            list(
                dict.fromkeys(
                    o for c in bundle.capsules for o in c.observation_ids if o not in bundle_obs
                )
            )
        )
        linked = self._linked_pairs(bundle)
        self._one_open_session_capsule(bundle, have_caps)
        summarised: set[str] = set()
        with nullcontext() if dry_run else store.transaction():
            fresh = [(obs, None) for obs in bundle.observations if obs.id not in have_obs]
            existing["observations"] = len(bundle.observations) - len(fresh)
            added["observations"] = len(fresh)
            for start in range(0, len(bundle.observations), IMPORT_CHUNK):
                chunk = fresh[start : start + IMPORT_CHUNK]
                if chunk and not dry_run:
                    store.insert_observations(chunk)
                progress(len(bundle.observations[start : start + IMPORT_CHUNK]))
            for cap in bundle.capsules:
                if cap.id in have_caps:
                    existing["capsules"] += 1
                else:
                    added["capsules"] += 1
                    if not dry_run:
                        store.insert_capsule(cap)
                for obs_id in cap.observation_ids:
                    if obs_id not in bundle_obs and (
                        obs_id not in outside or not known(outside[obs_id])
                    ):
                        skipped.append(f"capsule {cap.id} lists unknown observation {obs_id}")
                    elif (cap.id, obs_id) not in linked and (
                        dry_run or store.link_observation(cap.id, obs_id)
                    ):
                        links += 1
                progress(1)
            for summary in bundle.summaries:
                if summary.id in have_sums:
                    existing["summaries"] += 1
                elif (
                    summary.capsule_id not in bundle_caps
                    and store.get_capsule(summary.capsule_id) is None
                ):
                    raise InvalidInputError(MISSING_CAPSULE.format(s=summary))
                elif summary.capsule_id in summarised or (
                    store.summary_for_capsule(summary.capsule_id) is not None
                ):
                    skipped.append(
                        f"summary {summary.id}: capsule {summary.capsule_id} already has a summary"
                    )
                else:
                    summarised.add(summary.capsule_id)
                    added["summaries"] += 1
                    if not dry_run:
                        store.upsert_summary(summary)
                progress(1)
            for pin in bundle.pins:
                if pin.id in have_pins:
                    existing["pins"] += 1
                else:
                    added["pins"] += 1
                    if not dry_run:
                        store.insert_pin(pin)
                progress(1)
        return ImportReport(added, existing, links, tuple(skipped), dry_run)

    def _one_open_session_capsule(self, bundle: Bundle, have_caps: set[str]) -> None:
        """A new open session capsule may not open a user's session a second time (the rule of
        ``open_capsule``): a conflict, dry run or not, on every backend."""
        opened: set[tuple[str, str | None]] = set()
        for cap in bundle.capsules:
            where = cap.scope
            if cap.id in have_caps or cap.status != "open" or cap.type != "session":
                continue
            if where.session_id is None:
                continue
            key = (where.session_id, where.user_id)
            there = self.store.find_open_session_capsule(*key)
            if key in opened or there is not None:
                held = f" {there.id}" if there is not None else " in the bundle"
                raise ConflictError(
                    f"capsule {cap.id}: session {where.session_id!r} already has an open"
                    f" capsule{held}; close it first"
                )
            opened.add(key)

    def _linked_pairs(self, bundle: Bundle) -> set[tuple[str, str]]:
        """(capsule, observation) pairs already linked, so re-imports count no new links."""
        pairs: set[tuple[str, str]] = set()
        for cap in bundle.capsules:
            found = self.store.get_capsule(cap.id)
            if found is not None:
                pairs.update((cap.id, o) for o in found.observation_ids)
        return pairs
