"""``kindling hook EVENT`` as a real process, fed recorded Claude Code payloads."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from kindling import Kindling, Scope
from tests.support.hooks import injected, payload, run_hook, wait_for_refreshers

SESSION = "9f1c2a7e-5b3d-4c8e-a1f0-2d6b8e4c3a10"
TOOL_EVENTS = [
    "post_tool_use_bash",
    "post_tool_use_edit",
    "post_tool_use_write",
    "post_tool_use_read",
    "post_tool_use_grep",
    "post_tool_use_webfetch",
    "post_tool_use_mcp",
    "post_tool_use_read_env",
]


def db() -> Path:
    return Path(os.environ["KINDLING_DB"])


def log_text() -> str:
    path = Path(os.environ["KINDLING_HOME"]) / "hooks.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def write_config(**hooks: object) -> None:
    home = Path(os.environ["KINDLING_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.json").write_text(json.dumps({"hooks": hooks}), encoding="utf-8")


def run_session(repo: Path, cwd: Path | None = None) -> None:
    where = cwd or repo
    events = [
        ("SessionStart", "session_start"),
        ("UserPromptSubmit", "user_prompt_submit"),
        *[("PostToolUse", name) for name in TOOL_EVENTS],
        ("PostToolUseFailure", "post_tool_use_failure"),
        ("SubagentStop", "subagent_stop"),
        ("PreCompact", "pre_compact"),
        ("Stop", "stop"),
        ("SessionEnd", "session_end"),
    ]
    for event, name in events:
        proc = run_hook(event, payload(name, where, repo))
        assert proc.returncode == 0, (event, proc.stderr)
        assert proc.stderr == ""
        if event != "SessionStart":
            assert proc.stdout == "", (event, proc.stdout)


def test_a_whole_session_is_recorded_in_the_repo_scope(git_repo: Path) -> None:
    sub = git_repo / "auth"
    sub.mkdir()
    run_session(git_repo, cwd=sub)
    assert log_text() == ""
    with Kindling.open(db()) as kd:
        obs = kd.list_observations(scope=Scope(repo_id=str(git_repo)), limit=100)
        kinds = sorted(o.kind for o in obs)
        [capsule] = kd.list_capsules(scope=Scope(session_id=SESSION))
        summary = kd.get_summary(capsule.summary_id or "")
    # 4 of the 8 tool events are kept: the kindling MCP call, Read and Grep are skipped tools.
    assert kinds == sorted(
        [
            *("message", "command", "file_diff", "file_diff"),
            *("tool_call", "error", "message"),
        ]
    )
    assert capsule.status == "closed"
    assert capsule.scope == Scope(session_id=SESSION, repo_id=str(git_repo))
    assert set(capsule.observation_ids) == {o.id for o in obs}
    assert summary.content.startswith("Fixed the 500 on /login")
    assert 0 < summary.confidence < 0.7
    by_kind = {o.kind: o for o in obs}
    command = by_kind["command"].content
    assert command.startswith("$ pytest -q tests/test_session.py\n[completed]")
    assert "KeyError: 'user_id'" in command
    diffs = [o for o in obs if o.kind == "file_diff"]
    edit = next(o for o in diffs if o.provenance["tool"] == "Edit")
    assert "--- a/auth/session.py\n+++ b/auth/session.py\n@@ -40,3 +40,5 @@" in edit.content
    assert "+    if user_id is None:" in edit.content
    write = next(o for o in diffs if o.provenance["tool"] == "Write")
    assert "+++ b/docs/login.md" in write.content
    assert "+# Login" in write.content
    error = by_kind["error"]
    assert error.content.startswith("Bash failed: npm run build\n")
    assert "TS2322" in error.content
    everything = "\n".join(o.content for o in obs)
    assert "hunter2" not in everything  # a grep hit inside .env is dropped from the result
    assert "correct-horse" not in everything  # reading .env is never recorded
    assert "mcp__kindling" not in json.dumps([o.provenance for o in obs])


def test_session_start_injects_what_the_last_session_left(git_repo: Path) -> None:
    run_session(git_repo)
    add_background(git_repo, 30)  # newer than the session, and all routine tool calls
    proc = run_hook("SessionStart", payload("session_start", git_repo, session_id="next"))
    out = json.loads(proc.stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "[latest session summary] Fixed the 500 on /login" in context
    assert "auth/session.py" in context
    assert "[tool_call]" not in context  # routine reads and searches stay out at start-up
    assert "[error] Bash failed: npm run build" in context
    assert "[file_diff] Edit auth/session.py" in context
    assert len(context) < 10_000
    lines = context.splitlines()[1:]
    assert len(lines) == len(set(lines))  # deduplicated


def test_nothing_to_inject_prints_nothing(git_repo: Path, tmp_path: Path) -> None:
    proc = run_hook("SessionStart", payload("session_start", git_repo))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    run_session(git_repo)
    other = tmp_path / "elsewhere"  # not a git repo: its scope is the directory itself
    other.mkdir()
    proc = run_hook("SessionStart", payload("session_start", other, session_id="x"))
    assert proc.stdout == ""  # another repository's memory never leaks in


NOISE_TEXT = (
    "parser render cache widget config deploy docker makefile lint format invoice billing report"
    " chart axis label thread pool queue worker retry backoff schema migration column index"
)
NOISE = NOISE_TEXT.split()


def add_background(repo: Path, count: int = 60) -> None:
    """Unrelated work in the same repository, as a real store has: it gives BM25 its IDF."""
    with Kindling.open(db()) as kd:
        for i in range(count):
            words = [NOISE[(i * 7 + j * 3) % len(NOISE)] for j in range(25)]
            kd.append_observation(
                kind="tool_call", content=" ".join(words), scope=Scope(repo_id=str(repo))
            )


def test_prompt_injection_is_opt_in_relevant_and_deduplicated(git_repo: Path) -> None:
    run_session(git_repo)
    add_background(git_repo)
    for _ in range(3):  # the same failing command, three times
        run_hook("PostToolUse", payload("post_tool_use_bash", git_repo, session_id="s2"))
    prompt = "why did test_login_sets_user fail with KeyError user_id?"
    ask = payload("user_prompt_submit", git_repo, session_id="s3", prompt=prompt)
    assert run_hook("UserPromptSubmit", ask).stdout == ""  # off by default
    write_config(inject_on_prompt=True)
    context = injected(run_hook("UserPromptSubmit", ask))
    assert context is not None
    lines = context.splitlines()
    assert sum(line.startswith("- [command]") for line in lines) == 1
    assert "KeyError" in context
    assert prompt not in context  # the prompt being asked is not its own answer
    assert "[pinned" not in context
    assert "latest session summary" not in context
    for prompt in ("bump pandas", "the billing report chart is wrong"):
        # no match at all; then matches only on words common to most of the store
        unrelated = payload("user_prompt_submit", git_repo, session_id="s3", prompt=prompt)
        assert run_hook("UserPromptSubmit", unrelated).stdout == ""


def test_injection_stays_within_budget_and_the_10k_limit(git_repo: Path) -> None:
    with Kindling.open(db()) as kd:
        capsule = kd.open_capsule(
            intent="big", scope=Scope(session_id="old", repo_id=str(git_repo))
        )
        for i in range(60):
            kd.append_observation(
                kind="error",
                content=f"failure {i} " + "traceback line\n" * 400,
                capsule_id=capsule.id,
            )
        target = kd.append_observation(kind="message", content="pinned note " * 500)
        kd.pin("observation", target.id, reason="important", scope=Scope(repo_id=str(git_repo)))
    start = payload("session_start", git_repo, session_id="new")
    context = injected(run_hook("SessionStart", start))
    assert context is not None
    assert len(context) <= 1500 * 4 + 100  # the default budget, 4 chars a token
    assert "[pinned (important)]" in context
    write_config(budget_tokens=1_000_000, max_candidates=200)
    context = injected(run_hook("SessionStart", start))
    assert context is not None
    assert len(context) < 10_000


BAD_INPUTS: list[bytes] = [
    b"",
    b"not json at all",
    b"[1, 2, 3]",
    b'"a string"',
    b"\xff\xfe\x00garbage\x00",
    b'{"session_id": 5, "cwd": ["x"], "tool_name": {}, "tool_input": "oops"}',
    b'{"session_id": "s", "cwd": "/nonexistent/dir", "tool_name": "Bash",'
    b' "tool_input": {"command": 12}, "tool_response": null}',
    b'{"session_id": "s", "tool_name": "Edit", "tool_input": {"file_path": "/x", "edits": 3},'
    b' "tool_response": {"structuredPatch": [{"lines": 7}]}}',
    b'{"session_id": "' + b"x" * 1000 + b'", "prompt": "\\u0000\\ud800"}',
    b'{"a": ' * 5000 + b"1" + b"}" * 5000,
]


@pytest.mark.parametrize("raw", BAD_INPUTS)
@pytest.mark.parametrize("event", ["SessionStart", "PostToolUse", "UserPromptSubmit", "Stop"])
def test_garbage_on_stdin_still_exits_zero(raw: bytes, event: str) -> None:
    proc = run_hook(event, raw)
    assert proc.returncode == 0
    assert proc.stderr == ""
    if proc.stdout:
        json.loads(proc.stdout)  # if anything is printed, it is valid hook output


def test_unknown_event_and_broken_database_exit_zero_and_log(tmp_path: Path) -> None:
    assert run_hook("Bogus", {"session_id": "s"}).returncode == 0
    assert "claude-code event 'Bogus' is not one Kindling records" in log_text()
    not_a_db = tmp_path / "file.db"
    not_a_db.write_bytes(b"this is not sqlite" * 100)
    write_config(inject_on_prompt=True)  # the prompt's hook opens the database to inject
    prompt = payload("user_prompt_submit", tmp_path)
    proc = run_hook("UserPromptSubmit", prompt, "--db", str(not_a_db))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    log = log_text()
    assert "UserPromptSubmit StoreError" in log or "UserPromptSubmit SchemaError" in log
    # A hook that only spools never opens it: PreCompact's record waits beside the prompt's.
    proc = run_hook("PreCompact", payload("stop", tmp_path), "--db", str(not_a_db))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert " PreCompact " not in log_text()  # (the event names listed above end with a comma)
    assert "KeyError" not in log_text()  # payload contents never reach the log
    assert "Done: login()" not in log_text()
    # The events are not lost: they wait, scrubbed, in the spool beside the damaged file.
    assert len(list(Path(str(not_a_db) + "-spool").glob("*.json"))) == 2


def test_stop_takes_the_summary_from_the_transcript(git_repo: Path) -> None:
    run_hook("SessionStart", payload("session_start", git_repo))
    stop = payload("stop", git_repo)
    del stop["last_assistant_message"]
    run_hook("Stop", stop)
    with Kindling.open(db()) as kd:
        [capsule] = kd.list_capsules(scope=Scope(session_id=SESSION))
        assert capsule.status == "open"  # Stop ends a turn, not the session
        summary = kd.get_summary(capsule.summary_id or "")
    assert summary.content.startswith("Done: login() validates user_id")


def test_precompact_saves_the_summary_and_prints_nothing(git_repo: Path) -> None:
    run_hook("SessionStart", payload("session_start", git_repo))
    proc = run_hook("PreCompact", payload("pre_compact", git_repo))
    assert proc.stdout == ""
    with Kindling.open(db()) as kd:
        [capsule] = kd.list_capsules(scope=Scope(session_id=SESSION))
        assert capsule.summary_id is not None
    write_config(inject_on_precompact=True)  # retired: Claude Code rejects PreCompact output
    proc = run_hook("PreCompact", payload("pre_compact", git_repo))
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "hooks.inject_on_precompact is no longer used" in log_text()


def test_events_before_session_start_open_the_capsule(git_repo: Path) -> None:
    run_hook("PostToolUse", payload("post_tool_use_bash", git_repo))
    with Kindling.open(db()) as kd:
        [capsule] = kd.list_capsules(scope=Scope(session_id=SESSION))
        assert capsule.status == "open"
        assert len(capsule.observation_ids) == 1


def test_excluded_paths_never_store_contents(git_repo: Path) -> None:
    env = str(git_repo / ".env")
    edit = payload(
        "post_tool_use_edit",
        git_repo,
        tool_input={"file_path": env, "old_string": "A=1", "new_string": "A=sekrit-value"},
        tool_response={"filePath": env},
    )
    cat = payload(
        "post_tool_use_bash",
        git_repo,
        tool_input={"command": "cat config/server.key"},
        tool_response={"stdout": "-----BEGIN PRIVATE KEY----- sekrit-value", "stderr": ""},
    )
    run_hook("PostToolUse", edit)
    run_hook("PostToolUse", cat)
    with Kindling.open(db()) as kd:
        obs = kd.list_observations(limit=10)
    assert len(obs) == 2
    assert all("sekrit" not in o.content for o in obs)
    assert any(".env" in o.content and "withheld" in o.content for o in obs)


def test_secrets_in_tool_output_never_reach_the_database(git_repo: Path) -> None:
    github = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    aws = "AKIA" + "Q2W3E4R5T6Y7U8I9"
    leak = payload(
        "post_tool_use_bash",
        git_repo,
        tool_input={"command": "env | grep -i token"},
        tool_response={"stdout": f"GITHUB_TOKEN={github}\nAWS_ACCESS_KEY_ID={aws}\n", "stderr": ""},
    )
    assert run_hook("PostToolUse", leak).returncode == 0
    spooled = list(Path(str(db()) + "-spool").iterdir())
    assert len(spooled) == 1  # waiting for the next drain, already scrubbed
    Kindling.open(db()).close()  # drains the spool into the database
    files = [p for p in db().parent.iterdir() if p.name.startswith(db().name) and p.is_file()]
    assert files
    for path in [*files, *spooled]:
        raw = path.read_bytes() if path.exists() else b""
        assert github.encode() not in raw, path.name
        assert aws.encode() not in raw, path.name
    assert b"[REDACTED:" in spooled[0].read_bytes() if spooled[0].exists() else True


def test_hook_help() -> None:
    proc = run_hook("--help", b"")
    assert proc.returncode == 0
    assert "Usage: kindling hook [--agent NAME] EVENT" in proc.stdout


def test_hook_through_click_with_global_db(git_repo: Path, tmp_path: Path) -> None:
    import subprocess

    from tests.support.hooks import KINDLING

    other = tmp_path / "other.db"
    proc = subprocess.run(
        [KINDLING, "--db", str(other), "hook", "PostToolUse"],
        input=json.dumps(payload("post_tool_use_bash", git_repo)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    with Kindling.open(other) as kd:
        assert [o.kind for o in kd.list_observations()] == ["command"]


def test_a_locked_database_does_not_block_the_agent(git_repo: Path) -> None:
    import sqlite3

    run_hook("SessionStart", payload("session_start", git_repo))
    holder = sqlite3.connect(db(), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another writer that never lets go
    try:
        proc = run_hook("PostToolUse", payload("post_tool_use_bash", git_repo))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert log_text() == ""  # a capture hook never waits for the database
    with Kindling.open(db()) as kd:  # the lock is gone: opening drains the spool
        assert [o.kind for o in kd.list_observations()] == ["command"]


def test_a_write_lock_still_lets_session_start_inject(git_repo: Path) -> None:
    import sqlite3

    run_session(git_repo)
    wait_for_refreshers()
    Kindling.open(db()).close()  # Stop and SessionEnd left their records in the spool
    # The context kept for the next start would be printed without opening the database at
    # all (test_start_cache.py); this is about the full path.
    shutil.rmtree(f"{db()}-inject")
    holder = sqlite3.connect(db(), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # a long writer (an import, a forget) holds the lock
    try:
        proc = run_hook("SessionStart", payload("session_start", git_repo, session_id="next"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert proc.returncode == 0
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "[latest session summary] Fixed the 500 on /login" in context  # reads never wait
    # The session's capsule opens later: its record waits in the spool for the next drain.
    assert "SessionStart DatabaseLockedError: 1 spooled events wait" in log_text()
    assert "gave up" not in log_text()  # the hook did not run into its deadline
    with Kindling.open(db()) as kd:
        [capsule] = kd.list_capsules(scope=Scope(session_id="next"))
    assert capsule.status == "open"
