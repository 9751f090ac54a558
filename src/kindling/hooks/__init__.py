"""Agents' hooks: ``kindling hook [--agent NAME] EVENT`` reads the hook's JSON on stdin, records
what happened and, for some events, prints context for the agent. The agent (``kindling.agents``,
Claude Code by default) turns its payload into a canonical event (``agents.events``); from there
on every agent takes the same path, and nothing here names one.

Two paths, so that the events that fire on every tool call cost the agent nothing:

- Capture (every event but the two below): map the payload, scrub it, write its records to
  the spool (``kindling.spool``) and exit. No engine, model or store is imported; nothing
  waits for the database. After SessionStart, Stop, StopFailure, PreCompact and SessionEnd a
  detached refresher applies the spool (``hooks.refresh``).
- Engine (SessionStart, and UserPromptSubmit with ``inject_on_prompt``): only the hooks that
  print open the database. They write the event's record to the spool too, then open the
  database (which drains the spool into it) and do what the event asks: open the session's
  capsule, inject context.

Either way the event is in the spool, scrubbed, before anything touches the database, so a
locked or slow database loses nothing: the records wait for the next drain.

A hook never blocks the agent: whatever goes wrong (bad input, a locked or broken database, a
bug), it exits 0 and appends one line to ``<data dir>/hooks.log``; a watchdog ends the process
after ``DEADLINE_S`` even if the database hangs. ``run_hook_cli`` is reached without importing
click (see ``kindling.cli``). This package imports only the standard library on the capture
path, and no dataclasses, typing or pathlib: each costs milliseconds on every tool call.

Must not import click, the CLI or the MCP server.
"""

from __future__ import annotations

import json
import os
import sys

from kindling.agents import DEFAULT
from kindling.agents.events import EVENTS
from kindling.hooks.log import LOG_NAME, log_problem, note_run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from kindling.agents.events import HookPayload
    from kindling.agents.protocol import Agent

REGEX_CACHE_DIR = "cache"  # in Kindling's home: the scrubber's compiled patterns (0700)
DEADLINE_S = 8  # Kindling installs its hooks with a 10 s timeout; end before Claude Code kills us

HELP = """Usage: kindling hook [--agent NAME] EVENT [--db PATH]

  Run one hook of a coding agent: read the hook's JSON from stdin, as the agent sends it,
  and record it (first in the spool beside the database, scrubbed; the database takes it at
  the next drain). For SessionStart (and UserPromptSubmit when inject_on_prompt is on), print
  context for the agent as hookSpecificOutput.additionalContext.

  Always exits 0: problems go to $KINDLING_HOME/{log}, never to the agent.
  Install the hooks with: kindling init {flags}

Events ({default}'s, the canonical ones; --agent NAME takes that agent's events):
  {events}

Example:
  echo '{{"session_id": "s1", "cwd": "'$PWD'", "source": "startup"}}' | kindling hook SessionStart

Options:
  --agent NAME  The agent whose hook this is: {names} (default: {default}).
  --db PATH     Database file (default: $KINDLING_DB, else $KINDLING_HOME/kindling.db).
  -h, --help    Show this message and exit.
"""


def help_text() -> str:
    """``HELP`` with the agents of the registry (``kindling.agents``) filled in."""
    from kindling.agents import DEFAULT, agents, names

    return HELP.format(
        log=LOG_NAME,
        flags=" | ".join(a.FLAG for a in agents()),
        default=DEFAULT,
        events=", ".join(EVENTS),
        names="|".join(names()),
    )


# Events that need the database now (what they print comes from it); the others only write to
# the spool. Stop, StopFailure, PreCompact and SessionEnd are synchronous (``claude -p`` cancels
# the background hooks still running when it exits, and then runs no SessionEnd), so they only
# write the spool; a refresher, the next SessionStart or any open applies it.
ENGINE_EVENTS = ("SessionStart",)
# After these the database has work waiting: a detached refresher applies it and computes the
# next SessionStart's context (``hooks.start_cache``, ``hooks.refresh``).
REFRESH_EVENTS = ("SessionStart", "Stop", "StopFailure", "PreCompact", "SessionEnd")


def _signals() -> Any:
    """The C ``_signal`` module: ``signal`` itself turns its constants into enums at import,
    milliseconds that every hook process would pay."""
    import importlib

    try:
        return importlib.import_module("_signal")
    except ImportError:  # pragma: no cover - an interpreter without it
        return importlib.import_module("signal")


def _arm_watchdog(event: str) -> None:
    signal = _signals()
    if not hasattr(signal, "SIGALRM"):
        return

    def expire(signum: int, frame: object) -> None:
        log_problem(event, f"gave up after {DEADLINE_S}s (database busy or slow)")
        os._exit(0)

    signal.signal(signal.SIGALRM, expire)
    signal.alarm(DEADLINE_S)


def _disarm_watchdog() -> None:
    signal = _signals()
    if hasattr(signal, "SIGALRM"):
        signal.alarm(0)


def _parse_args(args: list[str]) -> tuple[str | None, str | None, str | None, bool]:
    event: str | None = None
    db: str | None = None
    agent: str | None = None
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in ("-h", "--help"):
            return None, None, None, True
        if arg == "--db" and rest:
            db = os.path.expanduser(rest.pop(0))
        elif arg.startswith("--db="):
            db = os.path.expanduser(arg[5:])
        elif arg == "--agent" and rest:
            agent = rest.pop(0)
        elif arg.startswith("--agent="):
            agent = arg[8:]
        elif event is None and not arg.startswith("-"):
            event = arg
    return event, db, agent, False


def _read_stdin() -> bytes:
    stream = sys.stdin
    if stream is None or stream.isatty():
        return b""
    from kindling.agents.events import MAX_STDIN_BYTES

    return stream.buffer.read(MAX_STDIN_BYTES + 1)


def _is_process_entry() -> bool:
    """True when this process is ``kindling hook ...`` itself (the CLI's fast path)."""
    argv = sys.argv
    name = os.path.basename(argv[0]) if argv else ""
    return len(argv) > 1 and argv[1] == "hook" and os.path.splitext(name)[0] == "kindling"


def run_hook_cli(
    args: list[str], *, db: str | os.PathLike[str] | None = None, exit_process: bool | None = None
) -> int:
    """Entry point of ``kindling hook``. Returns the exit status: always 0.

    As its own process (``exit_process``; by default when argv is ``kindling hook ...``) it
    ends with ``os._exit(0)`` once its output is flushed, leaving the database connection
    open: closing the last connection checkpoints and deletes the WAL, and the next hook
    would recreate it, two synced writes that cost more than everything else the hook does.
    Committed data is safe either way (it is in the WAL; SQLite recovers it on next open).
    """
    if exit_process is None:
        exit_process = _is_process_entry()
    event, arg_db, agent, want_help = _parse_args(args)
    if want_help:
        sys.stdout.write(help_text())
        return 0
    label = event or "-"
    try:
        _arm_watchdog(label)
        if (agent or DEFAULT).replace("-", "_").isidentifier():  # never a path
            note_run(agent or DEFAULT)
        raw = _read_stdin()
        target = arg_db or (os.fspath(db) if db is not None else None)
        output = _run_cached(event, raw, target, keep_open=exit_process, agent=agent)
        if output:
            sys.stdout.write(output + "\n")
            sys.stdout.flush()
    except BaseException as exc:  # the contract is: never block the agent, whatever happened
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        at = f" at {os.path.basename(where[0].filename)}:{where[0].lineno}" if where else ""
        log_problem(label, f"{type(exc).__name__}: {exc}{at}")
    if not exit_process:
        _disarm_watchdog()  # called in-process: the watchdog must not end the caller later
    if exit_process:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(0)
    return 0


def _run_cached(
    event: str | None, raw: bytes, db: str | None, *, keep_open: bool, agent: str | None
) -> str | None:
    """``_run`` with the scrubber's compiled patterns kept in Kindling's home between hook
    processes (``secrets.regex_cache``): compiling them was most of a capture hook's CPU.
    Turned on before ``_run`` imports the modules that compile patterns at import."""
    from kindling.config import kindling_home
    from kindling.secrets import regex_cache

    regex_cache.enable(os.path.join(kindling_home(), REGEX_CACHE_DIR))
    try:
        return _run(event, raw, db, keep_open=keep_open, agent=agent)
    finally:
        regex_cache.save()
        regex_cache.enable(None)  # called in-process: the caller compiles as it did


def _run(
    event: str | None, raw: bytes, db: str | None, *, keep_open: bool, agent: str | None = None
) -> str | None:
    from kindling.agents import read
    from kindling.agents.events import MAX_STDIN_BYTES, parse_json
    from kindling.config import repo_root
    from kindling.entry import chosen
    from kindling.hooks.config import load_hook_config

    if len(raw) > MAX_STDIN_BYTES:
        raise ValueError(f"hook input larger than {MAX_STDIN_BYTES} bytes; ignored")
    found = read(agent or DEFAULT, event, parse_json(raw))
    if found is None:
        return None
    payload, sender = found
    if payload.event not in EVENTS:
        raise ValueError(f"unknown hook event {payload.event!r}; use one of: {', '.join(EVENTS)}")
    if keep_open:  # its own process: a lock held lasts as long as the hook
        from kindling.hooks.inflight import around

        # Stop waits for its session's tool hooks
        around(payload.event, payload.session_id, payload.transcript_path)
    cfg = load_hook_config()
    for problem in cfg.problems:
        log_problem(payload.event, problem)
    where = chosen(db=db)  # the rule of every adapter (``entry``): KINDLING_URL wins
    if where.remote:  # remote mode: spool, deliver, never block
        from kindling.hooks.remote import handle_remote

        done, shown = handle_remote(payload, cfg, where)
        for problem in done.failed:
            log_problem(payload.event, f"the server refused a spooled request: {problem}")
        return _render(sender, shown)
    target = where.location
    repo = repo_root(payload.cwd)
    prompt_injection = payload.event == "UserPromptSubmit" and cfg.inject_on_prompt
    if payload.event == "SessionStart":
        return _session_start(payload, sender, cfg, repo, target, keep_open)
    if payload.event not in ENGINE_EVENTS and not prompt_injection:
        from kindling.hooks.capture import spool

        spool(payload, cfg, repo, target)
        if payload.event in REFRESH_EVENTS:
            from kindling.hooks.start_cache import spawn_refresh

            spawn_refresh(target, repo)
        return None
    from kindling.hooks.runner import run_with_engine

    shown = run_with_engine(payload, cfg, repo, target, keep_open=keep_open)
    return _render(sender, shown)


def _session_start(
    payload: HookPayload, agent: Agent, cfg: Any, repo: str, target: str, keep_open: bool
) -> str | None:
    """The context kept for this state when it is still valid (no engine), else the full
    path; then a refresher opens the session's capsule and keeps the next context."""
    from kindling.hooks.config import config_path
    from kindling.hooks.start_cache import lookup, spawn_refresh
    from kindling.ids import wall_clock_ms

    opening = None
    if payload.session_id is not None:
        opening = [payload.session_id, payload.agent_label, str(wall_clock_ms())]
    hit, text = lookup(target, repo, config_path())
    if hit and not _missed_earlier(payload, agent):
        spawn_refresh(target, repo, opening)
        if text is None:
            return None
        context = {"hookEventName": payload.event, "additionalContext": text}
        return _render(agent, {"hookSpecificOutput": context})
    from kindling.hooks.runner import run_with_engine

    shown = run_with_engine(payload, cfg, repo, target, keep_open=keep_open)
    spawn_refresh(target, repo, opening)
    return _render(agent, shown)


def _missed_earlier(payload: HookPayload, agent: Agent) -> bool:
    """True when an earlier session's transcript holds tool calls not yet recorded (the full
    path records them before it injects)."""
    agent.noted(payload)
    return bool(agent.earlier(payload)[0])


def _render(agent: Agent, shown: dict[str, Any] | None) -> str | None:
    """The context to print, in the agent's own output shape."""
    if shown:
        shown = agent.render(shown["hookSpecificOutput"]["hookEventName"], shown)
    return json.dumps(shown, ensure_ascii=False) if shown else None
