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
OPS = ("open", "observation", "summary", "close")
DRAIN_ON_OPEN_S = 2.0  # opening must stay quick; what is left waits for the next drain
REDACTED_KINDS_KEY = "redactedKinds"  # the name the write path uses (secrets.privacy)


class Record:
    """One hook record: what one hook event leaves for a memory, typed. ``op`` says what:

    - ``open``: the session's capsule opens (SessionStart);
    - ``observation``: ``kind``, ``content`` and ``provenance`` are stored under ``id``;
    - ``summary``: ``content`` (with ``confidence``) becomes the session capsule's summary;
    - ``close``: the session's capsule closes, with ``content`` as its summary unless
      ``replace`` is false and it has one already.

    Every record has ``ts`` (ms) and, from a session, ``session_id``, ``repo_id`` and the
    ``intent`` its capsule opens with. The spool file and the remote outbox hold ``to_dict()``;
    ``records.apply`` is its one interpreter, for a local and a remote memory alike. A plain
    class with slots, not a dataclass: every hook process builds records, and ``dataclasses``
    costs it milliseconds of imports."""

    __slots__ = (
        "confidence",
        "content",
        "id",
        "intent",
        "kind",
        "op",
        "provenance",
        "replace",
        "repo_id",
        "session_id",
        "ts",
    )

    def __init__(
        self,
        op: str,
        ts: int,
        *,
        session_id: str | None = None,
        repo_id: str | None = None,
        intent: str | None = None,
        id: str | None = None,
        kind: str | None = None,
        content: str | None = None,
        provenance: dict[str, Any] | None = None,
        confidence: float | None = None,
        replace: bool = True,
    ) -> None:
        self.op = op
        self.ts = ts
        self.session_id = session_id
        self.repo_id = repo_id
        self.intent = intent
        self.id = id
        self.kind = kind
        self.content = content
        self.provenance = provenance
        self.confidence = confidence
        self.replace = replace

    def to_dict(self) -> dict[str, Any]:
        """The record as the spool and the outbox keep it (the keys that are set)."""
        out = {name: getattr(self, name) for name in self.__slots__}
        return {k: v for k, v in out.items() if v is not None and (k != "replace" or not v)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record read back; ``ValueError`` for anything ``to_dict`` could not have made."""
        op, ts = data.get("op"), data.get("ts")
        if op not in OPS or not isinstance(ts, int) or isinstance(ts, bool):
            raise ValueError("not a hook record (op and ts)")
        texts = {k: data.get(k) for k in ("session_id", "repo_id", "intent", "id", "kind")}
        texts["content"] = data.get("content")
        if any(v is not None and not isinstance(v, str) for v in texts.values()):
            raise ValueError("a hook record's ids, kind and texts are strings")
        prov, confidence = data.get("provenance"), data.get("confidence")
        if prov is not None and not isinstance(prov, dict):
            raise ValueError("a hook record's provenance is an object")
        if confidence is not None and not isinstance(confidence, int | float):
            raise ValueError("a hook record's confidence is a number")
        if op == "observation" and (texts["id"] is None or texts["kind"] is None):
            raise ValueError("an observation record needs its id and kind")
        return cls(
            str(op),
            ts,
            provenance=prov,
            confidence=confidence,
            replace=data.get("replace", True) is not False,
            **texts,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and self.to_dict() == other.to_dict()

    # Mutable, like a dict: no hash.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Record({self.to_dict()!r})"


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


def write_record(directory: str, record: Record, found: dict[str, str] | None = None) -> str:
    """Scrub ``record`` and store it in ``directory``; return the file's path.

    ``found`` holds values masked while the record was made (``secrets.scrub.take_found``):
    the session of the record remembers them, and every value its session remembers is
    masked in the record (``secrets.session_secrets``)."""
    masked = dict(found or {})
    clean = scrubbed(record.to_dict(), masked)
    session = record.session_id
    if session:
        clean = _remembered(directory, session, clean, masked)
    # ASCII: a lone surrogate (JSON allows "\\ud800") survives the trip; the engine cleans it.
    data = json.dumps({"v": FORMAT, **clean}).encode("ascii")
    private_dir(directory)
    name = f"{record.ts:013d}-{os.getpid()}-{os.urandom(4).hex()}{RECORD_SUFFIX}"
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
