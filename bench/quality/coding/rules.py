"""Questions derived by rule from a recorded session: no hand-picking, no model.

A session is its observations in order (kind, content, provenance) and what the trajectory
says about the task: the issue title and the final patch. From them:

- fix: "How did we fix: <title>" -> the steps that edited a source file the final patch
  changes (a ``file_diff`` of that file, or a shell command that writes to it: ``sed -i``, a
  redirect, a heredoc, a Python write);
- error: "What error did we get when reproducing: <title>" -> the failing runs (``error``
  observations of commands that run code, not those that never started: a wrong path, an
  unknown command) before the first such edit;
- check: "Did the tests pass after the fix for: <title>" -> the runs after the last edit;
- decision: "Why did we fix it this way: <title>" -> the session's summary (the agent's last
  message, which the hooks keep at SessionEnd), when it states a reason (``because``,
  ``instead of``, ``rather than``...): the only agent words the hooks record;
- location: "Where is <symbol> defined?" -> the steps whose text shows ``def <symbol>`` or
  ``class <symbol>``, for the functions and classes the patch's hunk headers name.

Each question comes in three phrasings: ``full`` (the whole title), ``short`` (the 4 most
salient title words, by rule) and ``para`` (another template around the same words).

Must not import Kindling beyond the stop-word list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kindling.store.fts import STOPWORDS

SHORT_WORDS = 4
MAX_SYMBOLS = 2
TEST_PATH = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*$|_tests?\.py$|(^|/)conftest\.py$")
SCRATCH = re.compile(r"(^|/)(reproduce|repro|debug|check|verify)[^/]*$|^(tmp|scratch)/")
DIFF_FILE = re.compile(r"^diff --git a/(\S+) b/(\S+)$", re.MULTILINE)
HUNK_SYMBOL = re.compile(
    r"^@@ [^@]+ @@\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)", re.MULTILINE
)
WRITE_OP = re.compile(
    r"sed\s+-i|perl\s+-[a-z]*i|>\s*\S|\btee\b|<<|\.write\(|write_text|\bpatch\b|git\s+apply|"
    r"applypatch|\bed\s|\bmv\s|\bcp\s"
)
RUN_OP = re.compile(
    r"\bpython[0-9.]*\b|\bpytest\b|py\.test|\btox\b|runtests\.py|bin/test|\bmake\s+test|"
    r"\bnosetests\b|\bunittest\b"
)

RATIONALE = re.compile(
    r"\b(because|since|so that|instead of|rather than|in order to|chose|decided|root cause|"
    r"the reason)\b",
    re.IGNORECASE,
)

TEMPLATES: dict[str, dict[str, str]] = {
    "fix": {
        "full": "How did we fix: {title}",
        "short": "How did we fix {short}?",
        "para": "What code change resolved the {short} problem?",
    },
    "error": {
        "full": "What error did we get when reproducing: {title}",
        "short": "What error did {short} give?",
        "para": "{short} failure output when we reproduced it",
    },
    "check": {
        "full": "Did the tests pass after the fix for: {title}",
        "short": "Did tests pass after fixing {short}?",
        "para": "test results after the {short} change",
    },
    "decision": {
        "full": "Why did we fix it this way: {title}",
        "short": "Why did we choose that fix for {short}?",
        "para": "reasoning behind the {short} change",
    },
    "location": {
        "full": "Where is {symbol} defined?",
        "short": "{symbol} definition",
        "para": "Which file defines {symbol}?",
    },
}


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    cls: str
    phrasing: str
    text: str
    session_id: str
    repo_id: str
    evidence: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "class": self.cls,
            "phrasing": self.phrasing,
            "text": self.text,
            "session_id": self.session_id,
            "repo_id": self.repo_id,
            "evidence": list(self.evidence),
        }


def fixed_files(patch: str) -> list[str]:
    """Source files the final patch changes: files it modifies (not ones it creates), not
    tests, not scratch scripts."""
    files: dict[str, None] = {}
    for chunk in re.split(r"(?=^diff --git )", patch, flags=re.MULTILINE):
        head = DIFF_FILE.search(chunk)
        if head is not None and "\nnew file mode" not in chunk.split("\n@@", 1)[0]:
            files[head.group(2)] = None
    return [f for f in files if not TEST_PATH.search(f) and not SCRATCH.search(f)]


def patch_symbols(patch: str, files: list[str]) -> list[str]:
    """Functions and classes named by the hunk headers of the fixed files (no dunders)."""
    out: list[str] = []
    for chunk in re.split(r"(?=^diff --git )", patch, flags=re.MULTILINE):
        head = DIFF_FILE.search(chunk)
        if head is None or head.group(2) not in files:
            continue
        out.extend(s for s in HUNK_SYMBOL.findall(chunk) if not s.startswith("__"))
    return list(dict.fromkeys(out))[:MAX_SYMBOLS]


def salient(title: str, n: int = SHORT_WORDS) -> str:
    """The ``n`` most salient title words, in title order: identifiers first (an underscore,
    a dot, an inner capital or a digit), then longer words, then earlier ones."""
    words = re.findall(r"[A-Za-z_][\w.]*[\w]|[A-Za-z_]", title)
    seen: dict[str, int] = {}
    for i, w in enumerate(words):
        if w.lower() not in STOPWORDS and len(w) > 2 and w.lower() not in seen:
            seen[w.lower()] = i

    def key(item: tuple[str, int]) -> tuple[int, int, int]:
        w = words[item[1]]
        ident = bool(re.search(r"[_.\d]|[a-z][A-Z]", w))
        return (0 if ident else 1, -len(w), item[1])

    chosen = sorted(sorted(seen.items(), key=key)[:n], key=lambda it: it[1])
    return " ".join(words[i] for _, i in chosen)


def summary_ref(session: dict[str, Any]) -> str:
    """The judged id of a session's summary (the store gives summaries their own ids)."""
    return f"summary:{session['short']}"


def command_of(obs: dict[str, Any]) -> str:
    """The command line of a ``command`` or Bash ``error`` observation, else ''."""
    text = str(obs["content"])
    if obs["kind"] == "command" and text.startswith("$ "):
        return text[2:].split("\n[", 1)[0]
    if obs["kind"] == "error" and text.startswith("Bash failed: "):
        return text[len("Bash failed: ") :].split("\n[exit", 1)[0]
    return ""


def edited(obs: dict[str, Any], files: list[str]) -> bool:
    if obs["kind"] == "file_diff":
        head = str(obs["content"]).split("\n", 1)[0]
        return any(head.endswith(" " + f) or head.endswith("/" + f) for f in files)
    cmd = command_of(obs)
    return bool(cmd) and bool(WRITE_OP.search(cmd)) and any(f in cmd for f in files)


MISFIRE = re.compile(r"can't open file|No such file or directory|command not found")


def reproduced(obs: dict[str, Any]) -> bool:
    """A failing run that reproduced something: not one that never started (a wrong path, an
    unknown command), unless it still printed a traceback."""
    text = str(obs["content"])
    return (
        obs["kind"] == "error" and is_run(obs) and ("Traceback" in text or not MISFIRE.search(text))
    )


def is_run(obs: dict[str, Any]) -> bool:
    cmd = command_of(obs)
    return bool(cmd) and bool(RUN_OP.search(cmd.split("<<", 1)[0]))


def derive(session: dict[str, Any], observations: list[dict[str, Any]]) -> list[Question]:
    """Every question one session yields (see the module)."""
    sid, repo, title = session["session_id"], session["repo_id"], session["title"]
    short = session["short"]
    files = fixed_files(session["patch"])
    steps = [o for o in observations if o["provenance"].get("event") != "UserPromptSubmit"]
    edits = [i for i, o in enumerate(steps) if edited(o, files)]
    evidence: dict[str, list[tuple[str, ...]]] = {}
    if edits:
        first, last = edits[0], edits[-1]
        evidence["fix"] = [tuple(steps[i]["id"] for i in edits)]
        err = tuple(o["id"] for o in steps[:first] if reproduced(o))
        if err:
            evidence["error"] = [err]
        runs = tuple(o["id"] for o in steps[last + 1 :] if is_run(o))
        if runs:
            evidence["check"] = [runs]
    out: list[Question] = []
    words = {"title": title, "short": salient(title)}
    if RATIONALE.search(session["summary"]):
        evidence["decision"] = [(summary_ref(session),)]
    for cls in ("fix", "error", "check", "decision"):
        for ev in evidence.get(cls, []):
            for phrasing, template in TEMPLATES[cls].items():
                out.append(
                    Question(
                        f"{short}:{cls}:{phrasing}",
                        cls,
                        phrasing,
                        template.format(**words),
                        sid,
                        repo,
                        ev,
                    )
                )
    for k, symbol in enumerate(patch_symbols(session["patch"], files)):
        shows = re.compile(rf"\b(?:def|class)\s+{re.escape(symbol)}\b")
        ev = tuple(o["id"] for o in steps if shows.search(str(o["content"])))
        if not ev:
            continue
        for phrasing, template in TEMPLATES["location"].items():
            out.append(
                Question(
                    f"{short}:location{k}:{phrasing}",
                    "location",
                    phrasing,
                    template.format(symbol=symbol),
                    sid,
                    repo,
                    ev,
                )
            )
    return out
