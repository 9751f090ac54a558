"""What a question asks for, read by rules on its words (no model), and how well a step fits it.

Needs (``NEEDS``):

- ``fix``: how something was fixed or changed -> edits, diffs and writes to source files;
- ``error``: what failed -> failing runs, errors and tracebacks (before the first edit first);
- ``check``: whether it worked -> the runs after the last edit (test runs first);
- ``decision``: what was decided and why -> messages and summaries;
- ``location``: where something is defined -> the steps that show a definition.

``read_need`` takes the need whose cue word comes first in the question: the frame of a
question comes before its topic ("did the tests **pass** after the fix for: TypeError in
..." asks for a check). A question without a cue has no need, and every step fits it.

``step_fit`` reads what is stored: the kind, the command line, the exit status (provenance
``exitCode``, the ``[exit N]`` line the hooks write, failure words in the output), the edited
path, and the phase of the step in its session (before the first edit, after the last one;
``Phase``). A person's prompt anchors an episode but answers no step question.

Must not import anything from Kindling except ``model``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, TypeAlias

from kindling.model import Entity, Observation

Need: TypeAlias = Literal["fix", "error", "check", "decision", "location"]
NEEDS: tuple[Need, ...] = ("fix", "error", "check", "decision", "location")
# Needs answered by particular steps of an episode: the episode's steps are ranked for them.
STEP_NEEDS: frozenset[Need] = frozenset({"fix", "error", "check"})

_CUES: tuple[tuple[Need, re.Pattern[str]], ...] = (
    (
        "check",
        re.compile(
            r"\b(pass(?:es|ed|ing)?|green|verified|tests? results?|re-?ran|re-?run|"
            r"did (?:the )?tests?|"
            r"(?:do|did|does) (?:the )?(?:tests?|suite|build) (?:work|succeed))\b"
        ),
    ),
    (
        "error",
        re.compile(
            r"\b(\w*errors?|fail(?:s|ed|ing|ure|ures)?|\w*exceptions?|traceback|crash(?:es|ed)?|"
            r"broke|broken|breaks?|stack ?trace|raised?|panic|segmentation fault|"
            r"is not (?:a function|defined)|cannot read|undefined)\b"
        ),
    ),
    (
        "fix",
        re.compile(
            r"\b(fix(?:es|ed|ing)?|patch(?:es|ed)?|resolv\w*|solv\w*|chang(?:e|es|ed)|"
            r"edit(?:s|ed)?|modif\w*|implement\w*|diffs?)\b"
        ),
    ),
    (
        "decision",
        re.compile(
            r"\b(decid\w*|decision\w*|chose|choose|chosen|rationale|agreed|why did we|"
            r"why do we|approach|trade-?offs?)\b"
        ),
    ),
    (
        "location",
        re.compile(r"\b(defin(?:ed|ition|es)|declared?|where is|where's|located|which file)\b"),
    ),
)


_IDENTIFIER = re.compile(r"[\w-]*\w(?:[_./:]+[\w-]+)+|\w+_\w*|_\w+")


def read_need(question: str | None) -> Need | None:
    """The need whose cue comes first in ``question`` (ties: the order of ``_CUES``)."""
    if not question:
        return None
    # An identifier is a topic, never a cue: ``resolve_page``, ``fix_test.py``, ``Error.kind``
    # and ``src/errors/`` are read as blanks of the same length (positions stay comparable).
    text = _IDENTIFIER.sub(lambda m: " " * len(m.group()), question).lower()
    best: tuple[int, int, Need] | None = None
    for rank, (need, cue) in enumerate(_CUES):
        m = cue.search(text)
        if m is not None and (best is None or (m.start(), rank) < best[:2]):
            best = (m.start(), rank, need)
    return best[2] if best is not None else None


# ------------------------------------------------------------------ what a step is

# A command that writes a file: an editor tool, in-place edits, patches, a script that writes
# (``Path.write_text``, ``open(..., "w")``), a redirect into a file with an extension. Each
# expression comes with a literal that every one of its matches holds, and only the
# expressions whose literal the command holds are run (a redirect's expression starts at its
# ``>``, so the engine jumps from one ``>`` to the next).
_EDIT_COMMANDS = (
    ("str_replace_editor", r"str_replace_editor\s+(?:create|str_replace|insert|undo_edit)\b"),
    ("sed", r"\bsed\s+-[a-zE]*i"),
    ("perl", r"\bperl\b[^\n]*\s-[0-9a-z]*i"),
    ("patch", r"\bapply_?patch\b|\bpatch\s+(?:-p|<)"),
    ("git", r"\bgit\s+apply\b"),
    ("-s", r"\bed\s+-s\b"),
    ("write", r"write_text\(|write_bytes\(|\.write\("),
    ("open(", r"\bopen\([^)\n]*['\"][wa]b?\+?['\"]"),
    ("inplace", r"\binplace\b"),
    (">", r">(?<![0-9&]>)>?\s*(?!/dev/)['\"]?[\w./-]+\.(?!log\b|txt\b|out\b)[a-z]{1,5}\b"),
    ("tee", r"\btee\s+(?!/dev/)\S"),
)
_EDIT_BRANCHES = tuple((cue, re.compile(pattern)) for cue, pattern in _EDIT_COMMANDS)
_EDIT_PATH = re.compile(
    r"str_replace_editor\s+\w+\s+(\S+)|^\+\+\+ (?:b/)?(\S+)|^\*\*\* (?:Update|Add) File: (\S+)|"
    r"Path\(['\"]([^'\"]+)['\"]\)|\bp\s*=\s*['\"]([^'\"]+\.\w+)['\"]|"
    r"open\(['\"]([^'\"]+)['\"]|sed\s+-i\S*\s+(?:'[^']*'|\"[^\"]*\"|\S+)\s+(\S+)|"
    r">\s*['\"]?([\w./-]+\.\w+)",
    re.MULTILINE,
)
_RUN = re.compile(
    r"^(?:\$ |Bash failed: )?\s*(?:cd \S+ && )?"
    r"(?:python\d?(?:\.\d+)?\s|pytest|py\.test|tox\b|nox\b|npm (?:run )?test|"
    r"yarn test|pnpm test|node\s|npx\s|jest|vitest|go (?:test|run|build)|cargo (?:test|run|build)|"
    r"make\b|mvn\b|gradle|\./|bash\s+\S+\.sh|sh\s+\S+\.sh|ruby\s|rspec|bundle exec|dotnet test)",
    re.MULTILINE,
)
_TEST_RUN = re.compile(r"\b(pytest|py\.test|tox|test|tests|spec|jest|vitest|unittest)\b")
_EXIT = re.compile(r"^\[exit (\d{1,3})\]", re.MULTILINE)
_FAILURE = re.compile(
    r"Traceback \(most recent call last\)|\b\w*(?:Error|Exception)\b[:(]|\bFAIL(?:ED|URE)?\b|"
    r"\bfailed\b|\berror:|\bpanic:|\bSegmentation fault\b|\bAssertionError\b"
)
_FAILURE_CUES = ("traceback", "error", "exception", "fail", "panic", "segmentation")
_TEST_PATH = re.compile(r"(?:^|/)(?:tests?|testing|spec)/|(?:^|/)test_|_test\.|\.spec\.|\.test\.")
_SCRATCH_PATH = re.compile(
    r"(?:^|/)(?:repro|reproduce|scratch|debug|tmp|temp|check|compare|verify|demo|run|try)[\w-]*\.\w+$"
    r"|^/tmp/|\.(?:txt|log|out|md|bak|orig)$"
)
_DEFINITION = re.compile(
    r"\b(?:def|class|function|func|fn|interface|struct|enum|trait|type|const|let|var)\s+(\w+)"
)


@dataclass(frozen=True, slots=True)
class Phase:
    """Where a step sits in its session: the times of the session's first and last edit."""

    first_edit: int | None
    last_edit: int | None


def is_edit(obs: Observation) -> bool:
    if obs.kind == "file_diff":
        return True
    if obs.kind == "tool_call":
        return "str_replace_editor" in obs.content[:200]
    if obs.kind not in ("command", "error"):
        return False
    command = _command_part(obs)
    return any(cue in command and p.search(command) for cue, p in _EDIT_BRANCHES)


def _command_part(obs: Observation) -> str:
    """The command line (and heredoc) of a command: what comes before its output."""
    text = obs.content[:4000]
    for marker in ("\n[completed]", "\n[exit ", "\n[interrupted]", "\n[running in"):
        cut = text.find(marker)
        if cut >= 0:
            text = text[:cut]
    return text


def edited_path(obs: Observation) -> str:
    path = obs.provenance.get("path")
    if isinstance(path, str) and path:
        return path
    m = _EDIT_PATH.search(_command_part(obs))
    return next((g for g in m.groups() if g), "") if m else ""


def is_failing(obs: Observation) -> bool:
    if obs.kind in ("error", "node_error"):
        return True
    code = obs.provenance.get("exitCode")
    if isinstance(code, int) and not isinstance(code, bool):
        return code != 0
    m = _EXIT.search(obs.content[:400])
    if m is not None:
        return m.group(1) != "0"
    if obs.kind != "command":
        return False
    text = obs.content
    if len(text) > 5_000:  # a failure shows in the head (the command) or the tail (the error)
        text = text[:3_000] + "\n" + text[-2_000:]
    lower = text.lower()
    if not any(cue in lower for cue in _FAILURE_CUES):  # every branch holds one of these
        return False
    return bool(_FAILURE.search(text))


def is_run(obs: Observation) -> bool:
    return obs.kind in ("command", "error") and bool(_RUN.search(obs.content[:300]))


def is_prompt(obs: Observation) -> bool:
    return obs.kind == "message" and obs.provenance.get("role") in ("user", "system", None)


def prompt_for_step(need: Need | None, entity: Entity) -> bool:
    """Whether ``entity`` is a person's prompt and the question asks for a step of the work
    (``STEP_NEEDS``): the prompt states the task; the steps after it answer such a question."""
    return need in STEP_NEEDS and isinstance(entity, Observation) and is_prompt(entity)


def step_fit(
    need: Need | None, entity: Entity, phase: Phase | None, words: frozenset[str]
) -> float:
    """How well ``entity`` answers a question asking for ``need``, in [0, 1] (1 without a
    need). ``words``: the question's terms (a definition must name one)."""
    if need is None:
        return 1.0
    if not isinstance(entity, Observation):  # a summary
        return {"decision": 1.0, "fix": 0.6}.get(need, 0.4)
    obs = entity
    if is_prompt(obs):
        return 0.1 if need in STEP_NEEDS else (1.0 if need == "decision" else 0.5)
    before = phase is not None and phase.first_edit is not None and obs.ts < phase.first_edit
    after = phase is not None and phase.last_edit is not None and obs.ts > phase.last_edit
    no_edit = phase is None or phase.first_edit is None
    if need == "fix":
        if is_edit(obs):
            path = edited_path(obs)
            if _SCRATCH_PATH.search(path) or _TEST_PATH.search(path):
                return 0.5
            return 1.0
        return 0.35 if obs.kind == "message" else 0.2
    if need == "error":
        if is_failing(obs):
            return 1.0 if before or no_edit else 0.7
        return 0.4 if is_run(obs) else 0.15
    if need == "check":
        if is_run(obs) and (after or no_edit):
            return 1.0 if _TEST_RUN.search(_command_part(obs)[:300]) else 0.85
        if is_run(obs):
            return 0.4
        return 0.15
    if need == "decision":
        return 1.0 if obs.kind == "message" else 0.4
    # location
    names = {m.lower() for m in _DEFINITION.findall(obs.content[:8_000])}
    if names & words:
        return 1.0
    return 0.5 if obs.kind in ("tool_call", "command", "file_diff") else 0.3


def phase_of(steps: list[Observation]) -> Phase:
    """The times of the first and last edit among a session's steps."""
    edits = [o.ts for o in steps if is_edit(o)]
    return Phase(min(edits), max(edits)) if edits else Phase(None, None)
