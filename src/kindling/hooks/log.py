"""The hook log: one line per problem in ``$KINDLING_HOME/hooks.log``, private, bounded.

A leaf of the hooks package, so that ``hooks`` (the entry point) and ``hooks.runner`` (which
the entry point loads lazily) both write to it without importing each other.

Must not import anything from Kindling except ``kindling.config`` (lazily); standard library
only (every hook process imports it).
"""

from __future__ import annotations

import os
import time

LOG_NAME = "hooks.log"
LOG_MAX_BYTES = 1 << 20


def log_problem(event: str, message: str) -> None:
    """Append one line to the hook log; never raises. Payload contents are never logged."""
    try:
        from kindling.config import kindling_home
        from kindling.private_files import private_dir

        home = private_dir(kindling_home())  # 0700, its new parents too
        path = os.path.join(home, LOG_NAME)
        if os.path.exists(path) and os.path.getsize(path) > LOG_MAX_BYTES:
            os.replace(path, path + ".1")
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line = " ".join(message.split())[:2000]
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)  # private
        os.fchmod(fd, 0o600)  # an older log created 0644 becomes private too
        with os.fdopen(fd, "a", encoding="utf-8") as fh:
            fh.write(f"{stamp} pid={os.getpid()} {event or '-'} {line}\n")
    except Exception:  # the log is best effort; nothing may escape a hook
        pass


RAN_DIR = "hooks-ran"  # in Kindling's home: one empty file per agent whose hooks have run


def ran_marker(agent: str) -> str:
    from kindling.config import kindling_home

    return os.path.join(kindling_home(), RAN_DIR, agent)


def note_run(agent: str) -> None:
    """Mark that ``agent``'s hooks ran (one ``stat`` after the first time): ``kindling doctor``
    warns about hooks installed that never ran. Never raises."""
    try:
        path = ran_marker(agent)
        if os.path.exists(path):
            return
        from kindling.private_files import private_dir

        private_dir(os.path.dirname(path))
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    except Exception:  # best effort, as the log
        pass
