"""Injection quality set (issue 23, item 6): does SessionStart / UserPromptSubmit context carry
the session's edits, errors and decisions, or its noise?

Sessions are written as Claude Code hook payloads and recorded through the real mapping
(``hooks.mapping.to_draft``), so the store holds what the hooks would have written. Each event
is labelled when it is generated, by what it is, never by the filter under test:

- ``useful``: a code edit, a failing run or tool error, a decision, a test run after an edit;
- ``neutral``: a user's prompt, a command that did real work (a build, an install, a loop);
- ``noise``: trivial commands (``true``, ``sleep 5; echo waited``, ``cd``, ``ls``, ``pwd``,
  ``echo``), reads and searches, Claude Code's own XML blocks (``<task-notification>``,
  ``<system-reminder>``), no-op results.

Five session shapes, each in its own repository and with varied names (seeded): the real
session the issue describes (one edit among ``$ true``, ``sleep 5; echo waited``, a
``<task-notification>`` and a long ``seq`` loop), a bug fix, a feature with several edits, an
exploration without edits, and a long session whose edits come early and are followed by a
hundred routine events. For each: the session-start injection of the next session, and
prompt injections for questions about its work.

Measures, over every injection: useful items injected (and the share of the useful items
available), noise share of the injected lines, lines that could not be traced to an event
(a command cut to ``$ seq 1…`` cannot), command lines kept whole, tokens used.

    .venv/bin/python -m bench.quality.injection [--seeds 5] [--out bench/out/injection.json]
        [--baseline old_inject.py]

``--baseline`` also scores another version of ``hooks/inject.py`` in the same run, e.g. the one
before issue 23: ``git show e518108:src/kindling/hooks/inject.py > /tmp/old_inject.py``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.quality.injection_sessions import Label, Session, sessions
from kindling import Kindling, Scope
from kindling.agents.events import parse_payload
from kindling.hooks.config import HookConfig
from kindling.hooks.inject import build_context
from kindling.hooks.mapping import to_draft

OUT = Path(__file__).resolve().parents[1] / "out" / "injection.json"


def markers(content: str) -> list[str]:
    """What a line showing this event must hold, whatever its rendering: the opening of its
    first line and, for an edit, of its first changed line (one file is edited many times)."""
    head = " ".join(content.split("\n", 1)[0].split())[:40]
    out = [head]
    for line in content.splitlines()[1:]:
        if line[:1] in "+-" and not line.startswith(("+++", "---")) and line[1:].strip():
            out.append(" ".join(line[1:].split())[:20])
            break
    return out


def record(kd: Kindling, s: Session, cfg: HookConfig) -> dict[str, Label]:
    """Record a session through the hook mapping; the label of each observation."""
    labels: dict[str, Label] = {}
    for n, (label, payload) in enumerate(s.events):
        p = parse_payload(json.dumps(payload).encode(), None)
        draft = to_draft(p, cfg, s.repo)
        if draft is None:
            continue
        obs = kd.append_observation(
            kind=draft.kind,  # type: ignore[arg-type]
            content=draft.content,
            provenance=draft.provenance,
            scope=Scope(repo_id=s.repo, session_id=s.session_id),
            ts=START + n * 30_000,
        )
        labels[obs.id] = label
    return labels


def source(line: str, contents: dict[str, str]) -> str | None:
    """The observation a line shows: the one whose markers it holds (the longest when several
    do); None when none does (a command cut to ``$ seq 1…`` shows no event's command line)."""
    best: tuple[int, str] | None = None
    for obs_id, content in contents.items():
        found = markers(content)
        if all(m in line for m in found):
            size = sum(len(m) for m in found)
            if best is None or size > best[0]:
                best = (size, obs_id)
    return None if best is None else best[1]


START = 1_767_225_600_000
COMMAND_HEAD = 80  # a command line counts as kept when this much of it (or all) is shown


Builder = Callable[..., Any]


def load_builder(path: Path) -> Builder:
    """``build_context`` of another version of ``hooks/inject.py``."""
    spec = importlib.util.spec_from_file_location("baseline_inject", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_inject"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    builder: Builder = module.build_context
    return builder


def evaluate(seeds: int, build: Builder = build_context) -> dict[str, Any]:
    cfg = HookConfig()
    t: dict[str, Any] = dict.fromkeys(
        ["injections", "empty", "lines", "useful", "neutral", "noise", "untraced", "tokens"], 0
    )
    t |= {"usefulAvailable": 0, "usefulAtStart": 0, "commandLines": 0, "commandsKept": 0}
    per_shape: dict[str, dict[str, int]] = {}
    for s in sessions(seeds):
        with Kindling.open(":memory:", clock=lambda: START + 86_400_000) as kd:
            labels = record(kd, s, cfg)
            observations = kd.list_observations(scope=Scope(repo_id=s.repo), limit=1000)
            contents = {o.id: o.content for o in observations}
            kinds = {o.id: o.kind for o in observations}
            shape = per_shape.setdefault(
                s.session_id.rsplit("-", 1)[0],
                {"usefulAvailable": 0, "usefulAtStart": 0, "linesAtStart": 0, "noiseAtStart": 0},
            )
            useful = sum(1 for v in labels.values() if v == "useful")
            t["usefulAvailable"] += useful
            shape["usefulAvailable"] += useful
            for query in ["", *s.questions]:
                inj = build(kd, repo=s.repo, query=query, cfg=cfg)
                t["injections"] += 1
                if inj is None:
                    t["empty"] += 1
                    continue
                t["tokens"] += kd.tokenizer.count(inj.text)
                for line in inj.text.split("\n")[1:]:
                    obs_id = source(line, contents)
                    label = labels[obs_id] if obs_id is not None else "untraced"
                    t["lines"] += 1
                    t[label] += 1
                    if query == "":
                        shape["linesAtStart"] += 1
                        shape["noiseAtStart"] += label in ("noise", "untraced")
                        if label == "useful":
                            t["usefulAtStart"] += 1
                            shape["usefulAtStart"] += 1
                    if line.startswith("- [command]"):
                        t["commandLines"] += 1
                        if obs_id is not None and kinds[obs_id] == "command":
                            head = " ".join(contents[obs_id].split("\n", 1)[0].split())
                            t["commandsKept"] += head[:COMMAND_HEAD] in line
    lines = max(1, t["lines"])
    return t | {
        "usefulShareAtStart": round(t["usefulAtStart"] / max(1, t["usefulAvailable"]), 3),
        "noiseShare": round((t["noise"] + t["untraced"]) / lines, 3),
        "perShape": per_shape,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.injection")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--baseline", type=Path, help="another hooks/inject.py to score too")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"seeds": args.seeds, "current": evaluate(args.seeds)}
    if args.baseline is not None:
        report["baseline"] = evaluate(args.seeds, load_builder(args.baseline))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    for name in ("baseline", "current"):
        if name in report:
            r = report[name]
            print(
                f"{name:9} useful at start {r['usefulAtStart']}/{r['usefulAvailable']}"
                f" ({r['usefulShareAtStart']:.3f}), noise share {r['noiseShare']:.3f}"
                f" ({r['noise']} noise + {r['untraced']} untraced of {r['lines']} lines),"
                f" commands kept {r['commandsKept']}/{r['commandLines']},"
                f" empty {r['empty']}/{r['injections']}, tokens {r['tokens']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
