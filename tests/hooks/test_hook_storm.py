"""No lost event: hooks in a storm, with forgets holding the write lock, store every event once.

Real ``kindling hook`` processes, as Claude Code starts them: 24 agents at once, each sending
tool, Stop and PreCompact events (spooled without touching the database; after Stop and
PreCompact a background refresher drains everyone's spool), while another process forgets
observations in a loop (each forget rewrites the index while holding the write lock). Then the
database is held locked for longer than the hooks' busy timeout. Nothing may be lost and
nothing stored twice.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kindling import Kindling
from kindling.engine.drain import drain
from kindling.spool import pending, spool_dir
from tests.support.hooks import KINDLING, payload, wait_for_refreshers

AGENTS = 24
TOOL_EVENTS_PER_AGENT = 4
WAIT_S = 300

# The adversary: appends and forgets in a loop. It tolerates store errors (a lock past the busy
# timeout). Before the store capped FTS5's structure levels (store/sqlite/purge.py), ~1,000 forgets
# here made the index unreadable to every new connection, and this test failed.
FORGET_LOOP = """
import sys
from pathlib import Path
import sqlite3
from kindling import Kindling, KindlingError
db, stop = sys.argv[1], Path(sys.argv[2])
forgotten = 0
with Kindling.open(db) as kd:
    while not stop.exists():
        try:
            obs = kd.append_observation(kind="message", content=f"forgettable zebra {forgotten}")
            kd.forget(obs.id)
            forgotten += 1
        except (KindlingError, sqlite3.Error):
            pass
print(forgotten)
"""


def _hook(event: str, data: dict[str, object]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [KINDLING, "hook", event],
        input=json.dumps(data).encode(),
        capture_output=True,
        env=dict(os.environ),
        timeout=WAIT_S,
        check=False,
    )


def _agent(repo: Path, agent: int, results: list[subprocess.CompletedProcess[bytes]]) -> None:
    session = f"storm-session-{agent}"
    for e in range(TOOL_EVENTS_PER_AGENT):
        data = payload(
            "post_tool_use_bash",
            repo,
            session_id=session,
            tool_input={"command": f"make check-storm-a{agent}-e{e}"},
            tool_response={"stdout": f"storm marker a{agent}e{e}", "stderr": ""},
            tool_use_id=f"toolu_storm_a{agent}_e{e}",
        )
        results.append(_hook("PostToolUse", data))
        if e == 1:  # mid-stream: this agent's turn ends (Stop), then a PreCompact
            results.append(_hook("Stop", payload("stop", repo, session_id=session)))
            pre = payload("pre_compact", repo, session_id=session)
            results.append(_hook("PreCompact", pre))


@pytest.mark.slow
def test_a_hook_storm_with_a_forget_loop_stores_every_event_exactly_once(
    git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = Path(os.environ["KINDLING_DB"])
    with Kindling.open(db) as kd, kd.batch():  # some history, so that forgets take a while
        for i in range(2_000):
            kd.append_observation(kind="command", content=f"history item {i} build deploy")
    stop = tmp_path / "stop-forgetting"
    forgetter = subprocess.Popen(
        [sys.executable, "-c", FORGET_LOOP, str(db), str(stop)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    results: list[subprocess.CompletedProcess[bytes]] = []
    try:
        agents = [
            threading.Thread(target=_agent, args=(git_repo, a, results)) for a in range(AGENTS)
        ]
        for t in agents:
            t.start()
        for t in agents:
            t.join(WAIT_S)
    finally:
        stop.touch()
        out, err = forgetter.communicate(timeout=WAIT_S)
    assert forgetter.returncode == 0, err[-2000:]
    assert int(out) > 0  # the forget loop really ran during the storm
    assert len(results) == AGENTS * (TOOL_EVENTS_PER_AGENT + 2)
    assert all((r.returncode, r.stdout, r.stderr) == (0, b"", b"") for r in results)

    # Past the busy timeout: a prompt's hook that injects gives up on the database, and the
    # events wait in the spool (Stop and PreCompact never open it: they only write the spool).
    # No background refresher here: the storm's are done first, and the hooks below start none,
    # so the prompt's hook is the drainer.
    wait_for_refreshers(db)
    monkeypatch.setenv("KINDLING_HOOK_REFRESH", "0")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        late = payload("post_tool_use_bash", git_repo, session_id="storm-late")
        late["tool_input"] = {"command": "make check-storm-late"}
        late["tool_use_id"] = "toolu_storm_late"
        assert _hook("PostToolUse", late).returncode == 0
        assert _hook("Stop", payload("stop", git_repo, session_id="storm-late")).returncode == 0
        pre = payload("pre_compact", git_repo, session_id="storm-late")
        assert _hook("PreCompact", pre).returncode == 0
        home = Path(os.environ["KINDLING_HOME"])
        (home / "config.json").write_text('{"hooks": {"inject_on_prompt": true}}')
        prompt = payload("user_prompt_submit", git_repo, session_id="storm-late")
        assert _hook("UserPromptSubmit", prompt).returncode == 0
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    log = (Path(os.environ["KINDLING_HOME"]) / "hooks.log").read_text(encoding="utf-8")
    assert "UserPromptSubmit DatabaseLockedError" in log
    assert "PostToolUse" not in log  # a capture hook never touches the database
    assert "Stop" not in log  # nor does Stop
    assert "PreCompact" not in log  # nor PreCompact
    assert len(pending(spool_dir(str(db)))) >= 4  # kept for the next drain

    with Kindling.open(db) as kd:  # the next command drains what is left
        # Opening drains for at most DRAIN_ON_OPEN_S; on a loaded machine the rest waits for
        # the next open. Finish without a time budget: what matters is exactly once.
        drain(kd, spool_dir(str(db)), budget_s=120)
        assert pending(spool_dir(str(db))) == []
        stored = kd.list_observations(kind="command", limit=10_000)
        summaries = kd.list_summaries(limit=1_000)
    markers = [f"check-storm-a{a}-e{e}" for a in range(AGENTS) for e in range(4)]
    markers.append("check-storm-late")
    counts = {m: sum(f"$ make {m}\n" in o.content for o in stored) for m in markers}
    assert counts == dict.fromkeys(markers, 1)
    # Every agent's Stop (then PreCompact, from the transcript) saved its summary, once, on
    # its own capsule.
    ours = [s for s in summaries if s.content.startswith(("Fixed the 500", "Done: login()"))]
    assert len(ours) == len({s.capsule_id for s in ours}) == AGENTS + 1
