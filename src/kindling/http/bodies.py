"""Decoding request bodies: small ones here, large ones in a helper process.

``kindling serve`` is one Python process: while ``json.loads`` decodes a 4 MB body (100,000
ids: 20 ms of C that never lets go of the interpreter) nothing else runs, not the event loop,
not another team's search. Measured with py-spy on a flood of such bodies, decoding and then
deduplicating those lists were most of what the process did (see ``bench/list_flood.py``).
So a body of ``LARGE_BODY_BYTES`` or more is decoded by a helper process (one, started with
the server: ``BodyDecoder``), which also checks its depth and makes equal strings one object
before sending it back: a list that repeats one id 100,000 times then crosses as one string
and 100,000 references (0.2 MB of pickle, under a millisecond to load), and deduplicating it
compares references. Large bodies from every client take turns for the one helper, so a
flood of them delays its sender first.

``check_depth`` bounds JSON nesting after parsing, without recursion (the parser itself is
bounded by Python's recursion limit, a ``RecursionError`` that is a 400 here).

If the helper cannot be used (it died, or cannot start), the body is decoded here, as it
always was; after ``MAX_HELPER_FAILURES`` the server stops trying.

Imports nothing of Kindling's but ``errors``: the helper process loads this module alone.
Must not import the CLI or other adapters.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import pickle
import signal
import struct
import subprocess
import sys
import threading
from typing import IO, Any

from kindling.errors import InvalidInputError

MAX_DEPTH = 32  # JSON nesting: a bundle needs 5, an observation's provenance a few more
LARGE_BODY_BYTES = 256 << 10  # below this, decoding costs less than the trip to the helper
PIPE_BYTES = 1 << 20
MAX_HELPER_FAILURES = 3  # then the server decodes everything itself, as before the helper
log = logging.getLogger("kindling.http")


_SCALARS = frozenset({str, int, float, bool, type(None)})


def check_depth(value: Any, limit: int = MAX_DEPTH) -> None:
    """``InvalidInputError`` when ``value`` (decoded JSON) nests arrays/objects more than
    ``limit`` deep. Level by level; a container of scalars only is passed over at C speed
    (its types' set), so a list of 100,000 ids costs 2 ms, not 60."""
    level = [value] if type(value) is dict or type(value) is list else []
    depth = 1
    while level:
        if depth > limit:
            raise InvalidInputError(f"the body nests JSON more than {limit} levels deep")
        nested: list[Any] = []
        for item in level:
            children = item.values() if type(item) is dict else item
            if set(map(type, children)) <= _SCALARS:
                continue
            nested += [c for c in children if type(c) is dict or type(c) is list]
        level = nested
        depth += 1


def decode(data: bytes) -> Any:
    """The JSON value of a body (``{}`` when empty), at most ``MAX_DEPTH`` deep; a 400 else."""
    try:
        body = json.loads(data or b"{}")
    except ValueError as exc:  # UnicodeDecodeError included
        raise InvalidInputError(f"the body is not valid JSON ({exc})") from None
    except RecursionError:
        raise InvalidInputError("the body nests JSON too deeply") from None
    check_depth(body)
    return body


def _shared(value: Any, strings: dict[str, str]) -> Any:
    """``value`` with every string equal to an earlier one replaced by that one (keys too).
    Iterative: ``check_depth`` has bounded the depth, but recursion is not needed."""
    kind = type(value)
    if kind is str:
        return strings.setdefault(value, value)
    if kind is not list and kind is not dict:
        return value
    root: list[Any] = [value]
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if type(node) is list:
            if set(map(type, node)) <= {str}:  # a list of ids: at C speed
                node[:] = map(strings.setdefault, node, node)
                continue
            for i, item in enumerate(node):
                kind = type(item)
                if kind is str:
                    node[i] = strings.setdefault(item, item)
                elif kind is list or kind is dict:
                    stack.append(item)
        else:
            for key in list(node):
                item = node[key]
                kind = type(item)
                if kind is str:
                    item = strings.setdefault(item, item)
                elif kind is list or kind is dict:
                    stack.append(item)
                node[strings.setdefault(key, key)] = item
    return root[0]


def decode_shared(data: bytes) -> tuple[bool, Any]:
    """The helper's side: ``(True, value)`` with equal strings shared, or ``(False, message)``
    of the 400 (an exception would have to cross processes)."""
    try:
        return True, _shared(decode(data), {})
    except InvalidInputError as exc:
        return False, exc.message


_LENGTH = struct.Struct(">Q")  # each message on the helper's pipes: its length, then itself


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if data is None or len(data) != size:
        raise EOFError("the pipe closed")
    return data


def helper_main() -> None:
    """The helper process (``python -m kindling.http.bodies``): bodies in on stdin, each
    ``decode_shared`` pickled out on stdout, until stdin closes. It ignores Ctrl-C (a terminal
    sends it to the whole process group): it ends when the server closes its stdin."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            (size,) = _LENGTH.unpack(_read_exactly(source, _LENGTH.size))
            data = _read_exactly(source, size)
        except EOFError:
            return
        answer = pickle.dumps(decode_shared(data), protocol=5)
        try:
            sink.write(_LENGTH.pack(len(answer)) + answer)
            sink.flush()
        except BrokenPipeError:  # the server is gone
            return


def _widen(*pipes: IO[bytes] | None) -> None:
    """Pipes of 1 MiB where Linux allows (``F_SETPIPE_SZ``; 64 KiB by default): a 4 MB body
    then crosses in 4 turns of the two processes, not 64 (60 -> 45 ms for 100,000 repeats)."""
    try:
        import fcntl

        for pipe in pipes:
            if pipe is not None:
                fcntl.fcntl(pipe.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
    except (ImportError, OSError):  # another system, or over /proc/sys/fs/pipe-max-size
        pass


class BodyDecoder:
    """Decodes bodies for one application: large ones in the helper, one at a time.

    The helper is a plain ``python -P -m kindling.http.bodies`` behind two pipes, not a
    ``multiprocessing`` pool: ``spawn`` would run the server's own ``__main__`` again in the
    helper (a script that starts a server at import would start a second one), and ``fork``
    is unsafe in a threaded server. The exchange runs in a thread (the pipes' reads and writes
    release the interpreter; loading the answer is the only part that holds it)."""

    def __init__(self) -> None:
        self._helper: subprocess.Popen[bytes] | None = None
        self._turn = threading.Lock()  # one body in the helper at a time
        self._failures = 0

    def start(self) -> None:
        """Start the helper now (``kindling serve`` does, before it listens): its start, a
        new interpreter importing this module, would otherwise fall on the first large body."""
        with self._turn:
            self._started()

    def _started(self) -> subprocess.Popen[bytes] | None:
        if self._helper is None and self._failures < MAX_HELPER_FAILURES:
            try:
                self._helper = subprocess.Popen(
                    # -P: the working directory is not on its path (a json.py there is not run)
                    [sys.executable, "-P", "-m", "kindling.http.bodies"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                )
            except OSError as exc:
                self._failed(f"did not start ({exc})")
            else:
                _widen(self._helper.stdin, self._helper.stdout)
        return self._helper

    def _failed(self, why: str) -> None:
        self._failures += 1
        self.close()
        later = "" if self._failures >= MAX_HELPER_FAILURES else "; it starts again next time"
        log.error("the body decoder's helper process %s: decoding here%s", why, later)

    def _exchange(self, data: bytes) -> tuple[bool, Any]:
        with self._turn:
            helper = self._started()
            if helper is None or helper.stdin is None or helper.stdout is None:
                return decode_shared(data)
            try:
                helper.stdin.write(_LENGTH.pack(len(data)))
                helper.stdin.write(data)
                helper.stdin.flush()
                (size,) = _LENGTH.unpack(_read_exactly(helper.stdout, _LENGTH.size))
                answer: tuple[bool, Any] = pickle.loads(_read_exactly(helper.stdout, size))
                return answer
            except (OSError, EOFError, ValueError, pickle.UnpicklingError) as exc:
                self._failed(f"failed ({type(exc).__name__}: {exc})")
        return decode_shared(data)

    async def decode(self, data: bytes) -> Any:
        if len(data) < LARGE_BODY_BYTES:
            return decode(data)
        ok, value = await asyncio.to_thread(self._exchange, data)
        if not ok:
            raise InvalidInputError(value)
        return value

    def close(self) -> None:
        """Stop the helper: its stdin closes, and it ends."""
        helper, self._helper = self._helper, None
        if helper is None:
            return
        for pipe in (helper.stdin, helper.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):  # a dead helper's unsent bytes
                    pipe.close()
        try:
            helper.wait(timeout=5)
        except subprocess.TimeoutExpired:
            helper.kill()
            helper.wait()


if __name__ == "__main__":
    helper_main()
