"""The pin verbs, written once (deleting a pin for good is a forget verb: ``forget``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from kindling.model import Pin, Scope, TargetType
from kindling.store.rows import PIN_COLUMNS, pin_row, scope_json, scope_values, scope_where
from kindling.store.sql.dialect import UsesDatabase


class PinsMixin(UsesDatabase):
    """Pin verbs of the ``Store`` protocol."""

    def insert_pin(self, pin: Pin) -> None:
        self.db.write(
            "INSERT INTO pins (id, target_type, target_id, reason, created_at, expires_at,"
            " scope_ids, session_id, repo_id, agent_id, user_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                pin.id,
                pin.target_type,
                pin.target_id,
                pin.reason,
                pin.created_at,
                pin.expires_at,
                scope_json(pin.scope),
                *scope_values(pin.scope),
            ),
        )

    def get_pin(self, pin_id: str) -> Pin | None:
        rows = self.db.read(f"SELECT {PIN_COLUMNS} FROM pins p WHERE p.id = ?", (pin_id,))
        return pin_row(rows[0]) if rows else None

    def delete_pin(self, pin_id: str) -> bool:
        return self.db.write("DELETE FROM pins WHERE id = ?", (pin_id,)) > 0

    def list_pins(self, *, scope: Scope, active_at: int | None, limit: int) -> list[Pin]:
        where, params = scope_where(scope, "p")
        if active_at is not None:
            where += " AND (p.expires_at IS NULL OR p.expires_at > ?)"
            params.append(active_at)
        rows = self.db.read(
            f"SELECT {PIN_COLUMNS} FROM pins p WHERE {where}"
            " ORDER BY p.created_at DESC, p.id ASC LIMIT ?",
            [*params, limit],
        )
        return [pin_row(r) for r in rows]

    def pins_for_target(self, target_type: TargetType, target_id: str) -> list[Pin]:
        rows = self.db.read(
            f"SELECT {PIN_COLUMNS} FROM pins p WHERE p.target_type = ? AND p.target_id = ?"
            " ORDER BY p.created_at DESC, p.id",
            (target_type, target_id),
        )
        return [pin_row(r) for r in rows]
