"""The demo's shipped coding session and the three questions ``kindling demo`` asks of it.

``session.json`` is a bundle (see ``kindling.bundle``) of two sessions in one repository: a
closed one that added refresh tokens (a failure, its fix, a design decision) and an open one
chasing a flaky logout test, whose failing assertion is pinned as the repro for a week. Its ids
and times are fixed and the questions are asked at a fixed ``NOW``, so the demo prints the same
thing on every machine.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from kindling.bundle import Bundle, loads
from kindling.model import Scope

NOW = 1_773_327_600_000  # 2026-03-12 15:00 UTC, ten minutes after the last event
REPO = "/home/dev/webapp"


@dataclass(frozen=True, slots=True)
class Question:
    title: str
    query: str
    scope: Scope
    intent: str | None = None
    limit: int = 3


QUESTIONS: tuple[Question, ...] = (
    Question("Resume work: what was I doing here?", "", Scope(repo_id=REPO)),
    Question(
        "Find the decision: where do refresh tokens live?",
        "where do we keep the refresh token",
        Scope(repo_id=REPO),
    ),
    Question(
        "Find the failure: we saw this error before",
        "jwt.verify is not a function",
        Scope(repo_id=REPO),
    ),
)


def session() -> Bundle:
    """The shipped session, parsed and validated like any bundle."""
    text = resources.files(__package__).joinpath("session.json").read_text(encoding="utf-8")
    return loads(text)
