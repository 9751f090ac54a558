"""The hand-off from ``kindling.mcp.front`` to the SDK server (``kindling.mcp.server``): the
lines the front read, replayed, then the real stdin; and a stdout that drops the SDK's answer
to the replayed ``initialize`` (the client has the front's).

Standard library only. Adapter: must not be imported by the core.
"""

from __future__ import annotations

from typing import IO, Protocol

REPLAYED_ID = "kindling-front-initialize"  # the replayed initialize's id: its answer is dropped


class Taken(Protocol):
    def replay(self) -> list[bytes]: ...


HANDED_OFF: Taken | None = None  # set by the CLI when the front ran: the SDK goes on from it


class ReplayedStdin:
    """A text stdin for the SDK: the replayed lines, then the real stdin's."""

    def __init__(self, first: list[bytes], rest: IO[bytes]) -> None:
        self.first, self.rest = list(first), rest

    def readline(self) -> str:
        raw = self.first.pop(0) if self.first else self.rest.readline()
        return raw.decode("utf-8", errors="replace")

    def __iter__(self) -> ReplayedStdin:
        return self

    def __next__(self) -> str:
        line = self.readline()
        if not line:
            raise StopIteration
        return line


class FilteredStdout:
    """A text stdout for the SDK that drops the answer to the replayed initialize."""

    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.buffer = ""

    def write(self, text: str) -> int:
        self.buffer += text
        while "\n" in self.buffer:
            line, self.buffer = self.buffer.split("\n", 1)
            if f'"id":"{REPLAYED_ID}"' in line.replace(" ", ""):
                continue
            self.out.write(line.encode() + b"\n")
        return len(text)

    def flush(self) -> None:
        self.out.flush()
