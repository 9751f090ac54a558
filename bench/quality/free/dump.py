"""Write the free-question set's store as plain text for the people who write and judge the
questions: one file per session (every observation with its id, kind, time and full text, then
the session's summary), in one folder per repository, and ``index.tsv`` (one row per session).

``python -m bench.quality.free.dump DIR``. Reads only the committed data.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from bench.quality.free.data import load_store


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "free-sessions")
    store = load_store()
    by_session = store.by_session()
    rows = ["short\tsession_id\trepo\tpart\tagent\tmodel\topened\tclosed\tsteps\ttitle"]
    for s in sorted(store.sessions, key=lambda s: (s["repo_id"], s["opened_at"])):
        folder = out / s["repo_id"].strip("/").replace("/", "__")
        folder.mkdir(parents=True, exist_ok=True)
        lines = [
            f"SESSION {s['short']}  id={s['session_id']}",
            f"repository: {s['repo_id']}   agent: {s['agent']}   model: {s['model']}",
            f"opened: {iso(s['opened_at'])}   closed: {iso(s['closed_at'])}",
            f"task title: {s['title']}",
            "",
        ]
        for o in by_session[s["session_id"]]:
            prov = o["provenance"]
            what = prov.get("toolName") or prov.get("event") or ""
            lines.append(f"=== [{o['id']}] {o['kind']} {what} at {iso(o['ts'])}")
            lines.append(o["content"])
            lines.append("")
        if s["summary"].strip():
            lines.append(
                f"=== [summary:{s['short']}] the session's summary at {iso(s['closed_at'])}"
            )
            lines.append(s["summary"])
        (folder / f"{s['short']}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        rows.append(
            "\t".join(
                str(x)
                for x in (
                    s["short"],
                    s["session_id"],
                    s["repo_id"],
                    store.part_of(s),
                    s["agent"],
                    s["model"],
                    iso(s["opened_at"]),
                    iso(s["closed_at"]),
                    len(by_session[s["session_id"]]),
                    s["title"],
                )
            )
        )
    (out / "index.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"{len(store.sessions)} sessions in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
