"""The background refresher: apply the spool, open a new session's capsule, and compute the
context the next SessionStart injects (``hooks.start_cache``).

Started detached (``start_cache.spawn_refresh``; ``refresh_entry`` takes the lock before this
module's imports) by the hooks after which the database has work waiting: Stop, StopFailure
and SessionEnd (which only write the spool, because the agent waits for them) and
SessionStart. It runs in its own session with no output, so the agent never waits for it and
``claude -p`` does not end it when it exits. One refresher works on a database at a time (a
lock file in ``<database>-inject/``); the others wait their turn, and one that finds nothing
to do exits.

``start_injection`` is the one place the SessionStart text is computed: the full path of the
hook (``hooks.runner``) calls it too, so the text stored and the text printed are the same
function of the same state.

Must not import click, the CLI, the MCP server or the engine: it opens the database with
``entry.open_for_hooks`` and speaks only ``Memory`` verbs.
"""

from __future__ import annotations

import os
from contextlib import suppress

from kindling.entry import drain, open_for_hooks
from kindling.errors import DatabaseLockedError
from kindling.hooks.capture import session_intent
from kindling.hooks.config import HookConfig, config_path, load_hook_config
from kindling.hooks.inject import Injection, build_context
from kindling.hooks.log import log_problem
from kindling.hooks.start_cache import lookup, state_key, store
from kindling.ids import wall_clock_ms
from kindling.memory import Memory
from kindling.model import Scope
from kindling.records import apply
from kindling.spool import Record, pending, spool_dir

DEADLINE_S = 60  # a refresher never lingers: the next one (or the next SessionStart) redoes it
DRAIN_S = 10.0
PIN_LIMIT = 1000  # more pins than this in one repository: the text is not kept (no bound)


def open_session(kd: Memory, session: str, repo: str, label: str, opened_at: int) -> None:
    """Open the capsule of a session that started at ``opened_at`` (its SessionStart record,
    applied by the one rule, ``records.session_capsule``: not when it is open already, nor
    when one of its capsules closed after that start, for the refresher may come after the
    session's end)."""
    record = Record("open", opened_at, session_id=session, repo_id=repo)
    record.intent = session_intent(repo, label)
    apply(record, kd)


def _valid_until(kd: Memory, repo: str, now: int) -> int | None:
    """When the text stops being right by the clock alone: the first expiry of an active pin
    (None: never; ``now``: already, there are too many pins to tell)."""
    pins = kd.list_pins(scope=Scope(repo_id=repo), active_at=now, limit=PIN_LIMIT)
    if len(pins) >= PIN_LIMIT:
        return now
    ends = [p.expires_at for p in pins if p.expires_at is not None]
    return min(ends) if ends else None


def start_injection(kd: Memory, db: str, repo: str, cfg: HookConfig) -> Injection | None:
    """The context SessionStart injects for ``repo``, kept for the next SessionStart when the
    state did not change while it was computed."""
    before = state_key(db, config_path())
    now = wall_clock_ms()
    injection = build_context(kd, repo=repo, query="", cfg=cfg)
    if before is not None:
        until = _valid_until(kd, repo, now)
        if (until is None or until > now) and state_key(db, config_path()) == before:
            try:
                store(db, repo, before, until, injection.text if injection else None)
            except OSError as exc:
                log_problem("SessionStart", f"cannot keep the start-up context: {exc}")
    return injection


def refresh(db: str, repo: str, opening: list[str] | None = None) -> None:
    """Apply the spool of ``db``, open ``opening``'s capsule ([session, label, ms]), and keep
    the start-up context of ``repo``. The caller holds the refresher lock
    (``refresh_entry.lock``)."""
    cfg = load_hook_config()
    if opening is None and lookup(db, repo, config_path())[0]:
        return  # an earlier refresher did it, and nothing changed since
    directory = spool_dir(db)
    # left open: closing would checkpoint the WAL
    kd = open_for_hooks(db)
    for _ in range(3):  # records that arrive meanwhile are taken too, within reason
        report = drain(kd, directory, budget_s=DRAIN_S)
        for problem in report.bad:
            log_problem("refresh", f"spool record set aside: {problem}")
        if report.locked or report.busy or not pending(directory):
            break
    if opening is not None:
        session, label, stamp = opening
        with suppress(DatabaseLockedError):  # its first spooled event opens it instead
            open_session(kd, session, repo, label, int(stamp))
    start_injection(kd, db, repo, cfg)


def main(args: list[str]) -> None:
    """The refresher process (``refresh_entry.main``), with ``args`` = DB REPO [SESSION
    LABEL MS]: never raises, never prints (problems go to the hook log), never lingers."""
    import signal

    signal.signal(signal.SIGALRM, lambda *_: os._exit(0))
    signal.alarm(DEADLINE_S)
    try:
        refresh(args[0], args[1], args[2:5] if len(args) >= 5 else None)
    except DatabaseLockedError:
        pass  # the records wait in the spool for the next drain
    except BaseException as exc:
        log_problem("refresh", f"{type(exc).__name__}: {exc}")
    os._exit(0)  # the connection stays open: closing it would change the state just kept
