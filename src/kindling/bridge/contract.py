"""The bridge's wire contract: retrieve arguments, the ingest JSON, and ISO 8601 times.

Everything from outside (argv, stdin, environment) is parsed here once, into typed values; a
bad value raises ``ArgumentError`` (usage: exit 2) or ``InvalidInputError`` (exit 1) with a
message that says how to fix it. Nothing here touches the database.

Must not import ``kindling.cli``, ``kindling.store`` or any adapter.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from kindling.capture.memory import LIST_FIELDS, check_memory_fields
from kindling.capture.sanitize import MAX_TS
from kindling.errors import InvalidInputError
from kindling.model import SUMMARY_STATUSES, MemoryFields

DEFAULT_MAX_RESULTS = 3
DEFAULT_MAX_TOKENS = 2000
DEFAULT_HALF_LIFE_DAYS = 7.0
MAX_RESULTS_RANGE = (1, 50)
MAX_TOKENS_RANGE = (100, 100_000)
HALF_LIFE_RANGE = (0.5, 90.0)
TRUE_WORDS = frozenset({"1", "true", "yes", "y"})
MAX_INGEST_BYTES = 1 << 20  # the same bound as one captured observation

RETRIEVE_USAGE = (
    "usage: kindling bridge retrieve [--db PATH] WORKSPACE QUERY [MAX_RESULTS] [MAX_TOKENS]"
    " [HALF_LIFE_DAYS] [INCLUDE_SUPERSEDED]\n"
    "   or: python -m kindling.bridge.retrieve [--db PATH] WORKSPACE QUERY ..."
)
INGEST_USAGE = "usage: kindling bridge ingest [--db PATH] WORKSPACE  < memory.json"

STRUCTURED_KEYS = frozenset(
    {"topic", "context", "status", "topic_id", "plan_id", "session_id", "source_created_at"}
    | set(LIST_FIELDS)
)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class ArgumentError(InvalidInputError):
    """Missing, extra or malformed command-line arguments (exit status 2, like click)."""


@dataclass(frozen=True, slots=True)
class CommandLine:
    """Positional arguments and the options every bridge command accepts."""

    positional: tuple[str, ...]
    db: Path | None
    help: bool


@dataclass(frozen=True, slots=True)
class RetrieveArgs:
    workspace: str
    query: str
    max_results: int = DEFAULT_MAX_RESULTS
    max_tokens: int = DEFAULT_MAX_TOKENS
    half_life_days: float = DEFAULT_HALF_LIFE_DAYS
    include_superseded: bool = False


@dataclass(frozen=True, slots=True)
class IngestRequest:
    """A legacy memory (``text``, no ``fields``) or a structured one (``fields``)."""

    text: str | None
    fields: MemoryFields | None


def shorten(value: str, limit: int = 120) -> str:
    """A value quoted for an error message, cut so one bad argument cannot flood the output."""
    return repr(value if len(value) <= limit else value[: limit - 1] + "…")


def split_command_line(argv: Sequence[str]) -> CommandLine:
    """Pick out ``--db PATH``/``--db=PATH`` and ``-h``/``--help`` (before a ``--``); every
    other word, even one starting with a dash (``-5``), is positional."""
    positional: list[str] = []
    db: Path | None = None
    wants_help = False
    options = True
    words = iter(argv)
    for word in words:
        if options and word == "--":
            options = False
        elif options and word in ("-h", "--help"):
            wants_help = True
        elif options and (word == "--db" or word.startswith("--db=")):
            value = word[5:] if word.startswith("--db=") else next(words, "")
            if not value.strip():
                raise ArgumentError("--db needs a database file path, e.g. --db ./kindling.db")
            db = Path(value).expanduser()
        else:
            positional.append(word)
    return CommandLine(tuple(positional), db, wants_help)


def _clamp(value: float, bounds: tuple[float, float]) -> float:
    return min(max(value, bounds[0]), bounds[1])


def _whole_number(text: str, name: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ArgumentError(f"{name} must be a whole number, got {shorten(text)}") from None


def _number(text: str, name: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ArgumentError(
            f"{name} must be a number of days such as 7 or 0.5, got {shorten(text)}"
        )
    return value


def parse_retrieve_args(positional: Sequence[str]) -> RetrieveArgs:
    """WORKSPACE QUERY [MAX_RESULTS] [MAX_TOKENS] [HALF_LIFE_DAYS] [INCLUDE_SUPERSEDED].

    Numbers out of range are clamped (max_results 1-50, max_tokens 100-100000, half-life
    0.5-90 days); include_superseded is true for 1/true/yes/y in any case, else false.
    """
    if len(positional) < 2:
        missing = "WORKSPACE and QUERY" if not positional else "QUERY"
        raise ArgumentError(f"missing {missing}; {RETRIEVE_USAGE}")
    if len(positional) > 6:
        raise ArgumentError(f"too many arguments ({len(positional)}, at most 6); {RETRIEVE_USAGE}")
    workspace, query, *rest = positional
    if not query.strip():
        raise ArgumentError("QUERY is blank; pass the words to search the memories for")
    args = RetrieveArgs(workspace=workspace, query=query)
    if len(rest) > 0:
        max_results = _whole_number(rest[0], "MAX_RESULTS")
        args = replace(args, max_results=int(_clamp(max_results, MAX_RESULTS_RANGE)))
    if len(rest) > 1:
        max_tokens = _whole_number(rest[1], "MAX_TOKENS")
        args = replace(args, max_tokens=int(_clamp(max_tokens, MAX_TOKENS_RANGE)))
    if len(rest) > 2:
        half_life = _number(rest[2], "HALF_LIFE_DAYS")
        args = replace(args, half_life_days=float(_clamp(half_life, HALF_LIFE_RANGE)))
    if len(rest) > 3:
        args = replace(args, include_superseded=rest[3].strip().lower() in TRUE_WORDS)
    return args


def parse_ingest_args(positional: Sequence[str]) -> str:
    if not positional:
        raise ArgumentError(f"missing WORKSPACE; {INGEST_USAGE}")
    if len(positional) > 1:
        raise ArgumentError(
            f"too many arguments; the memory is read as JSON from stdin. {INGEST_USAGE}"
        )
    return positional[0]


def canonical_workspace(path: str) -> str:
    """The workspace's canonical absolute path: symlinks resolved, relative to the cwd."""
    if not path.strip() or "\x00" in path:
        raise InvalidInputError("WORKSPACE must be the path of an existing directory")
    try:
        resolved = Path(path).expanduser().resolve()
        is_dir, exists = resolved.is_dir(), resolved.exists()
    except (OSError, RuntimeError) as exc:  # name too long, symlink loop, ...
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "symlink loop"
        raise InvalidInputError(
            f"workspace {shorten(path)} cannot be resolved ({reason}); pass an existing directory"
        ) from None
    if not is_dir:
        what = "is not a directory" if exists else "does not exist"
        raise InvalidInputError(
            f"workspace {shorten(path)} {what}; pass the path of an existing directory"
        )
    return str(resolved)


def resolve_now(env: Mapping[str, str] | None = None) -> int:
    """``KINDLING_NOW`` (epoch ms) when set, else the wall clock: "now" for ages and writes."""
    value = (os.environ if env is None else env).get("KINDLING_NOW", "").strip()
    if not value:
        return time.time_ns() // 1_000_000
    try:
        now = int(value)
    except ValueError:
        now = -1
    if not 0 <= now <= MAX_TS:
        raise InvalidInputError(
            f"KINDLING_NOW must be epoch milliseconds (a whole number), got {shorten(value)}"
        )
    return now


def parse_iso8601(text: str, name: str) -> int:
    """An ISO 8601 date or date-time as epoch ms; without a zone it is read as UTC."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInputError(
            f"{name} must be an ISO 8601 time such as 2025-11-17T16:30:00Z, got {shorten(text)}"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    ms = (moment - _EPOCH) // timedelta(milliseconds=1)
    if not 0 <= ms <= MAX_TS:
        raise InvalidInputError(f"{name} must be between 1970 and 9999, got {shorten(text)}")
    return ms


def format_iso8601(ms: int) -> str:
    """Epoch ms as UTC ISO 8601 with a ``Z``; milliseconds only when there are some."""
    moment = _EPOCH + timedelta(milliseconds=ms)
    fraction = f".{ms % 1000:03d}" if ms % 1000 else ""
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"


def _optional_string(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise InvalidInputError(f"{key} must be a string or null, got {type(value).__name__}")
    return value


def _string_list(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInputError(f"{key} must be a list of strings")
    return tuple(value)


def parse_ingest_json(payload: bytes) -> IngestRequest:
    """One JSON object: structured (``topic`` required) or legacy (``{"text": ...}``)."""
    if len(payload) > MAX_INGEST_BYTES:
        raise InvalidInputError(f"the memory JSON is larger than {MAX_INGEST_BYTES} bytes")
    try:
        data = json.loads(payload.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise InvalidInputError(
            'stdin is not valid UTF-8 JSON; send one object such as {"topic": "...",'
            ' "decisions": ["..."]} or {"text": "..."}'
        ) from None
    if not isinstance(data, dict):
        raise InvalidInputError(
            'the memory must be a JSON object such as {"topic": "..."} or {"text": "..."}'
        )
    if "text" in data:
        if set(data) != {"text"}:
            extra = ", ".join(sorted(set(data) - {"text"}))
            raise InvalidInputError(
                f"a legacy memory has only a text; drop {extra}, or send a structured memory"
                " with a topic instead of a text"
            )
        text = data["text"]
        if not isinstance(text, str) or not text.strip():
            raise InvalidInputError("text must be a non-blank string")
        return IngestRequest(text=text, fields=None)
    if "topic" not in data:
        raise InvalidInputError(
            'the memory needs a "topic" (structured) or a "text" (legacy memory)'
        )
    unknown = sorted(set(data) - STRUCTURED_KEYS)
    if unknown:
        raise InvalidInputError(
            f"unknown key(s) {', '.join(unknown)}; a structured memory may have: "
            + ", ".join(sorted(STRUCTURED_KEYS))
        )
    topic = data["topic"]
    if not isinstance(topic, str):
        raise InvalidInputError("topic must be a non-blank string")
    status = data.get("status")
    if status is None:
        status = "Active"
    if status not in SUMMARY_STATUSES:
        raise InvalidInputError(
            f"invalid status {shorten(str(status))}; use one of: {', '.join(SUMMARY_STATUSES)}"
        )
    source = _optional_string(data, "source_created_at")
    fields = MemoryFields(
        topic=topic,
        status=status,
        context=_optional_string(data, "context"),
        topic_id=_optional_string(data, "topic_id"),
        plan_id=_optional_string(data, "plan_id"),
        session_id=_optional_string(data, "session_id"),
        source_created_at=(None if source is None else parse_iso8601(source, "source_created_at")),
        decisions=_string_list(data, "decisions"),
        rationale=_string_list(data, "rationale"),
        open_questions=_string_list(data, "open_questions"),
        next_steps=_string_list(data, "next_steps"),
        references=_string_list(data, "references"),
    )
    return IngestRequest(text=None, fields=check_memory_fields(fields))
