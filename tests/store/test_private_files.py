"""``kindling.private_files``: the one writer of Kindling's small files outside the database
(spool records, compiled patterns, the session-start cache, session secrets)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kindling.private_files import private_dir, write_private


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_directory_and_its_new_parent_are_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        target = tmp_path / "data" / "spool"
        assert private_dir(str(target)) == str(target)
    finally:
        os.umask(old)
    assert _mode(target) == 0o700
    assert _mode(target.parent) == 0o700


def test_an_open_directory_of_ours_is_closed(tmp_path: Path) -> None:
    target = tmp_path / "cache"
    target.mkdir()
    target.chmod(0o755)
    private_dir(str(target))
    assert _mode(target) == 0o700


def test_a_file_is_written_whole_private_and_replaced(tmp_path: Path) -> None:
    path = Path(private_dir(str(tmp_path / "files"))) / "entry.json"
    old = os.umask(0)
    try:
        write_private(str(path), b"first")
        write_private(str(path), b"second, longer")
    finally:
        os.umask(old)
    assert path.read_bytes() == b"second, longer"
    assert _mode(path) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["entry.json"]  # no temporary left


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    folder = Path(private_dir(str(tmp_path / "files")))
    path = folder / "entry.json"
    write_private(str(path), b"kept")
    (folder / "blocker").mkdir()
    with pytest.raises(IsADirectoryError):  # a directory cannot be replaced by a file
        write_private(str(folder / "blocker"), b"lost")
    assert path.read_bytes() == b"kept"
    assert sorted(p.name for p in folder.iterdir()) == ["blocker", "entry.json"]


def test_the_temporary_file_is_hidden_from_a_listing_by_suffix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real = os.replace

    def spy(src: str, dst: str) -> None:
        seen.append(os.path.basename(src))
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    write_private(str(tmp_path / "0001-rec.json"), b"{}")
    assert seen[0].startswith(".")
    assert not seen[0].endswith(".json")
