"""The bridge's wire contract: retrieve arguments, the ingest JSON, and ISO 8601 times.

Everything from outside (argv, stdin, environment) is parsed here once, into typed values; a
bad value raises ``ArgumentError`` (usage: exit 2) or ``InvalidInputError`` (exit 1) with a
message that says how to fix it. Nothing here touches the database.

Must not import ``kindling.cli``, ``kindling.store`` or any adapter.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from kindling.config import canonical_path, repo_root
from kindling.errors import ArgumentError, InvalidInputError
from kindling.model import SUMMARY_STATUSES, ChatMemoryFields
from kindling.model.memory_checks import LIST_FIELDS, check_memory_fields
from kindling.model.sanitize import MAX_TS

DEFAULT_MAX_RESULTS = 3
DEFAULT_MAX_TOKENS = 2000
DEFAULT_HALF_LIFE_DAYS = 7.0
MAX_RESULTS_RANGE = (1, 50)
MAX_TOKENS_RANGE = (100, 100_000)
HALF_LIFE_RANGE = (0.5, 90.0)
SEARCH_TOP_K_RANGE = (1, 10_000)  # candidates searched before ranking (the store's largest page)
TRUE_WORDS = frozenset({"1", "true", "yes", "y"})
MAX_INGEST_BYTES = 1 << 20  # the same bound as one captured observation

RETRIEVE_USAGE = (
    "usage: kindling bridge retrieve [--db PATH] WORKSPACE QUERY [MAX_RESULTS] [MAX_TOKENS]"
    " [HALF_LIFE_DAYS] [INCLUDE_SUPERSEDED] [SEARCH_TOP_K]\n"
    '   or: kindling bridge retrieve [--db PATH] --json \'{"workspace_path": ..., "query": ...}\'\n'
    "   or: python -m kindling.bridge.retrieve [--db PATH] WORKSPACE QUERY ..."
)
INGEST_USAGE = "usage: kindling bridge ingest [--db PATH] WORKSPACE  < memory.json"

STRUCTURED_KEYS = frozenset(
    {"topic", "context", "status", "topic_id", "plan_id", "session_id", "source_created_at"}
    | set(LIST_FIELDS)
)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class CommandLine:
    """Positional arguments and the options every bridge command accepts."""

    positional: tuple[str, ...]
    db: Path | str | None  # a file, or a database URL (``postgresql://...``) kept as given
    help: bool
    json_request: str | None = None  # ``--json '{...}'``


@dataclass(frozen=True, slots=True)
class RetrieveArgs:
    workspace: str
    query: str
    max_results: int = DEFAULT_MAX_RESULTS
    max_tokens: int = DEFAULT_MAX_TOKENS
    half_life_days: float = DEFAULT_HALF_LIFE_DAYS
    include_superseded: bool = False
    search_top_k: int | None = None  # None: every hit is a candidate


@dataclass(frozen=True, slots=True)
class IngestRequest:
    """A legacy memory (``text``, no ``fields``) or a structured one (``fields``)."""

    text: str | None
    fields: ChatMemoryFields | None


def shorten(value: str, limit: int = 120) -> str:
    """A value quoted for an error message, cut so one bad argument cannot flood the output."""
    return repr(value if len(value) <= limit else value[: limit - 1] + "…")


def database(value: str) -> Path | str:
    """A ``--db`` or ``$KINDLING_DB`` value: a URL stays a string (``Path`` would fold its
    ``//``), anything else is a file path."""
    return value if "://" in value else Path(value).expanduser()


def split_command_line(argv: Sequence[str]) -> CommandLine:
    """Pick out the leading options: ``--db PATH``/``--db=PATH``, ``--json REQUEST`` and
    ``-h``/``--help``. Options end at the first other word or at ``--``: from there on every
    word is an argument, even one that looks like an option (a QUERY of ``-h``, ``--db`` or
    ``--`` is text, and ``-5`` is a number)."""
    positional: list[str] = []
    db: Path | str | None = None
    request: str | None = None
    wants_help = False
    words = iter(argv)
    for word in words:
        if positional:
            positional.append(word)
        elif word == "--":
            positional.extend(words)
        elif word in ("-h", "--help"):
            wants_help = True
        elif word == "--db" or word.startswith("--db="):
            value = word[5:] if word.startswith("--db=") else next(words, "")
            if not value.strip():
                raise ArgumentError("--db needs a database file path, e.g. --db ./kindling.db")
            db = database(value)
        elif word == "--json" or word.startswith("--json="):
            request = word[7:] if word.startswith("--json=") else next(words, None)
            if request is None:
                raise ArgumentError(
                    '--json needs the request object, e.g. --json \'{"query": "x"}\''
                )
        else:
            positional.append(word)
    return CommandLine(tuple(positional), db, wants_help, request)


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


def _checked(args: RetrieveArgs) -> RetrieveArgs:
    if not args.query.strip():
        raise ArgumentError("QUERY is blank; pass the words to search the memories for")
    return replace(
        args,
        max_results=int(_clamp(args.max_results, MAX_RESULTS_RANGE)),
        max_tokens=int(_clamp(args.max_tokens, MAX_TOKENS_RANGE)),
        half_life_days=float(_clamp(args.half_life_days, HALF_LIFE_RANGE)),
        search_top_k=None
        if args.search_top_k is None
        else int(_clamp(args.search_top_k, SEARCH_TOP_K_RANGE)),
    )


def parse_retrieve_args(positional: Sequence[str]) -> RetrieveArgs:
    """WORKSPACE QUERY [MAX_RESULTS] [MAX_TOKENS] [HALF_LIFE_DAYS] [INCLUDE_SUPERSEDED]
    [SEARCH_TOP_K].

    Numbers out of range are clamped (max_results 1-50, max_tokens 100-100000, half-life
    0.5-90 days, search_top_k 1-10000); include_superseded is true for 1/true/yes/y in any
    case, else false. SEARCH_TOP_K (Flowbaby 0.3.13-0.5.13 pass it) is how many of the best
    text matches are ranked; without it every match is.
    """
    if len(positional) < 2:
        missing = "WORKSPACE and QUERY" if not positional else "QUERY"
        raise ArgumentError(f"missing {missing}; {RETRIEVE_USAGE}")
    if len(positional) > 7:
        raise ArgumentError(f"too many arguments ({len(positional)}, at most 7); {RETRIEVE_USAGE}")
    workspace, query, *rest = positional
    args = RetrieveArgs(workspace=workspace, query=query)
    if len(rest) > 0:
        args = replace(args, max_results=_whole_number(rest[0], "MAX_RESULTS"))
    if len(rest) > 1:
        args = replace(args, max_tokens=_whole_number(rest[1], "MAX_TOKENS"))
    if len(rest) > 2:
        args = replace(args, half_life_days=_number(rest[2], "HALF_LIFE_DAYS"))
    if len(rest) > 3:
        args = replace(args, include_superseded=rest[3].strip().lower() in TRUE_WORDS)
    if len(rest) > 4:
        args = replace(args, search_top_k=_whole_number(rest[4], "SEARCH_TOP_K"))
    return _checked(args)


def _json_number(data: Mapping[str, Any], key: str, whole: bool) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ArgumentError(f"{key} must be a number, got {shorten(json.dumps(value))}")
    if whole and value != int(value):
        raise ArgumentError(f"{key} must be a whole number, got {value}")
    return value


def parse_retrieve_json(text: str) -> RetrieveArgs:
    """The request object of ``retrieve --json`` (the fields of ``RetrieveArgs``, named as in
    Flowbaby's client). Other keys, such as its ``__user_session_id`` envelope, are ignored:
    a client that adds a field must not lose every answer."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ArgumentError(
            '--json needs one JSON object such as {"workspace_path": "/repo", "query": "auth"}'
        ) from None
    if not isinstance(data, dict):
        raise ArgumentError('--json needs one JSON object such as {"query": "auth", ...}')
    for key in ("workspace_path", "query"):
        if not isinstance(data.get(key), str):
            raise ArgumentError(f"--json needs {key} (a string)")
    args = RetrieveArgs(workspace=data["workspace_path"], query=data["query"])
    if (n := _json_number(data, "max_results", whole=True)) is not None:
        args = replace(args, max_results=int(n))
    if (n := _json_number(data, "max_tokens", whole=True)) is not None:
        args = replace(args, max_tokens=int(n))
    if (n := _json_number(data, "half_life_days", whole=False)) is not None:
        args = replace(args, half_life_days=float(n))
    if (n := _json_number(data, "search_top_k", whole=True)) is not None:
        args = replace(args, search_top_k=int(n))
    flag = data.get("include_superseded")
    if isinstance(flag, str):
        flag = flag.strip().lower() in TRUE_WORDS
    if flag is not None and not isinstance(flag, bool):
        raise ArgumentError("include_superseded must be true or false")
    return _checked(replace(args, include_superseded=bool(flag)))


def parse_ingest_args(positional: Sequence[str]) -> str:
    if not positional:
        raise ArgumentError(f"missing WORKSPACE; {INGEST_USAGE}")
    if len(positional) > 1:
        raise ArgumentError(
            f"too many arguments; the memory is read as JSON from stdin. {INGEST_USAGE}"
        )
    return positional[0]


def canonical_workspace(path: str) -> str:
    """The id of the workspace at ``path``, an existing directory: its repository's root
    (``config.repo_root``), the same id the CLI's ``--repo``, the hooks and MCP give it, so a
    memory of ``/repo/sub`` is a memory of ``/repo`` wherever it is read."""
    if not path.strip() or "\x00" in path:
        raise InvalidInputError("WORKSPACE must be the path of an existing directory")
    resolved = canonical_path(path)
    try:
        mode: int | None = os.stat(resolved).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as exc:  # name too long, symlink loop, ...
        reason = "symlink loop" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
        raise InvalidInputError(
            f"workspace {shorten(path)} cannot be resolved ({reason}); pass an existing directory"
        ) from None
    if mode is None or not stat.S_ISDIR(mode):
        what = "is not a directory" if mode is not None else "does not exist"
        raise InvalidInputError(
            f"workspace {shorten(path)} {what}; pass the path of an existing directory"
        )
    return repo_root(resolved)


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
    fields = ChatMemoryFields(
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
