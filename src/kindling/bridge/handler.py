"""The bridge's commands: validate everything, then make one ``Kindling`` call.

``run_ingest`` and ``run_retrieve`` turn a command line (and stdin) into an ``Outcome``: one
JSON object and an exit status (0 ok, 1 error, 2 usage error). Every input is checked before
the database is opened, so a bad request writes nothing; retrieve never creates a database.
``emit`` prints the outcome: the object on stdout (one line of ASCII JSON, other characters
escaped as ``\\uXXXX``), a one-line message on stderr for errors. Both invocation forms
(``kindling bridge ...`` and ``python -m kindling.bridge.retrieve``) go through here, so they
print the same bytes.

Workspaces: one shared database (``--db``, ``$KINDLING_DB``, else the default, as for every
Kindling command); a workspace is scoped by its canonical absolute path (the ``repo_id`` of
its memories' capsules).

Must not import ``kindling.cli`` or other adapters.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from kindling.bridge.contract import (
    INGEST_USAGE,
    MAX_INGEST_BYTES,
    RETRIEVE_USAGE,
    canonical_workspace,
    parse_ingest_args,
    parse_ingest_json,
    parse_retrieve_args,
    parse_retrieve_json,
    resolve_now,
    split_command_line,
)
from kindling.bridge.ranking import rank_matches, take_within_budget
from kindling.bridge.render import (
    error_response,
    ingest_response,
    retrieve_response,
    summary_text,
)
from kindling.entry import open_target, target_of
from kindling.errors import ArgumentError, KindlingError, StoreError
from kindling.memory import Memory
from kindling.model import ChatMemoryMatch
from kindling.model.sanitize import MAX_LIMIT

# Every hit is considered up to this many per query (the store's largest page).
MAX_HITS = MAX_LIMIT


@dataclass(frozen=True, slots=True)
class Outcome:
    body: dict[str, Any] | str  # a JSON object, or help text
    exit_code: int


# Opens the memory of a command: (database, now, create) -> the memory, or None when there
# is nothing to read (no file yet, and reading must not create one). The CLI passes its own in
# remote mode (``entry.open_target`` of a server: its memory, never a local file).
Opener = Callable[[Path | str, int, bool], Memory | None]


def open_memory(db: Path | str, now: int, create: bool) -> Memory | None:
    """The database ``db`` (a file, or a server database's URL; ``entry.connect``), with
    ``now`` as its clock; None when reading (``create=False``) a file that does not exist."""
    where = target_of(db)
    if not create and where.kind == "sqlite" and not Path(where.location).exists():
        return None
    return open_target(where, now=now, create=create)


def _ingest(
    argv: Sequence[str],
    default_db: Path | str,
    stdin: BinaryIO,
    env: Mapping[str, str],
    opener: Opener,
) -> Outcome:
    line = split_command_line(argv)
    if line.help:
        return Outcome(INGEST_USAGE, 0)
    workspace = canonical_workspace(parse_ingest_args(line.positional))
    if stdin.isatty():  # waiting for a human to type JSON would look like a hang
        raise ArgumentError(f"pipe the memory JSON into stdin; {INGEST_USAGE}")
    request = parse_ingest_json(stdin.read(MAX_INGEST_BYTES + 1))
    now = resolve_now(env)
    if request.fields is not None:
        content = summary_text(request.fields)
    else:
        assert request.text is not None
        content = request.text
    kd = opener(line.db or default_db, now, True)
    if kd is None:
        raise StoreError(f"cannot open database {line.db or default_db}")
    with kd:
        memory = kd.add_memory(workspace, content, request.fields)
    return Outcome(ingest_response(memory), 0)


def _retrieve(
    argv: Sequence[str], default_db: Path | str, env: Mapping[str, str], opener: Opener
) -> Outcome:
    line = split_command_line(argv)
    if line.help:
        return Outcome(RETRIEVE_USAGE, 0)
    if line.json_request is not None:
        if line.positional:
            raise ArgumentError("--json carries the whole request; drop the other arguments")
        args = parse_retrieve_json(line.json_request)
    else:
        args = parse_retrieve_args(line.positional)
    workspace = canonical_workspace(args.workspace)
    now = resolve_now(env)
    matches: list[ChatMemoryMatch] = []
    kd = opener(line.db or default_db, now, False)  # None: no file yet, so no memories
    if kd is not None:
        with kd:
            limit = MAX_HITS if args.search_top_k is None else min(args.search_top_k, MAX_HITS)
            matches = kd.search_memories(workspace, args.query, limit=limit)
    ranked = rank_matches(
        matches,
        now_ms=now,
        half_life_days=args.half_life_days,
        include_superseded=args.include_superseded,
    )
    kept = take_within_budget([h.tokens for h in ranked], args.max_results, args.max_tokens)
    body = retrieve_response(
        ranked[:kept],
        total_results=len(ranked),
        half_life_days=args.half_life_days,
        include_superseded=args.include_superseded,
    )
    return Outcome(body, 0)


def _guard(step: Callable[[], Outcome]) -> Outcome:
    try:
        return step()
    except ArgumentError as exc:
        return Outcome(error_response(exc), 2)
    except KindlingError as exc:
        return Outcome(error_response(exc), 1)
    except Exception as exc:  # a bug: still one JSON object on stdout, the trace on stderr
        traceback.print_exc(file=sys.stderr)
        error = KindlingError(f"internal error ({type(exc).__name__}: {exc}); please report it")
        return Outcome(error_response(error), 1)


def run_ingest(
    argv: Sequence[str],
    *,
    default_db: Path | str,
    stdin: BinaryIO,
    env: Mapping[str, str],
    opener: Opener = open_memory,
) -> Outcome:
    return _guard(lambda: _ingest(argv, default_db, stdin, env, opener))


def run_retrieve(
    argv: Sequence[str],
    *,
    default_db: Path | str,
    env: Mapping[str, str],
    opener: Opener = open_memory,
) -> Outcome:
    return _guard(lambda: _retrieve(argv, default_db, env, opener))


def emit(outcome: Outcome, stdout: BinaryIO, stderr: TextIO) -> int:
    """Print the outcome and return its exit status."""
    if isinstance(outcome.body, str):
        stdout.write((outcome.body + "\n").encode("utf-8"))
    else:
        # ASCII only (\uXXXX escapes): clients decode stdout chunk by chunk, and a character
        # split across two chunks came back as U+FFFD.
        text = json.dumps(outcome.body, ensure_ascii=True, allow_nan=False)
        stdout.write((text + "\n").encode("ascii"))
        if not outcome.body.get("success"):
            print(f"kindling bridge: {outcome.body.get('error')}", file=stderr)
    stdout.flush()
    return outcome.exit_code
