"""``apply(record, memory)``: the one interpreter of hook records (``spool.Record``).

The hooks turn each event into records once (``hooks.capture``); this applies one record to a
``Memory``, whichever it is: the local drain (``engine.drain``, a ``Kindling``) and the remote
path (``hooks.remote``, a ``RemoteKindling`` over ``kindling serve``) both call it, so the two
modes store the same things.

``session_capsule`` is the one rule from a session to its capsule: a session's records join
its open capsule; a record that may open one (``open``, ``observation``, ``summary``) opens it
when the session has none open, unless one of the session's capsules closed at or after the
record's time (the record comes late, from a session that has ended: a replay, a refresher
after the end); a session that resumes after its end (its start, or a person's prompt) gets a
new capsule, while any other record after the end is late and joins none.

Applying is idempotent: an observation carries the id it was given when recorded and is
stored only when that id is not; a summary is skipped when the capsule's summary was made at
its time; a close needs an open capsule; an open finds the one already open.

Must not import the CLI, servers or adapters; imports only the model, the errors, the seam's
types and the spool's record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from kindling.errors import ConflictError, NotFoundError
from kindling.model import Capsule, Scope

if TYPE_CHECKING:
    from kindling.memory import Memory
    from kindling.model import ObservationKind
    from kindling.spool import Record

CLOSED_LOOKED_AT = 50  # a session's closed capsules checked for a late record (newest first)
DEFAULT_CONFIDENCE = 0.5


def _session(record: Record) -> Scope:
    """The scope of ``record``'s session: its id, and its repository when it names one (a
    team token reads nothing without one, even by session: ``http.auth.read_scope``)."""
    return Scope(session_id=record.session_id, repo_id=record.repo_id)


def _open_one(memory: Memory, record: Record) -> Capsule | None:
    found = memory.list_capsules(status="open", scope=_session(record), limit=1)
    return found[0] if found else None


def session_capsule(memory: Memory, record: Record, *, may_open: bool) -> Capsule | None:
    """The capsule ``record``'s session keeps its records in (see the module): the open one,
    or one opened now (with the record's ``intent``, at its time) when ``may_open``."""
    session = record.session_id
    if session is None:
        return None
    capsule = _open_one(memory, record)
    if capsule is not None or not may_open or not record.intent:
        return capsule
    ended = memory.list_capsules(status="closed", scope=_session(record), limit=CLOSED_LOOKED_AT)
    if any((c.closed_at or 0) >= record.ts for c in ended):
        return None
    if ended and not _resumes(record):
        return None
    try:
        return memory.open_capsule(
            intent=record.intent,
            scope=Scope(session_id=session, repo_id=record.repo_id),
            opened_at=record.ts,
        )
    except ConflictError:  # another hook of this session opened it a moment ago
        return _open_one(memory, record)


def _resumes(record: Record) -> bool:
    """Whether a record after its session's end starts the session again: its start, or a
    person's prompt. A tool's record, a summary or a close that comes after the end is late
    (a hook the agent ran in the background, slower under load than the one that ended the
    session), not a resumed session: it joins no capsule."""
    if record.op == "open":
        return True
    role = (record.provenance or {}).get("role")
    return record.op == "observation" and record.kind == "message" and role in ("user", None)


def apply(record: Record, memory: Memory) -> bool:
    """Apply one record to ``memory``, in one transaction; False when it was applied already
    (or, for a summary or a close, when its session has no capsule to take it)."""
    with memory.batch():
        if record.op == "open":
            return session_capsule(memory, record, may_open=True) is not None
        if record.op == "observation":
            return _observation(record, memory)
        capsule = session_capsule(memory, record, may_open=record.op == "summary")
        if capsule is None:
            return False
        content = record.content if record.content and record.content.strip() else None
        confidence = DEFAULT_CONFIDENCE if record.confidence is None else record.confidence
        if record.op == "summary":
            summary_id = capsule.summary_id  # applied already (two appliers at once)?
            if summary_id is not None and memory.get_summary(summary_id).created_at == record.ts:
                return False
            if content is not None:
                memory.add_summary(
                    capsule.id, content=content, confidence=confidence, created_at=record.ts
                )
            return True
        keep = capsule.summary_id is not None and not record.replace
        text = None if keep else content
        try:
            memory.close_capsule(
                capsule.id,
                summary=text,
                confidence=confidence if text else None,
                closed_at=max(record.ts, capsule.opened_at),
            )
        except ConflictError:  # closed a moment ago by another applier
            return False
        return True


def _observation(record: Record, memory: Memory) -> bool:
    if record.id is None or record.kind is None or record.content is None:
        raise ValueError("an observation record needs its id, kind and content")
    try:
        memory.get_observation(record.id)
        return False
    except NotFoundError:
        pass
    session_capsule(memory, record, may_open=True)  # the observation joins it
    try:
        memory.append_observation(
            id=record.id,
            ts=record.ts,
            kind=cast("ObservationKind", record.kind),  # the memory checks it
            content=record.content,
            provenance=record.provenance,
            scope=Scope(session_id=record.session_id, repo_id=record.repo_id),
        )
    except ConflictError:  # stored a moment ago by another applier
        return False
    return True
