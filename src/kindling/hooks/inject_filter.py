"""What injected context is made of: which recorded events are worth showing an agent, in what
order, and how each is written on one line. Rules on an observation's kind and content, written
once, no model (issue 23: SessionStart and UserPromptSubmit context).

- ``tier``: ``None`` for noise, never injected: trivial or read-only commands (``true``,
  ``sleep 5; echo waited``, ``cd``, ``ls``, ``cat``, ``git status``), Claude Code's own XML
  blocks (``<task-notification>``, ``<system-reminder>``, any prompt with role ``system``), and
  no-op results (an edit with no textual change, a file operation that printed nothing).
  Otherwise a rank, lower first: 0 code edits, 1 errors and failing runs, 2 decisions (and
  compaction summaries), 3 checks (tests, builds, linters), 4 any other work.
- ``render``: one line per event that keeps what makes it useful: a command's whole command line
  (up to ``COMMAND_CHARS``) with how it ended and the gist of its output, never a command cut at
  the first space that fits; an edit's file and changed lines; an error's subject and last line.

Pure; must not import click, the CLI or the MCP server, nor open a database; no dataclasses,
typing or pathlib (see ``kindling.hooks``).
"""

from __future__ import annotations

import re

EDIT, ERROR, DECISION, CHECK, WORK = 0, 1, 2, 3, 4
COMMAND_CHARS = 200  # a command line is shown whole up to this
LINE_CHARS = 300  # one injected line (an edit's: EDIT_CHARS)
EDIT_CHARS = 420

# Programs that only look (or wait, or print what they were given): no state, no finding.
TRIVIAL_PROGRAMS = frozenset(
    """
    true false : sleep echo printf cd pushd popd ls ll la dir pwd clear exit wait date whoami
    which type command history env printenv export set unset alias source . cat head tail
    less more wc tree stat file du df id hostname uname jobs read test [ grep rg ag fd find
    sort uniq cut tr jq ps column nl basename dirname realpath
    """.split()  # noqa: SIM905 - a word list reads better as prose
)
READ_ONLY_GIT = frozenset(
    {"status", "log", "branch", "show", "remote", "diff", "fetch", "rev-parse"}
)
# File operations that say nothing when they succeed: without output they are no-ops to a reader.
SILENT_PROGRAMS = frozenset({"mkdir", "touch", "rm", "mv", "cp", "chmod", "chown", "ln", "kill"})
CHECK_WORDS = re.compile(
    r"\b(pytest|tox|nox|unittest|jest|vitest|mocha|ruff|mypy|pyright|eslint|tsc|flake8|"
    r"go (test|vet|build)|cargo (test|check|build|clippy)|(npm|pnpm|yarn|bun) (run )?"
    r"(test|build|lint|check)|make( \w+)?|mvn|gradle|ctest)\b"
)
# The line that names what went wrong (preferred over a "FAILURES" banner).
ERROR_LINE = re.compile(r"\b\w*(Error|Exception):|\berror(\[\w+\])?:|\bpanicked at\b")
FAILURE = re.compile(
    r"\bFAIL(ED|URES?)?\b|Traceback \(most recent|\b\w*(Error|Exception):|\berror(\[\w+\])?:"
    r"|\bpanicked at\b|\b[1-9]\d* (failed|errors?)\b"
)
DECISION_WORDS = re.compile(
    r"\b(decision|decided|decide|we('ll| will| should)|let's (use|go|keep)|go with|chose|"
    r"agreed|instead of|from now on|never|always)\b",
    re.IGNORECASE,
)
# Claude Code's own blocks: <task-notification>, <system-reminder>, <command-name>,
# <local-command-stdout>, <user-prompt-submit-hook> ... (lower case, hyphenated names).
SYSTEM_XML = re.compile(r"\s*<([a-z]+(?:-[a-z]+)+)(?:\s[^>]*)?>")
_SEPARATORS = re.compile(r"\|\||&&|[;|&\n]")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_ENDING = re.compile(r"^\[(completed|exit \d+|interrupted|running in background[^\]]*)\]$")


def one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _programs(command: str) -> list[list[str]]:
    """The simple commands of a shell line: each as its words, without leading assignments and
    wrappers (``sudo``, ``time``, ``nohup``)."""
    out = []
    for part in _SEPARATORS.split(command):
        words = part.replace("(", " ").replace(")", " ").split()
        while words and (_ASSIGNMENT.match(words[0]) or words[0] in {"sudo", "time", "nohup"}):
            words = words[1:]
        if words:
            out.append(words)
    return out


def _is_trivial(words: list[str]) -> bool:
    program = words[0].rsplit("/", 1)[-1]
    if program == "git":  # its subcommand, past options (-C and -c take a value)
        rest = words[1:]
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] in {"-C", "-c"} else rest[1:]
        return bool(rest) and rest[0] in READ_ONLY_GIT
    return program in TRIVIAL_PROGRAMS or (program.startswith(">") and len(words) == 1)


def split_command(content: str) -> tuple[str, str, str]:
    """A command observation's ``(command line, ending, output)`` (see ``hooks.mapping``)."""
    head, _, rest = content.partition("\n")
    command = head[2:] if head.startswith("$ ") else head
    ending, _, output = rest.partition("\n")
    if not _ENDING.match(ending.strip()):
        ending, output = "", rest
    return command, ending.strip(), output


def _command_tier(content: str) -> int | None:
    command, ending, output = split_command(content)
    failed = ending.startswith("[exit") or bool(FAILURE.search(output))
    if failed:
        return ERROR
    programs = _programs(command)
    if not programs or all(_is_trivial(words) for words in programs):
        return None
    if not output.strip() and all(
        words[0].rsplit("/", 1)[-1] in SILENT_PROGRAMS or _is_trivial(words) for words in programs
    ):
        return None  # a file operation that printed nothing
    return CHECK if CHECK_WORDS.search(command) else WORK


def tier(kind: str, content: str, provenance: dict[str, object] | None = None) -> int | None:
    """Where an event goes in injected context (lower first), or None: noise, never shown."""
    role = (provenance or {}).get("role")
    if kind == "file_diff":
        return None if content.rstrip().endswith("(no textual change)") else EDIT
    if kind in {"error", "node_error"}:
        return ERROR
    if kind == "command":
        return _command_tier(content)
    if kind == "message":
        if role == "system" or SYSTEM_XML.match(content):
            return None
        if role == "compaction" or DECISION_WORDS.search(content):
            return DECISION
        return WORK
    if kind == "summary":
        return DECISION
    return WORK


def _gist(output: str, limit: int) -> str:
    """An output's first line, or its first error line, and its last line (a test run's result
    is its last line)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if len(lines) <= 3:
        return one_line(" ".join(lines), limit)
    first = next(
        (line for pattern in (ERROR_LINE, FAILURE) for line in lines[:-1] if pattern.search(line)),
        lines[0],
    )
    tail = one_line(lines[-1], max(20, limit // 2))
    return one_line(first, max(10, limit - len(tail) - 3)) + " … " + tail


def render(kind: str, content: str, snippet: str | None = None) -> str:
    """One line for an event. ``snippet``: the part of it that matched a query, if any."""
    if kind == "command":
        command, ending, output = split_command(content)
        line = "$ " + one_line(command, COMMAND_CHARS)
        if ending and ending != "[completed]":
            line += " " + ending
        room = LINE_CHARS - len(line) - 3
        focus = snippet if snippet and command[:20] not in snippet else output
        return line + (" → " + _gist(focus, room) if focus.strip() and room > 20 else "")
    if kind == "file_diff":
        header, _, diff = content.partition("\n")
        changed = [
            line
            for line in diff.splitlines()
            if line[:1] in "+-" and not line.startswith(("+++", "---"))
        ]
        whole = header + ": " + " ".join(changed or [diff])
        if snippet and len(whole) > EDIT_CHARS:  # a long diff: show where the query matched
            whole = header + ": " + snippet
        return one_line(whole, EDIT_CHARS)
    if kind in {"error", "node_error"}:
        subject, _, rest = content.partition("\n")
        body = snippet if snippet and subject[:20] not in snippet else rest
        return one_line(subject, COMMAND_CHARS) + (
            " → " + _gist(body, LINE_CHARS - min(len(subject), COMMAND_CHARS)) if body else ""
        )
    return one_line(snippet or content, LINE_CHARS)
