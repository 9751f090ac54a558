"""Codex's session log (the rollout file a hook payload names as ``transcript_path``), read for
what its hook payloads leave out: a shell call's exit code (``agents.codex``, which imports
this module only for a shell call whose payload has none).

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ROLLOUT_TAIL_BYTES = 4 << 20  # how far back in the session log a call's result is looked for


def exit_code(rollout: Any, call_id: Any) -> int | None:
    """A shell call's exit code, from Codex's session log (the rollout file the payload names
    as ``transcript_path``): Codex 0.169-0.171 hands PostToolUse the output alone. The log's
    ``event_msg`` for the finished call (``item_completed`` with a ``CommandExecution`` whose
    ``id`` is the call id, or ``exec_command_end`` with its ``call_id``) has ``exit_code``; the
    ``function_call_output`` says "Process exited with code N". None when neither is found
    (the call is then stored as Codex reported it, ``[completed]``)."""
    import json

    if not isinstance(rollout, str) or not isinstance(call_id, str) or not call_id:
        return None
    needle = json.dumps(call_id).encode()
    try:
        with open(rollout, "rb") as fh:
            fh.seek(max(0, fh.seek(0, 2) - ROLLOUT_TAIL_BYTES))
            lines = fh.read().splitlines()
    except OSError:
        return None
    found: int | None = None
    for line in reversed(lines):
        if needle not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        code = _code_in(record.get("payload") if isinstance(record, dict) else None, call_id)
        if code is not None:
            return code
        if found is None:
            found = _code_in_output(record, call_id)
    return found


def _code_in(payload: Any, call_id: str) -> int | None:
    if not isinstance(payload, dict):
        return None
    item = payload.get("item")
    for candidate, key in ((item, "id"), (payload, "call_id")):
        if isinstance(candidate, dict) and candidate.get(key) == call_id:
            code = candidate.get("exit_code")
            if isinstance(code, int) and not isinstance(code, bool):
                return code
    return None


def _code_in_output(record: Any, call_id: str) -> int | None:
    import re

    payload = record.get("payload") if isinstance(record, dict) else None
    if not isinstance(payload, dict) or payload.get("call_id") != call_id:
        return None
    output = payload.get("output")
    if not isinstance(output, str):
        return None
    found = re.search(r"^Process exited with code (-?\d+)$", output, re.MULTILINE)
    return int(found.group(1)) if found else None
