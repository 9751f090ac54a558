"""Bundle export for the SQLite store: every entity in a scope, in the bundle's order.

It reads through ``Database.read`` and the capsule query of ``capsules``.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from dataclasses import replace

from kindling.model import Scope
from kindling.store.base import Dataset
from kindling.store.rows import (
    OBS_COLUMNS,
    PIN_COLUMNS,
    SUMMARY_COLUMNS,
    observation_row,
    pin_row,
    scope_where,
    summary_row,
)
from kindling.store.sqlite.capsules import read_capsules
from kindling.store.sqlite.connection import Database


class ExportMixin:
    """``export_entities`` of the ``Store`` protocol."""

    db: Database

    def export_entities(self, scope: Scope, *, include_redacted: bool) -> Dataset:
        return export_dataset(self.db, scope, include_redacted=include_redacted)


def export_dataset(db: Database, scope: Scope, *, include_redacted: bool) -> Dataset:
    """Everything in scope, oldest first (ties by id), as the bundle format orders it.

    Summaries follow their capsule's scope. Capsules list only observations that are in
    the dataset, so a dataset never points outside itself.
    """
    where, params = scope_where(scope, "o")
    if not include_redacted:
        where += " AND o.redacted = 0"
    observations = [
        observation_row(r)
        for r in db.read(
            f"SELECT {OBS_COLUMNS} FROM observations o WHERE {where} ORDER BY o.ts ASC, o.id ASC",
            params,
        )
    ]
    kept = {o.id for o in observations}
    cwhere, cparams = scope_where(scope, "c")
    capsules = [
        replace(c, observation_ids=tuple(i for i in c.observation_ids if i in kept))
        for c in read_capsules(db, cwhere, cparams, "ORDER BY c.opened_at ASC, c.id ASC")
    ]
    summaries = [
        summary_row(r)
        for r in db.read(
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
            " (SELECT id FROM observations WHERE redacted = 1))"
        )
    pins = [
        pin_row(r)
        for r in db.read(
            f"SELECT {PIN_COLUMNS} FROM pins p WHERE {pwhere} ORDER BY p.created_at ASC, p.id ASC",
            pparams,
        )
    ]
    return Dataset(observations, capsules, summaries, pins)
