"""Claude Code hooks: ``kindling hook EVENT`` reads the hook's JSON on stdin, records what
happened and, for some events, prints context for the agent.

A hook never blocks the agent: whatever goes wrong (bad input, a locked or broken database, a
bug), it exits 0 and appends one line to ``<data dir>/hooks.log``; a watchdog ends the process
after ``DEADLINE_S`` even if the database hangs. ``run_hook_cli`` is reached without importing
click (see ``kindling.cli``), and this module imports only the standard library at import time;
the engine is imported when an event needs it.

Must not import click, the CLI or the MCP server.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from kindling.hooks.payload import EVENTS

DEADLINE_S = 8  # Kindling installs its hooks with a 10 s timeout; end before Claude Code kills us
LOG_NAME = "hooks.log"
LOG_MAX_BYTES = 1 << 20

HELP = f"""Usage: kindling hook EVENT [--db PATH]

  Run one Claude Code hook: read the hook's JSON from stdin, record it in Kindling's
  database and, for SessionStart (and UserPromptSubmit when inject_on_prompt is on),
  print context for the agent as hookSpecificOutput.additionalContext.

  Always exits 0: problems go to $KINDLING_HOME/{LOG_NAME}, never to the agent.
  Install the hooks with: kindling init --claude-code

Events:
  {", ".join(EVENTS)}

Example:
  echo '{{"session_id": "s1", "cwd": "'$PWD'", "source": "startup"}}' | kindling hook SessionStart

Options:
  --db PATH   Database file (default: $KINDLING_DB, else $KINDLING_HOME/kindling.db).
  -h, --help  Show this message and exit.
"""


def log_problem(event: str, message: str) -> None:
    """Append one line to the hook log; never raises. Payload contents are never logged."""
    try:
        from kindling.hooks.config import kindling_home

        home = kindling_home()
        home.mkdir(parents=True, exist_ok=True)
        path = home / LOG_NAME
        if path.exists() and path.stat().st_size > LOG_MAX_BYTES:
            path.replace(home / (LOG_NAME + ".1"))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line = " ".join(message.split())[:2000]
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"{stamp} pid={os.getpid()} {event or '-'} {line}\n")
    except Exception:  # the log is best effort; nothing may escape a hook
        pass


def _arm_watchdog(event: str) -> None:
    import signal

    if not hasattr(signal, "SIGALRM"):
        return

    def expire(signum: int, frame: object) -> None:
        log_problem(event, f"gave up after {DEADLINE_S}s (database busy or slow)")
        os._exit(0)

    signal.signal(signal.SIGALRM, expire)
    signal.alarm(DEADLINE_S)


def _parse_args(args: list[str]) -> tuple[str | None, Path | None, bool]:
    event: str | None = None
    db: Path | None = None
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in ("-h", "--help"):
            return None, None, True
        if arg == "--db" and rest:
            db = Path(rest.pop(0)).expanduser()
        elif arg.startswith("--db="):
            db = Path(arg[5:]).expanduser()
        elif event is None and not arg.startswith("-"):
            event = arg
    return event, db, False


def _read_stdin() -> bytes:
    stream = sys.stdin
    if stream is None or stream.isatty():
        return b""
    from kindling.hooks.payload import MAX_STDIN_BYTES

    return stream.buffer.read(MAX_STDIN_BYTES + 1)


def _is_process_entry() -> bool:
    """True when this process is ``kindling hook ...`` itself (the CLI's fast path)."""
    argv = sys.argv
    return len(argv) > 1 and argv[1] == "hook" and Path(argv[0]).stem == "kindling"


def run_hook_cli(
    args: list[str], *, db: Path | None = None, exit_process: bool | None = None
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
    event, arg_db, want_help = _parse_args(args)
    if want_help:
        sys.stdout.write(HELP)
        return 0
    label = event or "-"
    try:
        _arm_watchdog(label)
        raw = _read_stdin()
        output = _run(event, raw, arg_db or db, keep_open=exit_process)
        if output:
            sys.stdout.write(output + "\n")
            sys.stdout.flush()
    except BaseException as exc:  # the contract is: never block the agent, whatever happened
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        at = f" at {Path(where[0].filename).name}:{where[0].lineno}" if where else ""
        log_problem(label, f"{type(exc).__name__}: {exc}{at}")
    if exit_process:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(0)
    return 0


def _run(event: str | None, raw: bytes, db: Path | None, *, keep_open: bool) -> str | None:
    from kindling.hooks.config import default_db_path, load_hook_config
    from kindling.hooks.payload import MAX_STDIN_BYTES, parse_payload

    if len(raw) > MAX_STDIN_BYTES:
        raise ValueError(f"hook input larger than {MAX_STDIN_BYTES} bytes; ignored")
    payload = parse_payload(raw, event)
    if payload.event not in EVENTS:
        raise ValueError(f"unknown hook event {payload.event!r}; use one of: {', '.join(EVENTS)}")
    cfg = load_hook_config()
    for problem in cfg.problems:
        log_problem(payload.event, problem)
    if url := os.environ.get("KINDLING_URL"):  # remote mode: spool, deliver, never block
        from kindling.hooks.remote import handle_remote

        done, shown = handle_remote(payload, cfg, url, os.environ.get("KINDLING_TOKEN"))
        for problem in done.failed:
            log_problem(payload.event, f"the server refused a spooled request: {problem}")
        return json.dumps(shown, ensure_ascii=False) if shown else None
    from kindling.hooks.runner import dumps, handle, open_kindling

    kd = open_kindling(db or default_db_path())
    try:
        output = handle(kd, payload, cfg)
    finally:
        if not keep_open:
            kd.close()
    return dumps(output) if output else None
