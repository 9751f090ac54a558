"""Decoding request bodies: small ones here, large ones in a helper process.

``kindling serve`` is one Python process: while ``json.loads`` decodes a 4 MB body (100,000
ids: 20 ms of C that never lets go of the interpreter) nothing else runs, not the event loop,
not another team's search. Measured with py-spy on a flood of such bodies, decoding and then
deduplicating those lists were most of what the process did (see ``bench/list_flood.py``).
So a body of ``LARGE_BODY_BYTES`` or more is decoded by a helper process (one, started on
first use with ``spawn``, never ``fork`` from a threaded server), which also checks its depth
and makes equal strings one object before sending it back: a list that repeats one id
100,000 times then crosses as one string and 100,000 references (0.2 MB of pickle, under a
millisecond to load), and deduplicating it compares references. Large bodies from every
client wait their turn for the one helper (``MAX_LARGE_PARSES``), so a flood of them delays
its sender first.

``check_depth`` bounds JSON nesting after parsing, without recursion (the parser itself is
bounded by Python's recursion limit, a ``RecursionError`` that is a 400 here).

If the helper cannot be used (it died, or processes cannot be started), the body is decoded
here, as it always was.

Imports nothing of Kindling's but ``errors``: the helper process loads this module alone.
Must not import the CLI or other adapters.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import signal
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from kindling.errors import InvalidInputError

MAX_DEPTH = 32  # JSON nesting: a bundle needs 5, an observation's provenance a few more
LARGE_BODY_BYTES = 256 << 10  # below this, decoding costs less than the trip to the helper
MAX_LARGE_PARSES = 1  # large bodies decoded at once (the helper's one process)
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


def _helper_started() -> None:
    """The helper ignores Ctrl-C (the terminal sends it to the whole process group): the
    server stops it when it stops itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def decode_shared(data: bytes) -> tuple[bool, Any]:
    """The helper's side: ``(True, value)`` with equal strings shared, or ``(False, message)``
    of the 400 (an exception would have to cross processes)."""
    try:
        return True, _shared(decode(data), {})
    except InvalidInputError as exc:
        return False, exc.message


class BodyDecoder:
    """Decodes bodies for one application: large ones in the helper, one at a time."""

    def __init__(self) -> None:
        self._helper: Executor | None = None
        self._turn: asyncio.Semaphore | None = None
        self._broken = False

    def start(self) -> None:
        """Start the helper now (``kindling serve`` does, before it listens): its start, a
        new interpreter importing this module, would otherwise fall on the first large body."""
        try:
            self._executor().submit(decode_shared, b"{}")
        except (BrokenProcessPool, OSError) as exc:
            log.error("the body decoder's helper process did not start (%s)", exc)
            self._broken = True

    def _executor(self) -> Executor:
        if self._helper is None:
            context = multiprocessing.get_context("spawn")
            self._helper = ProcessPoolExecutor(1, mp_context=context, initializer=_helper_started)
        return self._helper

    async def decode(self, data: bytes) -> Any:
        if len(data) < LARGE_BODY_BYTES or self._broken:
            return decode(data)
        if self._turn is None:
            self._turn = asyncio.Semaphore(MAX_LARGE_PARSES)
        async with self._turn:
            try:
                future = self._executor().submit(decode_shared, data)
                ok, value = await asyncio.wrap_future(future)
            except (BrokenProcessPool, OSError) as exc:
                log.error("the body decoder's helper process failed (%s); decoding here", exc)
                self.close()
                self._broken = True
                return decode(data)
        if not ok:
            raise InvalidInputError(value)
        return value

    def close(self) -> None:
        if self._helper is not None:
            self._helper.shutdown(wait=False, cancel_futures=True)
            self._helper = None
