"""``kindling.locks``: a bounded wait for an ``flock``, shared or exclusive, between processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import locks


def other_process_holds(path: Path, shared: bool) -> subprocess.Popen[bytes]:
    code = (
        "import sys, time\n"
        "from kindling.locks import hold\n"
        "assert hold(sys.argv[1], 5.0, shared=sys.argv[2] == '1') is not None\n"
        "print('held', flush=True)\n"
        "time.sleep(30)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(path), "1" if shared else "0"], stdout=subprocess.PIPE
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"held"
    return proc


def ended(proc: subprocess.Popen[bytes]) -> None:
    proc.kill()
    proc.wait(30)
    assert proc.stdout is not None
    proc.stdout.close()


def test_an_exclusive_lock_keeps_others_out_until_its_process_ends(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    proc = other_process_holds(path, shared=False)
    try:
        assert locks.hold(path, 0.1) is None
        assert locks.hold(path, 0.1, shared=True) is None
    finally:
        ended(proc)
    fd = locks.hold(path, 5.0)
    assert fd is not None
    os.close(fd)
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_shared_locks_go_together_and_keep_an_exclusive_one_out(tmp_path: Path) -> None:
    path = tmp_path / "s.lock"
    proc = other_process_holds(path, shared=True)
    try:
        fd = locks.hold(path, 0.1, shared=True)
        assert fd is not None
        os.close(fd)
        assert locks.hold(path, 0.1) is None
    finally:
        ended(proc)


def test_a_lock_that_cannot_be_opened_is_none(tmp_path: Path) -> None:
    assert locks.open_lock(tmp_path / "gone" / "x.lock") is None
    assert locks.hold(tmp_path / "gone" / "x.lock", 0.0) is None


@settings(max_examples=20, deadline=None)
@given(wait=st.floats(min_value=-1.0, max_value=0.05, allow_nan=False))
def test_any_wait_on_a_free_lock_takes_it(wait: float) -> None:
    """A zero or negative wait still tries once."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        fd = locks.hold(Path(folder) / "f.lock", wait)
        assert fd is not None
        os.close(fd)
