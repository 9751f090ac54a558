"""The scrubber's compiled patterns kept on disk, so that a hook process does not compile them.

Why: a hook is a fresh Python process that scrubs one event, and compiling the fifty-odd
patterns a typical event wakes was two thirds of its own CPU time (issue 18). CPython compiles
a pattern in two steps: ``re._compiler`` parses the source into a program (a list of ints),
the slow step; ``_sre.compile`` turns that program into a ``Pattern``, a fast one. The program
depends only on the source, the flags and the interpreter, so this module keeps it in a file
and later processes skip the slow step.

A cache can make a compile faster, never different:

- A program is stored only after the ``Pattern`` built from it compared equal to the one
  ``re.compile`` returned (``Pattern`` equality compares the source, the flags and the whole
  program).
- The file is keyed by the interpreter (``_sre.MAGIC``, which changes whenever the program
  format does, ``sys.version`` and the cache tag), and each program carries a digest of its
  source, flags and program, checked when it is used (a digest of the whole file would cost
  more than the compiles it saves). A missing, corrupt, truncated or foreign file, another
  user's or a writable-by-others file, an entry whose digest fails, a program ``_sre``
  refuses (it validates every program it is given) or a private ``re`` API that moved: each
  falls back to ``re.compile`` silently.
- Only pattern sources and their programs are written, never a text a pattern is matched
  against; callers pass only sources written in Kindling's own modules (the scrubber's rules).
- The file is private (0600 in a 0700 directory) and written whole (a temporary file renamed
  over it), so a reader never sees half of it.

Off until a process turns it on with ``enable`` (the hooks do, with a directory in Kindling's
home) and written by ``save``. Must not import anything from Kindling except ``private_files``
(standard library only, as this module).
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # CPython's regex engine: no stubs
import marshal
import os
import re
import stat
import sys

from kindling.private_files import private_dir, write_private

__all__ = ["compile", "enable", "save"]

FILE_MAGIC = b"KRXC3\n"
DIGEST_BYTES = 16
MAX_FILE_BYTES = 8 << 20  # every scrubber program takes 0.7 MiB; a bigger file is not ours
MAX_ENTRIES = 2000  # more than twice the scrubber's patterns: a bound, not reached in practice

TYPE_CHECKING = False
if TYPE_CHECKING:
    # flags as _sre takes them, program, groups, groupindex, indexgroup
    Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]

# Each program is kept marshalled on its own and decoded when its pattern is asked for: the
# file holds every pattern any hook needed, a process decodes the few its event wakes.
_directory: str | None = None
_entries: dict[tuple[str, int], bytes] | None = None  # loaded from the file on first use
_added: dict[tuple[str, int], bytes] = {}  # compiled by this process, not yet saved


def enable(directory: str | None) -> None:
    """Keep programs in ``directory`` (created on ``save``); ``None`` turns the cache off."""
    global _directory, _entries
    _directory, _entries = directory, None
    _added.clear()


def compile(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, from the cache when it holds the program."""
    if _directory is None:
        return re.compile(source, flags)
    key = (source, int(flags))
    try:
        program = _unpack(key, _load().get(key))
        if program is not None:
            return _build(source, program)
    except Exception:  # a damaged entry is a miss: re.compile below decides
        pass
    pattern = re.compile(source, flags)
    try:
        program = _program(source, int(flags))
        if _build(source, program) == pattern:
            _added[key] = _load()[key] = _pack(key, program)
    except Exception:  # a private API that moved: the pattern is still re.compile's
        pass
    return pattern


def save() -> None:
    """Write the programs this process compiled to the cache file (merged with what another
    process wrote meanwhile). Never raises: a cache that cannot be written is just cold."""
    if _directory is None or not _added:
        return
    try:
        try:
            entries = _read(_path(_directory))
        except Exception:  # damaged or foreign: replaced by this process's entries
            entries = {}
        entries = {k: v for k, v in entries.items() if _intact(k, v)}
        entries.update(_added)
        if len(entries) > MAX_ENTRIES:
            entries = dict(_added)
        _write(_directory, entries)
        _added.clear()
    except Exception:  # the next process compiles and tries again
        pass


def _stamp() -> tuple[str, ...]:
    return ("1", str(_sre.MAGIC), sys.version, str(sys.implementation.cache_tag))


def _path(directory: str) -> str:
    return os.path.join(directory, f"regex-{sys.implementation.cache_tag}.bin")


def _load() -> dict[tuple[str, int], bytes]:
    global _entries
    if _entries is None:
        _entries = {}
        assert _directory is not None
        try:
            _entries = _read(_path(_directory))
        except Exception:  # unreadable or foreign: start empty, ``save`` rewrites it
            _entries = {}
    return _entries


def _pack(key: tuple[str, int], program: Program) -> bytes:
    code = marshal.dumps(program)
    return _digest(_key_bytes(key) + code) + code


def _key_bytes(key: tuple[str, int]) -> bytes:
    # Not marshal: its output for one value depends on reference counts.
    source, flags = key
    return f"{flags}\0{source}".encode("utf-8", "surrogatepass")


def _intact(key: object, stored: object) -> bool:
    """The entry's digest, of its key and program, checks."""
    if not (isinstance(key, tuple) and isinstance(stored, bytes) and len(key) == 2):
        return False
    source, flags = key
    if not (isinstance(source, str) and isinstance(flags, int)):
        return False
    code = stored[DIGEST_BYTES:]
    return stored[:DIGEST_BYTES] == _digest(_key_bytes((source, flags)) + code)


def _unpack(key: tuple[str, int], stored: bytes | None) -> Program | None:
    """The program of an entry whose digest checks, else None."""
    if stored is None or not _intact(key, stored):
        return None
    program: Program = marshal.loads(stored[DIGEST_BYTES:])
    return program


def _build(source: str, program: Program) -> re.Pattern[str]:
    flags, code, groups, groupindex, indexgroup = program
    pattern: re.Pattern[str] = _sre.compile(source, flags, code, groups, groupindex, indexgroup)
    return pattern


def _program(source: str, flags: int) -> Program:
    """The arguments ``re._compiler.compile`` hands ``_sre.compile`` (CPython 3.11 to 3.13)."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(source, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]  # opcodes are int subclasses
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (
        flags | parsed.state.flags,
        code,
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )


def _digest(body: bytes) -> bytes:
    try:
        from _blake2 import blake2b  # what hooks import anyway; hashlib costs milliseconds
    except ImportError:  # pragma: no cover - an interpreter built without it
        from hashlib import blake2b
    return blake2b(body, digest_size=DIGEST_BYTES).digest()


def _read(path: str) -> dict[tuple[str, int], bytes]:
    """The file's entries; ``{}`` when it does not exist. Raises on anything not ours."""
    try:
        # Not through a symlink, and never waiting on a FIFO put in its place.
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags)
    except FileNotFoundError:
        return {}
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("regex cache is not a regular file")
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
            raise ValueError("regex cache owned by another user or writable by others")
        if info.st_size > MAX_FILE_BYTES:
            raise ValueError("regex cache too large")
        data = os.read(fd, info.st_size + 1)
    finally:
        os.close(fd)
    if data[: len(FILE_MAGIC)] != FILE_MAGIC:
        raise ValueError("not a regex cache of this format")
    stamp, entries = marshal.loads(data[len(FILE_MAGIC) :])
    if stamp != _stamp() or not isinstance(entries, dict):
        raise ValueError("regex cache of another interpreter")
    return entries


def _write(directory: str, entries: dict[tuple[str, int], bytes]) -> None:
    private_dir(directory)
    write_private(_path(directory), FILE_MAGIC + marshal.dumps((_stamp(), entries)))
