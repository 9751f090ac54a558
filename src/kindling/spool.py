"""The spool: captured events waiting, scrubbed, in private files until the database takes them.

Hooks must cost the agent nothing and must never lose an event, so they do not write to the
database themselves: each event becomes one small JSON file in ``<database>-spool/`` (directory
0700, files 0600), written to a temporary name and renamed into place, so a reader never sees
half a record. Every text is scrubbed by ``secrets.scrub`` before it reaches the file, and
the masked kinds are kept in the provenance (``redactedKinds``), as the write path does.

``engine.drain.drain()`` moves the records into the database through the ordinary ``Kindling``
verbs, oldest first, one transaction each, then deletes the file. It is idempotent: an
observation carries the id it was given when spooled, and a record is applied only if that id is
not stored yet (checked inside the write transaction), so two drainers at once, or a crash
between commit and delete, never store an event twice. A summary record is skipped when its
capsule's summary was made at its time (another drainer applied it); a close record needs an
open capsule. A record that cannot be applied (damaged, or invalid) is renamed ``*.bad`` and
reported, never deleted. A database that stays locked stops the drain; the records wait for the
next one.

Who drains: the hooks that open the database anyway (SessionStart, UserPromptSubmit with
injection), the detached refresher that SessionStart, Stop, StopFailure, PreCompact and
SessionEnd start, ``Kindling.open`` and so every CLI command and server. When the directory
does not exist that costs one failed ``scandir``.

This module is the writer half and the format: it imports only the standard library,
``secrets.scrub`` and ``secrets.session_secrets`` (it runs in every hook process); the drain
half is the engine's (``engine.drain``), so the spool never imports the engine. The writer also
carries the values masked in a session to its later records (``secrets.session_secrets``): a
second copy of a secret is masked before it is spooled.
Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

import json
import os

from kindling.ids import new_id as new_id  # records carry their observation's id
from kindling.private_files import private_dir, write_private
from kindling.secrets.scrub import scrub_secrets
from kindling.secrets.session_secrets import SessionSecrets, secrets_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SPOOL_SUFFIX = "-spool"
CACHE_SUFFIX = "-inject"  # the hooks' derived texts (``clear_derived``)
RECORD_SUFFIX = ".json"
BAD_SUFFIX = ".bad"
FORMAT = 1
MAX_RECORD_BYTES = 32 << 20  # far above anything a hook writes; a bigger file is not ours
OPS = ("observation", "summary", "close")
DRAIN_ON_OPEN_S = 2.0  # opening must stay quick; what is left waits for the next drain
REDACTED_KINDS_KEY = "redactedKinds"  # the name the write path uses (secrets.privacy)


def spool_dir(db_path: str) -> str:
    """Where the records for the database at ``db_path`` wait (beside it, like its -wal)."""
    return os.fspath(db_path) + SPOOL_SUFFIX


def clear_derived(db_path: str) -> None:
    """Delete the texts the hooks derived from the database at ``db_path`` and keep beside it
    (``<database>-inject/``: the context the next SessionStart injects, ``hooks.start_cache``).
    Forgetting calls it: those files may hold a forgotten text. Never raises."""
    folder = os.fspath(db_path) + CACHE_SUFFIX
    try:
        with os.scandir(folder) as it:
            names = [e.name for e in it if e.name.endswith(RECORD_SUFFIX)]
    except OSError:
        return
    for name in names:
        try:  # noqa: SIM105  (contextlib would cost the hook process an import)
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass


# ---------------------------------------------------------------- writing (hook processes)


class _Scrubber:
    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.found: dict[str, str] = {}

    def text(self, value: str) -> str:
        found = scrub_secrets(value)
        self.kinds.update(found.kinds)
        self.found.update(found.found)
        return found.text

    def json(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {k: self.json(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.json(v) for v in value]
        return value


def scrubbed(record: dict[str, Any], found: dict[str, str] | None = None) -> dict[str, Any]:
    """The record with every free text masked: content, intent, provenance values. The values
    masked are added to ``found`` (value -> kind) when it is given."""
    scrub = _Scrubber()
    out = dict(record)
    for key in ("content", "intent"):
        if isinstance(out.get(key), str):
            out[key] = scrub.text(out[key])
    prov = out.get("provenance")
    if isinstance(prov, dict):
        prov = scrub.json(prov)
        earlier = prov.get(REDACTED_KINDS_KEY)
        if isinstance(earlier, list):  # kinds masked before the text was cut
            scrub.kinds.update(k for k in earlier if isinstance(k, str))
        if scrub.kinds:
            prov[REDACTED_KINDS_KEY] = sorted(scrub.kinds)
        out["provenance"] = prov
    if found is not None:
        found.update(scrub.found)
    return out


def session_memory(directory: str) -> SessionSecrets:
    """The session memory of the store whose spool is ``directory`` (hooks write to it)."""
    db = directory[: -len(SPOOL_SUFFIX)] if directory.endswith(SPOOL_SUFFIX) else directory
    return SessionSecrets(secrets_dir(db), writes=True)


def _remembered(
    directory: str, session: str, record: dict[str, Any], found: dict[str, str]
) -> dict[str, Any]:
    memory = session_memory(directory)
    memory.remember(session, found)
    kinds: set[str] = set()
    out = dict(record)
    for key in ("content", "intent", "provenance"):
        if key in out:
            out[key], masked = memory.mask_tree(session, out[key])
            kinds |= masked
    prov = out.get("provenance")
    if kinds and isinstance(prov, dict):
        earlier = prov.get(REDACTED_KINDS_KEY)
        known = {k for k in earlier if isinstance(k, str)} if isinstance(earlier, list) else set()
        prov[REDACTED_KINDS_KEY] = sorted(known | kinds)
    return out


def write_record(
    directory: str, record: dict[str, Any], found: dict[str, str] | None = None
) -> str:
    """Scrub ``record`` and store it in ``directory``; return the file's path.

    ``record`` needs ``op`` (one of ``OPS``) and ``ts`` (ms); observations also ``id``.
    ``found`` holds values masked while the record was made (``secrets.scrub.take_found``):
    the session of the record remembers them, and every value its session remembers is
    masked in the record (``secrets.session_secrets``)."""
    masked = dict(found or {})
    clean = scrubbed(record, masked)
    session = record.get("session_id")
    if isinstance(session, str) and session:
        clean = _remembered(directory, session, clean, masked)
    # ASCII: a lone surrogate (JSON allows "\\ud800") survives the trip; the engine cleans it.
    data = json.dumps({"v": FORMAT, **clean}).encode("ascii")
    private_dir(directory)
    name = f"{int(record['ts']):013d}-{os.getpid()}-{os.urandom(4).hex()}{RECORD_SUFFIX}"
    final = os.path.join(directory, name)
    write_private(final, data)
    return final


def pending(directory: str) -> list[str]:
    """Names of the records waiting in ``directory``, oldest first (empty when there is none,
    or when this process may not read it: a spool never makes opening a database fail)."""
    try:
        with os.scandir(directory) as it:
            names = [e.name for e in it if e.name.endswith(RECORD_SUFFIX)]
    except OSError:
        return []
    return sorted(names)
