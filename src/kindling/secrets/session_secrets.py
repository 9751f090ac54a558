"""Per-session memory of masked values, so a later copy of a secret is masked too.

``HEROKU_API_KEY=<uuid>`` names its value; ``heroku: using key <uuid>`` a line or an event
later does not. The scrubber masks every copy within one text (``secrets.scrub``); this module
carries what it masked to the later texts of the same session, which in the hook path are
written by other processes.

What is kept is never the value: a keyed hash (BLAKE2b, 16 bytes, with a random 32-byte key
made once per store) and the kind to report. A later text is cut into candidate stretches
(runs of value characters, and their parts between ``=``, ``:`` and ``@``); a stretch whose
keyed hash is remembered is masked as ``[REDACTED:<kind>]``.

Where it lives:
- hook processes (``spool``): a private directory beside the database,
  ``<database>-secrets/`` (0700), holding ``key`` and one file per session (0600), named by
  a hash of the session id. At most ``MAX_PER_SESSION`` values a session (oldest dropped);
  a file untouched for ``TTL_S`` is ignored and removed; SessionEnd removes its session's file;
  ``forget_all`` removes the directory.
- the engine (``Kindling``): the same files when they exist, read-only, plus what this process
  masked, in memory and bounded the same way (``SessionSecrets``).

Must not import anything from Kindling except ``secrets.scrub`` (lazily),
``secrets.regex_cache`` (its two patterns) and ``private_files``; standard library
only, and ``hashlib`` only when ``_blake2`` is missing (hooks import this: start-up matters).
"""

from __future__ import annotations

import os
import re
import time

from kindling.private_files import private_dir, write_private
from kindling.secrets.regex_cache import compile as cached_compile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Hasher = Callable[[bytes], str]

SECRETS_SUFFIX = "-secrets"
MAX_PER_SESSION = 256
MAX_SESSIONS_CACHED = 64  # sessions a long-lived process keeps in memory (oldest dropped)
TTL_S = 7 * 24 * 3600  # a session older than a week is over
_KEY_FILE = "key"
_FILE_SUFFIX = ".fp"
_MIN_CHARS = 8  # as ``secrets.scrub.MIN_COPY_CHARS``: shorter values are too often words

# Candidate stretches: runs of characters a credential is made of; their parts between
# separators that join a key, a user or a host to a value.
_RUN = cached_compile(r"[^\s\"'`<>(){}\[\],;|\\]{8,}", re.ASCII)
_PART = cached_compile(r"[^\s\"'`<>(){}\[\],;|\\=:@&?#/]{8,}", re.ASCII)
_TRIM = ".:!?=/"


def secrets_dir(db_path: str) -> str:
    """Where the session memory of the database at ``db_path`` lives (beside its -wal)."""
    return os.fspath(db_path) + SECRETS_SUFFIX


def _blake(key: bytes) -> Hasher:
    try:
        from _blake2 import blake2b
    except ImportError:  # an interpreter without the builtin module
        from hashlib import blake2b
    return lambda data: str(blake2b(data, key=key, digest_size=16).hexdigest())


def candidates(text: str) -> set[str]:
    """The stretches of ``text`` that could be a remembered value."""
    out: set[str] = set()
    for run in _RUN.findall(text):
        out.add(run)
        trimmed = run.strip(_TRIM)
        if len(trimmed) >= _MIN_CHARS:
            out.add(trimmed)
        for part in _PART.findall(run):
            out.add(part)
            trimmed = part.strip(_TRIM)
            if len(trimmed) >= _MIN_CHARS:
                out.add(trimmed)
    return out


class SessionSecrets:
    """Keyed hashes of the values masked in each session of one store.

    ``directory`` is the store's ``<database>-secrets`` (None for a database in memory);
    ``writes`` says whether this process adds to the files there (hooks) or only reads them
    and keeps its own additions in memory (the engine)."""

    def __init__(self, directory: str | None, *, writes: bool = False) -> None:
        self.directory = directory
        self.writes = writes
        self._hash: Hasher | None = None
        self._mem_key: bytes | None = None
        self._memory: dict[str, dict[str, str]] = {}  # session -> fingerprint -> kind
        self._files: dict[str, tuple[tuple[int, int], dict[str, str]]] = {}

    # ---------------------------------------------------------------- keys and files

    def _hasher(self, create: bool) -> Hasher | None:
        if self._hash is not None:
            return self._hash
        key = None
        if self.directory is not None:
            key = _read_key(self.directory, create=create and self.writes)
        if key is None:
            if self.directory is not None and self.writes:
                return None
            key = self._memory_key()
        self._hash = _blake(key)
        return self._hash

    def _memory_key(self) -> bytes:
        if self._mem_key is None:
            self._mem_key = os.urandom(32)
        return self._mem_key

    def _file(self, session: str) -> str | None:
        if self.directory is None:
            return None
        hasher = self._hasher(create=False)
        if hasher is None:
            return None
        name = hasher(b"session\x00" + session.encode("utf-8", "surrogatepass"))
        return os.path.join(self.directory, name + _FILE_SUFFIX)

    def _load(self, session: str) -> dict[str, str]:
        known = self._from_file(session)
        mine = self._memory.get(session)
        return {**known, **mine} if mine else known

    def _from_file(self, session: str) -> dict[str, str]:
        """The session's file, read again only when it changed (a hook wrote to it)."""
        path = self._file(session) if self.directory is not None else None
        if path is None:
            return {}
        try:
            info = os.stat(path)
        except OSError:
            return {}  # no memory yet
        if time.time() - info.st_mtime > TTL_S:
            if self.writes:
                with _quiet():
                    os.unlink(path)
            return {}
        stamp = (info.st_mtime_ns, info.st_size)
        cached = self._files.get(session)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        known: dict[str, str] = {}
        try:
            with open(path, encoding="ascii") as f:
                for line in f:
                    fp, _, kind = line.strip().partition(" ")
                    if fp and kind.isidentifier():
                        known.setdefault(fp, kind)
        except (OSError, ValueError):
            return {}  # one this process may not read, or damaged: nothing to mask
        if len(self._files) >= MAX_SESSIONS_CACHED:
            self._files.pop(next(iter(self._files)))
        self._files[session] = (stamp, known)
        return known

    # ---------------------------------------------------------------- the verbs

    def remember(self, session: str | None, values: dict[str, str]) -> None:
        """Keep the keyed hashes of ``values`` (value -> kind) for ``session``."""
        if not session or not values:
            return
        hasher = self._hasher(create=True)
        if hasher is None:
            return
        entries = {
            hasher(v.encode("utf-8", "surrogatepass")): kind
            for v, kind in values.items()
            if len(v) >= _MIN_CHARS
        }
        if not entries:
            return
        if self.writes and self.directory is not None:
            self._append(session, entries)
            return
        memory = self._memory.setdefault(session, {})
        memory.update(entries)
        while len(memory) > MAX_PER_SESSION:
            del memory[next(iter(memory))]
        while len(self._memory) > MAX_SESSIONS_CACHED:
            del self._memory[next(iter(self._memory))]

    def _append(self, session: str, entries: dict[str, str]) -> None:
        path = self._file(session)
        if path is None:
            return
        known = dict(self._from_file(session))
        known.update(entries)
        kept = list(known.items())[-MAX_PER_SESSION:]
        data = "".join(f"{fp} {kind}\n" for fp, kind in kept).encode("ascii")
        with _quiet():  # memory across processes is best effort; the masking already happened
            write_private(path, data)

    def mask(self, session: str | None, text: str) -> tuple[str, tuple[str, ...]]:
        """``text`` with every remembered value of ``session`` masked; the kinds masked."""
        if not session or not text:
            return text, ()
        if session not in self._memory and not self._has_file(session):
            return text, ()
        known = self._load(session)
        if not known:
            return text, ()
        hasher = self._hasher(create=False)
        if hasher is None:
            return text, ()
        hits: dict[str, str] = {}
        for candidate in candidates(text):
            kind = known.get(hasher(candidate.encode("utf-8", "surrogatepass")))
            if kind is not None:
                hits[candidate] = kind
        for value in sorted(hits, key=len, reverse=True):
            text = text.replace(value, f"[REDACTED:{hits[value]}]")
        return text, tuple(sorted(set(hits.values())))

    def mask_tree(self, session: str | None, value: object) -> tuple[object, set[str]]:
        """``value`` (a text, or JSON objects and lists holding texts) with every remembered
        value of ``session`` masked, and the kinds masked."""
        kinds: set[str] = set()

        def walk(item: object) -> object:
            if isinstance(item, str):
                text, found = self.mask(session, item)
                kinds.update(found)
                return text
            if isinstance(item, dict):
                return {k: walk(v) for k, v in item.items()}
            if isinstance(item, list):
                return [walk(v) for v in item]
            return item

        return walk(value), kinds

    def knows(self, session: str | None) -> bool:
        """True when something is remembered for ``session`` (cheap: no hashing)."""
        return bool(session) and (session in self._memory or self._has_file(str(session)))

    def _has_file(self, session: str) -> bool:
        if self.directory is None or not os.path.isdir(self.directory):
            return False
        path = self._file(session)
        return path is not None and os.path.exists(path)

    def forget(self, session: str | None) -> None:
        """Drop what is remembered for ``session`` (its file too, when this process writes)."""
        if not session:
            return
        self._memory.pop(session, None)
        if self.writes and self.directory is not None and os.path.isdir(self.directory):
            path = self._file(session)
            if path is not None:
                with _quiet():
                    os.unlink(path)


def forget_all(directory: str) -> None:
    """Remove the session memory of a store (every session, and the key)."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        with _quiet():
            os.unlink(os.path.join(directory, name))
    with _quiet():
        os.rmdir(directory)


def _read_key(directory: str, *, create: bool) -> bytes | None:
    path = os.path.join(directory, _KEY_FILE)
    try:
        with open(path, "rb") as f:
            key = f.read(64)
        if len(key) == 32:
            return key
    except OSError:
        pass
    if not create:
        return None
    try:
        private_dir(directory)
    except OSError:
        return None
    key = os.urandom(32)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, key)
        finally:
            os.close(fd)
        os.link(tmp, path)  # the first writer wins; a racing one reads its key
    except FileExistsError:
        pass
    except OSError:
        return None
    finally:
        with _quiet():
            os.unlink(tmp)
    return _read_key(directory, create=False)


class _quiet:
    """``contextlib.suppress(OSError)`` without importing contextlib on the hook path."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> bool:
        return kind is not None and issubclass(kind, OSError)
