"""Kindling's own small files outside the database, private and whole: the hooks' spool, the
scrubber's compiled patterns, the session-start cache and the session secrets.

- ``private_dir``: a directory only its owner may enter (0700), made with its missing parents
  (0700 too; ``mkdir``'s mode is filtered by the umask, so the mode is set after); one of ours
  that another tool left open is closed.
- ``write_private``: a file's whole new content (0600), written to a hidden temporary file
  beside it and renamed over it, so a reader sees the old file or the new one, never a part.
  A listing that matches on the file's suffix never sees the temporary file
  (``.<name>.<pid>.<random>.tmp``). It is removed again when anything fails, and the error is
  raised.

Standard library only (hooks import it at start-up). Must not import anything from Kindling.
"""

from __future__ import annotations

import os

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: str) -> str:
    """``path`` as a private directory (see the module); returns ``path``."""
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        info = os.stat(path)
        mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()  # no uids on Windows
        if info.st_mode & 0o077 and mine:  # made by another tool, or before this rule
            os.chmod(path, DIR_MODE)
        return path
    except FileNotFoundError:  # its parent (the data directory itself) is new too
        _new_parents(os.path.dirname(path))
        os.mkdir(path, DIR_MODE)
    os.chmod(path, DIR_MODE)
    return path


def _new_parents(path: str) -> None:
    """Make the missing folders of ``path``, each 0700 (``os.makedirs`` makes all but the last
    with the umask's mode, 0755 as a rule); folders already there are left as they are."""
    if not path or os.path.isdir(path):
        return
    _new_parents(os.path.dirname(path))
    try:  # noqa: SIM105  (contextlib would cost the hook process an import)
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        pass


def write_private(path: str, data: bytes) -> None:
    """``data`` as the whole of ``path``, atomically and private (see the module)."""
    directory, name = os.path.split(path)
    tmp = os.path.join(directory, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    # O_EXCL: never through a symlink or into a file someone else made
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:  # noqa: SIM105  (contextlib would cost the hook process an import)
            os.unlink(tmp)
        except OSError:
            pass
        raise
