"""Whole-store reads, written once: the bundle export of a scope, and the store's counts.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from dataclasses import replace

from kindling.model import Scope
from kindling.store.base import Dataset, StoreStats
from kindling.store.rows import (
    OBS_COLUMNS,
    PIN_COLUMNS,
    SUMMARY_COLUMNS,
    observation_row,
    pin_row,
    scope_where,
    summary_row,
)
from kindling.store.sql.capsules import read_capsules
from kindling.store.sql.dialect import UsesDatabase


class ExportMixin(UsesDatabase):
    """``export_entities`` and ``stats`` of the ``Store`` protocol."""

    def export_entities(self, scope: Scope, *, include_redacted: bool) -> Dataset:
        """Everything in scope, oldest first (ties by id), as the bundle format orders it.

        Summaries follow their capsule's scope. Capsules list only observations that are in
        the dataset, so a dataset never points outside itself.
        """
        read = self.db.read
        where, params = scope_where(scope, "o")
        if not include_redacted:
            where += " AND o.redacted = FALSE"
        observations = [
            observation_row(r)
            for r in read(
                f"SELECT {OBS_COLUMNS} FROM observations o WHERE {where}"
                " ORDER BY o.ts ASC, o.id ASC",
                params,
            )
        ]
        kept = {o.id for o in observations}
        cwhere, cparams = scope_where(scope, "c")
        capsules = [
            replace(c, observation_ids=tuple(i for i in c.observation_ids if i in kept))
            for c in read_capsules(self.db, cwhere, cparams, "ORDER BY c.opened_at ASC, c.id ASC")
        ]
        summaries = [
            summary_row(r)
            for r in read(
                f"SELECT {SUMMARY_COLUMNS} FROM summaries s JOIN capsules c"
                f" ON c.id = s.capsule_id WHERE {cwhere} ORDER BY s.created_at ASC, s.id ASC",
                cparams,
            )
        ]
        pwhere, pparams = scope_where(scope, "p")
        if not include_redacted:
            # A pin on a left-out (redacted) observation would point outside the dataset.
            pwhere += (
                " AND NOT (p.target_type = 'observation' AND p.target_id IN"
                " (SELECT id FROM observations WHERE redacted = TRUE))"
            )
        pins = [
            pin_row(r)
            for r in read(
                f"SELECT {PIN_COLUMNS} FROM pins p WHERE {pwhere}"
                " ORDER BY p.created_at ASC, p.id ASC",
                pparams,
            )
        ]
        return Dataset(observations, capsules, summaries, pins)

    def stats(self) -> StoreStats:
        read = self.db.read
        by_kind = read("SELECT kind, COUNT(*) FROM observations GROUP BY kind")
        redacted = read("SELECT COUNT(*) FROM observations WHERE redacted = TRUE")[0][0]
        by_status = read("SELECT status, COUNT(*) FROM capsules GROUP BY status")
        summaries = read("SELECT COUNT(*) FROM summaries")[0][0]
        pins = read("SELECT COUNT(*) FROM pins")[0][0]
        return StoreStats(
            {k: int(v) for k, v in by_kind},
            int(redacted),
            {k: int(v) for k, v in by_status},
            int(summaries),
            int(pins),
            self.db.schema_version(),
        )
